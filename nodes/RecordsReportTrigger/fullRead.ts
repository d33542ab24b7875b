/**
 * A full read of the report, a read step of the change detector (see detection.ts): every row is
 * compared with the per-row memory (rowFinder.ts), or, where only a bounded memory is there (New
 * Rows Appear or Full Check Every were just changed), the remembered mode's check is applied to the
 * whole report (orderedChecks.ts). Pure module. Reads are consistent: the paging engine's overlap
 * check fails a read that a change shifted, and the driver reads again.
 */
import type { ReportRow } from '../shared/report/rows';
import type { Finding, ReadRange, Step } from './detection';
import { BoundaryInFullRead } from './orderedChecks';
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
			this.boundary?.visit(row, finder.bases);
		}
		return undefined;
	}

	end(): Finding {
		const finder = this.finder ?? new NewRowFinder([], this.byKey, this.known);
		if (this.boundary === undefined) return { kind: 'full', finder, newRows: this.newRows };
		const judged = this.boundary.judge(finder.bases);
		if ('reason' in judged) return { kind: 'full', finder, newRows: [], unsure: judged.reason };
		return { kind: 'full', finder, newRows: this.byKey ? newKeys(judged.added, finder, this.bounded!) : judged.added };
	}
}

/**
 * By key columns, the rows past a bounded memory's boundary whose key no row before the boundary
 * has (nor the remembered window), each key once: what an ordered poll by key emits.
 */
function newKeys(added: ReportRow[], finder: NewRowFinder, bounded: Memory): ReportRow[] {
	const bases = finder.bases;
	const addedBases = new Set<number>();
	const from = bounded.position === 'end' ? bases.length - added.length : 0;
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
