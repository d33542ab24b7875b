/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * The Records Report Trigger (as built into the benchmark's build, or the baseline's) polled by
 * n8n-core's PollContext (tooling/harness/n8nCoreHarness.ts runPoll), with n8n's real HTTP helpers, against the
 * sandbox. The poll that first remembers the report is made while preparing (its requests, time and
 * static data and memory are reported too); the measured part is a poll with no new rows, then one
 * after rows were added where the mode expects them. Each poll's memory above the process's baseline
 * is watched while it runs (lib/memory-watch.ts), n8n's save of the static data included: n8n
 * serializes it to save it when the poll changed it.
 */
import { performance } from 'node:perf_hooks';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runPoll } from '../../harness/n8nCoreHarness';
import { BASELINE_BUILD } from '../lib/baseline-build';
import { builtReportTrigger } from '../lib/built-package';
import { watchMemory } from '../lib/memory-watch';
import type { PollTask } from '../lib/tasks';
import type { Prepared } from '../lib/worker-protocol';

async function sandboxControl<T>(task: PollTask, method: string, path: string, body?: unknown): Promise<T> {
	const response = await fetch(`${task.baseUrl}/__sandbox${path}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`Sandbox ${method} ${path} answered ${response.status}: ${await response.text()}`);
	return (await response.json()) as T;
}

/** Report requests the sandbox has answered so far (control requests are not counted). */
async function reportRequests(task: PollTask): Promise<number> {
	const stats = await sandboxControl<{ requests: Record<string, { total: number }> }>(task, 'GET', '/stats');
	return stats.requests.report?.total ?? 0;
}

export async function prepareTriggerPolls(task: PollTask): Promise<Prepared> {
	const nodeType = task.mode === 'before' ? builtReportTrigger(BASELINE_BUILD) : builtReportTrigger();
	const credentials = { baseUrl: task.baseUrl, token: task.token, allowHttp: true };
	// The report grows past the default Max Remembered Rows (100,000) by the rows added.
	const parameters = (options: INodeParameters): INodeParameters => ({
		report: { __rl: true, mode: 'id', value: task.reportId },
		...(task.mode === 'before' ? {} : { newRowPosition: task.mode }),
		options: { maxRemembered: task.maxRemembered ?? 200_000, ...options },
	});
	const poll = async (staticData: IDataObject | undefined, options: INodeParameters = {}) => {
		const before = await reportRequests(task);
		const memory = watchMemory(task.liveMemory === true);
		const started = performance.now();
		const result = await runPoll({ nodeType, parameters: parameters(options), credentials, staticData, liveStaticData: true });
		const ms = performance.now() - started;
		// What the workflow stores for the trigger after this poll: n8n serializes it to save it, only
		// when the poll changed it.
		const saved = result.staticDataChanged ? JSON.stringify(result.staticData) : undefined;
		const { heapMiB, rssMiB } = memory();
		const staticBytes = (saved ?? JSON.stringify(result.staticData)).length;
		return { ...result, ms, heapMiB, rssMiB, staticBytes, requests: (await reportRequests(task)) - before };
	};
	// The first poll only remembers the report: a full read where every row is remembered, in
	// parallel to keep it short where asked; the ordered modes read only the report's edges.
	const firstOptions = task.firstPollPageSize === undefined ? (task.firstPollDefaults === true ? {} : { concurrency: 8 }) : { concurrency: 4, pageSize: task.firstPollPageSize };
	const first = await poll(undefined, firstOptions);
	if (first.items !== null) throw new Error('The first poll emitted rows; it should only remember them');
	const firstDetails = {
		firstMs: first.ms,
		firstRequests: first.requests,
		firstStaticBytes: first.staticBytes,
		firstHeapMiB: first.heapMiB,
		firstRssMiB: first.rssMiB,
	};
	return {
		async run() {
			const quiet = await poll(first.staticData);
			const at = task.mode === 'top' ? 'top' : 'end';
			await sandboxControl(task, 'POST', `/reports/${encodeURIComponent(task.reportId)}/rows`, { generate: task.addedRows, at });
			const added = await poll(quiet.staticData);
			const emitted = (added.items ?? []).map((item) => item.json['ID transakce']);
			return {
				count: emitted.length,
				details: {
					...firstDetails,
					quietMs: quiet.ms,
					quietRequests: quiet.requests,
					quietEmitted: quiet.items?.length ?? 0,
					quietStaticBytes: quiet.staticBytes,
					quietHeapMiB: quiet.heapMiB,
					quietRssMiB: quiet.rssMiB,
					addedStaticBytes: added.staticBytes,
					addedHeapMiB: added.heapMiB,
					addedRssMiB: added.rssMiB,
					addedMs: added.ms,
					addedRequests: added.requests,
					emittedUnique: new Set(emitted).size,
				},
			};
		},
	};
}
