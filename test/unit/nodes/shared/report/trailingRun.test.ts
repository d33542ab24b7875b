/**
 * TrailingRun against its definition: after any rows handed on in any pages, the rows to find again
 * are the last row, the identical rows right before it (at most MAX_ROWS in all), and the one
 * different row before those when the run is shorter than that.
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
	// A single different row before the last: only the last row needs checking.
	if (run === 1) return runRows;
	return before === undefined ? runRows : [JSON.stringify(before), ...runRows];
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
				}
			}),
			{ numRuns: 2_000, seed: 5 },
		);
	});

	it('checks a run longer than MAX_ROWS only as far back as MAX_ROWS, without the row before it', () => {
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
