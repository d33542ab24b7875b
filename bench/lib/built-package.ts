import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { Records } from '../../nodes/Records/Records.node';
import { repoRoot } from '../../scripts/lib/paths';

/**
 * The Records node as published: compiled by `npm run build` into dist/, which the benchmark runs
 * first. Measuring the build (not the sources through a TypeScript loader) measures what users run.
 */
export function builtRecordsNode(): Records {
	const load = createRequire(__filename);
	const file = join(repoRoot, 'dist', 'nodes', 'Records', 'Records.node.js');
	const loaded = load(file) as { Records?: new () => Records };
	if (typeof loaded.Records !== 'function') throw new Error(`${file} does not export the Records node; run \`npm run build\``);
	return new loaded.Records();
}
