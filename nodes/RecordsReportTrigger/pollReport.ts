/**
 * One poll of the Records Report Trigger: the n8n glue around the change detector
 * (changeDetector.ts). It reads the ranges the detector asks for through the paging engine, reads
 * again when the report changed under a read, stops before n8n's time budget for the poll runs out
 * (the next poll goes on), stores what the detector says to remember and emits its new rows. The
 * guard that keeps polls of one trigger apart is in the node file and pollGuard.ts.
 */
import type { IDataObject, INode, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { readReportPages, ReportChangedError } from '../shared/report/paging';
import type { ReportColumn, ReportRow } from '../shared/report/rows';
import { describeColumns } from '../shared/report/rows';
import { columnIndexes, reportShaper, type ReportShaper } from '../shared/report/settings';
import { ChangedDuringRead, ChangeDetector, type Decision, DetectorError, ReadAgain } from './changeDetector';
import { type Memory, readMemory, STATE_KEY } from './memory';
import { type PollSettings, pollSettings } from './pollSettings';
import type { NewRowFinder } from './rowFinder';

/** Rows a manual test run returns at most: enough to map fields, quick to show. */
const MANUAL_SAMPLE_SIZE = 10;
/** Reads of one poll that a change of the report may start again before the poll gives up. */
const MAX_READS = 3;
/** Full reads begun afresh because the report changed between the polls that read it. */
const MAX_RESTARTS = 5;

/** The memory stored in the node's static data now. */
export function storedMemory(staticData: IDataObject): Memory | undefined {
	return readMemory(staticData[STATE_KEY]);
}

export interface PollResult {
	items: INodeExecutionData[][] | null;
	/** The generation of the memory this poll saved. */
	savedGeneration?: number;
}

/** When a poll should stop reading: before n8n's budget for it runs out (n8n-workflow 2.38+). */
class Budget {
	private readonly deadline: number | undefined;
	private last = Date.now();
	private slowest = 0;

	constructor(context: IPollFunctions) {
		const budget = 'getPollBudgetMs' in context && typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : undefined;
		this.deadline = typeof budget === 'number' && budget > 0 ? Date.now() + budget : undefined;
	}

	/** Whether another page would risk the deadline (twice the slowest page so far, and a second). */
	get exhausted(): boolean {
		const now = Date.now();
		this.slowest = Math.max(this.slowest, now - this.last);
		this.last = now;
		return this.deadline !== undefined && now + 2 * this.slowest + 1000 >= this.deadline;
	}

	get left(): boolean {
		return this.deadline === undefined || Date.now() < this.deadline;
	}
}

function outputItems(rows: ReportRow[], shaper: ReportShaper, poll: PollSettings): INodeExecutionData[] {
	if (poll.outputMode === 'all') {
		const json: IDataObject = { reportId: poll.reportId, rowCount: rows.length };
		if (poll.read.includeColumns) json.columns = shaper.columnMetadata;
		json.rows = rows.map(shaper.shape);
		return [{ json }];
	}
	return rows.map((row) => ({ json: shaper.rowItem(row) }));
}

/** The warning naming the keys several rows shared in this read; undefined when none did. */
function repeatedKeysWarning(node: INode, reportId: string, finders: readonly NewRowFinder[]): string | undefined {
	const keys = finders.flatMap((finder) => finder.repeatedKeys);
	const count = finders.reduce((sum, finder) => sum + finder.repeatedKeyCount, 0);
	if (count === 0) return undefined;
	const listed = keys
		.map(({ key, emitted }) => `"${key}" (${emitted ? 'new: each different row emitted' : 'emitted before: the rows not emitted again'})`)
		.join(', ');
	const more = count > keys.length ? ` and ${count - keys.length} more` : '';
	return `Records Report Trigger "${node.name}": in report "${reportId}" several rows share the key ${listed}${more}. Key Columns should identify one row; a key is emitted once, so later rows with a key emitted before are not emitted. Add columns to Key Columns until each row's key is unique, or use Row Identity "Whole Row".`;
}

/** The key columns' ids, checked against the report's columns. */
function keyColumnIds(node: INode, poll: PollSettings, columns: readonly ReportColumn[]): string[] {
	if (poll.keyColumns.length === 0) {
		throw new NodeOperationError(node, 'Row Identity is "Key Columns", but no Key Columns are given', {
			description: `Name the columns that identify a row, by name or ID. The report's columns: ${describeColumns(columns) || 'none'}.`,
		});
	}
	return columnIndexes(node, [...columns], poll.keyColumns, 'Key Columns', poll.reportId).map((index) => columns[index].id);
}

type ReadOutcome = { decision: Decision; columns: ReportColumn[]; detector: ChangeDetector } | { suspended: Memory | undefined };

/** One run of the detector: reads the ranges it asks for until it can decide or the budget is spent. */
async function runDetector(
	context: IPollFunctions,
	poll: PollSettings,
	memory: Memory | undefined,
	writer: string,
	budget: Budget,
	lastAttempt: boolean,
): Promise<ReadOutcome> {
	const node = context.getNode();
	const detector = new ChangeDetector(
		{
			report: poll.reportId,
			identity: poll.rowIdentity,
			position: poll.position,
			firstRun: poll.firstRun,
			maxRemembered: poll.maxRemembered,
			fullCheckEvery: poll.fullCheckEvery,
			keyColumns: (columns) => keyColumnIds(node, poll, columns),
			writer,
			lastAttempt,
		},
		memory,
	);
	let columns: ReportColumn[] = [];
	for (let range = detector.next(); range !== undefined; range = detector.next()) {
		let outOfTime = false;
		const summary = await readReportPages.call(context, {
			reportId: poll.reportId,
			startOffset: range.start,
			maxRows: range.maxRows,
			pageSize: poll.read.pageSize,
			// Ordered checks mostly need a page or two: one at a time.
			concurrency: range.start === 0 && range.maxRows === undefined ? poll.read.concurrency : 1,
			maxPages: poll.read.maxPages,
			timeoutMs: poll.read.request.timeoutMs,
			retry: poll.read.request.retry,
			detectChanges: true,
			// A 500, 502 or 504 to a larger page than the guide's 100 rows can be about its size.
			fallBackOnServerErrors: true,
			onPage: (page) => {
				columns = page.columns;
				const verdict = detector.take(page.columns, page.rows);
				if (verdict === undefined && budget.exhausted) outOfTime = true;
				return outOfTime ? 'stop' : verdict;
			},
		});
		if (summary.columns.length > 0) columns = summary.columns;
		if (outOfTime) return { suspended: detector.suspend() };
		detector.endRange(columns);
	}
	return { decision: detector.decide(), columns, detector };
}

/** Reads until the detector decides, again when the report changed under a read. */
async function detect(context: IPollFunctions, poll: PollSettings, stored: Memory | undefined, writer: string) {
	const node = context.getNode();
	const budget = new Budget(context);
	let memory = stored;
	for (let attempt = 1; ; attempt++) {
		try {
			return await runDetector(context, poll, memory, writer, budget, attempt >= MAX_READS);
		} catch (error) {
			if (error instanceof DetectorError) throw new NodeOperationError(node, error.message, { description: error.description });
			if (error instanceof ReadAgain && memory?.pending !== undefined) {
				const restarts = memory.pending.restarts + 1;
				if (restarts > MAX_RESTARTS) throw new NodeOperationError(node, `Report "${poll.reportId}" kept changing between the polls that read it in full (${MAX_RESTARTS} times)`, { description: 'Each poll could read only part of it before its time was up. Choose a longer poll interval, or an ordered New Rows Appear mode.' });
				memory = { ...memory, pending: undefined, restarts };
				context.logger.info(`Records Report Trigger "${node.name}": ${error.message}; reading it again from row 1.`);
				continue;
			}
			if (!(error instanceof ReportChangedError || error instanceof ChangedDuringRead)) {
				throw error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeOperationError(node, error as Error);
			}
			if (attempt >= MAX_READS || !budget.left) {
				const failed = new NodeOperationError(node, `Report "${poll.reportId}" changed while it was being read, ${attempt} times in a row`, {
					description: 'Rows were added or deleted above the rows being read, so the read could not be trusted; nothing was emitted or remembered. The next poll reads it again.',
				});
				failed.failure = { cause: 'temporarily-unavailable' };
				throw failed;
			}
			context.logger.info(`Records Report Trigger "${node.name}": ${error.message}; reading it again.`);
		}
	}
}

/**
 * A manual test run (Fetch Test Event) remembers nothing: it shows what the trigger would emit now,
 * or else the newest rows (the first for At the Top, the last otherwise), at most 10.
 */
async function manualSample(context: IPollFunctions, poll: PollSettings, writer: string): Promise<INodeExecutionData[][] | null> {
	const top = poll.position === 'top';
	const newest = (rows: ReportRow[]) => (top ? rows.slice(0, MANUAL_SAMPLE_SIZE) : rows.slice(-MANUAL_SAMPLE_SIZE));
	const node = context.getNode();
	const memory = storedMemory(context.getWorkflowStaticData('node'));
	if (memory !== undefined) {
		const outcome = await detect(context, poll, memory, writer);
		if ('decision' in outcome && outcome.decision.emit.length > 0) {
			return [outputItems(newest(outcome.decision.emit), reportShaper(node, outcome.columns, poll.read, poll.reportId), poll)];
		}
	}
	let sample: ReportRow[] = [];
	let columns: ReportColumn[] = [];
	await readReportPages.call(context, {
		reportId: poll.reportId,
		maxRows: top ? MANUAL_SAMPLE_SIZE : undefined,
		pageSize: poll.read.pageSize,
		concurrency: poll.read.concurrency,
		maxPages: poll.read.maxPages,
		timeoutMs: poll.read.request.timeoutMs,
		retry: poll.read.request.retry,
		fallBackOnServerErrors: true,
		onPage: (page) => {
			columns = page.columns;
			sample = newest(sample.concat(page.rows));
		},
	});
	if (sample.length === 0) return null;
	return [outputItems(sample, reportShaper(node, columns, poll.read, poll.reportId), poll)];
}

/** The error for a report with more rows than the per-row memory may hold. */
function tooManyRows(node: INode, poll: PollSettings, rows: number): NodeOperationError {
	const ordered = poll.position !== 'anywhere';
	return new NodeOperationError(node, `Report "${poll.reportId}" has ${rows} rows, more than Max Remembered Rows (${poll.maxRemembered})`, {
		description: `With New Rows Appear "Anywhere"${ordered ? ' or a full check' : ''} the trigger remembers every row of the report to emit each only once. Raise Max Remembered Rows to at least ${rows} in the options, narrow the report (e.g. to recent rows), or, if new rows only ever appear at one end, choose that under New Rows Appear${ordered ? ' without Full Check Every' : ''}: it remembers 64 rows whatever the report's size.`,
	});
}

/** Whether two memories remember the same (a poll that found nothing new leaves the stored one). */
function sameMemory(a: Memory, b: Memory): boolean {
	return (
		a.version === b.version &&
		a.report === b.report &&
		a.identity === b.identity &&
		a.position === b.position &&
		a.count === b.count &&
		a.rows === b.rows &&
		a.window === b.window &&
		a.far === b.far &&
		a.pending === undefined &&
		b.pending === undefined &&
		a.polls === b.polls &&
		a.columns.join('\u0000') === b.columns.join('\u0000')
	);
}

/** One poll: reads the report, emits the rows not emitted before and stores what to remember. */
export async function pollReport(this: IPollFunctions, writer: string): Promise<PollResult> {
	const node = this.getNode();
	const poll = pollSettings(this, node);
	if (this.getMode() === 'manual') return { items: await manualSample(this, poll, writer) };
	const staticData = this.getWorkflowStaticData('node');
	const outcome = await detect(this, poll, storedMemory(staticData), writer);
	const log = { workflowId: this.getWorkflow().id, nodeId: node.id };
	if ('suspended' in outcome) {
		if (outcome.suspended === undefined) return { items: null };
		staticData[STATE_KEY] = outcome.suspended as unknown as IDataObject;
		this.logger.info(
			`Records Report Trigger "${node.name}": the poll's time is up after ${outcome.suspended.pending?.offset} rows of report "${poll.reportId}"; the next poll goes on from there and emits the new rows when the read completes.`,
			log,
		);
		return { items: null, savedGeneration: outcome.suspended.generation };
	}
	const { decision, columns, detector } = outcome;
	if (decision.memory.rows !== undefined && decision.memory.count > poll.maxRemembered) throw tooManyRows(node, poll, decision.memory.count);
	const reason = detector.fullReadReason;
	if (reason !== undefined) {
		this.logger.warn(`Records Report Trigger "${node.name}": report "${poll.reportId}" is read in full this poll, since ${reason}. Its rows are compared with every remembered row, so none is lost or emitted twice.`, log);
	}
	for (const note of decision.notes) this.logger.warn(`Records Report Trigger "${node.name}": report "${poll.reportId}": ${note}.`, log);
	const warning = repeatedKeysWarning(node, poll.reportId, decision.finders);
	if (warning !== undefined) this.logger.warn(warning, log);
	const stored = storedMemory(staticData);
	if (decision.emit.length === 0 && stored !== undefined && sameMemory(stored, decision.memory)) return { items: null };
	staticData[STATE_KEY] = decision.memory as unknown as IDataObject;
	if (decision.emit.length === 0) return { items: null, savedGeneration: decision.memory.generation };
	const shaper = reportShaper(node, columns, poll.read, poll.reportId);
	return { items: [outputItems(decision.emit, shaper, poll)], savedGeneration: decision.memory.generation };
}
