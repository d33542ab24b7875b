/**
 * A real n8n for the comparisons that must run inside n8n, started with the project's own n8n
 * library (scripts/lib). The package is built, packed and installed through the community-package
 * route, as users get it. Each `n8n execute` process reports its peak memory on exit through a
 * small preload script, so memory can be compared without counting anything but that process.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { N8nInstance, type CredentialJson, type ExecutionRunJson, type WorkflowJson } from '../../scripts/lib/n8n';
import { buildPackage, packPackage, type PackedPackage } from '../../scripts/lib/package';
import { cacheDir } from '../../scripts/lib/paths';
import { ensureRuntime, RUNTIMES } from '../../scripts/lib/runtime';
import { TOKENS } from '../../test/sandbox/seeds';
import type { BenchContext } from './context';
import { BENCH_TMP } from './sandbox';

export const RECORDS_NODE_TYPE = 'n8n-nodes-records.records';
export const RECORDS_CREDENTIAL = { id: 'benchRecordsCred', name: 'Records (benchmark sandbox)' };

const PEAK_RSS_PRELOAD = `'use strict';
const { appendFileSync } = require('node:fs');
process.on('exit', () => {
	try {
		appendFileSync(process.env.BENCH_PEAK_RSS_FILE, JSON.stringify({ pid: process.pid, argv: process.argv.slice(2), maxRssKiB: process.resourceUsage().maxRSS }) + '\\n');
	} catch {}
});
`;

let packed: PackedPackage | undefined;

/** Builds (npm run build, into dist/) and packs the package once per benchmark run. */
async function packedPackage(context: BenchContext): Promise<PackedPackage> {
	if (!packed) {
		context.log('building and packing the package for n8n');
		await buildPackage();
		packed = await packPackage(join(BENCH_TMP, 'package'));
	}
	return packed;
}

export interface BenchN8n {
	instance: N8nInstance;
	nodeVersion: string;
	/** Runs a workflow with `n8n execute`; returns the run and the peak RSS of that n8n process. */
	execute(workflowId: string): Promise<{ run: ExecutionRunJson; peakRssMiB: number }>;
}

/**
 * A fresh n8n instance (own user folder) with the package installed, a Records credential for the
 * sandbox, and the given workflows imported. The server is not started; `execute` runs workflows
 * in a CLI process each.
 */
export async function prepareN8n(
	context: BenchContext,
	workflows: WorkflowJson[],
	credentials: CredentialJson[] = [],
): Promise<BenchN8n> {
	if (!packed) rmSync(join(cacheDir, 'bench', 'instances'), { recursive: true, force: true });
	const runtime = await ensureRuntime(RUNTIMES.v2, (line) => context.log(`[n8n-runtime] ${line}`));
	const pkg = await packedPackage(context);
	mkdirSync(BENCH_TMP, { recursive: true });
	const preload = join(BENCH_TMP, 'peak-rss-preload.cjs');
	writeFileSync(preload, PEAK_RSS_PRELOAD);
	const rssFile = join(BENCH_TMP, `n8n-peak-rss-${Date.now()}.jsonl`);
	// Not under .cache/e2e, which the end-to-end suite clears at its start.
	const userFolder = join(cacheDir, 'bench', 'instances', `n8n-${Date.now()}`);
	mkdirSync(userFolder, { recursive: true });
	const instance = await N8nInstance.create({
		runtime,
		userFolder,
		package: pkg,
		env: {
			NODE_OPTIONS: `--require ${preload}`,
			BENCH_PEAK_RSS_FILE: rssFile,
			// Large run data is the point of the measurement; do not spend time storing it.
			EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'none',
			EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'false',
		},
	});
	await instance.importCredentials([
		{
			...RECORDS_CREDENTIAL,
			type: 'recordsApi',
			data: { baseUrl: context.sandbox.baseUrl, token: TOKENS.full, allowHttp: true },
		},
		...credentials,
	]);
	await instance.importWorkflows(workflows);
	const nodeVersion = typeof runtime.spec.node === 'string' ? process.version : `v${runtime.spec.node.version}`;
	return {
		instance,
		nodeVersion,
		async execute(workflowId: string) {
			const { exitCode, run, output } = await instance.execute(workflowId);
			const failure = executionFailure(run);
			if (exitCode !== 0 || failure) {
				throw new Error(`n8n execute --id=${workflowId} failed (exit ${exitCode}): ${failure ?? output.slice(-2000)}`);
			}
			return { run, peakRssMiB: peakRssOf(rssFile, workflowId) };
		},
	};
}

function executionFailure(run: ExecutionRunJson): string | undefined {
	const { resultData } = run.data;
	if (resultData.error) return resultData.error.message;
	for (const [node, runs] of Object.entries(resultData.runData)) {
		for (const nodeRun of runs) if (nodeRun.error) return `${node}: ${nodeRun.error.message ?? ''} ${nodeRun.error.description ?? ''}`;
	}
	return undefined;
}

/** Peak RSS of the last `n8n execute --id=<id>` process, as its preload recorded it. */
function peakRssOf(file: string, workflowId: string): number {
	if (!existsSync(file)) return Number.NaN;
	const entries = readFileSync(file, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as { argv: string[]; maxRssKiB: number })
		.filter((entry) => entry.argv.includes('execute') && entry.argv.includes(`--id=${workflowId}`));
	const last = entries[entries.length - 1];
	return last ? last.maxRssKiB / 1024 : Number.NaN;
}

/** The execution time n8n recorded for a node's first run, in ms. */
export function nodeExecutionTime(run: ExecutionRunJson, nodeName: string): number {
	const task = run.data.resultData.runData[nodeName]?.[0] as { executionTime?: number } | undefined;
	if (task?.executionTime === undefined) throw new Error(`Node "${nodeName}" has no execution time in the run data`);
	return task.executionTime;
}

export function manualTrigger(): WorkflowJson['nodes'][number] {
	return {
		id: 'trigger',
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

/** A linear workflow: manual trigger, then the given nodes one after the other. */
export function linearWorkflow(id: string, name: string, nodes: Array<WorkflowJson['nodes'][number]>): WorkflowJson {
	return chainWorkflow(id, name, [manualTrigger(), ...nodes]);
}

/** A workflow of the given nodes, each connected to the next. */
export function chainWorkflow(id: string, name: string, all: Array<WorkflowJson['nodes'][number]>): WorkflowJson {
	const connections: Record<string, unknown> = {};
	for (let index = 0; index < all.length - 1; index++) {
		connections[all[index].name] = { main: [[{ node: all[index + 1].name, type: 'main', index: 0 }]] };
	}
	return {
		id,
		name,
		nodes: all.map((node, index) => ({ ...node, position: [index * 220, 0] as [number, number] })),
		connections,
		settings: { executionOrder: 'v1' },
		active: false,
	};
}
