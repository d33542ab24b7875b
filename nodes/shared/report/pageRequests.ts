/**
 * The requests of one report read: each counted against Max Pages, its columns checked against the
 * first answer's, the page size told what it brought; and the one rule for a request that is refused
 * (afterRefusal): where the end of a report is proven, and where a smaller page is asked instead.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Answer } from './boundaryCheck';
import { GUIDE_PAGE_SIZE, type PageSizer } from './pageSize';
import type { ReportColumn } from './rows';
import { fetchTablePage, type Refusal, refusalOf, type TablePage, type TableSource } from './tablePage';
import type { RecordsFunctions } from '../transport';

/**
 * What a refused request leads to: ask again (at a smaller page size, or where rows appeared since),
 * the report ends before the offset asked, or rows the read had are gone (the report shrank under it).
 */
export type AfterRefusal = 'again' | 'end' | 'gone';

export class PageRequests {
	/** Requests sent: the discarded, checking and probing ones included. */
	sent = 0;

	/** The report's columns, from the first answer that had them. */
	columns: ReportColumn[] | undefined;

	/** The deepest `offset + limit` answered with a table: a request within it is not refused for its depth. */
	private reach = 0;

	/** Rows known to be in the report: the end of the furthest rows an answer brought. */
	private seen = 0;

	constructor(
		private readonly context: RecordsFunctions,
		private readonly source: TableSource,
		private readonly sizer: PageSizer,
		private readonly maxPages: number,
		/** Rows handed on so far, for the Max Pages error. */
		private readonly rowsRead: () => number,
	) {}

	/** One request; `sizing`: the page size learns from its answer now (pages planned ahead: later). */
	async send(offset: number, limit: number, sizing: boolean): Promise<TablePage> {
		this.sent++;
		const page = await fetchTablePage.call(this.context, this.source, offset, limit, this.sizer.finalStatuses(limit));
		this.checkColumns(page, offset);
		this.reach = Math.max(this.reach, offset + limit);
		this.seen = Math.max(this.seen, offset + page.rows.length);
		if (sizing) this.sizer.onPage(limit, page.rows.length);
		return page;
	}

	/**
	 * One request of at most `want` rows (and the page size); undefined when the report ends before
	 * `offset` (or rows read are gone: the check that asked finds out).
	 */
	async fetch(offset: number, want: number, served = false): Promise<Answer | undefined> {
		for (;;) {
			if (this.sent >= this.maxPages) throw this.maxPagesError();
			const limit = Math.max(1, Math.min(served ? this.sizer.served : this.sizer.size, want));
			try {
				return { rows: (await this.send(offset, limit, true)).rows, limit };
			} catch (error) {
				if ((await this.afterRefusal(offset, limit, error)) !== 'again') return undefined;
			}
		}
	}

	/** The rows at `offset` for the offset probe (offsetGuard.ts): none where it is refused as past the end. */
	async rowsAt(offset: number): Promise<TablePage['rows']> {
		this.sent++;
		try {
			return (await fetchTablePage.call(this.context, this.source, offset, 1)).rows;
		} catch (error) {
			if (refusalOf(error)?.pastEnd === true) return [];
			throw this.wrap(error);
		}
	}

