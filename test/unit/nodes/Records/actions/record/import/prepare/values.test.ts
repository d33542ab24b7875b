/* eslint-disable @n8n/community-nodes/require-node-api-error,
	@n8n/community-nodes/no-restricted-globals -- a test: its errors are not a node's, and it runs
	in Node.js, not inside n8n (`process`) */
import fc from 'fast-check';
import { DateTime } from 'luxon';

import {
	checkRecord,
	DEFAULT_VALUE_PREPARATION,
	formatDateValue,
	formatNumber,
	isDateAsN8nText,
	looksLikeIsoDate,
	normalizeFieldName,
	normalizeRecordText,
	parseFieldList,
	parseNumberText,
	prepareFields,
	prepareRecord,
	prepareValue,
	RecordValueError,
	recordsJsonInNfc,
	selectFields,
	type PreparedRecord,
	type ValuePreparationOptions,
} from '../../../../../../../../nodes/Records/actions/record/import/prepare/values';

const NFD = (text: string) => text.normalize('NFD');

function options(overrides: Partial<ValuePreparationOptions> = {}): ValuePreparationOptions {
	return { ...DEFAULT_VALUE_PREPARATION, timezone: 'Europe/Prague', ...overrides };
}

function refusal(run: () => unknown): RecordValueError {
	try {
		run();
	} catch (error) {
		if (error instanceof RecordValueError) return error;
		throw error;
	}
	throw new Error('expected a RecordValueError, but nothing was thrown');
}

