/** Unit tests: pure logic, no network. Integration tests: real HTTP against the Records sandbox
 * and n8n's real execution engine. End-to-end tests: a real n8n process (see test/e2e). */
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.json' }];

module.exports = {
	// A global option: jest ignores it inside a project entry.
	testTimeout: 60000,
	// Installed n8n instances and their copies of this package are not part of the test tree.
	modulePathIgnorePatterns: ['<rootDir>/.cache/', '<rootDir>/.e2e/', '<rootDir>/dist/'],
	projects: [
		{
			displayName: 'unit',
			testEnvironment: 'node',
			transform: { '^.+\\.ts$': tsJest },
			testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
		},
		{
			displayName: 'integration',
			testEnvironment: 'node',
			transform: { '^.+\\.ts$': tsJest },
			testMatch: ['<rootDir>/test/integration/**/*.test.ts', '<rootDir>/test/sandbox/**/*.test.ts'],
		},
	],
};
