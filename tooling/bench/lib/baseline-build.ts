/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `process`) */
/**
 * The package as it was before the Records Report Trigger's ordered polls (BASELINE_COMMIT), built
 * from that commit's sources, so that the report-poll section compares the trigger's full read with
 * what it replaced in the same run of the benchmark.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from '../../lib/paths';
import { run } from '../../lib/proc';
import { BENCH_BUILDS } from './sandbox';

/** main just before the ordered polls: one poll at a time, every poll a full read. */
export const BASELINE_COMMIT = '9ff8a831028ea84294a33458ca924d2a482f5dde';

const BASELINE_DIR = join(BENCH_BUILDS, 'baseline');
export const BASELINE_BUILD = join(BASELINE_DIR, 'build');

/**
 * Compiles BASELINE_COMMIT's package into BASELINE_BUILD. Its sources are removed again afterwards.
 * Module imports (n8n-workflow) resolve to this checkout's node_modules.
 */
export async function buildBaseline(): Promise<void> {
	rmSync(BASELINE_DIR, { recursive: true, force: true });
	mkdirSync(BASELINE_DIR, { recursive: true });
	const archive = join(BASELINE_DIR, 'sources.tar');
	const paths = ['index.ts', 'nodes', 'credentials', 'tsconfig.json', 'tsconfig.build.json'];
	await run('git', ['archive', '--output', archive, BASELINE_COMMIT, ...paths], { cwd: repoRoot, timeoutMs: 60_000 });
	await run('tar', ['-xf', archive, '-C', BASELINE_DIR], { timeoutMs: 60_000 });
	const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
	const config = join(BASELINE_DIR, 'tsconfig.build.json');
	const result = await run(process.execPath, [tsc, '-p', config, '--outDir', BASELINE_BUILD, '--declaration', 'false'], {
		cwd: BASELINE_DIR,
		allowFailure: true,
		timeoutMs: 300_000,
	});
	for (const path of [...paths, 'sources.tar']) rmSync(join(BASELINE_DIR, path), { recursive: true, force: true });
	if (!existsSync(join(BASELINE_BUILD, 'nodes', 'RecordsReportTrigger', 'RecordsReportTrigger.node.js'))) {
		throw new Error(`The baseline build of ${BASELINE_COMMIT} failed:\n${result.stdout}${result.stderr}`);
	}
}
