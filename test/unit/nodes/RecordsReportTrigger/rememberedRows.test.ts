import fc from 'fast-check';

import { IdentityList, type IdentitySequence } from '../../../../nodes/RecordsReportTrigger/identities';
import { writeIdentityBytes } from '../../../../nodes/RecordsReportTrigger/identityText';
import { RememberedRows } from '../../../../nodes/RecordsReportTrigger/rememberedRows';

const id = (letter: string) => letter.repeat(12);
/** Identities from their texts. */
const list = (texts: string[]) => {
	const identities = new IdentityList();
	const bytes = new Uint8Array(9);
	for (const text of texts) {
		writeIdentityBytes(text, bytes, 0);
		identities.push(bytes, 0);
	}
	return identities;
};
const of = (letters: string) => RememberedRows.of(list([...letters].map(id)));
const has = (rows: { has(source: Uint8Array, at: number): boolean }, text: string) => rows.has(list([text]).bytesOf(0), 0);
/** The stored form, each identity shortened back to its letter. */
const letters = (rows: RememberedRows) => rows.encode().replace(/(.)\1{11}/g, '$1');

describe('the per-row memory', () => {
	it('after a full read keeps rows gone from the report before the current rows, and cuts the oldest first', () => {
		const current = list([...'cd'].map(id));
		expect(letters(of('abc').afterRead(current, 10))).toBe('abcd');
		expect(letters(of('abc').afterRead(current, 3))).toBe('bcd');
		expect(letters(of('abc').afterRead(current, 2))).toBe('cd');
		// A row seen again moves behind the rows that left the report.
		expect(letters(of('xy').afterRead(list([id('x'), id('z')]), 3))).toBe('yxz');
	});

	it('after an ordered poll puts the added rows at the end or the top of the report part; a returning row leaves the gone part', () => {
		// 'g' left the report earlier; the report is [a, b].
		expect(letters(of('gab').afterAdded(2, list([id('c')]), 'end', 10))).toBe('gabc');
		expect(letters(of('gab').afterAdded(2, list([id('c')]), 'top', 10))).toBe('gcab');
		expect(letters(of('gab').afterAdded(2, list([id('g')]), 'end', 10))).toBe('abg');
		expect(letters(of('gab').afterAdded(2, list([id('c')]), 'end', 3))).toBe('abc');
	});

	it('tells which identities it holds, and the report part of the last read', () => {
		const rows = RememberedRows.stored(of('gab').encode());
		expect([has(rows, id('g')), has(rows, id('z')), rows.hasText(id('a'))]).toEqual([true, false, true]);
		const part = rows.reportPart(2);
		expect([has(part, id('g')), has(part, id('a')), has(part, id('b'))]).toEqual([false, true, true]);
		expect(RememberedRows.stored(undefined).size).toBe(0);
	});
});

/**
 * Against a plain model: the memory as an array of identity texts, and each operation as the trigger
 * did it before the compact form (Set and Array operations on the texts). Identities from a pool of
 * a few letters, so that rows repeat, leave and come back.
 */
describe('the per-row memory against an array of texts', () => {
	const texts = fc.array(fc.constantFrom(...'abcdefgh').map(id), { maxLength: 12 });
	const cut = (all: string[], max: number) => (all.length > max ? all.slice(all.length - max) : all);
	const stored = (model: string[]) => RememberedRows.stored(model.join(''));
	/** The identities of a read that marked them through `rows` as it met them (as a full read does). */
	const metThrough = (rows: RememberedRows, identities: string[]): IdentitySequence => {
		const current = list(identities);
		rows.beginRead();
		current.forEach((source, at) => {
			const slot = rows.slotOf(source, at);
			if (slot >= 0) rows.meet(slot);
		});
		return { length: current.length, forEach: (visit) => current.forEach(visit), metIn: rows };
	};

	it('after a full read: the rows gone from the report, then the report, cut to the most', () => {
		fc.assert(
			fc.property(texts, texts, fc.integer({ min: 1, max: 30 }), fc.boolean(), (before, current, max, met) => {
				const inReport = new Set(current);
				const expected = cut(before.filter((text) => !inReport.has(text)).concat(current), max).join('');
				const rows = stored(before);
				const after = rows.afterRead(met ? metThrough(rows, current) : list(current), max);
				expect(after.encode()).toBe(expected);
				expect(after.size).toBe(expected.length / 12);
			}),
		);
	});

	it('after an ordered poll: the added rows at their end of the report part, a returning row out of the gone part', () => {
		fc.assert(
			fc.property(texts, fc.nat(12), texts, fc.constantFrom('end' as const, 'top' as const), fc.integer({ min: 1, max: 30 }), (before, reportRows, added, at, max) => {
				const back = new Set(added);
				const split = Math.max(0, before.length - reportRows);
				const gone = before.slice(0, split).filter((text) => !back.has(text));
				const report = before.slice(split);
				const all = added.length === 0 ? before : at === 'end' ? gone.concat(report, added) : gone.concat(added, report);
				const expected = (added.length === 0 ? all : cut(all, max)).join('');
				expect(stored(before).afterAdded(reportRows, list(added), at, max).encode()).toBe(expected);
			}),
		);
	});

	it('knows which identities it holds, and which the last `count` hold', () => {
		fc.assert(
			fc.property(texts, fc.nat(12), fc.constantFrom(...'abcdefghij').map(id), (model, count, probe) => {
				const rows = stored(model);
				expect([has(rows, probe), rows.hasText(probe)]).toEqual([model.includes(probe), model.includes(probe)]);
				expect(has(rows.reportPart(Math.min(count, model.length)), probe)).toBe(model.slice(model.length - Math.min(count, model.length)).includes(probe));
				expect(rows.size).toBe(model.length);
			}),
		);
	});

	it('hands back the very string it was read from when a read changes nothing', () => {
		const text = ['a', 'b', 'c'].map(id).join('');
		const rows = RememberedRows.stored(text);
		const same = rows.afterRead(list(['a', 'b', 'c'].map(id)), 10);
		expect(same.encode()).toBe(text);
		expect(same).toBe(rows);
		// Read in another order, or cut to fewer: a new memory.
		expect(rows.afterRead(list(['b', 'a', 'c'].map(id)), 10).encode()).toBe(['b', 'a', 'c'].map(id).join(''));
		expect(rows.afterRead(list(['a', 'b', 'c'].map(id)), 2).encode()).toBe(['b', 'c'].map(id).join(''));
	});

	it('reads only its own stored form', () => {
		expect([RememberedRows.isStored(id('a') + id('-')), RememberedRows.isStored(''), RememberedRows.isStored('a'.repeat(11) + '=')]).toEqual([true, true, false]);
		expect([RememberedRows.isStored('a'.repeat(13)), RememberedRows.isStored(12)]).toEqual([false, false]);
	});
});
