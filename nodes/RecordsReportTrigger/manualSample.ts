/**
 * A manual test run of the Records Report Trigger (Fetch Test Event): it remembers nothing, and shows
 * what the trigger would emit now, or else the newest rows (the first for At the Top, the last
 * otherwise), at most 10, reading no more than that takes (newestRows.ts): with a memory, the read a
 * poll would make, whose ranges show the newest rows too; without one, the first rows, or the last
 * rows found by one-row probes for the report's end. n8n glue.
 */
import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { readReportPages } from '../shared/report/paging';
import { ADAPTIVE_FIRST_PAGE } from '../shared/report/pageSize';
import type { ReportColumn, ReportRow } from '../shared/report/rows';
import { reportShaper } from '../shared/report/settings';
import { isStep, type ReadRange, type Step } from './detection';
import type { Memory } from './memory';
import { lastRowsRead, newest, SAMPLE_SIZE } from './newestRows';
import { outputItems } from './pollOutput';
import type { PollSettings } from './pollSettings';
import { detect, type Reader } from './readReport';

interface Sample {
	rows: ReportRow[];
	columns: ReportColumn[];
}

export async function manualSample(
	context: IPollFunctions,
	poll: PollSettings,
	memory: Memory | undefined,
	reader: Reader,
): Promise<INodeExecutionData[][] | null> {
	const top = poll.position === 'top';
	let sample: Sample | undefined;
	if (memory !== undefined) {
		const { decision, columns, newest: shown } = await detect(context, poll, memory, reader, true);
		if (decision.emit.length > 0) sample = { rows: newest(decision.emit, top), columns };
		else if (shown !== undefined) sample = { rows: shown, columns };
	}
	sample ??= top ? await readRange(context, poll, { start: 0, maxRows: SAMPLE_SIZE }) : await lastRows(context, poll);
	if (sample.rows.length === 0) return null;
	return [outputItems(sample.rows, reportShaper(context.getNode(), sample.columns, poll.read, poll.reportId), poll)];
}

/** The last rows, read through the steps of lastRowsRead; the whole report where they give up. */
async function lastRows(context: IPollFunctions, poll: PollSettings): Promise<Sample> {
	const { pageSize } = poll.read;
	let step: Step = lastRowsRead(pageSize === 'adaptive' ? ADAPTIVE_FIRST_PAGE : pageSize);
	for (;;) {
		const current = step;
		const read = await readRange(context, poll, current.range, (rows) => current.take(rows, []));
		const next = current.end();
		if (isStep(next)) step = next;
		else return next.kind === 'readInFull' ? await readRange(context, poll, { start: 0 }) : read;
	}
}

/** The newest rows of one range, handing each page to `take` too. */
async function readRange(
	context: IPollFunctions,
	poll: PollSettings,
	range: ReadRange,
	take?: (rows: ReportRow[]) => 'stop' | undefined,
): Promise<Sample> {
	const sample: Sample = { rows: [], columns: [] };
	const top = poll.position === 'top';
	const summary = await readReportPages.call(context, {
		reportId: poll.reportId,
		startOffset: range.start,
		maxRows: range.maxRows,
		pageSize: poll.read.pageSize,
		// Parallel Requests only for a read of the whole report; the others need a page or two.
		concurrency: range.start === 0 && range.maxRows === undefined ? poll.read.concurrency : 1,
		maxPages: poll.read.maxPages,
		timeoutMs: poll.read.request.timeoutMs,
		retry: poll.read.request.retry,
		fallBackOnServerErrors: true,
		onPage: (page) => {
			sample.columns = page.columns;
			sample.rows = newest(sample.rows.concat(page.rows), top);
			return take?.(page.rows);
		},
	});
	if (summary.columns.length > 0) sample.columns = summary.columns;
	return sample;
}
