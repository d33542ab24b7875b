/**
 * The rows a read must find again to be sure a page boundary did not move: the last row read, the
 * identical rows right before it, and the one different row before those. Pure module.
 *
 * Why more than the last row: when the rows at a page boundary are identical (two equal bank fees),
 * a row inserted above the read position moves a copy of the last row into its place, and checking
 * the last row alone would pass while that copy is read twice. The different row before the run
 * cannot stand where it stood after a shift of one row, so checking back to it catches every row
 * added or deleted above the read position between two requests. Rows are kept as JSON.
 */
export class TrailingRun {
	private rows: string[] = [];

	/** Runs longer than this are checked only as far back as this (it bounds memory and requests). */
	static readonly MAX_ROWS = 1_000;

	/** Notes the rows handed on, in order. */
	add(rows: readonly unknown[]): void {
		for (const row of rows) {
			const json = JSON.stringify(row);
			const last = this.rows[this.rows.length - 1];
			if (json === last) {
				if (this.rows.length < TrailingRun.MAX_ROWS) this.rows.push(json);
			} else {
				this.rows = last === undefined ? [json] : [last, json];
			}
		}
	}

	/** The rows to find again, oldest first: the one different row (if read), then the run. */
	get expected(): readonly string[] {
		// A single different row before the last: only the last row needs checking.
		return this.rows.length === 2 && this.rows[0] !== this.rows[1] ? this.rows.slice(1) : this.rows;
	}

	/** Whether `rows` (as the service sends them now, ending right before the read position) match. */
	matches(rows: readonly unknown[]): boolean {
		const expected = this.expected;
		if (rows.length !== expected.length) return false;
		return rows.every((row, index) => JSON.stringify(row) === expected[index]);
	}

	/** Restores the rows from `expected` saved earlier (a read that goes on in a later poll). */
	static from(expected: readonly string[]): TrailingRun {
		const run = new TrailingRun();
		run.rows = [...expected];
		return run;
	}
}
