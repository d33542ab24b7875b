/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside n8n
	(`process`: a failing case is replayed with FC_SEED and FC_PATH) */
import { createHash } from 'node:crypto';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import {
	columnKeys,
	createRowShaper,
	IDENTITY_BYTES,
	identityOf,
	IDENTITY_LENGTH,
	parseColumnList,
	reportIdFromReference,
	resolveColumns,
	rowIdentityText,
	toolRowProjection,
	writeIdentity,
} from '../../../../../nodes/shared/report/rows';

const COSTS = [
	{ id: 'c1', name: 'Interní číslo' },
	{ id: 'c2', name: 'Částka' },
	{ id: 'c3', name: 'Částka' },
	{ id: 'c4', name: 'Datum' },
];

describe('column keys', () => {
	it('keeps unique names and numbers later duplicates from 2', () => {
		expect(columnKeys(COSTS, 'name')).toEqual(['Interní číslo', 'Částka', 'Částka (2)', 'Datum']);
		expect(
			columnKeys(
				[
					{ id: 'a', name: 'X' },
					{ id: 'b', name: 'X' },
					{ id: 'c', name: 'X' },
				],
				'name',
			),
		).toEqual(['X', 'X (2)', 'X (3)']);
	});

	it('never takes the key of a column really named like a numbered duplicate', () => {
		const keys = columnKeys(
			[
				{ id: 'a', name: 'Částka' },
				{ id: 'b', name: 'Částka' },
				{ id: 'c', name: 'Částka (2)' },
			],
			'name',
		);
		expect(keys).toEqual(['Částka', 'Částka (3)', 'Částka (2)']);
		expect(new Set(keys).size).toBe(3);
	});

	it('treats names that differ only in Unicode normalisation as the same name', () => {
		const decomposed = 'Částka'.normalize('NFD');
		expect(decomposed).not.toBe('Částka');
		expect(
			columnKeys(
				[
					{ id: 'a', name: 'Částka' },
					{ id: 'b', name: decomposed },
				],
				'name',
			),
		).toEqual(['Částka', 'Částka (2)']);
	});

	it('falls back to the id for a blank name, and keys by id on request', () => {
		expect(columnKeys([{ id: 'c9', name: '  ' }], 'name')).toEqual(['c9']);
		expect(columnKeys(COSTS, 'id')).toEqual(['c1', 'c2', 'c3', 'c4']);
	});
});

describe('column references', () => {
	it('matches by output key, id, or name (a shared name matches all its columns)', () => {
		expect(resolveColumns(COSTS, ['Částka (2)'])).toEqual({ indexes: [2], unknown: [] });
		expect(resolveColumns(COSTS, ['c4', 'Interní číslo'])).toEqual({ indexes: [0, 3], unknown: [] });
		expect(resolveColumns(COSTS, ['Částka'])).toEqual({ indexes: [1, 2], unknown: [] });
		expect(resolveColumns(COSTS, ['Cena', 'c1'])).toEqual({ indexes: [0], unknown: ['Cena'] });
	});

	it('splits lists at commas and line breaks', () => {
		expect(parseColumnList(' Částka, c4 ,\nDatum,, ')).toEqual(['Částka', 'c4', 'Datum']);
		expect(parseColumnList(undefined)).toEqual([]);
	});

	it('takes a list as a dropdown or an expression gives it, names in NFC as typed ones', () => {
		expect(parseColumnList(['c1', ' c4 ', ''])).toEqual(['c1', 'c4']);
		expect(parseColumnList(['Částka'.normalize('NFD')])).toEqual(['Částka'.normalize('NFC')]);
	});
});

