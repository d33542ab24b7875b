import { createHash } from 'node:crypto';

import fc from 'fast-check';

import type { IdentitySequence } from '../../../../nodes/RecordsReportTrigger/identities';
import { identityText } from '../../../../nodes/RecordsReportTrigger/identityText';
import { RememberedRows } from '../../../../nodes/RecordsReportTrigger/rememberedRows';
import { NewRowFinder } from '../../../../nodes/RecordsReportTrigger/rowFinder';
import { rowIdentityText } from '../../../../nodes/shared/report/rows';

const NOTHING = RememberedRows.stored(undefined);
/** The identities of a read, as texts. */
const texts = (identities: IdentitySequence): string[] => {
	const list: string[] = [];
	identities.forEach((source, at) => list.push(identityText(source, at)));
	return list;
};
const remembered = (finder: NewRowFinder) => RememberedRows.of(finder.identities);

describe('new row finder', () => {
	it('finds rows whose key is not remembered; the same row met twice in one read is emitted once', () => {
		const first = new NewRowFinder(['c1'], true, NOTHING);
		expect(['TX1', 'TX2', 'TX1'].map((id) => first.visit({ c1: id, c2: 'x' }))).toEqual([true, true, false]);
		// One identity per row read, so that positions in the report can be checked.
		expect(texts(first.identities)).toHaveLength(3);
		expect(new Set(texts(first.identities)).size).toBe(2);
		// Met twice because rows moved while the pages were read: no warning.
		expect(first.repeatedKeys).toEqual([]);

		const next = new NewRowFinder(['c1'], true, remembered(first));
		expect(next.visit({ c1: 'TX1', c2: 'changed' })).toBe(false);
		expect(next.visit({ c1: 'TX3', c2: 'x' })).toBe(true);
	});

	it('never drops a row silently when two rows share a key: new ones are emitted, every key is named', () => {
		const first = new NewRowFinder(['c1'], true, NOTHING);
		const visits = [
			{ c1: 'TX1', c2: 'a' },
			{ c1: 'TX1', c2: 'b' },
			{ c1: 'TX1', c2: 'b' },
			{ c1: 'TX2', c2: 'x' },
		].map((row) => first.visit(row));
		expect(visits).toEqual([true, true, false, true]);
		expect(first.repeatedKeys).toEqual([{ key: 'TX1', emitted: true }]);

		// Next poll: TX1 is remembered, so a further row with it is not emitted; it is named.
		const next = new NewRowFinder(['c1'], true, remembered(first));
		expect([next.visit({ c1: 'TX2', c2: 'x' }), next.visit({ c1: 'TX2', c2: 'y' })]).toEqual([false, false]);
		expect(next.repeatedKeys).toEqual([{ key: 'TX2', emitted: false }]);
		expect(next.repeatedKeyCount).toBe(1);
	});

	it('by whole row, counts identical rows as separate entries', () => {
		const fee = { c1: '1.1.2026', c2: '-10,00', c3: 'Poplatek' };
		const first = new NewRowFinder(['c1', 'c2', 'c3'], false, NOTHING);
		expect([first.visit(fee), first.visit({ ...fee })]).toEqual([true, true]);
		expect(new Set(texts(first.identities)).size).toBe(2);

		// The same two copies again: nothing new; a third copy: new.
		const next = new NewRowFinder(['c1', 'c2', 'c3'], false, remembered(first));
		expect([next.visit(fee), next.visit(fee), next.visit(fee)]).toEqual([false, false, true]);
		// An edited row is a new row.
		expect(next.visit({ ...fee, c2: '-11,00' })).toBe(true);
	});

	it('identifies rows of a report without column definitions by all their cells', () => {
		const finder = new NewRowFinder([], false, NOTHING);
		expect([finder.visit({ a: '1' }), finder.visit({ a: '2' })]).toEqual([true, true]);
		expect(new NewRowFinder([], false, remembered(finder)).visit({ a: '2' })).toBe(false);
	});
});

/**
 * Against the finder as it was with string identities (a Map of occurrences, identities as texts):
 * the same rows new, the same identities and bases, the same repeated keys, for random reads of rows
 * from a small pool (so that copies and repeated keys are common), with a remembered memory and rows
 * before the read from an earlier read of the same pool, by whole row and by key.
 */
describe('new row finder against its string model', () => {
	const hashOf = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 12);
	class StringFinder {
		readonly identities: string[] = [];
		readonly bases: string[] = [];
		readonly keys: string[] = [];
		private readonly occurrences = new Map<string, number>();
		private readonly emitted = new Map<string, Set<string>>();
		constructor(
			private readonly ids: string[],
			private readonly byKey: boolean,
			private readonly known: Set<string>,
			private readonly earlier?: Set<string>,
		) {}
		visit(row: Record<string, string>): boolean {
			// The text of the cells as the finder makes it (its format is tested with rows.ts).
			const text = rowIdentityText(row, this.ids);
			const base = hashOf(text);
			this.bases.push(base);
			const copy = (this.occurrences.get(base) ?? this.copiesEarlier(base)) + 1;
			this.occurrences.set(base, copy);
			const identity = this.byKey || copy === 1 ? base : hashOf(`${base}#${copy}`);
			this.identities.push(identity);
			if (!this.byKey) return !this.known.has(identity);
			const isNew = !this.known.has(base);
			if (copy >= 2) this.keys.push(text);
			if (!isNew) return false;
			const emitted = this.emitted.get(base) ?? new Set<string>();
			this.emitted.set(base, emitted);
			const json = JSON.stringify(row);
			if (copy === 1 || (emitted.size > 0 && !emitted.has(json))) {
				emitted.add(json);
				return true;
			}
			return false;
		}
		private copiesEarlier(base: string): number {
			if (this.earlier === undefined || !this.earlier.has(base)) return 0;
			if (this.byKey) return 1;
			let copies = 1;
			while (this.earlier.has(hashOf(`${base}#${copies + 1}`))) copies++;
			return copies;
		}
	}

	const row = fc.record({ c1: fc.constantFrom('TX1', 'TX2', 'TX3', 'Přeplatek'), c2: fc.constantFrom('a', 'b') });
	const read = fc.array(row, { maxLength: 14 });

	it('finds the same new rows, identities and bases', () => {
		fc.assert(
			fc.property(read, read, fc.boolean(), fc.boolean(), fc.constantFrom('memory', 'set', 'part'), (before, now, byKey, withEarlier, knownAs) => {
				const ids = byKey ? ['c1'] : ['c1', 'c2'];
				const previous = new StringFinder(ids, byKey, new Set());
				before.forEach((r) => previous.visit(r));
				const model = new StringFinder(ids, byKey, new Set(previous.identities), withEarlier ? new Set(previous.identities) : undefined);

				const stored = RememberedRows.stored(previous.identities.join(''));
				const known = knownAs === 'memory' ? stored : knownAs === 'set' ? { has: (s: Uint8Array, at: number) => stored.has(s, at) } : stored.reportPart(stored.size);
				const finder = new NewRowFinder(ids, byKey, known, withEarlier ? stored.reportPart(stored.size) : undefined);

				expect(now.map((r) => finder.visit(r))).toEqual(now.map((r) => model.visit(r)));
				expect(texts(finder.identities)).toEqual(model.identities);
				expect(texts(finder.bases)).toEqual(model.bases);
				expect(finder.repeatedKeyCount).toBeLessThanOrEqual(model.keys.length);
			}),
		);
	});
});
