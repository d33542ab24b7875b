/**
 * The rows before a page boundary that a read must find again before it takes the rows after it
 * (boundaryCheck.ts): the last row read, the identical rows right before it, and the one different
 * row before those (when the read has it). Pure module.
 *
 * Why these rows: a row added or removed above the boundary moves the rows not read yet, and the
 * rows before the boundary with them. The last row alone misses a move that brings an identical row
 * to its place: two equal bank fees, or a transaction and its fee added together above a fee (a move
 * by two rows). With the whole run of identical rows and the different row before it, no move by as
 * many rows as the run is long, or fewer, can pass (the different row would land inside the run),
 * and a longer move passes only where the report holds these same rows, in this order, exactly that
 * many rows away: a report that repeats whole blocks of rows. Where the run reaches back to the first row read,
 * every row read is compared.
 *
 * A run is kept as one row and a count, so a run of any length costs nothing; rows are kept as JSON.
 */
export class TrailingRun {
	/** The different row before the run, when read. */
	private before: string | undefined;

	private last: string | undefined;

	/** Identical rows at the end of the rows read (the last one included). */
	private run = 0;

	/** `expected` (what a memory stores) lists a run only this far back, without the row before it. */
	static readonly MAX_ROWS = 1_000;

	/**
	 * Notes the rows handed on, in order. Only a page's end is turned into JSON: a read of a large
	 * report costs a few rows per page, not every row.
	 */
	add(rows: readonly unknown[]): void {
		if (rows.length === 0) return;
		const last = JSON.stringify(rows[rows.length - 1]);
		let run = 1;
		let before: string | undefined;
		for (let index = rows.length - 2; index >= 0; index--) {
			const json = JSON.stringify(rows[index]);
			if (json !== last) {
				before = json;
				break;
			}
			run++;
		}
		if (run === rows.length) {
			// The whole page is one run: it goes on with the rows before it, or begins after them.
			if (last === this.last) {
				this.run += run;
				return;
			}
			before = this.last;
		}
		this.before = before;
		this.last = last;
		this.run = run;
	}

	/** How many rows the check compares: the run, and the row before it when read. */
	get length(): number {
		return this.run + (this.before === undefined ? 0 : 1);
	}

	/** The JSON of the check's row `index`, counted from the oldest. */
	private row(index: number): string {
		return index === 0 && this.before !== undefined ? this.before : (this.last as string);
	}

	/**
	 * Whether `rows`, as the service sends them now, are the check's rows from `from` on (rows[0]
	 * against the check's row `from`); rows past the check's last row are not looked at.
	 */
	agrees(rows: readonly unknown[], from = 0): boolean {
		const count = Math.min(rows.length, this.length - from);
		for (let index = 0; index < count; index++) {
			if (JSON.stringify(rows[index]) !== this.row(from + index)) return false;
		}
		return true;
	}

	/**
	 * The rows to find again as JSON, oldest first, in the shorter form the Report Trigger's memory
	 * stores (where a read split over polls goes on): a run longer than MAX_ROWS only that far back,
	 * without the row before it, and a single last row without the row before it.
	 */
	get expected(): string[] {
		if (this.last === undefined) return [];
		const kept = Math.min(this.run, TrailingRun.MAX_ROWS);
		const run = new Array<string>(kept).fill(this.last);
		return this.before === undefined || this.run === 1 || this.run >= TrailingRun.MAX_ROWS ? run : [this.before, ...run];
	}

	/** Whether `rows` (as the service sends them now, ending right before the read position) are `expected`. */
	matches(rows: readonly unknown[]): boolean {
		const expected = this.expected;
		return rows.length === expected.length && rows.every((row, index) => JSON.stringify(row) === expected[index]);
	}

	/** Restores the rows from `expected` saved earlier (a read that goes on in a later poll). */
	static from(expected: readonly string[]): TrailingRun {
		const restored = new TrailingRun();
		if (expected.length === 0) return restored;
		const last = expected[expected.length - 1];
		let run = 0;
		while (run < expected.length && expected[expected.length - 1 - run] === last) run++;
		restored.last = last;
		restored.run = run;
		restored.before = run < expected.length ? expected[expected.length - 1 - run] : undefined;
		return restored;
	}
}
