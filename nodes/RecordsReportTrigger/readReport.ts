/**
 * Reads a report for the change detector (changeDetector.ts): the ranges it asks for, through the
 * paging engine, again when the report changed under a read (3 reads at most), until it decides or
 * n8n's time for the poll runs out (pollBudget.ts). n8n glue.
 */
import type { IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { type ReportPage, readReportPages, ReportChangedError } from '../shared/report/paging';
import type { ReportColumn, ReportRow } from '../shared/report/rows';
import { columnIndexes } from '../shared/report/settings';
import { describeColumns } from '../shared/report/rows';
import { ChangeDetector } from './changeDetector';
import { ChangedDuringRead, type Decision, DetectorError } from './detection';
import { PART_MS } from './firstRunParts';
import type { Lineage, Memory } from './memory';
import { NewestRows } from './newestRows';
import { Budget, OutOfTime, outOfTimeError } from './pollBudget';
import type { PollSettings } from './pollSettings';

/** Reads of one poll that a change of the report may start again before the poll gives up. */
const MAX_READS = 3;

/**
 * A full read compares a page in slices of this many rows (about a millisecond's work each). Before
 * each, while the request for the next page is on its way, a turn of the event loop (1 ms) lets that
 * request go on: connecting and leaving take several turns, and a page compared in one piece would
 * hold the request back until it is done, instead of comparing while the service answers.
 */
const SLICE_ROWS = 1_000;

export interface Detected {
	decision: Decision;
	/** The report's columns as the poll read them. */
	columns: ReportColumn[];
	detector: ChangeDetector;
	/** Whether the poll's time ran out and it decided on what it read (the next poll goes on). */
	cutShort: boolean;
	/** Asked for (a manual test run): the newest rows the read showed, if one of its ranges did. */
	newest?: ReportRow[];
}

/** Who reads: the process that saves (pollGuard.ts) and the line a first run begins (memory.ts). */
export interface Reader {
	writer: string;
	lineage: Lineage;
}

/** The key columns' ids, checked against the report's columns. */
function keyColumnIds(context: IPollFunctions, poll: PollSettings, columns: readonly ReportColumn[]): string[] {
	const node = context.getNode();
	if (poll.keyColumns.length === 0) {
		throw new NodeOperationError(node, 'Row Identity is "Key Columns", but no Key Columns are given', {
			description: `Name the columns that identify a row, by name or ID. The report's columns: ${describeColumns(columns) || 'none'}.`,
		});
	}
	return columnIndexes(node, [...columns], poll.keyColumns, 'Key Columns', poll.reportId).map((index) => columns[index].id);
}

/**
 * The paging engine's error for columns that changed between two pages of a read. It has no class of
 * its own: its message tells it. Like rows moving under a read, it is a reason to read again.
 */
function columnsChangedWhileRead(error: unknown): boolean {
	return error instanceof NodeOperationError && /^The columns of report ".*" changed while it was being read/.test(error.message);
}

/** What a read saw of a page, to tell whether two reads saw the same report. */
const seenPage = (offset: number, rows: readonly unknown[]) =>
	`${offset}:${rows.length}:${JSON.stringify(rows[0] ?? null)}:${JSON.stringify(rows[rows.length - 1] ?? null)};`;

/**
 * Hands a page to the detector (which takes any split of a range's rows alike) in slices, with a turn
 * of the event loop before each full slice while the next page is on its way (SLICE_ROWS).
 */
async function takeInSlices(detector: ChangeDetector, page: ReportPage): Promise<'stop' | undefined> {
	const { rows, nextOnItsWay } = page;
	if (nextOnItsWay === undefined || rows.length < SLICE_ROWS) return detector.take(page.columns, rows);
	for (let start = 0; start < rows.length; start += SLICE_ROWS) {
		const end = Math.min(rows.length, start + SLICE_ROWS);
		if (end - start === SLICE_ROWS && nextOnItsWay()) await sleep(0);
		const verdict = detector.take(page.columns, rows.slice(start, end));
		if (verdict === 'stop') return verdict;
	}
	return undefined;
}

/** One run of the detector: reads the ranges it asks for until it can decide or the time is up. */
async function runDetector(
	context: IPollFunctions,
	poll: PollSettings,
	memory: Memory | undefined,
	reader: Reader,
	budget: Budget,
	lastAttempt: boolean,
	tally: { rows: number; seen: string },
	sample: NewestRows | undefined,
): Promise<Detected> {
	const detector = new ChangeDetector(
		{
			report: poll.reportId,
			identity: poll.rowIdentity,
			position: poll.position,
			firstRun: poll.firstRun,
			maxRemembered: poll.maxRemembered,
			fullCheckEvery: poll.fullCheckEvery,
			keyColumns: (columns) => keyColumnIds(context, poll, columns),
			keyReferences: poll.rowIdentity === 'columns' ? poll.keyColumns : undefined,
			writer: reader.writer,
			lineage: reader.lineage,
			lastAttempt,
		},
		memory,
	);
	let columns: ReportColumn[] = [];
	for (let range = detector.next(); range !== undefined; range = detector.next()) {
		let outOfTime = false;
		sample?.begin(range);
		const full = detector.reading === 'full';
		const summary = await readReportPages.call(context, {
			reportId: poll.reportId,
			startOffset: range.start,
			maxRows: range.maxRows,
			pageSize: poll.read.pageSize,
			// Ordered checks mostly need a page or two: one at a time. A full read compares every row
			// of a page while the next page is on its way.
			concurrency: full ? poll.read.concurrency : 1,
			readAhead: full,
			maxPages: poll.read.maxPages,
			timeoutMs: poll.read.request.timeoutMs,
			retry: poll.read.request.retry,
			detectChanges: true,
			// A 500, 502 or 504 to a larger page than the guide's 100 rows can be about its size.
			fallBackOnServerErrors: true,
			onPage: async (page) => {
				columns = page.columns;
				tally.rows += page.rows.length;
				tally.seen += seenPage(page.offset, page.rows);
				sample?.take(page.rows);
				const verdict = await takeInSlices(detector, page);
				// Every answer is timed, also the last of a range (a one-row probe), or the next seems slow.
				const late = budget.exhausted(detector.readsPart ? PART_MS : undefined);
				if (verdict === undefined && late) outOfTime = true;
				return outOfTime ? 'stop' : verdict;
			},
		});
		if (summary.columns.length > 0) columns = summary.columns;
		sample?.end(summary.stopped || outOfTime);
		if (outOfTime) {
			if (detector.cutShort(Math.max(1, Math.round((budget.ms ?? 0) / 1000)))) return { decision: detector.decide(), columns, detector, cutShort: true, newest: sample?.rows };
			throw new OutOfTime(detector.reading);
		}
		detector.endRange(columns);
	}
	return { decision: detector.decide(), columns, detector, cutShort: false, newest: sample?.rows };
}

/**
 * Reads until the detector decides, again when the report changed under a read. `newest`: also keep
 * the newest rows the read shows (a manual test run, see newestRows.ts).
 */
export async function detect(
	context: IPollFunctions,
	poll: PollSettings,
	memory: Memory | undefined,
	reader: Reader,
	newest = false,
): Promise<Detected> {
	const node = context.getNode();
	const budget = new Budget(context);
	const tally = { rows: 0, seen: '' };
	let seenBefore: string | undefined;
	for (let attempt = 1; ; attempt++) {
		tally.seen = '';
		try {
			const sample = newest ? new NewestRows(poll.position === 'top') : undefined;
			return await runDetector(context, poll, memory, reader, budget, attempt >= MAX_READS, tally, sample);
		} catch (error) {
			// An ordered check fails for good only where the read before failed on the same rows; a read
			// that saw other rows means a report still changing under the reads (rows added while they
			// were made), which the next poll sees settled.
			const unsettled = error instanceof DetectorError && error.check !== undefined && tally.seen !== seenBefore;
			if (error instanceof DetectorError && !unsettled) throw new NodeOperationError(node, error.message, { description: error.description });
			if (error instanceof ChangedDuringRead) seenBefore = tally.seen;
			if (error instanceof OutOfTime) throw outOfTimeError(node, poll.reportId, budget.ms ?? 0, error.reading, tally.rows, poll);
			if (!(unsettled || error instanceof ReportChangedError || error instanceof ChangedDuringRead || columnsChangedWhileRead(error))) {
				throw error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeOperationError(node, error as Error);
			}
			if (attempt >= MAX_READS || !budget.left) {
				const failed = new NodeOperationError(node, `Report "${poll.reportId}" changed while it was being read, ${attempt} times in a row`, {
					description: 'Rows or columns were added or deleted above the rows being read, so the read could not be trusted; nothing was emitted or remembered. The next poll reads it again.',
				});
				failed.failure = { cause: 'temporarily-unavailable' };
				throw failed;
			}
			context.logger.info(`Records Report Trigger "${node.name}": ${(error as Error).message}; reading it again.`);
		}
	}
}
