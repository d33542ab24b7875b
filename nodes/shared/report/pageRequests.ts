/**
 * The requests of one report read: each counted against Max Pages, its columns checked against the
 * first answer's, the page size told what it brought; a refused large `limit` asked again smaller;
 * and an answer past the end told apart from the report's own errors (tablePage.ts).
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Answer } from './boundaryCheck';
import type { PageSizer } from './pageSize';
import type { ReportColumn } from './rows';
import { fetchTablePage, mayBeAboutLimit, mayMeanPastEnd, type TablePage, type TableSource } from './tablePage';
import type { RecordsFunctions } from '../transport';

function statusOf(error: unknown): number {
	return Number((error as { httpCode?: unknown }).httpCode);
}

export class PageRequests {
	/** Requests sent: the discarded, checking and probing ones included. */
	sent = 0;

	/** The report's columns, from the first answer that had them. */
	columns: ReportColumn[] | undefined;

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
		if (sizing) this.sizer.onPage(limit, page.rows.length);
		return page;
	}

	/**
	 * One request of at most `want` rows (and the page size); undefined when answered as past the end.
	 * `reading`: a request the read needs to go on, counted against Max Pages (not the offset probe).
	 */
	async fetch(offset: number, want: number, reading: boolean): Promise<Answer | undefined> {
		for (;;) {
			if (reading && this.sent >= this.maxPages) throw this.maxPagesError();
			const limit = Math.max(1, Math.min(this.sizer.size, want));
			try {
				return { rows: (await this.send(offset, limit, reading)).rows, limit };
			} catch (error) {
				if (this.refused(limit, error)) continue;
				if (offset === 0 || !mayMeanPastEnd(error)) throw this.wrap(error);
				// A `limit` never answered yet may be what was refused: asked at offset 0, it says.
				if (reading && mayBeAboutLimit(error) && limit > this.sizer.accepted) await this.confirmThere(limit, error);
				return undefined;
			}
		}
	}

	/** Whether a failed request asked too large a page: the page size is lowered, ask again. */
	refused(limit: number, error: unknown): boolean {
		return this.sizer.onRefused(limit, statusOf(error));
	}

	/**
	 * A request at offset 0, where an error is the report's own: a report that does not exist, or a
	 * refused `limit`, is reported as such instead of being taken for the end.
	 */
	async confirmThere(failedLimit: number, failure: unknown): Promise<void> {
		const limit = failure !== undefined && mayBeAboutLimit(failure) && failedLimit > this.sizer.accepted ? failedLimit : 1;
		try {
			await this.send(0, limit, false);
		} catch (error) {
			throw this.wrap(error);
		}
		this.sizer.accepted = Math.max(this.sizer.accepted, limit);
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
