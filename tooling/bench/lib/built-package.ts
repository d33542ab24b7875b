/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `process`, `__filename`) */
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { INodeType } from 'n8n-workflow';

import type { Records } from '../../../index';
import type * as ImportRecords from '../../../nodes/Records/actions/record/import/prepare/records';
import type * as ImportSettings from '../../../nodes/Records/actions/record/import/settings';
import { repoRoot } from '../../lib/paths';
import { run } from '../../lib/proc';
import { BENCH_BUILDS } from './sandbox';

/**
 * The benchmark's own build of the package: the same compiler settings as `npm run build`, written
 * to a private folder so that a build or clean of dist/ running beside the benchmark cannot swap
 * the code under measurement. Measuring compiled JavaScript (not the sources through a TypeScript
 * loader) measures what users run.
 */
export const BENCH_BUILD = join(BENCH_BUILDS, 'build');

/** The package's public entry, as n8n and every user load it. */
const ENTRY_FILE = join(BENCH_BUILD, 'index.js');

/** Compiles the package into BENCH_BUILD; returns the compiler's complaints (empty when clean). */
export async function buildForBenchmark(): Promise<string> {
	rmSync(BENCH_BUILD, { recursive: true, force: true });
	const result = await run(
		process.execPath,
		[join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', BENCH_BUILD, '--declaration', 'false'],
		{ cwd: repoRoot, allowFailure: true, timeoutMs: 300_000 },
	);
	if (!existsSync(ENTRY_FILE)) throw new Error(`The build produced no ${ENTRY_FILE}:\n${result.stdout}${result.stderr}`);
	return result.code === 0 ? '' : (result.stdout + result.stderr).trim();
}

export function builtRecordsNode(): Records {
	const load = createRequire(__filename);
	const loaded = load(ENTRY_FILE) as { Records?: new () => Records };
	if (typeof loaded.Records !== 'function') throw new Error(`${ENTRY_FILE} does not export the Records node; run the benchmark without --no-build`);
	return new loaded.Records();
}

/**
 * The Records Report Trigger of a build, loaded through its package entry: this package's
 * (BENCH_BUILD), or another build (the baseline of baseline-build.ts).
 */
export function builtReportTrigger(buildDir: string = BENCH_BUILD): INodeType {
	const file = join(buildDir, 'index.js');
	const loaded = createRequire(__filename)(file) as { RecordsReportTrigger?: new () => INodeType };
	if (typeof loaded.RecordsReportTrigger !== 'function') throw new Error(`${file} does not export the Records Report Trigger`);
	return new loaded.RecordsReportTrigger();
}

/** Import's reading of its input (its settings, then its records), from the build the node is loaded from. */
export function builtImportReading(): Pick<typeof ImportRecords, 'readRecords'> & Pick<typeof ImportSettings, 'readSettings'> {
	const load = createRequire(__filename);
	const dir = join(BENCH_BUILD, 'nodes', 'Records', 'actions', 'record', 'import');
	return {
		readRecords: (load(join(dir, 'prepare', 'records.js')) as typeof ImportRecords).readRecords,
		readSettings: (load(join(dir, 'settings.js')) as typeof ImportSettings).readSettings,
	};
}
