/**
 * Reads a report page by page (spec §4.2). The one paging implementation behind Report → Get Rows and
 * the Records Report Trigger.
 *
 * The spec's rule is "request increasing offsets; a page with fewer rows than `limit` is the last".
 * Taken literally, that rule loses rows when a service silently serves fewer rows than asked (a cap
 * on `limit`), and loops forever when a service ignores `offset`. So:
 *
 * - Offsets always advance by the rows actually received, never by the page size asked for.
 * - A short page is not trusted as the end. The next offset is requested once more, alone: no rows
 *   means the end; rows mean the service caps pages, and the page size drops to what it served, so
 *   that the following pages are full again. A read that ends on a short page costs one extra
 *   request; a read whose last page is full ends on the empty page that follows anyway.
 * - With parallel requests, pages are planned ahead at offset + k × page size and handed on strictly
 *   in offset order. That plan is only right while every page comes back full: a page with a
 *   different row count throws away the pages planned after it (they are awaited, never used) and
 *   planning starts again at the next unread row. At most `concurrency - 1` pages are requested past
 *   the end of a report; they come back empty and are discarded.
 * - A page identical to the first page or to the previous one may mean the service ignores `offset`.
 *   One probe far beyond any real report tells it apart from a report that merely repeats rows:
 *   rows there mean `offset` is ignored, and the read fails with a clear error after a handful of
 *   requests instead of looping.
 * - At most `maxPages` requests are made; reaching that without reaching the end is an error, never
 *   a silently short result.
 */
import { NodeOperationError } from 'n8n-workflow';

import type { ReportColumn, ReportRow } from '../helpers/reportRows';
import {
	recordsApiRequest,
	type RecordsConnection,
	recordsConnection,
	type RecordsFunctions,
	type RetryPolicy,
} from './index';

export const DEFAULT_PAGE_SIZE = 100;
export const DEFAULT_MAX_PAGES = 10_000;
export const MAX_CONCURRENCY = 32;

/**
 * Offset of the probe that tells whether the service honours `offset`: beyond any real report, and
 * small enough that offset + limit still fits a 32-bit integer on the service's side.
 */
const OFFSET_PROBE = 1_000_000_000;

export interface ReportPage {
	/** Index of the page's first row in the report. */
	offset: number;
	columns: ReportColumn[];
	/** The rows as the service sent them, keyed by column id. */
	rows: ReportRow[];
}

export interface ReadReportOptions {
	reportId: string;
	/** Rows asked for per request (`limit`); lowered automatically when the service serves fewer. */
	pageSize: number;
	/** Stop after this many rows; undefined reads the whole report. */
	maxRows?: number;
	/** Page requests in flight at once; 1 reads strictly one page after another. */
	concurrency?: number;
	/** Safety cap on requests; reaching it before the end is an error. */
	maxPages?: number;
	itemIndex?: number;
	/** Per-request timeout and retry policy; the transport's defaults otherwise. */
	timeoutMs?: number;
	retry?: Partial<RetryPolicy>;
	/**
	 * Called once per page, in report order; the next page is handed on only after it returns.
	 * The rows must not be changed: the read compares them with later pages.
	 */
	onPage: (page: ReportPage) => void | Promise<void>;
}

export interface ReadReportSummary {
	columns: ReportColumn[];
	rowCount: number;
	/** Pages handed to `onPage`. */
	pages: number;
	/** Requests sent, the discarded and the probing ones included. */
	requests: number;
	/** The page size in use at the end, lower than asked when the service caps pages. */
	pageSize: number;
}

interface TablePage {
	columns?: ReportColumn[];
	rows: ReportRow[];
}

interface SeenPage {
	offset: number;
	signature: string;
	rows: ReportRow[];
}

interface PlannedPage {
	offset: number;
	limit: number;
	result: Promise<TablePage>;
}

export function reportPath(reportId: string): string {
	return `/api/analysis/reports/${encodeURIComponent(reportId)}/data/table`;
}

async function fetchTablePage(
	this: RecordsFunctions,
	options: ReadReportOptions,
	connection: RecordsConnection,
	offset: number,
	limit: number,
): Promise<TablePage> {
	const { reportId, itemIndex } = options;
	const { body } = await recordsApiRequest.call(this, {
		method: 'GET',
		path: reportPath(reportId),
		qs: { offset, limit },
		purpose: 'report',
		subject: `report "${reportId}"`,
		itemIndex,
		timeoutMs: options.timeoutMs,
		retry: options.retry,
		connection,
	});
	const table = body as { columns?: unknown; rows?: unknown } | null;
	const problem = (what: string) =>
		new NodeOperationError(
			this.getNode(),
			`The service's answer for report "${reportId}" (offset ${offset}) is not a report table: ${what}`,
			{
				itemIndex,
				description:
					'A report table is a JSON object with a "columns" list and a "rows" list. Check that the Base URL points at the Records installation itself, not at a proxy or login page.',
			},
		);
	if (table === null || typeof table !== 'object' || Array.isArray(table)) {
		throw problem('it is not a JSON object');
	}
	if (!Array.isArray(table.rows)) throw problem('it has no "rows" list');
	const rows = table.rows as unknown[];
	for (let i = 0; i < rows.length; i++) {
		const row = rows[i];
		if (row === null || typeof row !== 'object' || Array.isArray(row)) {
			throw problem(`row ${offset + i} is not an object`);
		}
	}
	let columns: ReportColumn[] | undefined;
	if (table.columns !== undefined) {
		if (!Array.isArray(table.columns)) throw problem('"columns" is not a list');
		columns = (table.columns as unknown[]).map((column, index) => {
			const { id, name } = (column ?? {}) as { id?: unknown; name?: unknown };
			if (typeof id !== 'string' && typeof id !== 'number') {
				throw problem(`column ${index + 1} has no id`);
			}
			return { id: String(id), name: typeof name === 'string' ? name : String(name ?? '') };
		});
	}
	return { columns, rows: rows as ReportRow[] };
}

