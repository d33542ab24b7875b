/**
 * The ordered modes' checks (New Rows Appear: Appended at the End, At the Top): where the rows
 * remembered last must stand now, and which rows are past them, hence new. Pure module: read steps
 * of the change detector (see detection.ts).
 *
 * - Appended at the End: the rows from the start of the remembered window to the end. The window
 *   (the last 64 rows remembered) must stand exactly where it stood; the rows after it are new. A poll
 *   whose time runs out after the window goes on from the rows it read (cutShort).
 * - At the Top: first the rows from where the row remembered last stood to the end: the last row of
 *   the report must be that row, which tells how many rows were added above (the report's length
 *   less the rows remembered). Then the rows from row 1 to the window, which must stand right below
 *   them. Reading the top last means that a row added at the top between the two reads moves the
 *   window and is noticed (the poll reads again), instead of hiding a row deleted lower down.
 * - A bounded memory checked on a full read (BoundaryInFullRead): when New Rows Appear or Full Check
 *   Every changed, the first poll reads in full and applies the remembered mode's check to it.
 */
import type { ReportRow } from '../shared/report/rows';
import { IDENTITY_LENGTH } from '../shared/report/rows';
import { baseOf, type Finding, type ReadRange, type Step } from './detection';
import { IdentityList } from './identities';
import type { Memory } from './memory';

/** Base identities of rows in report order: as texts (a range read), or a full read's list. */
type Bases = readonly string[] | IdentityList;

function baseAt(bases: Bases, row: number): string | undefined {
	if (row < 0 || row >= bases.length) return undefined;
	return bases instanceof IdentityList ? bases.text(row) : bases[row];
}

/** Whether `window` (concatenated identities) stands in `bases` from `at` on. */
export function windowAt(bases: Bases, window: string, at: number): boolean {
	const length = window.length / IDENTITY_LENGTH;
	if (at < 0 || at + length > bases.length) return false;
	for (let i = 0; i < length; i++) {
		if (baseAt(bases, at + i) !== window.slice(i * IDENTITY_LENGTH, (i + 1) * IDENTITY_LENGTH)) return false;
	}
	return true;
}

/** Rows in a bounded memory's window. */
export const windowLength = (memory: Memory) => (memory.window?.length ?? 0) / IDENTITY_LENGTH;

/** Rows read in one range, with their base identities. */
export class RangeRows {
	readonly rows: ReportRow[] = [];
	readonly bases: string[] = [];

	add(rows: readonly ReportRow[], ids: readonly string[]): void {
		for (const row of rows) {
			this.rows.push(row);
			this.bases.push(baseOf(row, ids));
		}
	}
}

/** Appended at the End: from the window's first row to the end of the report. */
export class EndCheck implements Step {
	readonly range: ReadRange;
	private readonly read = new RangeRows();

	constructor(private readonly memory: Memory) {
		this.range = { start: Math.max(0, memory.count - windowLength(memory)) };
	}

	take(rows: readonly ReportRow[], ids: readonly string[]): undefined {
		this.read.add(rows, ids);
		return undefined;
	}

	end(): Finding {
		const { memory, read } = this;
		if (windowAt(read.bases, memory.window!, 0)) return { kind: 'past', added: read.rows.slice(windowLength(memory)) };
		const length = windowLength(memory);
		return {
			kind: 'failed',
			reason:
				read.bases.length < length
					? `the report has ${this.range.start + read.bases.length} rows, fewer than the ${memory.count} remembered (rows were deleted)`
					: `the ${length} rows remembered last are no longer rows ${this.range.start + 1}–${memory.count} (rows were deleted, inserted, edited or re-sorted)`,
		};
	}

	/** The poll's time is up: the rows read so far, if the window was among them (the next poll goes on). */
	cutShort(): Finding | undefined {
		const finding = this.end();
		return finding.kind === 'past' ? finding : undefined;
	}
}

/** At the Top, first: from where the row remembered last stood to the end; it must still be last. */
export class TopEnd implements Step {
	readonly range: ReadRange;
	private readonly read = new RangeRows();

	constructor(private readonly memory: Memory) {
		this.range = { start: memory.count - 1 };
	}

	take(rows: readonly ReportRow[], ids: readonly string[]): undefined {
		this.read.add(rows, ids);
		return undefined;
	}

	end(): Step | Finding {
		const { bases } = this.read;
		if (bases.length === 0) {
			return { kind: 'failed', reason: `the report has fewer than the ${this.memory.count} rows remembered (rows were deleted)` };
		}
		if (bases[bases.length - 1] !== this.memory.far) {
			return {
				kind: 'failed',
				reason: 'the row remembered last is no longer the last row (rows were added below the top, deleted, edited or re-sorted)',
			};
		}
		return new TopWindow(this.memory, bases.length - 1);
	}
}

/** At the Top, then: the window must stand right below the `added` rows above it. */
class TopWindow implements Step {
	readonly range: ReadRange;
	private readonly read = new RangeRows();

	constructor(
		private readonly memory: Memory,
		private readonly added: number,
	) {
		this.range = { start: 0, maxRows: added + windowLength(memory) };
	}

	take(rows: readonly ReportRow[], ids: readonly string[]): undefined {
		this.read.add(rows, ids);
		return undefined;
	}

	end(): Finding {
		if (windowAt(this.read.bases, this.memory.window!, this.added)) return { kind: 'past', added: this.read.rows.slice(0, this.added) };
		return {
			kind: 'failed',
			reason: `the rows remembered at the top no longer stand below the ${this.added} rows added above them (rows were deleted, inserted, edited or re-sorted)`,
		};
	}
}

/**
 * A bounded memory's check applied to a full read: Appended at the End, the rows after the remembered
 * row count are new, and are kept as they come (only they, not the whole report); At the Top, the
 * window must stand right above the remembered rows' end, and `judge` says how many rows are above
 * it: the reader reads them again (RowsAbove in fullRead.ts), as a report of repeating rows can show
 * the window earlier too.
 */
export class BoundaryInFullRead {
	private readonly kept: ReportRow[] = [];
	private index = 0;
	/** At the Top, where the rows a first run had still to emit begin, were no rows added above (backlog.ts). */
	private readonly backlogFrom: number | undefined;

	constructor(readonly memory: Memory) {
		this.backlogFrom = memory.position === 'top' && memory.backlog !== undefined ? memory.count - memory.backlog : undefined;
	}

	visit(row: ReportRow): void {
		if (this.memory.position === 'end' && this.index >= this.memory.count) this.kept.push(row);
		else if (this.backlogFrom !== undefined && this.index >= this.backlogFrom) this.kept.push(row);
		this.index++;
	}

	/**
	 * Once every row was read: the rows past the boundary, how many stand above it (with the rows a
	 * first run had still to emit at the bottom), or why it is not where it must be.
	 */
	judge(bases: IdentityList): { added: ReportRow[] } | { above: number; backlog: ReportRow[] } | { reason: string } {
		const { memory } = this;
		const length = windowLength(memory);
		if (memory.position === 'end') {
			if (windowAt(bases, memory.window!, memory.count - length)) return { added: this.kept };
			return { reason: `the ${length} rows remembered last are no longer rows ${memory.count - length + 1}–${memory.count}` };
		}
		const above = bases.length - memory.count;
		if (above >= 0 && windowAt(bases, memory.window!, above) && baseAt(bases, bases.length - 1) === memory.far) return { above, backlog: this.kept.slice(above) };
		return { reason: 'the rows remembered at the top and the row remembered last no longer stand where they stood' };
	}
}
