// @ts-check
// The dev tooling's lint: tests (test/eslint.config.mjs takes this config) and everything in
// tooling/. They run in Node.js, not inside n8n, so Node's modules, `process` and the console are
// theirs to use; the TypeScript rules stay. The package's code (nodes/, credentials/, index.ts,
// package.json) is linted by the root eslint.config.mjs, node-cli's default. ESLint reads this file
// for the files below it only with its `unstable_config_lookup_from_file` flag, which `npm run lint`
// sets: README, "Checks".
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ name: 'Benchmark results', ignores: ['**/bench/results/**'] },
	{
		files: ['**/*.ts'],
		extends: [eslint.configs.recommended, tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-explicit-any': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
		},
	},
);
