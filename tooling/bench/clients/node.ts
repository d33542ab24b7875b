/**
 * The Records node (as built into dist/) run in-process by n8n-core's real execution engine
 * (tooling/harness/n8nCoreHarness.ts), with n8n's real HTTP helpers, against the sandbox. Parameter names are those of the operations'
 * descriptions (nodes/Records/actions/<resource>/<operation>.operation.ts).
 */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { runNode, type RunNodeResult } from '../../harness/n8nCoreHarness';
import { builtRecordsNode } from '../lib/built-package';
import { checkRows } from '../lib/check';
import type { ImportTask, ReadTask, TaskResult } from '../lib/tasks';

type Outcome = Omit<TaskResult, 'elapsedMs' | 'peakRssMiB' | 'rssBeforeMiB' | 'cpuMs'>;

function nodeExecutionTime(result: RunNodeResult, nodeName: string): number | undefined {
	return result.run.data.resultData.runData[nodeName]?.[0]?.executionTime;
}

function failIfErrored(result: RunNodeResult): void {
	if (result.error) throw new Error(`The Records node failed: ${result.error.message} ${result.error.description ?? ''}`);
}

export function getRowsParameters(task: Pick<ReadTask, 'reportId' | 'pageSize' | 'concurrency' | 'nodeDefaults'>): INodeParameters {
	return {
		resource: 'report',
		operation: 'getRows',
		report: { __rl: true, mode: 'id', value: task.reportId },
		returnAll: true,
		// With nodeDefaults, no Page Size: what a user gets who never opens the options.
		options: task.nodeDefaults ? { concurrency: task.concurrency } : { pageSize: task.pageSize, concurrency: task.concurrency },
	};
}

/** The Records credential for a sandbox: Allow Plain HTTP only for a plain-HTTP one. */
function credentialsFor(task: Pick<ReadTask, 'baseUrl' | 'token'>) {
	return { baseUrl: task.baseUrl, token: task.token, allowHttp: task.baseUrl.startsWith('http:') };
}

export function importParameters(task: Pick<ImportTask, 'batchSize' | 'concurrency' | 'retryUnknownOutcome'>, recordTypeId: string): INodeParameters {
	return {
		resource: 'record',
		operation: 'import',
		recordTypeId,
		dataMode: 'autoMapInputData',
		options: {
			batchSize: task.batchSize,
			concurrency: task.concurrency,
			...(task.retryUnknownOutcome ? { retryUnknownOutcome: true } : {}),
		},
	};
}

export async function prepareNodeRead(task: ReadTask): Promise<{ run(): Promise<Outcome> }> {
	const nodeType = builtRecordsNode();
	const credentials = credentialsFor(task);
	return {
		async run() {
			const result = await runNode({
				nodeType,
				parameters: getRowsParameters(task),
				credentials,
			});
			failIfErrored(result);
			const rows = result.items.map((item) => item.json);
			return {
				count: rows.length,
				n8nExecutionTimeMs: nodeExecutionTime(result, 'Records'),
				details: checkRows(rows),
			};
		},
	};
}

export async function prepareNodeImport(
	task: ImportTask,
	records: Array<Record<string, string>>,
): Promise<{ run(): Promise<Outcome> }> {
	const nodeType = builtRecordsNode();
	const credentials = { baseUrl: task.baseUrl, token: task.token, allowHttp: true };
	const input: INodeExecutionData[] = records.map((json) => ({ json }));
	return {
		async run() {
			const result = await runNode({
				nodeType,
				parameters: importParameters(task, task.recordTypeId),
				credentials,
				input,
				shareInput: true,
				continueOnFail: task.continueOnFail,
			});
			if (!task.continueOnFail) failIfErrored(result);
			// Input items whose records the node reports as not imported (error items, paired to their input),
			// and by the outcome their items give: refused, unknown, not sent.
			const failedIndexes: number[] = [];
			const byOutcome: Record<string, number[]> = { refused: [], unknown: [], notSent: [] };
			result.items.forEach((item, position) => {
				if (item.json.error === undefined && item.error === undefined) return;
				const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
				const index = typeof paired === 'object' && paired !== null ? paired.item : position;
				failedIndexes.push(index);
				byOutcome[String(item.json.outcome ?? 'unknown')]?.push(index);
			});
			return {
				count: result.items.length - failedIndexes.length,
				n8nExecutionTimeMs: nodeExecutionTime(result, 'Records'),
				details: {
					outputItems: result.items.length,
					errorItems: failedIndexes.length,
					failedIndexes,
					refusedIndexes: byOutcome.refused,
					unknownIndexes: byOutcome.unknown,
					notSentIndexes: byOutcome.notSent,
					error: result.error?.message,
				},
			};
		},
	};
}
