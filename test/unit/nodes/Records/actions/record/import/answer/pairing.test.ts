/**
 * Which record each entry of an answer is about: the table "Which record an entry is about" of
 * docs/import.md, entry by entry (the record's position in the batch, or none).
 */
import { findAnswerParts } from '../../../../../../../../nodes/Records/actions/record/import/answer/findAnswerParts';
import { pairEntries } from '../../../../../../../../nodes/Records/actions/record/import/answer/pairing';

const RECORDS = [
	{ Název: 'Úkol A', Zadal: 'Jana' },
	{ Název: 'Úkol B', Zadal: 'Petr' },
	{ Název: 'Úkol C', Zadal: 'Jana' },
];

/** Per record, the messages of the entries paired with it; and the messages of the unpaired ones. */
function paired(body: unknown): { byRecord: string[][]; unpaired: string[] } {
	const { entries, lists } = findAnswerParts(body, RECORDS);
	const pairing = pairEntries(entries, lists, RECORDS);
	return {
		byRecord: pairing.byRecord.map((list) => list.map((entry) => entry.message ?? '')),
		unpaired: pairing.unpaired.map((entry) => entry.message ?? ''),
	};
}

describe('pairEntries', () => {
	it('by a number the answer settles to count from 0', () => {
		expect(paired({ results: [{ index: 0, message: 'a' }, { index: 2, message: 'c' }] })).toEqual({ byRecord: [['a'], [], ['c']], unpaired: [] });
	});

	it('by a number the answer settles to count from 1', () => {
		expect(paired({ results: [{ index: 3, message: 'c' }, { index: 1, message: 'a' }] })).toEqual({ byRecord: [['a'], [], ['c']], unpaired: [] });
	});

	it('a number whose counting is not settled names either record: neither paired nor unpaired', () => {
		const { entries, lists } = findAnswerParts({ results: [{ index: 2, status: 'error' }] }, RECORDS);
		const pairing = pairEntries(entries, lists, RECORDS);
		expect(pairing.byRecord.flat()).toEqual([]);
		expect(pairing.unpaired).toEqual([]);
		expect(pairing.eitherOf.map(({ positions }) => positions)).toEqual([[2, 1]]);
	});

	it('by the record\'s field values, when exactly one record has them', () => {
		expect(paired({ errors: [{ record: { Název: 'Úkol B' }, message: 'b' }] })).toEqual({ byRecord: [[], ['b'], []], unpaired: [] });
		expect(paired({ errors: [{ Zadal: 'Jana', message: 'two' }] })).toEqual({ byRecord: [[], [], []], unpaired: ['two'] });
	});

	it('by a text under another name that only one record has, before the entry\'s place', () => {
		const body = { results: [{ key: 'Úkol C', message: 'c' }, { key: 'Úkol A', message: 'a' }, { key: 'Úkol B', message: 'b' }] };
		expect(paired(body)).toEqual({ byRecord: [['a'], ['b'], ['c']], unpaired: [] });
	});

	it('texts that name two different records pair with neither', () => {
		expect(paired({ results: [{ key: 'Úkol B', ref: 'Úkol A', message: 'x' }] }).unpaired).toEqual(['x']);
	});

	it('by place only in a list of one entry per record in which none is named otherwise', () => {
		expect(paired([{ message: 'a' }, { message: 'b' }, { message: 'c' }])).toEqual({ byRecord: [['a'], ['b'], ['c']], unpaired: [] });
		expect(paired([{ message: 'a' }, { message: 'b' }])).toEqual({ byRecord: [[], [], []], unpaired: ['a', 'b'] });
		expect(paired([{ message: 'a' }, { message: 'b', key: 'Úkol A' }, { message: 'c' }]).unpaired).toEqual(['a', 'c']);
	});

	it('a number outside the batch names no record', () => {
		expect(paired({ errors: [{ index: 7, message: 'x' }] }).unpaired).toEqual(['x']);
	});
});
