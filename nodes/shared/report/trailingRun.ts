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

	/**
	 * Notes the rows handed on, in order. Only a page's end matters, so only the rows identical to its
	 * last one and the row before them are turned into JSON: a read of a large report costs a few rows
	 * per page, not every row.
	 */
	add(rows: readonly unknown[]): void {
		if (rows.length === 0) return;
		const last = JSON.stringify(rows[rows.length - 1]);
		let run = 1;
		let before: string | undefined;
		for (let index = rows.length - 2; index >= 0 && run < TrailingRun.MAX_ROWS; index--) {
			const json = JSON.stringify(rows[index]);
			if (json !== last) {
				before = json;
				break;
			}
			run++;
		}
		if (run === rows.length) {
			// The whole page is one run: it goes on from the rows before it.
			const earlier = this.rows;
			let earlierRun = 0;
			while (earlierRun < earlier.length && earlier[earlier.length - 1 - earlierRun] === last) earlierRun++;
			run += earlierRun;
			before = earlier.length > earlierRun ? earlier[earlier.length - 1 - earlierRun] : undefined;
		}
		// A run that reached MAX_ROWS is checked that far back only: the row before it stands further up.
		const kept = Math.min(run, TrailingRun.MAX_ROWS);
		const runRows = new Array<string>(kept).fill(last);
		this.rows = before === undefined || run >= TrailingRun.MAX_ROWS ? runRows : [before, ...runRows];
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