describe('row shaper', () => {
	const columns = [
		{ id: 'c1', name: 'ID' },
		{ id: 'c2', name: 'Částka' },
		{ id: 'c3', name: 'Částka' },
		{ id: 'c4', name: 'Datum' },
		{ id: 'c5', name: 'VS' },
	];
	const row = { c1: 'TX1', c2: '1 234,50', c3: '12', c4: '24.1.2026', c5: '0012345' };

	it('keys by name with duplicates numbered, and passes cells unchanged by default', () => {
		const { shape } = createRowShaper(columns, { outputKeys: 'name', conversion: 'none' });
		expect(shape(row)).toEqual({ ID: 'TX1', Částka: '1 234,50', 'Částka (2)': '12', Datum: '24.1.2026', VS: '0012345' });
	});

	it('passes rows keyed by id through without copying', () => {
		const { shape } = createRowShaper(columns, { outputKeys: 'id', conversion: 'none' });
		expect(shape(row)).toBe(row);
	});

	it('converts only unambiguous values in all columns: decimal-comma numbers and dates', () => {
		const { shape } = createRowShaper(columns, { outputKeys: 'name', conversion: 'auto' });
		expect(shape(row)).toEqual({ ID: 'TX1', Částka: 1234.5, 'Částka (2)': '12', Datum: '2026-01-24', VS: '0012345' });
	});

	it('converts the named columns only, whole numbers too, and empty cells to null', () => {
		const { shape } = createRowShaper(columns, {
			outputKeys: 'id',
			conversion: 'columns',
			numberColumns: [2],
			dateColumns: [3],
		});
		expect(shape(row)).toEqual({ c1: 'TX1', c2: '1 234,50', c3: 12, c4: '2026-01-24', c5: '0012345' });
		expect(shape({ ...row, c3: ' ', c4: '' })).toMatchObject({ c3: null, c4: null });
		expect(shape({ ...row, c3: 'n/a', c4: '31.2.2026' })).toMatchObject({ c3: 'n/a', c4: '31.2.2026' });
		expect(row.c3).toBe('12');
	});

	it('passes rows through when the report lists no columns', () => {
		const { shape } = createRowShaper([], { outputKeys: 'name', conversion: 'auto' });
		expect(shape(row)).toBe(row);
	});
});

describe('report reference', () => {
	it('takes an id as it is', () => {
		expect(reportIdFromReference('id', ' bank-transactions ')).toBe('bank-transactions');
		expect(reportIdFromReference('id', 42)).toBe('42');
	});

	it('extracts the id from a sharing URL, also when pasted as an ID', () => {
		expect(reportIdFromReference('url', 'https://rec.example.com/analysis/reports/bank-transactions?tab=api')).toBe(
			'bank-transactions',
		);
		expect(reportIdFromReference('url', 'https://rec.example.com/api/analysis/reports/a%20b/data/table')).toBe('a b');
		expect(reportIdFromReference('id', 'https://rec.example.com/reports/costs#share')).toBe('costs');
	});

	it('explains what is wrong with a bad reference', () => {
		expect(() => reportIdFromReference('id', '')).toThrow(/No report is given/);
		expect(() => reportIdFromReference('id', 'bank transactions')).toThrow(/contains white space/);
		expect(() => reportIdFromReference('url', 'https://rec.example.com/analysis/table/7')).toThrow(
			/does not contain "\/reports\/<report ID>"/,
		);
		expect(() => reportIdFromReference('url', 'https://x/reports/%E0%A4%A')).toThrow(/percent-encoded/);
	});
});

