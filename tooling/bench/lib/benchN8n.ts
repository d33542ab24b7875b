/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions,
	@n8n/community-nodes/require-node-api-error -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `process`, child processes); its errors are not a node's */
/**
 * A real n8n for the comparisons that must run inside n8n, started with the project's own n8n
 * library (tooling/n8n). The package is built, packed and installed through the community-package
 * route, as users get it. Workflows are started through webhooks of one running server (no start-up
 * per run, and no run data pushed through the CLI's output, which truncates large results); their
 * run data, with the execution time n8n records for every node, is read back through the public API.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { N8nInstance, type CredentialJson, type ExecutionRunJson, type ExecutionSummary, type WorkflowJson } from '../../n8n/n8nInstance';
import { buildPackage, packPackage, type PackedPackage } from '../../n8n/package';
import { cacheDir } from '../../lib/paths';
import { sleep } from '../../lib/proc';
import { ensureRuntime, RUNTIMES } from '../../n8n/runtime';
import { TOKENS } from '../../sandbox/seeds';
import type { BenchContext } from './context';
import { processCpuMs } from './process-stats';
import { BENCH_BUILDS } from './sandbox';

export const RECORDS_NODE_TYPE = 'n8n-nodes-records.records';
export const RECORDS_CREDENTIAL = { id: 'benchRecordsCred', name: 'Records (benchmark sandbox)' };

type NodeJson = WorkflowJson['nodes'][number];

let packed: PackedPackage | undefined;

/** Builds (npm run build, into dist/) and packs the package once per benchmark run. */
async function packedPackage(context: BenchContext): Promise<PackedPackage> {
	if (!packed) {
		context.log('building and packing the package for n8n');
		await buildPackage();
		packed = await packPackage(join(BENCH_BUILDS, 'package'));
	}
	return packed;
}

/** The process listening on a loopback port (the n8n server), from the socket table. */
export function pidListeningOn(port: number): number {
	const table = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
	const match = /pid=(\d+)/.exec(table);
	if (!match) throw new Error(`No process found listening on port ${port}:\n${table}`);
	return Number(match[1]);
}

export function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
	const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
	return match ? Number(match[1]) : Number.NaN;
}

