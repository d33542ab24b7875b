/**
 * The first poll of a bounded ordered mode that only remembers (On First Run: Only Remember Them,
 * without Full Check Every): read steps of the change detector (see detection.ts). Pure module.
 *
 * Such a poll needs only what later ordered polls compare with: the window at the end where new rows
 * appear, the row at the other end and the row count. The count comes from one-row reads
 * (exponential, then binary search: about 2·log2(rows) requests) instead of reading every row. The
 * reads happen at different moments, so at the top the window is read again last and must be
 * unchanged (rows added above meanwhile shift everything); at the end, the rows from the window's
 * start are read to the end, so rows appended meanwhile are among them. A report that changed between
 * the reads fails the step ('failed'): the detector reads again, on the poll's last attempt in full.
 */
import type { ReportRow } from '../shared/report/rows';
import { baseOf, type Finding, type ReadRange, type Step } from './detection';

/** Beyond any real report: a service still sending rows there ignores `offset`. */
const PROBE_LIMIT = 2 ** 31;

const CHANGED = 'the report changed while the first poll looked for its end';

/**
 * The steps of such a first run, from its first: the first `windowRows` rows. `near`: about how many
 * rows the report has (what a memory remembered), where the search for its end starts.
 */
export function firstRunEdges(position: 'end' | 'top', windowRows: number, near?: number): Step {
	return new Head(position, windowRows, near);
}

/** Base identities of the rows of one range. */
abstract class EdgeStep implements Step {
	abstract readonly range: ReadRange;
	protected readonly bases: string[] = [];

	take(rows: readonly ReportRow[], ids: readonly string[]): 'stop' | undefined {
		for (const row of rows) this.bases.push(baseOf(row, ids));
		return undefined;
	}

	abstract end(): Step | Finding;
}

const edges = (count: number, window: string[], far: string | undefined): Finding => ({ kind: 'edges', count, window, far });

class Head extends EdgeStep {
	readonly range: ReadRange;

	constructor(
		private readonly position: 'end' | 'top',
		private readonly windowRows: number,
		private readonly near?: number,
	) {
		super();
		this.range = { start: 0, maxRows: windowRows };
	}

	end(): Step | Finding {
		const head = this.bases;
		const top = this.position === 'top';
		// Fewer rows than the window: that is the whole report.
		if (head.length < this.windowRows) return edges(head.length, head, top ? head[head.length - 1] : head[0]);
		const found: EndFound = (_, count) => (top ? new Last(count, head) : new Tail(count, head, this.windowRows));
		const { near } = this;
		if (near !== undefined && near > head.length) return new Near(head.length - 1, near - 1, this.windowRows, found);
		return EndSearch.from(head.length - 1, this.windowRows, found);
	}
}

/**
 * The row where a remembered count says the report ends: there, the search for the end goes on
 * upwards from it a row at a time, doubling (a few rows added cost a few probes); else it searches
 * between the first rows and it.
 */
class Near implements Step {
	readonly range: ReadRange;
	private seen = 0;

	constructor(
		private readonly lo: number,
		private readonly at: number,
		private readonly stride: number,
		private readonly found: EndFound,
	) {
		this.range = { start: at, maxRows: 1 };
	}

	take(rows: readonly ReportRow[]): 'stop' {
		this.seen += rows.length;
		return 'stop';
	}

	end(): Step | Finding {
		return this.seen > 0 ? EndSearch.from(this.at, 1, this.found) : EndSearch.from(this.lo, this.stride, this.found, this.at);
	}
}

/** What follows a search for the report's end: row `lo` exists, row `hi` does not. */
type EndFound = (lo: number, hi: number) => Step;

/**
 * Exponential, then binary search for the report's end: row `lo` exists, row `hi` does not, until
 * they are at most `precision` rows apart (1: the end exactly). Each probe reads one row.
 */
export class EndSearch implements Step {
	readonly range: ReadRange;
	private seen = 0;

	private constructor(
		private readonly lo: number,
		private readonly hi: number | undefined,
		private readonly stride: number,
		private readonly found: EndFound,
		private readonly precision: number,
	) {
		const at = hi === undefined ? lo + stride : Math.floor((lo + hi) / 2);
		this.range = { start: at, maxRows: 1 };
	}

	/** The next probe after `lo` (known to exist) and below `hi`; or what follows, once they are close enough. */
	static from(lo: number, stride: number, found: EndFound, hi?: number, precision = 1): Step | Finding {
		if (hi !== undefined && hi - lo <= Math.max(1, precision)) return found(lo, hi);
		if (hi === undefined && lo + stride > PROBE_LIMIT) {
			return { kind: 'readInFull', reason: 'the service sent rows at every offset the search for its end asked for' };
		}
		return new EndSearch(lo, hi, stride, found, precision);
	}

	take(rows: readonly ReportRow[]): 'stop' {
		this.seen += rows.length;
		return 'stop';
	}

	end(): Step | Finding {
		const at = this.range.start;
		if (this.seen > 0) return EndSearch.from(at, this.hi === undefined ? this.stride * 2 : this.stride, this.found, this.hi, this.precision);
		return EndSearch.from(this.lo, this.stride, this.found, at, this.precision);
	}
}

/** At the Top: the last row; exactly one row must stand at the end found. */
class Last extends EdgeStep {
	readonly range: ReadRange;

	constructor(
		private readonly count: number,
		private readonly head: string[],
	) {
		super();
		this.range = { start: count - 1, maxRows: 2 };
	}

	take(rows: readonly ReportRow[], ids: readonly string[]): 'stop' | undefined {
		super.take(rows, ids);
		return this.bases.length >= 2 ? 'stop' : undefined;
	}

	end(): Step | Finding {
		if (this.bases.length !== 1) return { kind: 'failed', reason: CHANGED };
		return new Recheck(this.count, this.head, this.bases[0]);
	}
}

/** At the Top: the window again, as first read: nothing was added above it meanwhile. */
class Recheck extends EdgeStep {
	readonly range: ReadRange;

	constructor(
		private readonly count: number,
		private readonly head: string[],
		private readonly far: string,
	) {
		super();
		this.range = { start: 0, maxRows: head.length };
	}

	end(): Finding {
		const same = this.bases.length === this.head.length && this.bases.every((base, i) => base === this.head[i]);
		return same ? edges(this.count, this.head, this.far) : { kind: 'failed', reason: CHANGED };
	}
}

/** Appended at the End: the rows from where the window starts to the end, appended ones too. */
class Tail extends EdgeStep {
	readonly range: ReadRange;

	constructor(
		count: number,
		private readonly head: string[],
		private readonly windowRows: number,
	) {
		super();
		this.range = { start: count - windowRows };
	}

	end(): Finding {
		if (this.bases.length < this.windowRows) return { kind: 'failed', reason: CHANGED };
		return edges(this.range.start + this.bases.length, this.bases.slice(-this.windowRows), this.head[0]);
	}
}
