/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside
	n8n (`process` for the property tests' seed) */
import fc from 'fast-check';

import { ordinal, sampleOrder, sampleOrderAdvice } from '../../../../nodes/RecordsReportTrigger/sampleOrder';

const seeded = { seed: Number(process.env.FC_SEED ?? 48), path: process.env.FC_PATH };

const DAY_MS = 86_400_000;

/** How a sortable value is written in a report: each kind the helper reads. */
const writers: Record<string, (value: number) => string | number> = {
	'd.m.yyyy': (day) => {
		const date = new Date(day * DAY_MS);
		return `${date.getUTCDate()}.${date.getUTCMonth() + 1}.${date.getUTCFullYear()}`;
	},
	'd. m. yyyy hh:mm': (day) => {
		const date = new Date(day * DAY_MS + 9 * 3_600_000);
		return `${date.getUTCDate()}. ${date.getUTCMonth() + 1}. ${date.getUTCFullYear()} 09:00`;
	},
	'ISO date': (day) => new Date(day * DAY_MS).toISOString().slice(0, 10),
	'ISO timestamp': (day) => new Date(day * DAY_MS + 1234).toISOString(),
	'decimal comma': (value) => (value / 100).toFixed(2).replace('.', ','),
	number: (value) => value,
	'text ID with a numeric suffix': (value) => `TX-${String(value).padStart(6, '0')}`,
};
const kinds = fc.constantFrom(...Object.keys(writers));

/** Rising distinct values within a range every writer handles (days from 1990 on, as amounts too). */
const rising = fc
	.uniqueArray(fc.integer({ min: 7300, max: 30_000 }), { minLength: 3, maxLength: 10 })
	.map((values) => [...values].sort((a, b) => a - b));

/** A column no kind reads: names without digits. */
const names = fc.stringMatching(/^[A-Za-zÁ-ž ]{1,12}$/);

const rowsOf = (column: Array<string | number>, noise: string[]) =>
	column.map((value, index) => ({ Partner: noise[index % noise.length], Key: value }));

describe('sampleOrder', () => {
	it('finds a column that rises row by row, in every kind, beside a column no kind reads', () => {
		fc.assert(
			fc.property(kinds, rising, fc.array(names, { minLength: 1 }), (kind, values, noise) => {
				expect(sampleOrder(rowsOf(values.map(writers[kind]), noise))).toEqual({ direction: 'rising', column: 'Key' });
			}),
			seeded,
		);
	});

	it('finds the same column falling when the rows are reversed', () => {
		fc.assert(
			fc.property(kinds, rising, fc.array(names, { minLength: 1 }), (kind, values, noise) => {
				expect(sampleOrder(rowsOf([...values].reverse().map(writers[kind]), noise))).toEqual({ direction: 'falling', column: 'Key' });
			}),
			seeded,
		);
	});

	it('claims nothing for values that go up and down (an unordered sample)', () => {
		const unordered = rising.chain((values) =>
			fc.shuffledSubarray(values, { minLength: values.length, maxLength: values.length }).filter((shuffled) => {
				const steps = shuffled.slice(1).map((value, index) => Math.sign(value - shuffled[index]));
				return steps.includes(1) && steps.includes(-1);
			}),
		);
		fc.assert(
			fc.property(kinds, unordered, (kind, values) => {
				expect(sampleOrder(rowsOf(values.map(writers[kind]), ['Acme']))).toBeUndefined();
			}),
			seeded,
		);
	});

	it('claims nothing when one column rises and another falls', () => {
		const rows = [
			{ ID: 'TX-001', Datum: '3.1.2026' },
			{ ID: 'TX-002', Datum: '2.1.2026' },
			{ ID: 'TX-003', Datum: '1.1.2026' },
		];
		expect(sampleOrder(rows)).toBeUndefined();
	});

	it('claims nothing for a column of mixed kinds or mixed prefixes', () => {
		expect(sampleOrder([{ ID: 'TX-1' }, { ID: 'TX-2' }, { ID: 3 }])).toBeUndefined();
		expect(sampleOrder([{ ID: 'TX-1' }, { ID: 'RX-2' }, { ID: 'TX-3' }])).toBeUndefined();
		expect(sampleOrder([{ Datum: '1.1.2026' }, { Datum: '2' }, { Datum: '3.1.2026' }])).toBeUndefined();
	});

	it('compares dates written both ways as dates', () => {
		expect(sampleOrder([{ Datum: '1.1.2026' }, { Datum: '2026-01-02' }, { Datum: '3.1.2026' }])).toEqual({ direction: 'rising', column: 'Datum' });
	});

	it('claims nothing from fewer than 3 rows, or from a column that does not move', () => {
		expect(sampleOrder([{ ID: 1 }, { ID: 2 }])).toBeUndefined();
		expect(sampleOrder([{ Datum: '1.1.2026' }, { Datum: '1.1.2026' }, { Datum: '1.1.2026' }])).toBeUndefined();
	});

	it('lets rows of one day follow each other in a date column', () => {
		const rows = ['1.3.2026', '1.3.2026', '2.3.2026', '2.3.2026', '5.3.2026'].map((Datum) => ({ Datum, Popis: 'Platba' }));
		expect(sampleOrder(rows)).toEqual({ direction: 'rising', column: 'Datum' });
	});

	it('reads the bank sample: IDs and dates rising, amounts up and down', () => {
		const rows = [
			{ 'ID transakce': 'BT-000991', Datum: '27.11.2026', Částka: '-10605,23' },
			{ 'ID transakce': 'BT-000992', Datum: '27.11.2026', Částka: '1200,00' },
			{ 'ID transakce': 'BT-000993', Datum: '28.11.2026', Částka: '-35,50' },
			{ 'ID transakce': 'BT-000994', Datum: '29.11.2026', Částka: '980,10' },
		];
		expect(sampleOrder(rows)).toEqual({ direction: 'rising', column: 'ID transakce' });
	});
});

describe('ordinal', () => {
	it.each([
		['31.12.2025', '1.1.2026'],
		['2025-12-31', '2026-01-01'],
		['9,5', '10,25'],
		['INV-99', 'INV-100'],
	])('orders %j before %j', (earlier, later) => {
		expect(ordinal(earlier)!.value).toBeLessThan(ordinal(later)!.value);
		expect(ordinal(earlier)!.kind).toBe(ordinal(later)!.kind);
	});

	it.each(['Acme s.r.o.', '', '1 234,50', true, null, { value: 1 }])('reads %j as no kind', (cell) => {
		expect(ordinal(cell)).toBeUndefined();
	});
});

describe('sampleOrderAdvice', () => {
	it('names the column and the choice in one line', () => {
		const up = sampleOrderAdvice([{ ID: 1 }, { ID: 2 }, { ID: 3 }]);
		const down = sampleOrderAdvice([{ ID: 3 }, { ID: 2 }, { ID: 1 }]);
		expect(up).toBe('"ID" rises row by row through the sample: the report looks oldest first, so New Rows Appear "Appended at the End" may fit, if rows are only ever added at the end.');
		expect(down).toMatch(/^"ID" falls row by row .* newest first, so New Rows Appear "At the Top" may fit/);
		expect(sampleOrderAdvice([{ ID: 1 }, { ID: 3 }, { ID: 2 }])).toBeUndefined();
	});
});