function sameColumns(a: readonly ReportColumn[], b: readonly ReportColumn[]): boolean {
	if (a.length !== b.length) return false;
	for (let i = 0; i < a.length; i++) {
		if (a[i].id !== b[i].id || a[i].name !== b[i].name) return false;
	}
	return true;
}

/** Cheap first test of two pages being the same; the full comparison follows only on a match. */
function pageSignature(rows: readonly ReportRow[]): string {
	if (rows.length === 0) return '0';
	return `${rows.length}\u0000${JSON.stringify(rows[0])}\u0000${JSON.stringify(rows[rows.length - 1])}`;
}

function samePage(a: readonly ReportRow[], b: readonly ReportRow[]): boolean {
	return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}

export async function readReportPages(
	this: RecordsFunctions,
	options: ReadReportOptions,
): Promise<ReadReportSummary> {
	const { reportId, itemIndex, onPage, maxRows } = options;
	const concurrency = Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(options.concurrency ?? 1)));
	const maxPages = Math.max(1, Math.floor(options.maxPages ?? DEFAULT_MAX_PAGES));
	let pageSize = Math.max(1, Math.floor(options.pageSize));

	const inFlight: PlannedPage[] = [];
	const discarded: Array<Promise<unknown>> = [];
	let nextOffset = 0;
	let delivered = 0;
	let requests = 0;
	let pages = 0;
	/** After a short page: one request at a time until the service shows more rows, or none. */
	let confirming = false;
	let columns: ReportColumn[] | undefined;
	let first: SeenPage | undefined;
	let previous: SeenPage | undefined;
	let offsetHonoured = false;
	const connection = await recordsConnection.call(this, itemIndex);

	const request = (offset: number, limit: number): Promise<TablePage> => {
		requests++;
		const result = fetchTablePage.call(this, options, connection, offset, limit);
		// Planned pages may be dropped before they are awaited; their failures must not go unhandled.
		result.catch(() => undefined);
		return result;
	};

	const plan = () => {
		const window = confirming ? 1 : concurrency;
		while (inFlight.length < window && requests < maxPages) {
			if (maxRows !== undefined && nextOffset >= maxRows) return;
			const limit = maxRows === undefined ? pageSize : Math.min(pageSize, maxRows - nextOffset);
			inFlight.push({ offset: nextOffset, limit, result: request(nextOffset, limit) });
			nextOffset += limit;
		}
	};

	const discardPlanned = () => {
		for (const planned of inFlight) discarded.push(planned.result.catch(() => undefined));
		inFlight.length = 0;
	};

	const fail = (message: string, description: string) =>
		new NodeOperationError(this.getNode(), message, { itemIndex, description });

	/** Called when a page repeats the first or the previous one: does the service honour offset? */
	const checkOffsetHonoured = async (offset: number, repeatedOffset: number) => {
		const probe = await request(OFFSET_PROBE, 1);
		if (probe.rows.length === 0) {
			offsetHonoured = true;
			return;
		}
		throw fail(
			`The service ignores the offset of report "${reportId}": it answered offset ${offset} with the same rows as offset ${repeatedOffset}, and still sent rows for offset ${OFFSET_PROBE}`,
			`Reading stopped after ${requests} requests instead of looping forever. The report cannot be paged this way; ask the service's administrator to check the report API, or read fewer rows than one page.`,
		);
	};

	try {
		for (;;) {
			plan();
			const head = inFlight.shift();
			if (head === undefined) {
				if (maxRows !== undefined && delivered >= maxRows) break;
				throw fail(
					`Stopped reading report "${reportId}" after ${requests} requests (the Max Pages limit) without reaching its end; ${delivered} rows were read`,
					'The report has more rows than Max Pages × Page Size, or the service pages incorrectly. Raise Max Pages or Page Size in the options, or use Limit to read only the first rows.',
				);
			}
			const page = await head.result;

			if (page.columns !== undefined) {
				if (columns === undefined) {
					columns = page.columns;
				} else if (!sameColumns(columns, page.columns)) {
					throw fail(
						`The columns of report "${reportId}" changed while it was being read (at row ${head.offset})`,
						'The report was edited during the read. Run the node again.',
					);
				}
			}
			columns ??= [];

			let rows = page.rows;
			const received = rows.length;
			if (received === 0) break;

			if (!offsetHonoured) {
				const seen: SeenPage = { offset: head.offset, signature: pageSignature(rows), rows };
				const repeated = [first, previous].find(
					(earlier) =>
						earlier !== undefined &&
						earlier.signature === seen.signature &&
						samePage(earlier.rows, rows),
				);
				if (repeated !== undefined) await checkOffsetHonoured(head.offset, repeated.offset);
				first ??= seen;
				previous = seen;
			}

			if (maxRows !== undefined && delivered + received > maxRows) {
				rows = rows.slice(0, maxRows - delivered);
			}
			pages++;
			await onPage({ offset: head.offset, columns, rows });
			delivered += rows.length;
			if (maxRows !== undefined && delivered >= maxRows) break;

			if (received === head.limit) {
				confirming = false;
				continue;
			}
			// The pages planned after this one assumed it would be full: start again at the next row.
			discardPlanned();
			nextOffset = delivered;
			if (received < head.limit) {
				confirming = true;
				pageSize = Math.min(pageSize, received);
			}
		}
	} finally {
		discardPlanned();
		await Promise.all(discarded);
	}

	return { columns: columns ?? [], rowCount: delivered, pages, requests, pageSize };
}