describe('field names', () => {
	it('brings NFD Czech names to NFC and trims them', () => {
		const typedOnMac = NFD('  Interní číslo ');
		expect(typedOnMac).not.toBe('Interní číslo');
		expect(normalizeFieldName(typedOnMac)).toBe('Interní číslo'.normalize('NFC'));
	});

	it('parses comma-separated lists into normalized names, skipping empty parts', () => {
		expect([...parseFieldList(` DUZP, ${NFD('Datum splatnosti')} ,, `)]).toEqual(['DUZP', 'Datum splatnosti']);
		expect(parseFieldList(undefined).size).toBe(0);
	});

	it('sends record keys in NFC so they equal the record type field names', () => {
		const prepared = prepareRecord({ [NFD('Název')]: 'Úkol', [` ${NFD('Zpracovatel')}`]: 'Jana' }, options());
		expect(Object.keys(prepared)).toEqual(['Název'.normalize('NFC'), 'Zpracovatel']);
	});

	it('keeps field names as given when normalization is off', () => {
		const name = NFD('Název ');
		expect(Object.keys(prepareRecord({ [name]: 'x' }, options({ normalizeFieldNames: false })))).toEqual([name]);
	});

	it('refuses two spellings of one field (NFC and NFD), naming both', () => {
		const error = refusal(() => prepareRecord({ 'Název': 'a', [NFD('Název')]: 'b' }, options()));
		expect(error.message).toContain('are the same field "Název"');
		expect(error.hint).toMatch(/Keep only one/);
	});

	it('refuses a name that collides only after trimming', () => {
		const error = refusal(() => prepareRecord({ Partner: 'a', 'Partner ': 'b' }, options()));
		expect(error.message).toContain('"Partner" and "Partner "');
		expect(error.field).toBe('Partner ');
	});

	it('refuses colliding spellings whichever comes first, also when both differ from the normalized name', () => {
		const changedFirst = refusal(() => prepareRecord({ 'Partner ': 'a', Stav: 'b', Partner: 'c' }, options()));
		expect(changedFirst.message).toContain('"Partner " and "Partner"');
		expect(changedFirst.field).toBe('Partner');
		const bothChanged = refusal(() => prepareRecord({ ' Partner': 'a', [NFD('Název')]: 'x', 'Partner ': 'b' }, options()));
		expect(bothChanged.message).toContain('" Partner" and "Partner "');
	});

	it('sends a record that needs no change as it is, and copies one that does without changing the input', () => {
		const clean = { Název: 'Úkol', Stav: 'Nová' };
		expect(prepareRecord(clean, options())).toBe(clean);
		const input = { Název: 'Úkol', Částka: 1234.5, Stav: 'Nová', Poznámka: null };
		const prepared = prepareRecord(input, options());
		expect(Object.entries(prepared)).toEqual([
			['Název', 'Úkol'],
			['Částka', '1234,5'],
			['Stav', 'Nová'],
			['Poznámka', ''],
		]);
		expect(input).toEqual({ Název: 'Úkol', Částka: 1234.5, Stav: 'Nová', Poznámka: null });
		const omitted = prepareRecord({ Název: 'Úkol', Poznámka: null, Stav: 'Nová' }, options({ emptyValues: 'omit' }));
		expect(Object.entries(omitted)).toEqual([
			['Název', 'Úkol'],
			['Stav', 'Nová'],
		]);
	});

	it('brings text and JSON text to NFC in a step of its own, copying only a record that changes', () => {
		const prepared = prepareRecord(
			{
				[NFD('Název')]: NFD('Účtenka Řehoř'),
				Partner: { jméno: NFD('Šťastný') },
				DUZP: DateTime.fromISO('2026-01-31T23:30:00Z'),
				Částka: 1234567.5,
				Schváleno: true,
				Text: 'Žluťoučký kůň',
			},
			options({ objectValues: 'json', thousandsSeparator: 'nbsp', booleanFormat: 'AnoNe' }),
		);
		expect(prepared['Název']).toBe(NFD('Účtenka Řehoř'));

		expect(normalizeRecordText(prepared)).toEqual({
			Název: 'Účtenka Řehoř'.normalize('NFC'),
			Partner: '{"jméno":"Šťastný"}'.normalize('NFC'),
			DUZP: '1.2.2026',
			Částka: '1\u00a0234\u00a0567,5',
			Schváleno: 'Ano',
			Text: 'Žluťoučký kůň',
		});
		// A copy: the prepared record is not changed.
		expect(prepared['Název']).toBe(NFD('Účtenka Řehoř'));
		const clean = { Název: 'Úkol', Stav: 'Nová', Počet: 3 };
		expect(normalizeRecordText(clean)).toBe(clean);
	});

	it('serializes records in NFC, walking them only when the JSON text could hold text that is not', () => {
		const clean: PreparedRecord[] = [{ Název: 'Účtenka – „jižní“ křídlo', Částka: '12,50 €' }, { Název: 'Žluťoučký kůň' }];
		const cleanJson = recordsJsonInNfc(clean);
		expect(cleanJson.json).toBe(JSON.stringify(clean));
		expect(cleanJson.records[0]).toBe(clean[0]);
		expect(cleanJson.records[1]).toBe(clean[1]);

		const mixed: PreparedRecord[] = [clean[0], { Název: NFD('Řehoř'), Poznámka: 'lone \ud800 surrogate' }];
		const mixedJson = recordsJsonInNfc(mixed);
		expect(mixedJson.records[0]).toBe(clean[0]);
		expect(mixedJson.records[1]).toEqual({ Název: 'Řehoř'.normalize('NFC'), Poznámka: 'lone \ud800 surrogate' });
		expect(mixedJson.json).toBe(JSON.stringify(mixedJson.records));
		expect(mixed[1].Název).toBe(NFD('Řehoř'));
	});

	it('sends renamed fields under their normalized names when nothing collides', () => {
		expect(prepareRecord({ [NFD('Název ')]: 'a', ' Stav': 'b', Partner: 'c' }, options())).toEqual({
			Název: 'a',
			Stav: 'b',
			Partner: 'c',
		});
	});

	it('refuses the same name given twice as name/value pairs', () => {
		const error = refusal(() => prepareFields([['Zadal', 'a'], ['Zadal', 'b']], options()));
		expect(error.message).toBe('The field "Zadal" is given twice');
	});

	it('refuses empty and blank field names', () => {
		expect(refusal(() => prepareRecord({ '': 'x' }, options())).message).toBe('A field has an empty name');
		expect(refusal(() => prepareRecord({ '   ': 'x' }, options())).message).toBe('A field has an empty name ("   ")');
	});

	it('refuses records that are not objects and records without fields', () => {
		expect(refusal(() => prepareRecord(['a'], options())).message).toContain('this one is a list');
		expect(refusal(() => prepareRecord('Název', options())).message).toContain('this one is text');
		expect(refusal(() => prepareRecord(null, options())).message).toContain('this one is null');
		expect(refusal(() => prepareRecord({}, options())).message).toBe('The record has no fields');
		expect(refusal(() => prepareRecord({ Popis: null }, options({ emptyValues: 'omit' }))).message).toContain(
			'no fields left to send',
		);
	});

	it('selects and excludes input fields by their normalized names', () => {
		const input = { [NFD('Název')]: 'a', Zadal: 'b', id: 7 };
		expect(selectFields(input, { include: parseFieldList('Název, Zadal') })).toEqual({ [NFD('Název')]: 'a', Zadal: 'b' });
		expect(selectFields(input, { exclude: parseFieldList('id') })).toEqual({ [NFD('Název')]: 'a', Zadal: 'b' });
	});
});

