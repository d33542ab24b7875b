import { resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '..', '..');

/** Git-ignored home of everything downloaded or generated for running a real n8n. */
export const cacheDir = resolve(repoRoot, '.cache');
