import type { ReportRow } from '../../../../nodes/shared/report/rows';
import { readOrdered, type NewRowPosition, type RowSource } from '../../../../nodes/RecordsReportTrigger/orderedRead';
import { NewRowFinder } from '../../../../nodes/RecordsReportTrigger/rememberedRows';

/** A report held in an array, read in pages of 3 like the paging engine reads a service's pages. */
class ArrayReport {
	reads: Array<{ start: number; rows: number }> = [];
	constructor(public rows: ReportRow[]) {}
	source(memory: { identities: string[]; reportRows: number } | undefined, byKey = false): RowSource {
		const known = new Set(memory?.identities ?? []);
		return {
			read: async (start, maxRows, onRows) => {
				const end = maxRows === undefined ? this.rows.length : Math.min(this.rows.length, start + maxRows);
				let read = 0;
				for (let offset = start; offset < end || offset === start; offset += 3) {
					const page = this.rows.slice(offset, Math.min(end, offset + 3));
					read += page.length;
					if (page.length === 0 || onRows(page) === 'stop') break;
				}
				this.reads.push({ start, rows: read });
			},
			remembered: () => memory,
			finder: (earlier) => new NewRowFinder(columnsOf(byKey), byKey, known, earlier),
		};
	}
}

/** By key, column c1 is the key; by whole row, both columns count. */
const columnsOf = (byKey: boolean) => (byKey ? ['c1'] : ['c1', 'c2']);
const row = (id: string, amount = '1,00'): ReportRow => ({ c1: id, c2: amount });
const rows = (...ids: string[]) => ids.map((id) => row(id));

/** What a full read remembers: an identity per row, the report's rows at the end. */
function fullRead(report: ReportRow[], byKey = false) {
	const finder = new NewRowFinder(columnsOf(byKey), byKey, new Set());
	for (const r of report) finder.visit(r);
	return { identities: finder.identities, reportRows: report.length };
}

async function poll(position: NewRowPosition, before: ReportRow[], after: ReportRow[], byKey = false) {
	const report = new ArrayReport(after);
	const outcome = await readOrdered(position, report.source(fullRead(before, byKey), byKey));
	return { outcome, reads: report.reads };
}

describe('ordered poll, new rows appended at the end', () => {
	it('with no new rows reads row 1 and the last remembered row only', async () => {
		const { outcome, reads } = await poll('end', rows('a', 'b', 'c', 'd', 'e'), rows('a', 'b', 'c', 'd', 'e'));
		expect(outcome).toMatchObject({ kind: 'ordered', newRows: [], added: [] });
		expect(reads).toEqual([{ start: 0, rows: 1 }, { start: 4, rows: 1 }]);
	});

	it('emits the appended rows, and their identities are those a full read gives', async () => {
		const after = rows('a', 'b', 'c', 'd', 'e', 'f');
		const { outcome } = await poll('end', rows('a', 'b', 'c', 'd'), after);
		expect(outcome).toMatchObject({ kind: 'ordered', newRows: rows('e', 'f') });
		if (outcome.kind !== 'ordered') return;
		expect(outcome.added).toEqual(fullRead(after).identities.slice(4));
	});

	it('counts copies of earlier rows it did not read, as a full read does', async () => {
		// Two equal bank fees: the appended copy is the third, new; identities match a full read.
		const before = rows('fee', 'x', 'fee');
		const after = rows('fee', 'x', 'fee', 'fee');
		const { outcome } = await poll('end', before, after);
		expect(outcome).toMatchObject({ kind: 'ordered', newRows: rows('fee') });
		if (outcome.kind !== 'ordered') return;
		expect(outcome.added).toEqual(fullRead(after).identities.slice(3));
	});

	it.each([
		['a row deleted', rows('a', 'c', 'd', 'e'), 'row 4 is not the row remembered last'],
		['the first row deleted', rows('b', 'c', 'd', 'e'), 'row 1 is not the row remembered first'],
		['the report shrank', rows('a', 'b'), 'fewer than the 4 rows expected'],
		['the report emptied', [], 'the report has no rows now, 4 were remembered'],
		['re-sorted', rows('d', 'c', 'b', 'a'), 'row 1 is not the row remembered first'],
		['the last row edited', [...rows('a', 'b', 'c'), row('d', '2,00')], 'row 4 is not the row remembered last'],
		['a row inserted above the boundary', rows('a', 'x', 'b', 'c', 'd'), 'row 4 is not the row remembered last'],
	])('falls back to a full read when %s, saying why', async (_, after, reason) => {
		const { outcome } = await poll('end', rows('a', 'b', 'c', 'd'), after);
		expect(outcome.kind).toBe('full');
		expect(outcome.kind === 'full' && outcome.reason).toContain(reason);
	});

	it('reads in full, without a reason, when nothing of the order is remembered', async () => {
		const report = new ArrayReport(rows('a'));
		const outcome = await readOrdered('end', report.source({ identities: [], reportRows: 0 }));
		expect(outcome).toEqual({ kind: 'full' });
		expect(await readOrdered('end', new ArrayReport(rows('a')).source(undefined))).toEqual({ kind: 'full' });
	});
});