/** Resets the process's peak RSS (VmHWM) to its current RSS (Linux ≥ 4.0); false when not permitted. */
export function resetPeakRss(pid: number): boolean {
	try {
		writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

export interface WebhookRun {
	run: ExecutionRunJson;
	/** Peak RSS of the n8n server during the execution (reset before the call). */
	peakRssMiB: number;
	/** RSS of the n8n server just before the call. */
	rssBeforeMiB: number;
}

export interface BenchN8n {
	instance: N8nInstance;
	nodeVersion: string;
	/** Calls a workflow's webhook, waits for its execution to finish, returns its run data. */
	runByWebhook(workflowId: string, path: string, timeoutMs?: number): Promise<WebhookRun>;
	/** Stops and starts the server again: a fresh process, for memory figures not shaped by earlier runs. */
	restart(): Promise<void>;
	/** CPU time (user + system) the server process has used so far, in ms. */
	serverCpuMs(): number;
	stop(): Promise<void>;
}

/**
 * A fresh n8n instance (own user folder) with the package installed, a Records credential for the
 * sandbox, the given workflows imported and made active, and the server started.
 */
export async function startN8n(
	context: BenchContext,
	workflows: WorkflowJson[],
	credentials: CredentialJson[] = [],
	/** n8n settings beyond its defaults, for a measurement of a tuned server. */
	env: Record<string, string> = {},
	{ startTimeoutMs }: { startTimeoutMs?: number } = {},
): Promise<BenchN8n> {
	const runtime = await ensureRuntime(RUNTIMES.v2, (line) => context.log(`[n8n-runtime] ${line}`));
	const pkg = await packedPackage(context);
	// Not under .cache/e2e, which the end-to-end suite clears at its start.
	const instancesDir = join(cacheDir, 'bench', 'instances');
	rmSync(instancesDir, { recursive: true, force: true });
	const userFolder = join(instancesDir, `n8n-${Date.now()}`);
	mkdirSync(userFolder, { recursive: true });
	const instance = await N8nInstance.create({ runtime, userFolder, package: pkg, env, startTimeoutMs });
	await instance.importCredentials([
		{
			...RECORDS_CREDENTIAL,
			type: 'recordsApi',
			data: { baseUrl: context.sandbox.baseUrl, token: TOKENS.full, allowHttp: true },
		},
		...credentials,
	]);
	await instance.importWorkflows(workflows);
	for (const workflow of workflows) await instance.activate(workflow.id);
	const settings = Object.entries(env).map(([key, value]) => `${key}=${value}`).join(' ');
	context.log(`starting n8n ${instance.n8nVersion}${settings ? ` with ${settings}` : ''}`);
	await instance.start();
	let pid = pidListeningOn(instance.port);
	const nodeVersion = typeof runtime.spec.node === 'string' ? process.version : `v${runtime.spec.node.version}`;

	/**
	 * Public-API reads, retried on a connection failure: the server may close an idle keep-alive
	 * connection just as the next request goes out on it.
	 */
	const apiGet = async <T>(path: string): Promise<T> => {
		for (let attempt = 1; ; attempt++) {
			try {
				return await instance.api<T>('GET', path);
			} catch (error) {
				const cause = (error as { cause?: { code?: string } }).cause;
				if (attempt >= 3 || !(error instanceof TypeError)) throw error;
				context.log(`n8n API GET ${path} failed (${cause?.code ?? (error as Error).message}); retrying`);
				await sleep(500);
			}
		}
	};
	const latestExecution = async (workflowId: string): Promise<ExecutionSummary | undefined> => {
		const page = await apiGet<{ data: ExecutionSummary[] }>(`/executions?${new URLSearchParams({ workflowId, limit: '1' })}`);
		return page.data[0];
	};

	return {
		instance,
		nodeVersion,
		async runByWebhook(workflowId, path, timeoutMs = 600_000) {
			await instance.waitForWebhook(path);
			const previous = (await latestExecution(workflowId))?.id;
			const rssBeforeMiB = statusKiB(pid, 'VmRSS') / 1024;
			if (!resetPeakRss(pid)) context.log('could not reset the n8n server\'s peak RSS; memory figures are cumulative');
			const response = await fetch(`${instance.baseUrl}/webhook/${path}`, { method: 'POST' }).catch((error: unknown) => {
				throw new Error(`Calling the webhook ${path} failed: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}`);
			});
			if (!response.ok) throw new Error(`Webhook ${path} answered ${response.status}: ${await response.text()}`);
			const deadline = Date.now() + timeoutMs;
			let finished: ExecutionSummary | undefined;
			while (!finished) {
				if (Date.now() > deadline) throw new Error(`The execution of ${workflowId} did not finish within ${timeoutMs / 1000} s`);
				await sleep(250);
				const latest = await latestExecution(workflowId);
				if (latest && latest.id !== previous && !['new', 'running', 'waiting'].includes(latest.status)) finished = latest;
			}
			const peakRssMiB = statusKiB(pid, 'VmHWM') / 1024;
			const full = await apiGet<ExecutionSummary>(`/executions/${finished.id}?includeData=true`);
			if (!full.data) throw new Error(`Execution ${finished.id} of ${workflowId} has no data`);
			const run: ExecutionRunJson = { status: full.status, finished: full.finished, mode: full.mode, data: full.data };
			const failure = executionFailure(run);
			if (failure || full.status !== 'success') {
				throw new Error(`Execution ${finished.id} of ${workflowId} ended ${full.status}: ${failure ?? 'no error recorded'}`);
			}
			return { run, peakRssMiB, rssBeforeMiB };
		},
		serverCpuMs: () => processCpuMs(pid),
		async restart() {
			await instance.stop();
			await instance.start();
			pid = pidListeningOn(instance.port);
		},
		stop: () => instance.stop(),
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

/** The execution time n8n recorded for a node's first run, in ms. */
export function nodeExecutionTime(run: ExecutionRunJson, nodeName: string): number {
	const task = run.data.resultData.runData[nodeName]?.[0] as { executionTime?: number } | undefined;
	if (task?.executionTime === undefined) throw new Error(`Node "${nodeName}" has no execution time in the run data`);
	return task.executionTime;
}

/** A Webhook node that starts its workflow on POST and answers at once. */
export function webhookTrigger(path: string, webhookId: string, name = 'Webhook'): NodeJson {
	return {
		id: `webhook-${path}`,
		name,
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId,
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
	};
}

/** A workflow of the given nodes, each connected to the next. */
export function chainWorkflow(id: string, name: string, all: NodeJson[]): WorkflowJson {
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
