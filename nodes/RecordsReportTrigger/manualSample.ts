/**
 * A manual test run of the Records Report Trigger (Fetch Test Event): it remembers nothing, and shows
 * what the trigger would emit now, or else the newest rows (the first for At the Top, the last
 * otherwise), at most 10. n8n glue.
 */
import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { readReportPages } from '../shared/report/paging';
import type { ReportColumn, ReportRow } from '../shared/report/rows';
import { reportShaper } from '../shared/report/settings';
import type { Memory } from './memory';
import { outputItems } from './pollOutput';
import type { PollSettings } from './pollSettings';
import { detect, type Reader } from './readReport';

/** Rows a manual test run returns at most: enough to map fields, quick to show. */
const MANUAL_SAMPLE_SIZE = 10;

export async function manualSample(
	context: IPollFunctions,
	poll: PollSettings,
	memory: Memory | undefined,
	reader: Reader,
): Promise<INodeExecutionData[][] | null> {
	const top = poll.position === 'top';
	const newest = (rows: ReportRow[]) => (top ? rows.slice(0, MANUAL_SAMPLE_SIZE) : rows.slice(-MANUAL_SAMPLE_SIZE));
	const node = context.getNode();
	if (memory !== undefined) {
		const { decision, columns } = await detect(context, poll, memory, reader);
		if (decision.emit.length > 0) return [outputItems(newest(decision.emit), reportShaper(node, columns, poll.read, poll.reportId), poll)];
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