describe('text values', () => {
	it.each([
		['a date in local form', '31.1.2026'],
		['an ISO date', '2026-01-31'],
		['an ISO date-time', '2026-01-31T10:00:00Z'],
		['a number with a point', '1234.5'],
		['a number with a leading zero', '0308'],
		['a long document number', '2026010045'],
		['a negative number', '-12'],
		['a boolean word', 'true'],
		['spaces around', '  Jana  '],
		['empty text', ''],
	])('sends %s exactly as given', (_label, text) => {
		expect(prepareValue('Popis', text, options())).toBe(text);
	});

	it('sends NFD text as given: bringing it to NFC is a step of its own', () => {
		expect(prepareValue('Partner', NFD('Žluťoučký'), options())).toBe(NFD('Žluťoučký'));
		expect(normalizeRecordText({ Partner: NFD('Kancelářské potřeby') })).toEqual({
			Partner: 'Kancelářské potřeby'.normalize('NFC'),
		});
	});
});

describe('numbers', () => {
	it.each([
		[1234.5, '1234,5'],
		[-1234.5, '-1234,5'],
		[0, '0'],
		[-0, '0'],
		[21, '21'],
		[0.1, '0,1'],
		[0.1 + 0.2, '0,30000000000000004'],
		[1e-7, '0,0000001'],
		[-2.5e-8, '-0,000000025'],
		[1e15, '1000000000000000'],
		[9007199254740991, '9007199254740991'],
	])('writes %p as %p with a decimal comma', (value, expected) => {
		expect(formatNumber(value, options())).toBe(expected);
	});

	it('writes a decimal point when chosen', () => {
		expect(formatNumber(-1234.5, options({ numberFormat: 'decimalPoint' }))).toBe('-1234.5');
	});

	it('keeps a JSON number when chosen', () => {
		expect(formatNumber(1234.5, options({ numberFormat: 'number' }))).toBe(1234.5);
		expect(formatNumber(1234.567, options({ numberFormat: 'number', decimalPlaces: 2 }))).toBe(1234.57);
	});

	it('groups thousands with a space or a non-breaking space', () => {
		expect(formatNumber(1234567.5, options({ thousandsSeparator: 'space' }))).toBe('1 234 567,5');
		expect(formatNumber(-1234567, options({ thousandsSeparator: 'nbsp' }))).toBe('-1\u00a0234\u00a0567');
		expect(formatNumber(999, options({ thousandsSeparator: 'space' }))).toBe('999');
		expect(formatNumber(1000, options({ thousandsSeparator: 'space' }))).toBe('1 000');
	});

	it.each([
		[1234.5, 2, '1234,50'],
		[1.005, 2, '1,01'],
		[2.675, 2, '2,68'],
		[-1.005, 2, '-1,01'],
		[9.995, 2, '10,00'],
		[999.9999, 2, '1000,00'],
		[-0.001, 2, '0,00'],
		[0.5, 0, '1'],
		[-0.5, 0, '-1'],
		[4356, 2, '4356,00'],
		[1e-7, 3, '0,000'],
	])('rounds %p to %p places as %p (half away from zero, on the decimal digits)', (value, places, expected) => {
		expect(formatNumber(value, options({ decimalPlaces: places }))).toBe(expected);
	});

	it('refuses numbers beyond exact range instead of sending lost digits', () => {
		const error = refusal(() => formatNumber(Number('12345678901234567890'), options()));
		expect(error.message).toContain('too large to be exact');
		expect(error.hint).toContain('as text');
		expect(refusal(() => formatNumber(-1e21, options())).message).toContain('too large');
	});

	it('refuses NaN and Infinity', () => {
		expect(refusal(() => formatNumber(Number.NaN, options())).message).toContain('NaN');
		expect(refusal(() => formatNumber(Infinity, options())).message).toContain('Infinity');
	});

	it('writes big integers given as BigInt exactly', () => {
		expect(prepareValue('Částka', BigInt('12345678901234567890'), options({ thousandsSeparator: 'space' }))).toBe(
			'12 345 678 901 234 567 890',
		);
		expect(prepareValue('Částka', BigInt(-5), options({ decimalPlaces: 2 }))).toBe('-5,00');
	});

	it('formats number values in any field, without being asked', () => {
		expect(prepareValue('Kolik to stálo', 4356.5, options())).toBe('4356,5');
	});
});

