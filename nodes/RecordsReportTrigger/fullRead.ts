/**
 * A full read of the report, a read step of the change detector (see detection.ts): every row is
 * compared with the per-row memory (rowFinder.ts), or, where only a bounded memory is there (New
 * Rows Appear or Full Check Every were just changed), the remembered mode's check is applied to the
 * whole report (orderedChecks.ts). Pure module. Reads are consistent: the paging engine's overlap
 * check fails a read that a change shifted, and the driver reads again.
 */
import type { ReportRow } from '../shared/report/rows';
import type { Finding, ReadRange, Step } from './detection';
import { BoundaryInFullRead, RangeRows, windowAt, windowLength } from './orderedChecks';
import type { Memory } from './memory';
import { NewRowFinder, type Remembered } from './rowFinder';

const NOTHING: Remembered = { has: () => false };

export class FullRead implements Step {
	readonly range: ReadRange = { start: 0 };
	private finder: NewRowFinder | undefined;
	private readonly newRows: ReportRow[] = [];
	private readonly boundary: BoundaryInFullRead | undefined;

	/**
	 * `known`: the per-row memory (none on a first run); `bounded`: a bounded memory whose check
	 * decides which rows are new instead.
	 */
	constructor(
		private readonly byKey: boolean,
		private readonly known: Remembered = NOTHING,
		private readonly bounded?: Memory,
	) {
		this.boundary = bounded === undefined ? undefined : new BoundaryInFullRead(bounded);
	}

	take(rows: readonly ReportRow[], ids: readonly string[]): undefined {
		const finder = (this.finder ??= new NewRowFinder(ids, this.byKey, this.known));
		for (const row of rows) {
			if (finder.visit(row)) this.newRows.push(row);
			this.boundary?.visit(row);
		}
		return undefined;
	}

	end(): Step | Finding {
		const finder = this.finder ?? new NewRowFinder([], this.byKey, this.known);
		if (this.boundary === undefined) return { kind: 'full', finder, newRows: this.newRows };
		const judged = this.boundary.judge(finder.bases);
		if ('reason' in judged) return { kind: 'full', finder, newRows: [], unsure: judged.reason };
		if ('above' in judged) return new RowsAbove(finder, this.bounded!, judged.above, this.byKey);
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
		return { kind: 'full', finder: this.finder, newRows: this.byKey ? newKeys(added, 'top', this.finder) : added };
	}
}

/**
 * By key columns, the rows past a bounded memory's boundary whose key no row before the boundary
 * has (nor the remembered window), each key once: what an ordered poll by key emits.
 */
function newKeys(added: ReportRow[], at: 'end' | 'top', finder: NewRowFinder): ReportRow[] {
	const bases = finder.bases;
	const addedBases = new Set<number>();
	const from = at === 'end' ? bases.length - added.length : 0;
	for (let i = from; i < from + added.length; i++) addedBases.add(i);
	const old = new Set(bases.filter((_, i) => !addedBases.has(i)));
	const emitted = new Set<string>();
	return added.filter((_, i) => {
		const key = bases[from + i];
		if (old.has(key) || emitted.has(key)) return false;
		emitted.add(key);
		return true;
	});
}