describe('row identity', () => {
	it('is a fixed-width hash of the chosen cells in column order', () => {
		const a = identityOf(rowIdentityText({ c1: 'TX1', c2: '5' }, ['c1']));
		expect(a).toHaveLength(IDENTITY_LENGTH);
		expect(identityOf(rowIdentityText({ c1: 'TX1', c2: '6' }, ['c1']))).toBe(a);
		expect(identityOf(rowIdentityText({ c1: 'TX2', c2: '5' }, ['c1']))).not.toBe(a);
	});

	it('stays what remembered rows were stored as (72 bits of SHA-256, base64url), as text and as bytes', () => {
		expect(identityOf('["TX1"]')).toBe('5x8nvWH7A2b4');
		expect(identityOf('["1.1.2026","-10,00","Poplatek"]#2')).toBe('MSYKB5qQJaU-');
		fc.assert(
			fc.property(fc.string({ unit: fc.oneof(fc.constant('\ud800'), fc.constant('ř'), fc.string({ unit: 'grapheme', maxLength: 1 })) }), (text) => {
				const bytes = new Uint8Array(IDENTITY_BYTES + 2);
				writeIdentity(text, bytes, 2);
				const expected = createHash('sha256').update(text).digest('base64url').slice(0, IDENTITY_LENGTH);
				expect(identityOf(text)).toBe(expected);
				expect(Buffer.from(bytes.subarray(2)).toString('base64url')).toBe(expected);
			}),
		);
	});

	it('does not confuse cells that would run together as text', () => {
		expect(rowIdentityText({ a: 'x,y', b: '' }, ['a', 'b'])).not.toBe(rowIdentityText({ a: 'x', b: 'y' }, ['a', 'b']));
		expect(rowIdentityText({ a: '' }, ['a'])).not.toBe(rowIdentityText({}, ['a']));
		expect(rowIdentityText({ a: 1, b: '23:abc' }, ['a', 'b'])).not.toBe(rowIdentityText({ a: 12, b: '3:abc' }, ['a', 'b']));
		expect(rowIdentityText({ a: 1 }, ['a'])).not.toBe(rowIdentityText({ a: '1' }, ['a']));
		expect(rowIdentityText({ a: 'null' }, ['a'])).not.toBe(rowIdentityText({ a: null }, ['a']));
		expect(rowIdentityText({ a: null }, ['a'])).toBe(rowIdentityText({}, ['a']));
	});

	it('tells rows apart exactly when their cells differ, lone surrogates too: property-based', () => {
		// Few characters, so that different cells often write similar text; a lone surrogate and the
		// character that UTF-8 puts in its place among them.
		const text = fc.string({ unit: fc.constantFrom('1', '2', ':', '~', '!', '"', 'ř', '\ud800', '\udc00', '\ufffd', '😀'), maxLength: 6 });
		const cell = fc.oneof(text, text, fc.integer({ min: -20, max: 200 }), fc.constantFrom(null, undefined, true, 1.5), fc.dictionary(text, text, { maxKeys: 2 }));
		const cells = fc.array(cell, { minLength: 1, maxLength: 4 });
		const identity = (values: unknown[]) => {
			const ids = values.map((_, index) => `c${index}`);
			const row = Object.fromEntries(values.map((value, index) => [ids[index], value])) as IDataObject;
			const bytes = new Uint8Array(IDENTITY_BYTES);
			writeIdentity(rowIdentityText(row, ids), bytes, 0);
			return Buffer.from(bytes).toString('hex');
		};
		// The oracle: the JSON of the list of cells, a missing cell as null.
		const json = (values: unknown[]) => JSON.stringify(values.map((value) => value ?? null));
		// No two lists give one text: the cells can be read back from it.
		const readBack = (text: string): unknown[] => {
			if (text.startsWith('!')) return JSON.parse(text.slice(1)) as unknown[];
			const read: unknown[] = [];
			for (let at = 0; at < text.length; ) {
				const isJson = text[at] === '~';
				const colon = text.indexOf(':', at);
				const length = Number(text.slice(isJson ? at + 1 : at, colon));
				expect(Number.isInteger(length) && colon > at).toBe(true);
				const cellText = text.slice(colon + 1, colon + 1 + length);
				read.push(isJson ? JSON.parse(cellText) : cellText);
				at = colon + 1 + length;
			}
			return read;
		};
		fc.assert(
			fc.property(cells, (a) => {
				const ids = a.map((_, index) => `c${index}`);
				const row = Object.fromEntries(a.map((value, index) => [ids[index], value])) as IDataObject;
				expect(JSON.stringify(readBack(rowIdentityText(row, ids)))).toBe(json(a));
			}),
			{ numRuns: 2_000, seed: Number(process.env.FC_SEED ?? 39), path: process.env.FC_PATH },
		);
		fc.assert(
			fc.property(cells, cells, (a, b) => {
				const sameCells = a.length === b.length && json(a) === json(b);
				expect(identity(a) === identity(b)).toBe(sameCells);
			}),
			{ numRuns: 5_000, seed: Number(process.env.FC_SEED ?? 39), path: process.env.FC_PATH },
		);
		fc.assert(
			fc.property(cells, (a) => {
				// Each cell alone changed to another value of its kind, as a report row that was edited.
				const b = a.map((value) => (typeof value === 'string' ? `${value}\ud800`.slice(1) : value));
				expect(identity(a) === identity(b)).toBe(json(a) === json(b));
			}),
			{ numRuns: 2_000, seed: Number(process.env.FC_SEED ?? 39), path: process.env.FC_PATH },
		);
	});
});

describe('rows as a tool returns them', () => {
	const row = { Datum: '1.1.2026', Částka: '-10,00', Zpráva: '', Poznámka: null, Účet: 'CZ-PROVOZ' };

	it('Simplified leaves out empty cells, Raw keeps every cell', () => {
		expect(toolRowProjection('simple')(row)).toEqual({ Datum: '1.1.2026', Částka: '-10,00', Účet: 'CZ-PROVOZ' });
		expect(toolRowProjection('raw')(row)).toBe(row);
	});

	it('Selected Fields keeps the given keys in their order, empty ones included', () => {
		const picked = toolRowProjection('fields', ['Účet', 'Zpráva', 'Neznámý'])(row);
		expect(picked).toEqual({ Účet: 'CZ-PROVOZ', Zpráva: '' });
		expect(Object.keys(picked)).toEqual(['Účet', 'Zpráva']);
	});
});