describe('number fields (text that is a number because its field is named)', () => {
	const numberFields = new Set(['Kolik to stálo']);

	it.each([
		['1234.5', '1234,5'],
		['-1234.5', '-1234,5'],
		['1234,5', '1234,5'],
		['1 234,5', '1234,5'],
		['1\u00a0234\u00a0567,25', '1234567,25'],
		['  42 ', '42'],
		['1e3', '1000'],
		['.5', '0,5'],
		['', ''],
	])('reads %p and writes %p', (text, expected) => {
		expect(prepareValue('Kolik to stálo', text, options({ numberFields }))).toBe(expected);
	});

	it('applies the number options to them', () => {
		expect(
			prepareValue('Kolik to stálo', '1234567.5', options({ numberFields, thousandsSeparator: 'space', decimalPlaces: 2 })),
		).toBe('1 234 567,50');
	});

	it('refuses an ambiguous comma', () => {
		const error = refusal(() => parseNumberText('1,234'));
		expect(error.message).toContain('ambiguous');
		expect(error.hint).toContain('1234.5');
	});

	it.each(['12 Kč', 'abc', '1.234,5', '1,234,567', '--1'])('refuses %p', (text) => {
		const error = refusal(() => prepareRecord({ 'Kolik to stálo': text }, options({ numberFields })));
		expect(error.message).toMatch(/^Field "Kolik to stálo" must be a number|ambiguous/);
		expect(error.field).toBe('Kolik to stálo');
	});

	it('refuses a boolean or an object in a number field', () => {
		expect(refusal(() => prepareValue('Kolik to stálo', true, options({ numberFields }))).message).toBe(
			'must be a number, but is a boolean',
		);
	});

	it('matches the field name after normalization', () => {
		expect(prepareRecord({ [NFD('Kolik to stálo ')]: '10.5' }, options({ numberFields }))).toEqual({
			['Kolik to stálo'.normalize('NFC')]: '10,5',
		});
	});
});

