/**
 * Reads a report page by page (spec §4.2). The one paging implementation behind Report → Get Rows and
 * the Records Report Trigger.
 *
 * The spec's rule is "request increasing offsets; a page with fewer rows than `limit` is the last".
 * Taken literally, that rule loses rows when a service silently serves fewer rows than asked (a cap
 * in rows or in bytes), and loops forever when a service ignores `offset`. So:
 *
 * - Offsets always advance by the rows actually received, never by the page size asked for.
 * - A short page is not trusted as the end: the next offset is asked for once more, alone; no rows
 *   (or an answer past the end: tablePage.ts) means the end, rows mean the service caps pages. The
 *   page size follows what the service serves (pageSize.ts), and no request asks for more rows than
 *   the page size.
 * - With parallel requests, pages are planned ahead (pagePlan.ts) and handed on in offset order.
 * - A service that ignores `offset` is found out by a probe far past any report (offsetGuard.ts).
 * - At most `maxPages` requests are made; reaching that without reaching the end is an error, never
 *   a silently short result.
 * - With `detectChanges` (Get Rows, the Report Trigger), every page after the first is checked to
 *   begin where the one before it ended (boundaryCheck.ts): the read is one state of the report, or
 *   fails with ReportChangedError.
 * - A refused request (an error, or an answer that is not a page) is the end of the report only
 *   where the end is proven; otherwise a smaller page is asked, and where none helps the read fails
 *   naming the cause (PageRequests.afterRefusal: the one rule, for every request of a read).
 */
import { type Answer, type CheckPort, readInTwoSteps, ReportChangedError, rowsAfterOverlap } from './boundaryCheck';
import { OFFSET_PROBE, OffsetGuard } from './offsetGuard';
import { type PageShape, PagePlan } from './pagePlan';
import { PageRequests } from './pageRequests';
import { PageSizer } from './pageSize';
import { DEFAULT_MAX_PAGES, type ReadReportOptions, type ReadReportSummary } from './readOptions';
import type { ReportRow } from './rows';
import type { TablePage, TableSource } from './tablePage';
import { TrailingRun } from './trailingRun';
import { MAX_CONCURRENCY } from '../requestOptions';
import { recordsConnection, type RecordsFunctions } from '../transport';

export { ReportChangedError } from './boundaryCheck';
export { reportPath } from './tablePage';
export * from './readOptions';

/** The overlap a page planned behind others asks for: the last row and the one before it. */
const PLANNED_OVERLAP = 2;

/** The new rows of one step of a read, from `offset` on; `short`: fewer rows came than were asked. */
interface Chunk {
	offset: number;
	rows: ReportRow[];
	short: boolean;
}

/** One read of a report: what was delivered, the page size, the plan ahead and the checks. */
class ReportRead implements CheckPort {
	delivered = 0;

	stopped = false;

	pages = 0;

	private readonly start: number;

	private readonly concurrency: number;

	private readonly maxPages: number;

	private readonly detect: boolean;

	readonly sizer: PageSizer;

	readonly requests: PageRequests;

	/** The rows before the next boundary that the change check finds again (detectChanges). */
	private readonly trail = new TrailingRun();

	private readonly plan: PagePlan;

	private readonly guard: OffsetGuard;

	/**
	 * The next boundary is checked in two steps (boundaryCheck.ts): the page before it was short, and
	 * the service has not been seen to cap pages, so the short page is most likely the end.
	 */
	private twoStep = false;

	/** After a short page: one request at a time until a full page, or the end. */
	private confirming = false;

	/** Rows came after a short page: the service caps pages (by rows or bytes). */
	private capsPages = false;

	private lastShort = false;

	/** The check that read the last rows proved the end after them (boundaryCheck.ts). */
	private ended = false;

