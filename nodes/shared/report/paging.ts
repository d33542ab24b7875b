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
 * - A page identical to the first page or to the previous one (or, while an adaptive read's pages
 *   grow, one beginning with the first page's rows) may mean the service ignores `offset`.
 *   One probe far beyond any real report tells it apart from a report that merely repeats rows:
 *   rows there mean `offset` is ignored, and the read fails with a clear error after a handful of
 *   requests instead of looping.
 * - The page size is fixed, or adaptive (PageSizer, pageSize.ts): an adaptive read sends its first
 *   request alone, grows after full pages, stops growing at the first short page (the cap above), and
 *   asks again at the guide's 100 rows when a larger `limit` is refused.
 * - At most `maxPages` requests are made; reaching that without reaching the end is an error, never
 *   a silently short result.
 * - With `detectChanges` (Get Rows 1.2, the Report Trigger), every page after the first is asked for
 *   from one row earlier; that row must be the last one handed on (where it ends a run of identical
 *   rows, the run and the row before it: TrailingRun), or the report changed between the two
 *   requests (ReportChangedError): rows added or removed above the rows not read yet shift them.
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { PageSizer, type PageSizeSetting } from './pageSize';
import { TrailingRun } from './trailingRun';
import { MAX_CONCURRENCY } from '../requestOptions';
import {
	recordsApiRequest,
	type RecordsConnection,
	recordsConnection,
	type RecordsFunctions,
	type RetryPolicy,
} from '../transport';
import type { ReportColumn, ReportRow } from './rows';

export const DEFAULT_PAGE_SIZE = 100;
export const DEFAULT_MAX_PAGES = 10_000;

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
	/**
	 * Rows asked for per request (`limit`), lowered automatically when the service serves fewer; or
	 * 'adaptive' (see PageSizer): start larger, grow, learn the service's cap, fall back on refusal.
	 */
	pageSize: PageSizeSetting;
	/** Index of the first row to read (the first `offset` asked for); default 0. */
	startOffset?: number;
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
	 * An adaptive read also falls back to 100 rows per page when a larger page is answered with 500,
	 * 502 or 504, without retrying it (PageSizer); Get Rows. Off: only a 4xx is a refusal.
	 */
	fallBackOnServerErrors?: boolean;
	/**
	 * Ask for every page after the first from one row earlier, and fail with ReportChangedError when
	 * that row is not the last row of the page before: rows were added or removed above the rows not
	 * read yet, between the two requests, and a row would be read twice or skipped (Get Rows). Costs
	 * one row of each such page (the overlapping one, within the page size), no request.
	 */
	detectChanges?: boolean;
	/**
	 * Called once per page, in report order; the next page is handed on only after it returns.
	 * Returning 'stop' ends the read after this page (the Report Trigger reads only past the rows it
	 * remembers); pages requested ahead are discarded. The rows must not be changed: the read
	 * compares them with later pages.
	 */
	onPage: (page: ReportPage) => PageVerdict | Promise<PageVerdict>;
}

/** What `onPage` returns: nothing to read on, 'stop' to end the read after this page. */
export type PageVerdict = void | 'stop';

export interface ReadReportSummary {
	columns: ReportColumn[];
	rowCount: number;
	/** Whether `onPage` ended the read before the end of the report. */
	stopped: boolean;
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
	/** Rows of the report the page is to bring (new rows: without the overlapping one). */
	limit: number;
	/** The `limit` sent: one more than `limit` for an overlapping page. */
	requested: number;
	/** Asked from one row earlier (detectChanges): the page's first row is the previous page's last. */
	overlap: boolean;
	result: Promise<TablePage>;
}

/** The report changed between two page requests of a read (detectChanges): `row` had moved. */
export class ReportChangedError extends NodeOperationError {
	constructor(
		node: INode,
		reportId: string,
		readonly row: number,
		itemIndex: number | undefined,
	) {
		super(node, `Report "${reportId}" changed while it was read: row ${row} is no longer the one read last`, {
			itemIndex,
			description: 'Rows were added or removed above the rows not read yet, so a row would be read twice or skipped.',
		});
	}
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
	finalStatuses?: readonly number[],
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
		retry: finalStatuses ? { ...options.retry, finalStatuses } : options.retry,
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

/**
 * Pages of different sizes that begin with the same rows: what a service ignoring `offset` serves
 * while an adaptive read is still growing its pages (equal sizes are caught by samePage).
 */
function sameStart(a: readonly ReportRow[], b: readonly ReportRow[]): boolean {
	if (a.length === b.length || JSON.stringify(a[0]) !== JSON.stringify(b[0])) return false;
	const common = Math.min(a.length, b.length);
	return JSON.stringify(a.slice(0, common)) === JSON.stringify(b.slice(0, common));
}

/** One read of a report: the pages planned ahead, what was delivered, and what the guards remember. */
class ReportRead {
	private readonly inFlight: PlannedPage[] = [];