	/**
	 * The end rule. A request for `limit` rows from `offset` failed with `error`. A refusal (an error
	 * that may be about the offset or the size asked: tablePage.ts) is the end of the report only where
	 * the end is proven: the same answer to a request no deeper and no larger than ones the service has
	 * answered with a table (so neither the depth nor the size can be its cause), or an empty page.
	 * Otherwise a smaller page is asked: the largest answered (a refused large `limit`, PageSizer), one
	 * within what was answered, or half the size once rows past `offset` are seen. Where no smaller page
	 * is proven to work, the row before `offset` is asked with one more: one row proves the end; a
	 * refusal on both sides of that row served alone shows a service that serves no row past there, and
	 * the read fails saying so. Any other
	 * error is the error it is. Never a short read: every way out is proven, or an error.
	 */
	async afterRefusal(offset: number, limit: number, error: unknown): Promise<AfterRefusal> {
		const refusal = refusalOf(error);
		if (refusal === undefined || !(refusal.pastEnd || this.sizer.mayBeAboutSize(refusal.status))) throw this.wrap(error);
		for (;;) {
			if (limit <= this.sizer.accepted && offset + limit <= this.reach) {
				// Neither the size nor the depth: the offset is past the last row, or the error is the service's own.
				if (refusal.pastEnd && offset > 0) return 'end';
				throw this.wrap(error);
			}
			if (this.sizer.onRefused(limit, refusal.status)) return 'again';
			const within = Math.min(this.reach - offset, this.sizer.accepted, limit - 1);
			if (within >= 1) {
				this.sizer.lowerTo(within);
				return 'again';
			}
			if (offset === 0) throw this.refusedPage(limit, refusal, error);
			const edge = await this.edgeBelow(offset);
			if (edge === 'empty') return 'end';
			if (edge < offset) return await this.endAt(edge, refusal, error);
			// The row before `offset` is there: with the row after it, or alone.
			const pair = await this.pairAt(offset, refusal);
			if (pair === 0) return 'gone';
			if (pair === 'unknown' && limit === 1) throw this.wrap(error);
			if (pair === 2 || pair === 'unknown') {
				// Rows past `offset` (or the size refused): the page was too large or too deep; or, one row
				// refused, rows came since.
				if (limit > 1) this.sizer.capAt(Math.floor(limit / 2));
				return 'again';
			}
			// One row: now (offset, 1) is within what was answered; the rule decides again.
		}
	}

	/**
	 * The lowest offset up to `offset` where one row is refused, the rows before it served (asked one
	 * row at a time, halving the distance); 'empty' where an empty page shows the end first.
	 */
	private async edgeBelow(offset: number): Promise<number | 'empty'> {
		let served = Math.min(this.seen, offset) - 1;
		let refused = offset;
		while (refused - served > 1) {
			const middle = Math.floor((served + refused) / 2);
			try {
				const page = await this.send(middle, 1, false);
				if (page.rows.length === 0) return 'empty';
				this.sizer.answeredAt(1);
				served = middle;
			} catch (failure) {
				if (refusalOf(failure) === undefined) throw this.wrap(failure);
				if (middle === 0) throw this.wrap(failure);
				refused = middle;
			}
		}
		return refused;
	}

	/**
	 * The rows the service serves from `offset - 1` when asked for 2 (0: the row there, seen before, is
	 * gone). Refused, then that row alone served, then refused again: no row past it is, and the read
	 * fails. The refusal is asked twice because a report that changes under the read can refuse the pair
	 * as past its end and serve the row a moment later: a depth limit refuses it both times, a change
	 * shows as rows served the second time, and the rule decides again from them.
	 */
	private async pairAt(offset: number, refusal: Refusal): Promise<number | 'unknown'> {
		const first = await this.pairOrRefusal(offset);
		if (typeof first === 'number') return first;
		// Never answered 2 rows: the refusal may be of the size, unless 2 rows are served at the top.
		if (this.sizer.accepted < 2 && this.sizer.mayBeAboutSize(first.status) && !(await this.servesTwo())) return 'unknown';
		try {
			if ((await this.send(offset - 1, 1, false)).rows.length === 0) return 0;
		} catch (failure) {
			if (refusalOf(failure)?.pastEnd === true) return 0;
			throw this.wrap(failure);
		}
		const again = await this.pairOrRefusal(offset);
		if (typeof again === 'number') return again;
		throw this.tooDeep(offset, refusal);
	}

