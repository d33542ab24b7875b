// @ts-check
// The dev tooling's lint: everything that is not the package's code (nodes/, credentials/,
// index.ts, package.json; eslint.config.mjs lints those with n8n's rules). Tests, the sandbox, the
// n8n harness, scripts and benchmarks run in Node.js, not inside n8n, so Node's modules, `process`
// and the console are theirs to use; the TypeScript rules stay. Run by `npm run lint`.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{
		name: 'Not the tooling',
		ignores: [
			'nodes/**',
			'credentials/**',
			'index.ts',
			'dist/**',
			'.cache/**',
			'.e2e/**',
			'coverage/**',
			'**/bench/results/**',
			'**/*.js',
			'**/*.mjs',
		],
	},
	{
		files: ['**/*.ts'],
		extends: [eslint.configs.recommended, tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-explicit-any': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
		},
	},
);
