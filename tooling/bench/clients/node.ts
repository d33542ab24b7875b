/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `process`) */
/**
 * The Records node (as built into dist/) run in-process by n8n-core's real execution engine
 * (tooling/harness/n8nCoreHarness.ts), with n8n's real HTTP helpers, against the sandbox. Parameter names are those of the operations'
 * descriptions (nodes/Records/actions/<resource>/<operation>.operation.ts).
 */
import { performance } from 'node:perf_hooks';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';

import { runNode, type RunNodeResult } from '../../harness/n8nCoreHarness';
import { builtImportReading, builtRecordsNode } from '../lib/built-package';
import { checkRows } from '../lib/check';
import { IMPORT_RECORD_TYPE, importPath, invoiceRecords, typedInvoiceRecords } from '../lib/data';
import { withFirstRequestTime } from '../lib/first-request';
import type { ConvertTask, ImportTask, ReadTask, TaskResult } from '../lib/tasks';

type Outcome = Omit<TaskResult, 'elapsedMs' | 'peakRssMiB' | 'rssBeforeMiB' | 'cpuMs'>;

function nodeExecutionTime(result: RunNodeResult, nodeName: string): number | undefined {
	return result.run.data.resultData.runData[nodeName]?.[0]?.executionTime;
}

/** When n8n-core started the node (ms since the epoch), as its run data records it. */
function nodeStartTime(result: RunNodeResult, nodeName: string): number | undefined {
	return result.run.data.resultData.runData[nodeName]?.[0]?.startTime;
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
	records: Array<Record<string, unknown>>,
): Promise<{ run(): Promise<Outcome> }> {
	const nodeType = task.helperOnly ? helperOnlyImportNode(task) : builtRecordsNode();
	const credentials = { baseUrl: task.baseUrl, token: task.token, allowHttp: true };
	const input: INodeExecutionData[] = records.map((json) => ({ json: json as IDataObject }));
	return {
		async run() {
			const { result, firstRequestAt } = await withFirstRequestTime(() =>
				runNode({
					nodeType,
					parameters: importParameters(task, task.recordTypeId),
					credentials,
					input,
					shareInput: true,
					continueOnFail: task.continueOnFail,
				}),
			);
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
					// From the node's start, as its execution time is (the engine's set-up before it left out).
					firstRequestMs: firstRequestAt === undefined ? undefined : firstRequestAt - (nodeStartTime(result, 'Records') ?? Number.NaN),
				},
			};
		},
	};
}

/**
 * The Records node with its execute replaced by the least an import node can do under n8n's rules:
 * the batches sent as JSON through n8n's HTTP helper with the Records credential, `concurrency` at
 * a time, and the input items output as they are. No check, no conversion, no answer read.
 */
function helperOnlyImportNode(task: ImportTask): INodeType {
	const node = Object.create(builtRecordsNode()) as INodeType;
	node.execute = async function (this: IExecuteFunctions) {
		const items = this.getInputData();
		const url = `${task.baseUrl}${importPath(task.recordTypeId)}`;
		let next = 0;
		const sendBatches = async () => {
			while (next < items.length) {
				const batch = items.slice(next, next + task.batchSize).map((item) => item.json);
				next += task.batchSize;
				await this.helpers.httpRequestWithAuthentication.call(this, 'recordsApi', { method: 'POST', url, body: { data: batch }, json: true });
			}
		};
		await Promise.all(Array.from({ length: task.concurrency }, sendBatches));
		return [items];
	};
	return node;
}

/** What the Import's pass over its input took: checking every record, then converting every record. */
export interface ConversionTimes {
	records: number;
	checkMs: number;
	convertMs: number;
	/** CPU time of the measuring process over both (all its threads), which a busy machine inflates less than the wall time. */
	cpuMs: number;
}

function conversionInput(task: ConvertTask): Array<Record<string, unknown>> {
	if (task.values === 'typed') return typedInvoiceRecords(task.count, 'convert');
	const records = invoiceRecords(task.count, 'convert');
	// Objects that got their fields one at a time, as these, are kept by V8 as dictionaries past 19
	// fields; objects parsed from JSON are not, and are quicker to walk.
	return task.values === 'parsed' ? (JSON.parse(JSON.stringify(records)) as typeof records) : records;
}

/**
 * Lists each item's keys and asks each value's type, nothing more; returns the items that have a
 * text value. Any check must know each value's type, and asking it reads the value itself, not
 * only the record's reference to it.
 */
function keysAndValueTypes(items: INodeExecutionData[]): number {
	let withText = 0;
	for (const { json } of items) {
		const keys = Object.keys(json);
		let texts = 0;
		for (let index = 0; index < keys.length; index++) if (typeof json[keys[index]] === 'string') texts++;
		if (texts > 0) withText++;
	}
	return withText;
}

/**
 * The Records node as n8n-core runs it, with Import's parameters, its execute replaced by Import's
 * own reading of the input (settings, then the check of every record, then the conversion of every
 * record, which the real run does batch by batch as it sends), timed inside the node.
 */
export function prepareNodeConversion(task: ConvertTask): { run(): Promise<Outcome> } {
	const { readRecords, readSettings } = builtImportReading();
	const records = conversionInput(task);
	const input: INodeExecutionData[] = records.map((json) => ({ json: json as IDataObject }));
	let times: ConversionTimes | undefined;
	const measuring = Object.create(builtRecordsNode()) as INodeType;
	measuring.execute = async function (this: IExecuteFunctions) {
		const cpuBefore = process.cpuUsage();
		const started = performance.now();
		const items = this.getInputData();
		// The check of every record, then what converts them and counts them.
		let convert: () => number;
		if (task.keysAndTypesOnly) {
			const read = keysAndValueTypes(items);
			convert = () => read;
		} else {
			const { records: pending } = readRecords.call(this, items, readSettings.call(this), false);
			convert = () => {
				let converted = 0;
				for (let position = 0; position < pending.length; position++) if (pending.prepared(position) !== undefined) converted++;
				return converted;
			};
		}
		const checked = performance.now();
		const converted = convert();
		const convertedAt = performance.now();
		const cpu = process.cpuUsage(cpuBefore);
		times = { records: converted, checkMs: checked - started, convertMs: convertedAt - checked, cpuMs: (cpu.user + cpu.system) / 1000 };
		return [[]];
	};
	return {
		async run() {
			const result = await runNode({
				nodeType: measuring,
				parameters: importParameters({ batchSize: 1000, concurrency: 1 }, IMPORT_RECORD_TYPE),
				input,
				shareInput: true,
			});
			failIfErrored(result);
			if (!times) throw new Error('The conversion was not timed');
			return { count: times.records, details: { ...times } };
		},
	};
}