	private readonly discarded: Array<Promise<unknown>> = [];

	private readonly startOffset: number;

	private nextOffset: number;

	delivered = 0;

	/** Whether `onPage` ended the read before the end of the report. */
	stopped = false;

	requests = 0;

	pages = 0;

	/** After a short page: one request at a time until the service shows more rows, or none. */
	private confirming = false;

	columns: ReportColumn[] | undefined;

	private first: SeenPage | undefined;

	private previous: SeenPage | undefined;

	private offsetHonoured = false;

	/** The last rows handed on, to find again before the next page (detectChanges). */
	private readonly trail = new TrailingRun();

	private readonly sizer: PageSizer;

	private readonly concurrency: number;

	private readonly maxPages: number;

	constructor(
		private readonly context: RecordsFunctions,
		private readonly options: ReadReportOptions,
		private readonly connection: RecordsConnection,
	) {
		this.concurrency = Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(options.concurrency ?? 1)));
		this.maxPages = Math.max(1, Math.floor(options.maxPages ?? DEFAULT_MAX_PAGES));
		this.sizer = new PageSizer(options.pageSize, { serverErrors: options.fallBackOnServerErrors });
		this.startOffset = Math.max(0, Math.floor(options.startOffset ?? 0));
		this.nextOffset = this.startOffset;
	}

	private request(offset: number, limit: number): Promise<TablePage> {
		this.requests++;
		const result = fetchTablePage.call(this.context, this.options, this.connection, offset, limit, this.sizer.finalStatuses(limit));
		// Planned pages may be dropped before they are awaited; their failures must not go unhandled.
		result.catch(() => undefined);
		return result;
	}

	private plan(): void {
		const { maxRows } = this.options;
		const window = this.confirming || this.sizer.learning ? 1 : this.concurrency;
		while (this.inFlight.length < window && this.requests < this.maxPages) {
			const planned = this.nextOffset - this.startOffset;
			if (maxRows !== undefined && planned >= maxRows) return;
			const overlap = this.options.detectChanges === true && this.nextOffset > this.startOffset;
			// An overlapping page spends one row of the page size on the row before it, so that no
			// request asks for more than the page size (a service's maximum may be exactly that).
			const fresh = overlap ? Math.max(1, this.sizer.size - 1) : this.sizer.size;
			const limit = maxRows === undefined ? fresh : Math.min(fresh, maxRows - planned);
			const requested = overlap ? limit + 1 : limit;
			const from = overlap ? this.nextOffset - 1 : this.nextOffset;
			this.inFlight.push({ offset: this.nextOffset, limit, requested, overlap, result: this.request(from, requested) });
			this.nextOffset += limit;
		}
	}

	private discardPlanned(): void {
		for (const planned of this.inFlight) this.discarded.push(planned.result.catch(() => undefined));
		this.inFlight.length = 0;
	}

	private fail(message: string, description: string): NodeOperationError {
		return new NodeOperationError(this.context.getNode(), message, { itemIndex: this.options.itemIndex, description });
	}

	/** Called when a page repeats the first or the previous one: does the service honour offset? */
	private async checkOffsetHonoured(offset: number, repeatedOffset: number): Promise<void> {
		const probe = await this.request(OFFSET_PROBE, 1);
		if (probe.rows.length === 0) {
			this.offsetHonoured = true;
			return;
		}
		throw this.fail(
			`The service ignores the offset of report "${this.options.reportId}": it answered offset ${offset} with the same rows as offset ${repeatedOffset}, and still sent rows for offset ${OFFSET_PROBE}`,
			`Reading stopped after ${this.requests} requests instead of looping forever. The report cannot be paged this way; ask the service's administrator to check the report API, or read fewer rows than one page.`,
		);
	}

	/** The next page in offset order, or undefined when the row limit is reached. */
	private async nextPage(): Promise<{ head: PlannedPage; page: TablePage } | undefined> {
		this.plan();
		const head = this.inFlight.shift();
		if (head === undefined) {
			const { maxRows } = this.options;
			if (maxRows !== undefined && this.delivered >= maxRows) return undefined;
			throw this.fail(
				`Stopped reading report "${this.options.reportId}" after ${this.requests} requests (the Max Pages limit) without reaching its end; ${this.delivered} rows were read`,
				'The report has more rows than Max Pages × Page Size, or the service pages incorrectly. Raise Max Pages or Page Size in the options, or use Limit to read only the first rows.',
			);
		}
		try {
			return { head, page: await head.result };
		} catch (error) {
			// An adaptive read asks again at the guide's default when a large limit is refused.
			if (!this.sizer.onRefused(head.requested, Number((error as { httpCode?: unknown }).httpCode))) {
				throw error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: new NodeOperationError(this.context.getNode(), error as Error, { itemIndex: this.options.itemIndex });
			}
			this.discardPlanned();
			this.nextOffset = head.offset;
			return await this.nextPage();
		}
	}

	/** The `limit` the next planned page asks for (lower than asked when the service caps pages). */
	get pageSize(): number {
		return this.sizer.size;
	}

	private checkColumns(page: TablePage, offset: number): ReportColumn[] {
		if (page.columns !== undefined) {
			if (this.columns === undefined) {
				this.columns = page.columns;
			} else if (!sameColumns(this.columns, page.columns)) {
				throw this.fail(
					`The columns of report "${this.options.reportId}" changed while it was being read (at row ${offset})`,
					'The report was edited during the read. Run the node again.',
				);
			}
		}
		return (this.columns ??= []);
	}

	/** Until offset is known to work: a page equal to the first or the previous one needs the probe. */
	private async checkRepeated(offset: number, rows: ReportRow[]): Promise<void> {
		if (this.offsetHonoured) return;
		const seen: SeenPage = { offset, signature: pageSignature(rows), rows };
		const { first } = this;
		const repeated =
			[first, this.previous].find(
				(earlier) => earlier !== undefined && earlier.signature === seen.signature && samePage(earlier.rows, rows),
			) ?? (first !== undefined && sameStart(first.rows, rows) ? first : undefined);
		if (repeated !== undefined) await this.checkOffsetHonoured(offset, repeated.offset);
		this.first ??= seen;
		this.previous = seen;
	}

	/**
	 * The rows of a page asked from one row earlier, without that row, which must be the last row
	 * handed on. Where that row ends a run of identical rows, a shift by one would still show it, so
	 * the run, the different row before it and the page are asked for again in one answer (TrailingRun:
	 * one more request, only at a page boundary inside such a run). Otherwise the report changed,
	 * unless the service ignores `offset` (the probe says).
	 */
	private async withoutOverlap(offset: number, rows: ReportRow[]): Promise<ReportRow[]> {
		const expected = this.trail.expected;
		let before: unknown[] = rows.slice(0, 1);
		if (expected.length > 1 && rows.length > 0 && JSON.stringify(rows[0]) === expected[expected.length - 1]) {
			const again = await this.request(offset - expected.length, expected.length + rows.length - 1);
			const rest = again.rows.slice(expected.length);
			const samePage = JSON.stringify(rest) === JSON.stringify(rows.slice(1, 1 + rest.length));
			before = samePage ? again.rows.slice(0, expected.length) : [];
		}
		if (this.trail.matches(before)) return rows.slice(1);
		if (!this.offsetHonoured) await this.checkOffsetHonoured(offset, offset - 1);
		throw new ReportChangedError(this.context.getNode(), this.options.reportId, offset, this.options.itemIndex);
	}

	/** Reads pages until the report ends, the row limit is reached or a guard stops the read. */
	async run(): Promise<void> {
		const { onPage, maxRows } = this.options;
		try {
			for (;;) {
				const next = await this.nextPage();
				if (next === undefined) break;
				const { head, page } = next;
				const columns = this.checkColumns(page, head.offset);

				let rows = head.overlap ? await this.withoutOverlap(head.offset, page.rows) : page.rows;
				const received = rows.length;
				// The sizer sees what the service was asked and served; the read counts new rows.
				this.sizer.onPage(head.requested, received === 0 ? 0 : page.rows.length);
				if (received === 0) break;
				await this.checkRepeated(head.offset, rows);

				if (maxRows !== undefined && this.delivered + received > maxRows) {
					rows = rows.slice(0, maxRows - this.delivered);
				}
				this.pages++;
				if (this.options.detectChanges === true) this.trail.add(rows);
				const verdict = await onPage({ offset: head.offset, columns, rows });
				this.delivered += rows.length;
				if (verdict === 'stop') {
					this.stopped = true;
					break;
				}
				if (maxRows !== undefined && this.delivered >= maxRows) break;

				if (received === head.limit) {
					this.confirming = false;
					continue;
				}
				// The pages planned after this one assumed it would be full: start again at the next row.
				this.discardPlanned();
				this.nextOffset = this.startOffset + this.delivered;
				// Short: the sizer has lowered the page size to what the service served.
				if (received < head.limit) this.confirming = true;
			}
		} finally {
			this.discardPlanned();
			await Promise.all(this.discarded);
		}
	}
}

export async function readReportPages(
	this: RecordsFunctions,
	options: ReadReportOptions,
): Promise<ReadReportSummary> {
	const connection = await recordsConnection.call(this, options.itemIndex);
	const read = new ReportRead(this, options, connection);
	await read.run();
	return {
		columns: read.columns ?? [],
		rowCount: read.delivered,
		stopped: read.stopped,
		pages: read.pages,
		requests: read.requests,
		pageSize: read.pageSize,
	};
}
