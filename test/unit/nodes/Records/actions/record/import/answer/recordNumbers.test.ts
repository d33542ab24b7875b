import {
	claimOf,
	findNamedRecord,
	recordWithIdentity,
	settleCounting,
} from '../../../../../../../../nodes/Records/actions/record/import/answer/recordNumbers';

const RECORDS = [{ Název: 'a' }, { Název: 'b', Popis: 'x' }, { Název: 'c' }];

describe('findNamedRecord', () => {
	it('reads the record and field from the sandbox message', () => {
		expect(findNamedRecord('Record 3: unknown field "Kolik stálo" for record type "faktury-prijate". Did you mean …')).toEqual({
			index: 3,
			field: 'Kolik stálo',
			fieldSent: true,
		});
	});

	it.each([
		['record #12 is invalid', 12, undefined],
		['data[7].Název must not be empty', 7, true],
		['data.4.Zadal: unknown user', 4, true],
		['/data/5 is not an object', 5, true],
		['Invalid value at index: 4', 4, undefined],
	])('reads %p', (text, index, inSentList) => {
		expect(findNamedRecord(text)?.index).toBe(index);
		expect(findNamedRecord(text)?.inSentList).toBe(inSentList);
	});

	it('knows a missing field is not one the record was sent with', () => {
		expect(findNamedRecord('Record 2: field "Zadal" is required')).toMatchObject({ field: 'Zadal', fieldSent: false });
	});

	it('finds nothing in a message without a record number', () => {
		expect(findNamedRecord('Record type "x" is locked')).toBeUndefined();
		expect(findNamedRecord('')).toBeUndefined();
	});
});

describe('settleCounting: the answer settles how it counts, or nothing does', () => {
	it.each([
		['a number 0 counts from 0', [{ index: 0 }, { index: 2 }], { base: 0 }],
		['a number equal to the batch size counts from 1', [{ index: 3 }], { base: 1 }],
		['a number both countings fit is not settled', [{ index: 1 }, { index: 2 }], { problem: 'ambiguous' }],
		['numbers that fit neither', [{ index: 0 }, { index: 3 }], { problem: 'outOfRange' }],
		['a number past the batch', [{ index: 7 }], { problem: 'outOfRange' }],
		['a place in the data list sent counts from 0', [{ index: 2, inSentList: true }], { base: 0 }],
		['field values that fit only the record counting from 1', [{ index: 2, identity: { Název: 'b' } }], { base: 1 }],
		['field values that fit only the record counting from 0', [{ index: 2, identity: { Název: 'c' } }], { base: 0 }],
		['field values that fit neither', [{ index: 2, identity: { Název: 'z' } }], { problem: 'contradicted' }],
		['a field only the record counting from 1 was sent with', [{ index: 2, sentField: 'Popis' }], { base: 1 }],
	])('%s', (_label, claims, expected) => {
		expect(settleCounting(claims, RECORDS)).toEqual(expected);
	});

	it('reads a 4xx message the same way as an answer\'s entries', () => {
		expect(settleCounting([claimOf(findNamedRecord('Record 2: unknown field "Popis"')!)], RECORDS)).toEqual({ base: 1 });
		expect(settleCounting([claimOf(findNamedRecord('Record 2: field "Popis" is required')!)], RECORDS)).toEqual({ problem: 'ambiguous' });
		expect(settleCounting([claimOf(findNamedRecord('data[1] is invalid')!)], RECORDS)).toEqual({ base: 0 });
	});
});

describe('recordWithIdentity', () => {
	it('finds the one record with these field values, or none when two have them', () => {
		expect(recordWithIdentity({ Název: 'b' }, RECORDS)).toBe(1);
		expect(recordWithIdentity({ Název: 'b'.normalize('NFD') }, RECORDS)).toBe(1);
		expect(recordWithIdentity({ Název: 'z' }, RECORDS)).toBeUndefined();
		expect(recordWithIdentity({ Název: 'a' }, [...RECORDS, { Název: 'a' }])).toBeUndefined();
	});
});