	/** The rows served from `offset - 1` when asked for 2, or the refusal of that request. */
	private async pairOrRefusal(offset: number): Promise<number | Refusal> {
		try {
			const { rows } = await this.send(offset - 1, 2, false);
			this.sizer.answeredAt(2);
			return rows.length;
		} catch (failure) {
			const refused = refusalOf(failure);
			if (refused === undefined) throw this.wrap(failure);
			return refused;
		}
	}

	/** Whether a page of 2 rows is served at offset 0 (a service serving one row at a time refuses it). */
	private async servesTwo(): Promise<boolean> {
		try {
			await this.send(0, 2, false);
		} catch (failure) {
			if (refusalOf(failure) === undefined) throw this.wrap(failure);
			return false;
		}
		this.sizer.answeredAt(2);
		return true;
	}

	/** One row is refused at `edge` (below the offset asked), the row before it served: the end, or no row past it. */
	private async endAt(edge: number, refusal: Refusal, error: unknown): Promise<AfterRefusal> {
		const pair = await this.pairAt(edge, refusal);
		if (pair === 'unknown') throw this.wrap(error);
		if (pair === 1) return 'end';
		// Gone: the report shrank; two rows: rows came since; what was learnt decides the next time.
		return pair === 0 ? 'gone' : 'again';
	}

	/**
	 * A page of `limit` rows at offset 0 refused, and no smaller one proven: the Page Size set, or the
	 * error itself where even the guide's default page is refused.
	 */
	private refusedPage(limit: number, refusal: Refusal, error: unknown): Error {
		if ((this.sizer.adaptive && limit <= GUIDE_PAGE_SIZE) || !this.sizer.mayBeAboutSize(refusal.status)) return this.wrap(error);
		const cause = error instanceof Error ? error.message : String(error);
		return this.fail(
			`The service refused a page of ${limit} rows of report "${this.source.reportId}" (${refusal.answer})`,
			`Its answer: ${cause}. Set Page Size in the options to at most the number of rows the service serves in one page.`,
		);
	}

	/** Rows up to `edge` are served, none past it at any page size: the service limits how deep a read may go. */
	private tooDeep(edge: number, refusal: Refusal): Error {
		return this.fail(
			`Report "${this.source.reportId}" cannot be read past row ${edge}: the service refuses to serve rows beyond it`,
			`It serves every row up to row ${edge}, and answers any request that reaches past it with ${refusal.answer}: it limits how deep a read may go. The rows after it cannot be read through the API; read a report with fewer rows (a narrower filter in Records), or ask the service's administrator to raise the limit.`,
		);
	}

	/** A request at offset 0, where an error is the report's own: whether the report is there at all. */
	async confirmThere(): Promise<void> {
		try {
			await this.send(0, 1, false);
		} catch (error) {
			throw this.wrap(error);
		}
		this.sizer.answeredAt(1);
	}

	private checkColumns(page: TablePage, offset: number): void {
		if (page.columns === undefined) return;
		const known = this.columns;
		if (known === undefined) {
			this.columns = page.columns;
			return;
		}
		const same =
			known.length === page.columns.length &&
			page.columns.every((column, index) => column.id === known[index].id && column.name === known[index].name);
		if (!same) {
			throw this.fail(
				`The columns of report "${this.source.reportId}" changed while it was being read (at row ${offset})`,
				'The report was edited during the read. Run the node again.',
			);
		}
	}

	maxPagesError(): NodeOperationError {
		return this.fail(
			`Stopped reading report "${this.source.reportId}" after ${this.sent} requests (the Max Pages limit) without reaching its end; ${this.rowsRead()} rows were read`,
			'The report has more rows than Max Pages × Page Size, or the service pages incorrectly. Raise Max Pages or Page Size in the options, or use Limit to read only the first rows.',
		);
	}

	fail(message: string, description: string): NodeOperationError {
		return new NodeOperationError(this.context.getNode(), message, { itemIndex: this.source.itemIndex, description });
	}

	wrap(error: unknown): Error {
		return error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(this.context.getNode(), error as Error, { itemIndex: this.source.itemIndex });
	}
}
