import { NewRowFinder } from '../../../../nodes/RecordsReportTrigger/rowFinder';

describe('new row finder', () => {
	it('finds rows whose key is not remembered; the same row met twice in one read is emitted once', () => {
		const first = new NewRowFinder(['c1'], true, new Set());
		expect(['TX1', 'TX2', 'TX1'].map((id) => first.visit({ c1: id, c2: 'x' }))).toEqual([true, true, false]);
		// One identity per row read, so that positions in the report can be checked.
		expect(first.identities).toHaveLength(3);
		expect(new Set(first.identities).size).toBe(2);
		// Met twice because rows moved while the pages were read: no warning.
		expect(first.repeatedKeys).toEqual([]);

		const next = new NewRowFinder(['c1'], true, new Set(first.identities));
		expect(next.visit({ c1: 'TX1', c2: 'changed' })).toBe(false);
		expect(next.visit({ c1: 'TX3', c2: 'x' })).toBe(true);
	});

	it('never drops a row silently when two rows share a key: new ones are emitted, every key is named', () => {
		const first = new NewRowFinder(['c1'], true, new Set());
		const visits = [
			{ c1: 'TX1', c2: 'a' },
			{ c1: 'TX1', c2: 'b' },
			{ c1: 'TX1', c2: 'b' },
			{ c1: 'TX2', c2: 'x' },
		].map((row) => first.visit(row));
		expect(visits).toEqual([true, true, false, true]);
		expect(first.repeatedKeys).toEqual([{ key: 'TX1', emitted: true }]);

		// Next poll: TX1 is remembered, so a further row with it is not emitted; it is named.
		const next = new NewRowFinder(['c1'], true, new Set(first.identities));
		expect([next.visit({ c1: 'TX2', c2: 'x' }), next.visit({ c1: 'TX2', c2: 'y' })]).toEqual([false, false]);
		expect(next.repeatedKeys).toEqual([{ key: 'TX2', emitted: false }]);
		expect(next.repeatedKeyCount).toBe(1);
	});

	it('by whole row, counts identical rows as separate entries', () => {
		const fee = { c1: '1.1.2026', c2: '-10,00', c3: 'Poplatek' };
		const first = new NewRowFinder(['c1', 'c2', 'c3'], false, new Set());
		expect([first.visit(fee), first.visit({ ...fee })]).toEqual([true, true]);
		expect(new Set(first.identities).size).toBe(2);

		// The same two copies again: nothing new; a third copy: new.
		const next = new NewRowFinder(['c1', 'c2', 'c3'], false, new Set(first.identities));
		expect([next.visit(fee), next.visit(fee), next.visit(fee)]).toEqual([false, false, true]);
		// An edited row is a new row.
		expect(next.visit({ ...fee, c2: '-11,00' })).toBe(true);
	});

	it('identifies rows of a report without column definitions by all their cells', () => {
		const finder = new NewRowFinder([], false, new Set());
		expect([finder.visit({ a: '1' }), finder.visit({ a: '2' })]).toEqual([true, true]);
		expect(new NewRowFinder([], false, new Set(finder.identities)).visit({ a: '2' })).toBe(false);
	});
});
