/**
 * Whether a report changed while Get Rows paged through it. Offset paging reads one state of the
 * report only while the report stands still: a row added above a page not yet read shifts it by one
 * (a row is read twice), a row removed makes one skipped. After the last page the first rows and
 * the end of the report are asked for again: a read whose first rows, last row or row count differ
 * from what the read saw is not one state of the report.
 *
 * What this finds: any change of the number of rows (a row added or removed anywhere, which is what
 * shifts pages), and any change among the first FIRST_ROWS_CHECKED rows. What it cannot find: a row
 * added and another removed between the first rows and the end, or rows edited in place (neither
 * shifts a page of a whole read, so no row is skipped or repeated by them either, unless both).
 */
import type { ReadReportOptions } from './paging';
import { fetchReportRows } from './paging';
import type { ReportRow } from './rows';
import type { RecordsFunctions } from '../transport';

/** Rows at the top of the report compared again after a read. */
export const FIRST_ROWS_CHECKED = 100;

/** What a read remembers to be checked: its first rows, its last row and how many rows it gave. */
export class ReadTrace {
	private first: ReportRow[] = [];

	private last: string | undefined;

	rows = 0;

	/** Called with each page's rows, in report order. */
	onPage(rows: readonly ReportRow[]): void {
		if (this.first.length < FIRST_ROWS_CHECKED) {
			this.first = this.first.concat(rows.slice(0, FIRST_ROWS_CHECKED - this.first.length));
		}
		if (rows.length > 0) this.last = JSON.stringify(rows[rows.length - 1]);
		this.rows += rows.length;
	}

	/**
	 * What changed since the read, asked of the service after it: undefined when nothing shows.
	 * `toTheEnd`: the read went to the end of the report (not stopped at a Limit), so a row past its
	 * last one is a change too.
	 */
	async change(
		context: RecordsFunctions,
		options: Pick<ReadReportOptions, 'reportId' | 'itemIndex' | 'timeoutMs' | 'retry'>,
		toTheEnd: boolean,
	): Promise<string | undefined> {
		const top = await fetchReportRows.call(context, options, 0, Math.max(1, this.first.length));
		const common = Math.min(top.length, this.first.length);
		if (
			(this.first.length === 0 && top.length > 0) ||
			(this.first.length > 0 && top.length === 0) ||
			JSON.stringify(top.slice(0, common)) !== JSON.stringify(this.first.slice(0, common))
		) {
			return 'its first rows are not the ones read at the start';
		}
		if (this.rows === 0) return undefined;
		const end = await fetchReportRows.call(context, options, this.rows - 1, toTheEnd ? 2 : 1);
		if (end.length === 0 || JSON.stringify(end[0]) !== this.last) {
			return `row ${this.rows} is no longer the last row read (rows were removed or added)`;
		}
		if (toTheEnd && end.length > 1) return `it has more than the ${this.rows} rows read (rows were added)`;
		return undefined;
	}
}