describe('dates', () => {
	const prague = options({ timezone: 'Europe/Prague' });
	const newYork = options({ timezone: 'America/New_York' });
	const tokyo = options({ timezone: 'Asia/Tokyo' });

	it('writes Luxon DateTimes as the calendar date in the chosen timezone', () => {
		const lateEveningUtc = DateTime.fromISO('2026-01-15T23:30:00Z', { zone: 'utc' });
		expect(prepareValue('Cokoli', lateEveningUtc, prague)).toBe('16.1.2026');
		expect(prepareValue('Cokoli', lateEveningUtc, newYork)).toBe('15.1.2026');
	});

	it('writes JS Dates in the chosen timezone', () => {
		const instant = new Date('2026-03-31T22:30:00Z');
		expect(prepareValue('Datum', instant, prague)).toBe('1.4.2026');
		expect(prepareValue('Datum', instant, newYork)).toBe('31.3.2026');
		expect(prepareValue('Datum', instant, tokyo)).toBe('1.4.2026');
	});

	it('recognises Dates and DateTimes from another realm or copy of Luxon by their brand', () => {
		const foreignDateTime = {
			isLuxonDateTime: true,
			isValid: true,
			toMillis: () => Date.UTC(2026, 0, 31, 12),
		};
		expect(prepareValue('Datum', foreignDateTime, prague)).toBe('31.1.2026');
	});

	it('keeps the day of a date-only ISO string in every timezone', () => {
		const dateFields = new Set(['DUZP']);
		for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/Prague', 'UTC']) {
			expect(prepareValue('DUZP', '2026-01-31', options({ timezone: zone, dateFields }))).toBe('31.1.2026');
		}
	});

	it('reads an ISO date-time with an offset as an instant, and one without as wall time in the zone', () => {
		const dateFields = new Set(['DUZP']);
		expect(prepareValue('DUZP', '2026-01-15T23:30:00-05:00', options({ dateFields }))).toBe('16.1.2026');
		expect(prepareValue('DUZP', '2026-01-15T23:30:00Z', options({ dateFields, timezone: 'America/New_York' }))).toBe(
			'15.1.2026',
		);
		expect(prepareValue('DUZP', '2026-01-15T23:30:00', options({ dateFields, timezone: 'America/New_York' }))).toBe(
			'15.1.2026',
		);
		expect(prepareValue('DUZP', '2026-01-15 23:30', options({ dateFields }))).toBe('15.1.2026');
	});

	it('handles the switch to summer time', () => {
		const dateFields = new Set(['DUZP']);
		const withTime = options({ dateFields, dateFormat: 'd.M.yyyy H:mm' });
		expect(prepareValue('DUZP', '2026-03-29T01:30:00Z', withTime)).toBe('29.3.2026 3:30');
		expect(prepareValue('DUZP', '2026-03-28T23:30:00Z', withTime)).toBe('29.3.2026 0:30');
	});

	it('switches the offset exactly at the end of summer time, and in half-hour zones', () => {
		const withTime = (timezone: string) => options({ timezone, dateFormat: 'd.M.yyyy H:mm' });
		const at = (iso: string, timezone: string) => prepareValue('X', new Date(iso), withTime(timezone));
		expect(at('2026-10-25T00:59:00Z', 'Europe/Prague')).toBe('25.10.2026 2:59');
		expect(at('2026-10-25T01:00:00Z', 'Europe/Prague')).toBe('25.10.2026 2:00');
		expect(at('2026-10-03T15:29:00Z', 'Australia/Lord_Howe')).toBe('4.10.2026 1:59');
		expect(at('2026-10-03T15:30:00Z', 'Australia/Lord_Howe')).toBe('4.10.2026 2:30');
		expect(at('2026-01-31T18:30:00Z', 'Asia/Kolkata')).toBe('1.2.2026 0:00');
		expect(at('1999-12-31T23:00:00Z', 'Europe/Prague')).toBe('1.1.2000 0:00');
	});

	it('reads every written offset form, and keeps a date-time without one as written', () => {
		const dateFields = new Set(['DUZP']);
		const withTime = options({ dateFields, dateFormat: 'd.M.yyyy H:mm' });
		expect(prepareValue('DUZP', '2026-01-31T10:00:00+0530', withTime)).toBe('31.1.2026 5:30');
		expect(prepareValue('DUZP', '2026-01-31T10:00+01', withTime)).toBe('31.1.2026 10:00');
		expect(prepareValue('DUZP', '2026-01-31T10:00:00.999Z', withTime)).toBe('31.1.2026 11:00');
		expect(prepareValue('DUZP', '2026-03-29T02:30:00', withTime)).toBe('29.3.2026 2:30');
		expect(prepareValue('DUZP', '2028-02-29', withTime)).toBe('29.2.2028 0:00');
		expect(refusal(() => prepareValue('DUZP', '2026-02-29', withTime)).message).toContain('not a valid calendar date');
		expect(refusal(() => prepareValue('DUZP', '2026-01-31T25:00:00Z', withTime)).message).toContain(
			'not a valid calendar date',
		);
	});

	it('writes the other date formats', () => {
		const date = DateTime.fromISO('2026-02-05T09:05:00', { zone: 'Europe/Prague' });
		expect(formatDateValue(date, options({ dateFormat: 'dd.MM.yyyy' }))).toBe('05.02.2026');
		expect(formatDateValue(date, options({ dateFormat: 'd.M.yyyy H:mm' }))).toBe('5.2.2026 9:05');
	});

	it('re-writes day.month.year text of a named date field and checks it is a real date', () => {
		const dateFields = new Set(['Datum splatnosti']);
		expect(prepareValue('Datum splatnosti', '05.01.2026', options({ dateFields }))).toBe('5.1.2026');
		expect(prepareValue('Datum splatnosti', '5. 1. 2026', options({ dateFields }))).toBe('5.1.2026');
		expect(refusal(() => prepareValue('Datum splatnosti', '31.2.2026', options({ dateFields }))).message).toBe(
			'"31.2.2026" is not a valid calendar date',
		);
		expect(refusal(() => prepareValue('Datum splatnosti', '2026-02-30', options({ dateFields }))).message).toContain(
			'not a valid calendar date',
		);
	});

	it('refuses text and numbers that are not dates in a named date field, saying how to fix it', () => {
		const dateFields = new Set(['DUZP']);
		const error = refusal(() => prepareRecord({ DUZP: 'zítra' }, options({ dateFields })));
		expect(error.message).toBe('Field "DUZP" must be a date, but "zítra" is not one');
		expect(error.hint).toContain('ISO 8601');
		expect(refusal(() => prepareRecord({ DUZP: 20260131 }, options({ dateFields }))).message).toBe(
			'Field "DUZP" must be a date, but is a number (20260131)',
		);
	});

	it('sends an empty named date field as empty text', () => {
		expect(prepareValue('DUZP', '', options({ dateFields: new Set(['DUZP']) }))).toBe('');
	});

	it('converts ISO strings in unnamed fields only when asked', () => {
		expect(prepareValue('Popis', '2026-01-31', options())).toBe('2026-01-31');
		expect(prepareValue('Popis', '2026-01-31', options({ convertIsoDateStrings: true }))).toBe('31.1.2026');
		expect(prepareValue('Popis', 'Faktura 2026-01-31', options({ convertIsoDateStrings: true }))).toBe(
			'Faktura 2026-01-31',
		);
		expect(prepareValue('Popis', '31.1.2026', options({ convertIsoDateStrings: true }))).toBe('31.1.2026');
	});

	it('sends text in the form n8n gives a date as a date in every field, and other text as typed', () => {
		const asN8nGives = options();
		// {{ $now }} / DateTime.toISO() and a Code node's Date (JSON), in the workflow's time zone.
		expect(prepareValue('DUZP', '2026-03-05T10:00:00.000+01:00', asN8nGives)).toBe('5.3.2026');
		expect(prepareValue('DUZP', '2026-03-31T22:30:00.000Z', asN8nGives)).toBe('1.4.2026');
		for (const typed of ['0012345', '1.2.2026', '2026-03-05', '2026-03-05T10:00:00+01:00', 'Faktura 2026-03-05T10:00:00.000Z']) {
			expect(prepareValue('Popis', typed, asN8nGives)).toBe(typed);
		}
	});

	it("knows n8n's text of a date by its milliseconds and offset", () => {
		expect(isDateAsN8nText(DateTime.fromISO('2026-03-05T10:00:00', { zone: 'Europe/Prague' }).toISO() ?? '')).toBe(true);
		expect(isDateAsN8nText(JSON.parse(JSON.stringify(new Date('2026-03-05T09:00:00Z'))) as string)).toBe(true);
		expect(isDateAsN8nText('2026-03-05T10:00:00+01:00')).toBe(false);
		expect(isDateAsN8nText(' 2026-03-05T10:00:00.000Z')).toBe(false);
	});

	it('recognises only whole ISO 8601 strings as dates', () => {
		expect(looksLikeIsoDate('2026-01-31')).toBe(true);
		expect(looksLikeIsoDate('2026-01-31T10:00:00.123+01:00')).toBe(true);
		expect(looksLikeIsoDate('2026-01-31T10:00Z')).toBe(true);
		expect(looksLikeIsoDate('2026-1-31')).toBe(false);
		expect(looksLikeIsoDate('20260131')).toBe(false);
		expect(looksLikeIsoDate('2026-01-31 je splatnost')).toBe(false);
	});

	it('refuses invalid Dates and DateTimes', () => {
		expect(refusal(() => prepareValue('Datum', new Date('nonsense'), options())).message).toBe('is an invalid date');
		expect(refusal(() => prepareValue('Datum', DateTime.fromISO('nonsense'), options())).message).toBe(
			'is an invalid date-time',
		);
	});
});

