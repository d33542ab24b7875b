// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

const communityNodes = n8nCommunityNodesPlugin.configs.recommended;

// The published package (nodes, credentials, index, package.json) gets n8n's verification rules;
// tests and tooling/ (the sandbox, the n8n harness, benchmarks and scripts) are dev tooling and may use Node's own modules.
const packageFiles = ['nodes/**/*.ts', 'credentials/**/*.ts', 'index.ts'];

export default tseslint.config(
	{
		ignores: [
			'dist/**',
			'node_modules/**',
			'.cache/**',
			'.e2e/**',
			'coverage/**',
			'tooling/bench/results/**',
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
	{
		files: packageFiles,
		plugins: communityNodes.plugins,
		rules: communityNodes.rules,
	},
	{
		files: ['package.json'],
		languageOptions: { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } },
		plugins: { ...communityNodes.plugins, 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...communityNodes.rules,
			...n8nNodesBase.configs.community.rules,
		},
	},
	// The rule sets of eslint-plugin-n8n-nodes-base predate parts of n8n's current node API. The
	// few rules turned off below are exactly those n8n's own lint set-up for community packages
	// (the one `n8n-node lint` applies for verification) turns off, each for the reason given.
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Inputs and outputs are NodeConnectionTypes members, which
			// @n8n/community-nodes/node-connection-type-literal requires, not the string "main".
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Describes itself as "only applicable to nodes in the main repository" (a docs slug); it
			// contradicts n8n-nodes-base/cred-class-field-documentation-url-not-http-url and
			// @n8n/community-nodes/credential-documentation-url, which require a full URL here.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
);