	constructor(
		private readonly context: RecordsFunctions,
		private readonly options: ReadReportOptions,
		source: TableSource,
	) {
		this.concurrency = Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(options.concurrency ?? 1)));
		this.maxPages = Math.max(1, Math.floor(options.maxPages ?? DEFAULT_MAX_PAGES));
		this.sizer = new PageSizer(options.pageSize, { serverErrors: options.fallBackOnServerErrors });
		this.start = Math.max(0, Math.floor(options.startOffset ?? 0));
		this.detect = options.detectChanges === true;
		const requests = new PageRequests(context, source, this.sizer, this.maxPages, () => this.delivered);
		this.requests = requests;
		this.plan = new PagePlan(this.start, (offset, limit) => requests.send(offset, limit, false));
		this.guard = new OffsetGuard(options.reportId, {
			rowsFarAway: async () => await requests.rowsAt(OFFSET_PROBE),
			requestsSent: () => requests.sent,
			fail: (message, description) => requests.fail(message, description),
		});
	}

	/** Reads pages until the report ends, the row limit is reached or a guard stops the read. */
	async run(): Promise<void> {
		try {
			for (;;) {
				const chunk = await this.nextChunk();
				if (chunk === undefined) break;
				let { rows } = chunk;
				await this.guard.afterPage(chunk.offset, rows);
				if (rows.length > this.rowsLeft()) rows = rows.slice(0, this.rowsLeft());
				this.pages++;
				if (this.detect) this.trail.add(rows);
				this.afterChunk(chunk.short, rows.length);
				const nextOnItsWay = this.planAhead(rows.length) ? () => this.plan.headOnItsWay : undefined;
				const verdict = await this.options.onPage({ offset: chunk.offset, columns: this.requests.columns ?? [], rows, nextOnItsWay });
				this.delivered += rows.length;
				if (verdict === 'stop') {
					this.stopped = true;
					break;
				}
			}
		} finally {
			await this.plan.settle();
		}
	}

	/** How the boundary after a page is read: planned ahead after a full page, else one step at a time. */
	private afterChunk(short: boolean, rows: number): void {
		if (this.lastShort && rows > 0) this.capsPages = true;
		this.lastShort = short;
		this.twoStep = short && this.detect && !this.capsPages;
		this.confirming = short && !this.twoStep;
	}

	private rowsLeft(): number {
		const { maxRows } = this.options;
		return maxRows === undefined ? Infinity : Math.max(0, maxRows - this.delivered);
	}

	/**
	 * With `readAhead`: before a page of `rows` rows is handed on, the requests after it are sent as
	 * the next step would send them, so that they are on their way while `onPage` works; whether one
	 * is. Not where the next boundary is checked in two steps (the check plans its own requests).
	 */
	private planAhead(rows: number): boolean {
		if (this.options.readAhead !== true || this.twoStep) return false;
		const at = this.start + this.delivered + rows;
		if (this.rowsLeft() - rows <= 0 || (this.detect && this.trail.length >= this.sizer.size)) return false;
		if (this.plan.planned === 0) this.plan.restart(at);
		this.plan.fill(this.confirming || this.sizer.learning ? 1 : this.concurrency, (offset, ahead) => this.shape(offset, ahead));
		return this.plan.planned > 0;
	}

	/** The next rows in report order; undefined at the end of the report or of the rows asked for. */
	private async nextChunk(): Promise<Chunk | undefined> {
		if (this.ended) return undefined;
		for (;;) {
			const left = this.rowsLeft();
			if (left === 0) return undefined;
			const at = this.start + this.delivered;
			if (this.detect && at > this.start && (this.twoStep || this.trail.length >= this.sizer.size)) {
				this.twoStep = false;
				this.plan.restart(at);
				const after = await readInTwoSteps(this, this.trail, at, left);
				if (after === undefined) return undefined;
				this.ended = after.last === true;
				return { offset: at, rows: after.rows, short: after.rows.length < after.limit };
			}
			if (this.plan.planned === 0) this.plan.restart(at);
			this.plan.fill(this.confirming || this.sizer.learning ? 1 : this.concurrency, (offset, ahead) => this.shape(offset, ahead));
			const head = this.plan.take();
			if (head === undefined) throw this.requests.maxPagesError();
			let page: TablePage;
			try {
				page = await head.result;
			} catch (error) {
				const outcome = await this.requests.afterRefusal(head.offset - head.overlap, head.requested, error);
				if (outcome === 'again') {
					this.plan.restart(at);
					continue;
				}
				// The rows of the check are gone, or (without the check) the report ends before `at`.
				if (this.detect && (head.overlap > 0 || outcome === 'gone')) return await this.shrank(at);
				return undefined;
			}
			// Told only of the pages used: pages planned past a short one say nothing about the service.
			this.sizer.onPage(head.requested, page.rows.length);
			const chunk = head.overlap > 0 ? await this.afterOverlap(head.overlap, head.requested, at, page.rows) : this.afterPlain(head.requested, at, page.rows);
			if (chunk !== 'again') return chunk;
		}
	}

	/** A page of new rows only (the first of a read, or any without the change check). */
	private afterPlain(requested: number, at: number, rows: ReportRow[]): Chunk | undefined {
		if (rows.length === 0) return undefined;
		const short = rows.length < requested;
		// The pages planned after a short one assumed it would be full.
		if (short) this.plan.restart(at + rows.length);
		return { offset: at, rows, short };
	}

	/** A page asked from `overlap` rows before the boundary at `at`; 'again' to plan the boundary anew. */
	private async afterOverlap(overlap: number, requested: number, at: number, rows: ReportRow[]): Promise<Chunk | 'again'> {
		if (this.trail.length > overlap) {
			// Planned behind other pages, before the rows at this boundary were known: ask again.
			this.plan.restart(at);
			return 'again';
		}
		const fresh = rowsAfterOverlap(this.trail, rows, overlap);
		if (fresh === 'changed') return await this.changed(at);
		const short = rows.length < requested;
		if (short) this.plan.restart(at + fresh.length);
		if (fresh.length === 0) {
			// Only the rows of the check: the end, or a cap that leaves no room for a new row.
			this.twoStep = true;
			return 'again';
		}
		return { offset: at, rows: fresh, short };
	}

	/** What the page planned at `offset` asks for, `ahead` pages after the next one to be handed on. */
	private shape(offset: number, ahead: number): PageShape {
		if (this.requests.sent >= this.maxPages) return undefined;
		const { maxRows } = this.options;
		const left = maxRows === undefined ? Infinity : this.start + maxRows - offset;
		if (left <= 0) return undefined;
		const check = ahead === 0 ? this.trail.length : PLANNED_OVERLAP;
		const overlap = this.detect && offset > this.start ? Math.min(check, offset - this.start) : 0;
		if (overlap >= this.sizer.size) return undefined;
		return { overlap, fresh: Math.min(this.sizer.size - overlap, left) };
	}

	/** CheckPort: one request of at most `want` rows; undefined when answered as past the end. */
	async fetch(offset: number, want: number, served?: boolean): Promise<Answer | undefined> {
		return await this.requests.fetch(offset, want, served);
	}

	/** CheckPort: the rows before `at` moved, unless the service ignores `offset` (the probe says). */
	async changed(at: number): Promise<never> {
		await this.guard.confirm(at, at - 1);
		throw new ReportChangedError(this.context.getNode(), this.options.reportId, at, this.options.itemIndex);
	}

	/** CheckPort: rows already read are gone: the report changed, if it is there at all. */
	async shrank(at: number): Promise<never> {
		await this.requests.confirmThere();
		return await this.changed(at);
	}
}

export async function readReportPages(this: RecordsFunctions, options: ReadReportOptions): Promise<ReadReportSummary> {
	const connection = await recordsConnection.call(this, options.itemIndex);
	const source: TableSource = {
		reportId: options.reportId,
		itemIndex: options.itemIndex,
		timeoutMs: options.timeoutMs,
		retry: options.retry,
		connection,
	};
	const read = new ReportRead(this, options, source);
	await read.run();
	return {
		columns: read.requests.columns ?? [],
		rowCount: read.delivered,
		stopped: read.stopped,
		pages: read.pages,
		requests: read.requests.sent,
		pageSize: read.sizer.size,
	};
}