describe('ordered poll, new rows at the top', () => {
	it('reads down to the row remembered first, then checks the last row and the end', async () => {
		const { outcome, reads } = await poll('top', rows('c', 'b', 'a'), rows('e', 'd', 'c', 'b', 'a'));
		expect(outcome).toMatchObject({ kind: 'ordered', newRows: rows('e', 'd') });
		expect(reads).toEqual([{ start: 0, rows: 3 }, { start: 4, rows: 1 }]);
		if (outcome.kind !== 'ordered') return;
		expect(outcome.added).toEqual(fullRead(rows('e', 'd', 'c', 'b', 'a')).identities.slice(0, 2));
	});

	it('with no new rows emits nothing', async () => {
		const { outcome } = await poll('top', rows('c', 'b', 'a'), rows('c', 'b', 'a'));
		expect(outcome).toMatchObject({ kind: 'ordered', newRows: [], added: [] });
	});

	it.each([
		['a row deleted', rows('d', 'c', 'a'), 'fewer than the 4 rows expected'],
		['the first row deleted', rows('d', 'b', 'a'), 'row 2 was seen before but stands above the row remembered first'],
		['rows appended at the end', rows('d', 'c', 'b', 'a', 'z'), 'rows follow the row remembered last, at row 5'],
		['re-sorted', rows('a', 'b', 'c'), 'row 1 was seen before'],
		['every row replaced', rows('x', 'y'), 'the row remembered first is no longer in the report'],
		['the last row edited', [...rows('d', 'c', 'b'), row('a', '9,00')], 'row 4 is not the row remembered last'],
	])('falls back to a full read when %s, saying why', async (_, after, reason) => {
		const { outcome } = await poll('top', rows('c', 'b', 'a'), after);
		expect(outcome.kind).toBe('full');
		expect(outcome.kind === 'full' && outcome.reason).toContain(reason);
	});
});

describe('ordered poll by key columns', () => {
	it('an edited boundary row is the same row: no fallback', async () => {
		const { outcome } = await poll('end', rows('a', 'b'), [row('a'), row('b', '5,00'), row('c')], true);
		expect(outcome).toMatchObject({ kind: 'ordered', newRows: [row('c')] });
	});

	it('an appended row with a remembered key is not emitted, and its key is named', async () => {
		const { outcome } = await poll('end', rows('a', 'b'), [row('a'), row('b'), row('a', '7,00')], true);
		expect(outcome).toMatchObject({ kind: 'ordered', newRows: [] });
		if (outcome.kind !== 'ordered') return;
		expect(outcome.finders[0].repeatedKeys).toEqual([{ key: 'a', emitted: false }]);
	});
});
