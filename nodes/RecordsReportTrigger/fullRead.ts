/**
 * A full read of the report, a read step of the change detector (see detection.ts): every row is
 * compared with the per-row memory (rowFinder.ts), or, where only a bounded memory is there (New
 * Rows Appear or Full Check Every were just changed), the remembered mode's check is applied to the
 * whole report (orderedChecks.ts). Pure module. Reads are consistent: the paging engine's overlap
 * check fails a read that a change shifted, and the driver reads again.
 */
import type { ReportRow } from '../shared/report/rows';
import type { Finding, ReadRange, Step } from './detection';
import { IdentityIndex } from './identities';
import { BoundaryInFullRead, RangeRows, windowAt, windowLength } from './orderedChecks';
import type { Memory } from './memory';
import { NewRowFinder, type Remembered } from './rowFinder';

const NOTHING: Remembered = { has: () => false };

export interface FullReadOptions {
	/** The per-row memory (none on a first run). */
	known?: Remembered;
	/** A bounded memory whose check decides which rows are new instead. */
	bounded?: Memory;
	/** About how many rows the report has (the rows remembered), to size what the read keeps once. */
	expectedRows?: number;
	/** Whether the new rows are kept (to be emitted); not on a first run that only remembers. */
	keepNew?: boolean;
}

export class FullRead implements Step {
	readonly range: ReadRange = { start: 0 };
	private finder: NewRowFinder | undefined;
	private readonly newRows: ReportRow[] = [];
	private readonly boundary: BoundaryInFullRead | undefined;
	private readonly known: Remembered;
	private readonly bounded: Memory | undefined;

	constructor(
		private readonly byKey: boolean,
		private readonly options: FullReadOptions = {},
	) {
		this.known = options.known ?? NOTHING;
		this.bounded = options.bounded;
		this.boundary = this.bounded === undefined ? undefined : new BoundaryInFullRead(this.bounded);
	}

	take(rows: readonly ReportRow[], ids: readonly string[]): undefined {
		const finder = (this.finder ??= new NewRowFinder(ids, this.byKey, this.known, undefined, this.options.expectedRows));
		const keep = this.options.keepNew !== false;
		for (const row of rows) {
			if (finder.visit(row) && keep) this.newRows.push(row);
			this.boundary?.visit(row);
		}
		return undefined;
	}

	/**
	 * A read with no memory to compare with, cut short: the identities of the rows read so far and the
	 * new ones among them (backlog.ts); undefined before any row.
	 */
	soFar(): { finder: NewRowFinder; newRows: ReportRow[] } | undefined {
		if (this.finder === undefined || this.finder.bases.length === 0 || this.boundary !== undefined) return undefined;
		return { finder: this.finder, newRows: this.newRows };
	}

	end(): Step | Finding {
		const finder = this.finder ?? new NewRowFinder([], this.byKey, this.known);
		if (this.boundary === undefined) return { kind: 'full', finder, newRows: this.newRows };
		const judged = this.boundary.judge(finder.bases);
		if ('reason' in judged) return { kind: 'full', finder, newRows: [], unsure: judged.reason };
		if ('above' in judged) return new RowsAbove(finder, this.bounded!, judged.above, this.byKey, judged.backlog);
		return { kind: 'full', finder, newRows: this.byKey ? newKeys(judged.added, 'end', finder) : judged.added };
	}
}

/**
 * At the Top, after a full read that found the window right above the remembered rows' end: the rows
 * above it, read again, with the window where the full read found it (rows added at the top in
 * between move it: the reader reads again).
 */
class RowsAbove implements Step {
	readonly range: ReadRange;
	private readonly read = new RangeRows();

	constructor(
		private readonly finder: NewRowFinder,
		private readonly bounded: Memory,
		private readonly above: number,
		private readonly byKey: boolean,
		/** The rows at the bottom a first run had still to emit (backlog.ts). */
		private readonly backlog: ReportRow[],
	) {
		this.range = { start: 0, maxRows: above + windowLength(bounded) };
	}

	take(rows: readonly ReportRow[], ids: readonly string[]): undefined {
		this.read.add(rows, ids);
		return undefined;
	}

	end(): Finding {
		if (!windowAt(this.read.bases, this.bounded.window!, this.above)) {
			return { kind: 'failed', reason: `rows were added at the top while the report was read (the rows remembered there no longer stand below ${this.above} rows)` };
		}
		const added = this.read.rows.slice(0, this.above);
		return { kind: 'full', finder: this.finder, newRows: [...(this.byKey ? newKeys(added, 'top', this.finder) : added), ...this.backlog] };
	}
}

/**
 * By key columns, the rows past a bounded memory's boundary whose key no row before the boundary
 * has (nor the remembered window), each key once: what an ordered poll by key emits.
 */
function newKeys(added: ReportRow[], at: 'end' | 'top', finder: NewRowFinder): ReportRow[] {
	const bases = finder.bases;
	const from = at === 'end' ? bases.length - added.length : 0;
	const old = at === 'end' ? IdentityIndex.of(bases, 0, from) : IdentityIndex.of(bases, added.length, bases.length);
	const emitted = new Set<string>();
	return added.filter((_, i) => {
		const row = from + i;
		if (old.find(bases.bytesOf(row), bases.offsetOf(row)) >= 0) return false;
		const key = bases.text(row);
		if (emitted.has(key)) return false;
		emitted.add(key);
		return true;
	});
}