describe('booleans, empty values, objects', () => {
	it.each([
		['trueFalse', 'true', 'false'],
		['anoNe', 'ano', 'ne'],
		['AnoNe', 'Ano', 'Ne'],
		['oneZero', '1', '0'],
	] as const)('writes booleans as %s', (booleanFormat, yes, no) => {
		expect(prepareValue('Hotovo', true, options({ booleanFormat }))).toBe(yes);
		expect(prepareValue('Hotovo', false, options({ booleanFormat }))).toBe(no);
	});

	it('sends null and undefined as empty text, or leaves the field out', () => {
		expect(prepareRecord({ Název: 'a', Zadal: null, Zpracovatel: undefined }, options())).toEqual({
			Název: 'a',
			Zadal: '',
			Zpracovatel: '',
		});
		expect(prepareRecord({ Název: 'a', Zadal: null, Zpracovatel: undefined }, options({ emptyValues: 'omit' }))).toEqual({
			Název: 'a',
		});
	});

	it('refuses objects and lists, naming the field and how to fix it', () => {
		const error = refusal(() => prepareRecord({ Název: 'a', Partner: { name: 'ČEZ', ico: '45274649' } }, options()));
		expect(error.message).toBe('Field "Partner" is an object, but a field holds one value');
		expect(error.field).toBe('Partner');
		expect(error.hint).toContain('Send as JSON Text');
		expect(refusal(() => prepareRecord({ Štítky: ['a', 'b'] }, options())).message).toBe(
			'Field "Štítky" is a list, but a field holds one value',
		);
	});

	it('sends objects and lists as JSON text when asked', () => {
		expect(
			normalizeRecordText(
				prepareRecord({ Partner: { name: NFD('ČEZ') }, Štítky: ['a', 1] }, options({ objectValues: 'json' })),
			),
		).toEqual({ Partner: '{"name":"ČEZ"}'.normalize('NFC'), Štítky: '["a",1]' });
	});

	it('refuses functions and symbols', () => {
		expect(refusal(() => prepareValue('X', () => 1, options())).message).toBe('is a function, which cannot be sent');
	});
});

