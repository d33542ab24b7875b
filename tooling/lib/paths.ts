/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `__dirname`) */
import { resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '..', '..');

/** Git-ignored home of everything downloaded or generated for running a real n8n. */
export const cacheDir = resolve(repoRoot, '.cache');
