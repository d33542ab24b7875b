/**
 * TrailingRun against its definition: after any rows handed on in any pages, the rows the change
 * check finds again are the last row, the identical rows right before it, and the one different row
 * before those; `expected` (what the Report Trigger's memory stores) lists at most MAX_ROWS of the
 * run, and the row before it only when the run is longer than one row and shorter than that.
 */
import fc from 'fast-check';

import { TrailingRun } from '../../../../../nodes/shared/report/trailingRun';

/** The definition, from every row read so far. */
function expectedOf(rows: readonly string[]): string[] {
	if (rows.length === 0) return [];
	const last = rows[rows.length - 1];
	let run = 0;
	while (run < rows.length && run < TrailingRun.MAX_ROWS && rows[rows.length - 1 - run] === last) run++;
	const before = run < TrailingRun.MAX_ROWS ? rows[rows.length - 1 - run] : undefined;
	const runRows = new Array<string>(run).fill(JSON.stringify(last));
	return before === undefined || run === 1 ? runRows : [JSON.stringify(before), ...runRows];
}

/** The rows the change check compares, whatever the run's length. */
function checkedOf(rows: readonly string[]): string[] {
	if (rows.length === 0) return [];
	let first = rows.length - 1;
	while (first > 0 && rows[first - 1] === rows[rows.length - 1]) first--;
	return rows.slice(Math.max(0, first - 1));
}

const pages = (rows: fc.Arbitrary<string>) => fc.array(fc.array(rows, { maxLength: 8 }), { maxLength: 12 });

describe('TrailingRun', () => {
	it('keeps what its definition says, whatever the rows and however they are paged', () => {
		fc.assert(
			fc.property(pages(fc.constantFrom('a', 'b', 'c')), (paged) => {
				const run = new TrailingRun();
				const read: string[] = [];
				for (const page of paged) {
					run.add(page);
					read.push(...page);
					expect(run.expected).toEqual(expectedOf(read));
					const checked = checkedOf(read);
					expect(run.length).toBe(checked.length);
					expect(run.agrees(checked)).toBe(true);
					expect(run.agrees(checked.slice(1), 1)).toBe(true);
				}
			}),
			{ numRuns: 2_000, seed: 5 },
		);
	});

	it('a single last row is checked with the row before it: a move by two rows onto an identical row shows (finding 3.1)', () => {
		const run = new TrailingRun();
		run.add(['T5', 'FEE']);
		expect(run.length).toBe(2);
		expect(run.agrees(['T5', 'FEE'])).toBe(true);
		// Two rows added above: the fee before, with its transaction, stands where these stood.
		expect(run.agrees(['T4', 'FEE'])).toBe(false);
	});

	it('the change check compares a run of any length whole, with the row before it', () => {
		const run = new TrailingRun();
		run.add(['x', ...new Array<string>(700).fill('y')]);
		run.add(new Array<string>(3_000).fill('y'));
		expect(run.length).toBe(3_701);
		expect(run.agrees(['x', ...new Array<string>(3_700).fill('y')])).toBe(true);
		expect(run.agrees(['y'])).toBe(false);
		expect(run.agrees(['y', 'y', 'y'], 3_698)).toBe(true);
	});

	it('a memory stores a run longer than MAX_ROWS only as far back as MAX_ROWS, without the row before it', () => {
		const run = new TrailingRun();
		run.add(['x', ...new Array<string>(700).fill('y')]);
		run.add(new Array<string>(700).fill('y'));
		expect(run.expected).toEqual(new Array<string>(TrailingRun.MAX_ROWS).fill('"y"'));
		expect(run.matches(new Array<string>(TrailingRun.MAX_ROWS).fill('y'))).toBe(true);
	});

	it('a restored run goes on as the one it was saved from', () => {
		const original = new TrailingRun();
		original.add(['a', 'b', 'b']);
		const restored = TrailingRun.from(original.expected);
		restored.add(['b', 'b']);
		expect(restored.expected).toEqual(['"a"', '"b"', '"b"', '"b"', '"b"']);
	});
});
