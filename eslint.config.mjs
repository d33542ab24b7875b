// @ts-check
// The package's lint: n8n's own configuration for community packages (the one `n8n-node lint`
// applies and verification expects), unmodified, on the code that ships: nodes/, credentials/,
// index.ts and package.json. Everything else in this repository is dev tooling (tests, the
// sandbox, the n8n harness, scripts, benchmarks) with a lint of its own: eslint.tooling.mjs.
// `npm run lint` runs both. Why this file is not node-cli's default byte for byte: README,
// "Development".
import { globalIgnores } from 'eslint/config';
import { config as n8nCommunityPackage } from '@n8n/node-cli/eslint';

export default [
	globalIgnores(['*', '!nodes/', '!credentials/', '!index.ts', '!package.json'], 'Dev tooling'),
	...n8nCommunityPackage,
];
