/**
 * The compact identity structures (identities.ts) against plain models: a list against an array of
 * texts, an index against a Map from text to the row added last, its marks against a Set. Identities
 * are drawn from a small pool, and many share their first five bytes (where the index places them and
 * the byte it keeps beside a slot), so that duplicates, long probe runs and growth all happen.
 */
import fc from 'fast-check';

import { IdentityIndex, IdentityList } from '../../../../nodes/RecordsReportTrigger/identities';
import { identityText } from '../../../../nodes/RecordsReportTrigger/identityText';

/** 9 bytes; the first five from a tiny set, so that slots and tags collide. */
const identity = fc
	.tuple(fc.constantFrom(0, 1, 255), fc.uint8Array({ minLength: 4, maxLength: 4, min: 0, max: 3 }), fc.uint8Array({ minLength: 4, maxLength: 4 }))
	.map(([start, middle, end]) => Uint8Array.from([start, start, start, ...middle.slice(0, 2), ...end]));

const text = (bytes: Uint8Array) => identityText(bytes, 0);

function listOf(identities: Uint8Array[]): IdentityList {
	const list = new IdentityList();
	for (const bytes of identities) list.push(bytes, 0);
	return list;
}

const textsOf = (list: IdentityList, from = 0, to = list.length) => {
	const texts: string[] = [];
	list.part(from, to).forEach((source, at) => texts.push(identityText(source, at)));
	return texts;
};

describe('a list of identities', () => {
	it('holds what was pushed, in order, and reads the same over its stored bytes', () => {
		fc.assert(
			fc.property(fc.array(identity, { maxLength: 60 }), fc.nat(60), fc.nat(60), (identities, a, b) => {
				const list = listOf(identities);
				const model = identities.map(text);
				expect(list.length).toBe(model.length);
				expect(textsOf(list)).toEqual(model);
				expect(model.map((_, row) => list.text(row))).toEqual(model);
				const [from, to] = [Math.min(a, b, model.length), Math.min(Math.max(a, b), model.length)];
				expect(textsOf(list, from, to)).toEqual(model.slice(from, to));
				expect(textsOf(IdentityList.over(list.bytes()))).toEqual(model);
				identities.forEach((bytes, row) => expect(list.equals(row, bytes, 0)).toBe(true));
			}),
		);
	});

	it('grows past a chunk without moving what it holds', () => {
		const rows = 70_000;
		const list = new IdentityList();
		const bytes = new Uint8Array(9);
		for (let row = 0; row < rows; row++) {
			new DataView(bytes.buffer).setUint32(5, row);
			list.push(bytes, 0);
		}
		const stored = IdentityList.over(list.bytes());
		for (const row of [0, 65_535, 65_536, rows - 1]) {
			new DataView(bytes.buffer).setUint32(5, row);
			expect([list.equals(row, bytes, 0), stored.equals(row, bytes, 0)]).toEqual([true, true]);
		}
		expect(stored.length).toBe(rows);
	});
});

describe('an index of identities', () => {
	it('finds each identity at the row added last, and nothing else; marks as a set does', () => {
		fc.assert(
			fc.property(
				fc.array(identity, { maxLength: 120 }),
				fc.array(identity, { maxLength: 30 }),
				fc.array(fc.nat(), { maxLength: 40 }),
				fc.nat(200),
				(identities, others, toMark, expected) => {
					const list = listOf(identities);
					const index = new IdentityIndex(list, expected % 3 === 0 ? 0 : expected);
					const last = new Map<string, number>();
					identities.forEach((bytes, row) => {
						index.add(row);
						last.set(text(bytes), row);
					});
					expect(index.size).toBe(last.size);
					for (const bytes of identities.concat(others)) {
						const slot = index.find(bytes, 0);
						const row = last.get(text(bytes));
						expect(slot >= 0 ? index.row(slot) : undefined).toBe(row);
					}
					// Marks: a set of the identities marked.
					const marked = new Set<string>();
					for (const pick of toMark) {
						if (identities.length === 0) break;
						const bytes = identities[pick % identities.length];
						expect(index.mark(index.find(bytes, 0))).toBe(marked.has(text(bytes)));
						marked.add(text(bytes));
					}
					expect(index.marked).toBe(marked.size);
					for (const bytes of identities) expect(index.isMarked(index.find(bytes, 0))).toBe(marked.has(text(bytes)));
					index.clearMarks();
					expect(index.marked).toBe(0);
					for (const bytes of identities) expect(index.isMarked(index.find(bytes, 0))).toBe(false);
				},
			),
		);
	});

	it('indexes a part of a list only', () => {
		fc.assert(
			fc.property(fc.array(identity, { maxLength: 60 }), fc.nat(60), fc.nat(60), (identities, a, b) => {
				const list = listOf(identities);
				const [from, to] = [Math.min(a, b, list.length), Math.min(Math.max(a, b), list.length)];
				const index = IdentityIndex.of(list, from, to);
				const part = new Set(identities.slice(from, to).map(text));
				for (const bytes of identities) expect(index.find(bytes, 0) >= 0).toBe(part.has(text(bytes)));
			}),
		);
	});
});
