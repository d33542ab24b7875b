/**
 * The newest rows of a report, for a manual test run of the Records Report Trigger (Fetch Test
 * Event, manualSample.ts), read with as few requests as it takes. Pure module: read steps (see
 * detection.ts) and a collector of what a poll's read saw.
 *
 * The newest rows are the first rows for At the Top, the last rows otherwise. Where the trigger has a
 * memory, the poll's own read shows them (NewestRows): every read it makes reaches the report's end
 * (or, At the Top, reads from its first row). Without one, the last rows are found as the first poll
 * of Appended at the End finds the report's end (firstRunEdges.ts), only less exactly: a page from the
 * first row (the whole report, when it is shorter), then one-row probes, doubling, then halving the
 * gap until the end is known within a page, then the rows from there to the end. A million rows take
 * about 25 requests, where reading them all takes 200 or more.
 */
import type { ReportRow } from '../shared/report/rows';
import type { Finding, ReadRange, Step } from './detection';
import { EndSearch } from './firstRunEdges';

/** Rows a manual test run shows at most: enough to map fields, quick to show. */
export const SAMPLE_SIZE = 10;

/** The newest `size` of rows read in report order. */
export const newest = (rows: readonly ReportRow[], top: boolean, size = SAMPLE_SIZE): ReportRow[] =>
	top ? rows.slice(0, size) : rows.slice(Math.max(0, rows.length - size));

/**
 * The newest rows the ranges of a poll's read showed: the first rows of a range read from the first
 * row (At the Top), or the last rows of a range read to the report's end. Undefined until one did.
 */
export class NewestRows {
	rows: ReportRow[] | undefined;
	private current: ReportRow[] | undefined;

	constructor(private readonly top: boolean) {}

	/** A range begins: whether it can show the newest rows. */
	begin(range: ReadRange): void {
		this.current = (this.top ? range.start === 0 : range.maxRows === undefined) ? [] : undefined;
	}

	take(rows: readonly ReportRow[]): void {
		if (this.current === undefined || (this.top && this.current.length >= SAMPLE_SIZE)) return;
		this.current = newest(this.current.concat(rows), this.top);
	}

	/** The range was read; `stopped`: before its end. */
	end(stopped: boolean): void {
		if (this.current !== undefined && !stopped) this.rows = this.current;
		this.current = undefined;
	}
}

/**
 * The read of the last rows of a report without a memory to go on from: its first step. `pageSize`:
 * the rows of a first page (the read's page size). The rows of the last range read are the newest;
 * a finding 'readInFull' means the service seems to ignore `offset`: read it all.
 */
export function lastRowsRead(pageSize: number): Step {
	return new Head(Math.max(SAMPLE_SIZE + 1, pageSize));
}

const done = (count: number): Finding => ({ kind: 'edges', count, window: [], far: undefined });

/** The first page: all of the report when it is shorter. */
class Head implements Step {
	readonly range: ReadRange;
	private seen = 0;

	constructor(private readonly pageSize: number) {
		this.range = { start: 0, maxRows: pageSize };
	}

	take(rows: readonly ReportRow[]): undefined {
		this.seen += rows.length;
		return undefined;
	}

	end(): Step | Finding {
		if (this.seen < this.pageSize) return done(this.seen);
		// Close enough when the rows from the last row known to exist to the end fit in a page.
		return EndSearch.from(this.seen - 1, this.pageSize, (lo) => new Tail(Math.max(0, lo + 1 - SAMPLE_SIZE)), undefined, this.pageSize - SAMPLE_SIZE);
	}
}

/** From `start` (at least SAMPLE_SIZE rows before the end) to the end. */
class Tail implements Step {
	readonly range: ReadRange;
	private seen = 0;

	constructor(start: number) {
		this.range = { start };
	}

	take(rows: readonly ReportRow[]): undefined {
		this.seen += rows.length;
		return undefined;
	}

	end(): Finding {
		// Rows deleted since the search: not all of the newest rows are among those read.
		if (this.seen < SAMPLE_SIZE && this.range.start > 0) return { kind: 'readInFull', reason: 'the report got shorter while its end was looked for' };
		return done(this.range.start + this.seen);
	}
}
