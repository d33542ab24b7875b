/**
 * Before `npm run lint`: an ESLint config in the git-ignored cache that ignores everything in it.
 * `npm run lint` has ESLint read each file's nearest config (see the README's Checks), and the root
 * one must stay node-cli's default, which ignores only `dist`; without this, ESLint would lint the
 * n8n installs and the end-to-end instances' front-end bundles kept there (minutes instead of seconds).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { cacheDir } from './lib/paths';

mkdirSync(cacheDir, { recursive: true });
writeFileSync(
	join(cacheDir, 'eslint.config.mjs'),
	"// Written by npm run lint (tooling/lintCache.ts): nothing in this git-ignored cache is linted.\nexport default [{ ignores: ['**/*'] }];\n",
);
