/**
 * End-to-end tests: a real n8n (installed by tooling/n8n-runtime.ts) loads the packed package and
 * runs workflows against the Records sandbox. Run with `npm run test:e2e`.
 * E2E_RUNTIMES=v2,v1 chooses the n8n releases (default: both).
 */
module.exports = {
	rootDir: '../..',
	displayName: 'e2e',
	testEnvironment: 'node',
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
	verbose: true,
	// Not the whole repository: .cache holds n8n installs and instance folders.
	roots: ['<rootDir>/test', '<rootDir>/tooling'],
	testMatch: ['<rootDir>/test/e2e/**/*.e2e.ts'],
	globalSetup: '<rootDir>/test/e2e/global-setup.ts',
	testSequencer: '<rootDir>/test/e2e/sequencer.js',
	// Each n8n boots for seconds and CLI runs take several; a test waits for webhooks and polls.
	testTimeout: 600000,
	slowTestThreshold: 120,
};