describe('a whole received-invoice record', () => {
	it('prepares the cost example of the spec', () => {
		const prepared = prepareRecord(
			{
				[NFD('Interní číslo')]: 'FP-2026-0100',
				'Číslo dokladu': '2026010099',
				Partner: NFD('Kancelářské potřeby Novák s.r.o.'),
				'Datum splatnosti': '2026-02-14',
				DUZP: new Date('2026-01-31T23:00:00Z'),
				'Kolik to stálo': 4356.5,
				'Sazba DPH': 21,
				'Variabilní symbol': '0000123',
				'Specifický symbol': null,
			},
			options({ dateFields: parseFieldList('Datum splatnosti, DUZP'), decimalPlaces: 2 }),
		);
		const record = normalizeRecordText(prepared);
		expect(record).toEqual({
			'Interní číslo': 'FP-2026-0100',
			'Číslo dokladu': '2026010099',
			Partner: 'Kancelářské potřeby Novák s.r.o.',
			'Datum splatnosti': '14.2.2026',
			DUZP: '1.2.2026',
			'Kolik to stálo': '4356,50',
			'Sazba DPH': '21,00',
			'Variabilní symbol': '0000123',
			'Specifický symbol': '',
		});
		for (const key of Object.keys(record)) expect(key).toBe(key.normalize('NFC'));
	});
});

