import { RememberedRows } from '../../../../nodes/RecordsReportTrigger/rememberedRows';

const id = (letter: string) => letter.repeat(12);
const of = (letters: string) => RememberedRows.of([...letters].map(id));
/** The stored form, each identity shortened back to its letter. */
const letters = (rows: RememberedRows) => rows.encode().replace(/(.)\1{11}/g, '$1');

describe('the per-row memory', () => {
	it('after a full read keeps rows gone from the report before the current rows, and cuts the oldest first', () => {
		const current = [...'cd'].map(id);
		expect(letters(of('abc').afterRead(current, 10))).toBe('abcd');
		expect(letters(of('abc').afterRead(current, 3))).toBe('bcd');
		expect(letters(of('abc').afterRead(current, 2))).toBe('cd');
		// A row seen again moves behind the rows that left the report.
		expect(letters(of('xy').afterRead([id('x'), id('z')], 3))).toBe('yxz');
	});

	it('after an ordered poll puts the added rows at the end or the top of the report part; a returning row leaves the gone part', () => {
		// 'g' left the report earlier; the report is [a, b].
		expect(letters(of('gab').afterAdded(2, [id('c')], 'end', 10))).toBe('gabc');
		expect(letters(of('gab').afterAdded(2, [id('c')], 'top', 10))).toBe('gcab');
		expect(letters(of('gab').afterAdded(2, [id('g')], 'end', 10))).toBe('abg');
		expect(letters(of('gab').afterAdded(2, [id('c')], 'end', 3))).toBe('abc');
	});

	it('tells which identities it holds, and the report part of the last read', () => {
		const rows = RememberedRows.stored(of('gab').encode());
		expect([rows.has(id('g')), rows.has(id('z'))]).toEqual([true, false]);
		expect([...rows.reportPart(2)]).toEqual([id('a'), id('b')]);
		expect(RememberedRows.stored(undefined).size).toBe(0);
	});
});