describe('checking a record before sending it, and converting it later', () => {
	it('refuses a record whose only value is undefined when "Null Values" omits it, as it refuses null', () => {
		const omit = options({ emptyValues: 'omit' });
		expect(refusal(() => prepareRecord({ Popis: undefined }, omit)).message).toContain('no fields left to send');
		expect(refusal(() => checkRecord({ Popis: undefined }, omit)).message).toContain('no fields left to send');
		expect(prepareRecord({ Název: 'a', Popis: undefined }, omit)).toEqual({ Název: 'a' });
	});

	it('says a record is sent as given only when nothing in it changes', () => {
		const clean = { Název: 'Úkol', Stav: 'Nová' };
		expect(checkRecord(clean, options())).toBe(true);
		expect(prepareRecord(clean, options())).toBe(clean);
		expect(checkRecord({ Název: 'Úkol', Částka: 12.5 }, options())).toBe(false);
		expect(checkRecord({ [NFD('Název')]: 'Úkol' }, options())).toBe(false);
		expect(checkRecord({ Název: '2026-03-05T10:00:00.000+01:00' }, options())).toBe(false);
	});

	/*
	 * Model: the check made before the first request and the conversion made as each batch is sent
	 * must agree on every record: the same refusal (message, hint, field), and a record the check
	 * calls unchanged is sent as it is. Oracle for both: prepareFields, the plain walk over the
	 * record's fields as name/value pairs. Records come in runs that share one set of options, as in
	 * an import, so that what is worked out once per run of records is exercised too.
	 */
	const NAMES = ['Název', NFD('Název'), 'Název ', ' ', '', 'DUZP', 'Částka', 'Stav', '7'];
	const text = fc.oneof(
		fc.constantFrom(
			'Úkol',
			'',
			'  ',
			'2026-03-05T10:00:00.000+01:00',
			'2026-02-30T10:00:00.000Z',
			'2026-01-31',
			' 2026-01-31 ',
			'2026-13-01',
			'31.1.2026',
			'31.2.2026',
			'1 234,5',
			'1,234',
			'12345678901234567890',
			'12 Kč',
			NFD('Žluťoučký'),
		),
		fc.string({ maxLength: 30 }),
	);
	const circular: Record<string, unknown> = { a: 1 };
	circular.self = circular;
	const value = fc.oneof(
		text,
		fc.constantFrom(0, -0, 0.1, 1234.5, Number.NaN, Infinity, 1e21, 2 ** 53 + 2),
		fc.double(),
		fc.constantFrom(BigInt(5), BigInt('12345678901234567890')),
		fc.boolean(),
		fc.constantFrom(null, undefined),
		fc.constantFrom(new Date('2026-03-31T22:30:00Z'), new Date('nonsense')),
		fc.constantFrom(DateTime.fromISO('2026-01-15T23:30:00Z'), DateTime.fromISO('nonsense')),
		fc.constantFrom({ name: 'ČEZ' }, ['a', 1], circular, { big: BigInt(1) }, () => 1, Symbol('s')),
	);
	const record = fc.oneof(
		{ weight: 9, arbitrary: fc.dictionary(fc.constantFrom(...NAMES), value, { maxKeys: 5 }) },
		{ weight: 1, arbitrary: fc.constantFrom<unknown>(null, 'Název', ['a'], new Date(0), Object.assign(Object.create({ inherited: 1 }) as object, { Název: 'a' })) },
	);
	const someNames = fc.subarray(['DUZP', 'Částka', 'Název', 'Stav']);
	const preparation = fc.record({
		dateFields: someNames,
		numberFields: someNames,
		convertIsoDateStrings: fc.boolean(),
		numberFormat: fc.constantFrom('decimalComma' as const, 'decimalPoint' as const, 'number' as const),
		decimalPlaces: fc.constantFrom(undefined, 0, 2),
		emptyValues: fc.constantFrom('emptyString' as const, 'omit' as const),
		objectValues: fc.constantFrom('error' as const, 'json' as const),
		normalizeFieldNames: fc.boolean(),
	});
	// A result as it is sent: its JSON text (-0 and 0 are the same there).
	type Outcome = { refused: Pick<RecordValueError, 'message' | 'hint' | 'field'> } | { result: unknown; sent: string };
	const outcome = (run: () => unknown): Outcome => {
		try {
			const result = run();
			return { result, sent: JSON.stringify(result) };
		} catch (error) {
			if (!(error instanceof RecordValueError)) throw error;
			return { refused: { message: error.message, hint: error.hint, field: error.field } };
		}
	};
	const asPairs = (input: unknown) =>
		typeof input === 'object' && input !== null && !Array.isArray(input) && !(input instanceof Date)
			? (Object.keys(input) as string[]).map((key) => [key, (input as Record<string, unknown>)[key]] as const)
			: undefined;

	it('agree on every record, with each other and with the plain walk over its fields', () => {
		fc.assert(
			fc.property(preparation, fc.array(record, { minLength: 1, maxLength: 6 }), (chosen, records) => {
				const settings = options({
					...chosen,
					dateFields: new Set(chosen.dateFields),
					numberFields: new Set(chosen.numberFields.filter((name) => !chosen.dateFields.includes(name))),
				});
				const checks = records.map((input) => outcome(() => checkRecord(input, settings)));
				records.forEach((input, index) => {
					const check = checks[index];
					const prepared = outcome(() => prepareRecord(input, settings));
					expect('refused' in check ? check.refused : undefined).toEqual('refused' in prepared ? prepared.refused : undefined);
					if ('result' in check && check.result === true && 'result' in prepared) expect(prepared.result).toBe(input);
					const pairs = asPairs(input);
					if (pairs !== undefined && Object.getPrototypeOf(input) === Object.prototype) {
						const walked = outcome(() => prepareFields(pairs, settings));
						expect('sent' in prepared ? prepared.sent : prepared).toEqual('sent' in walked ? walked.sent : walked);
					}
				});
			}),
			{ numRuns: Number(process.env.FC_NUM_RUNS ?? 2_000), seed: Number(process.env.FC_SEED ?? 36) },
		);
	});
});
