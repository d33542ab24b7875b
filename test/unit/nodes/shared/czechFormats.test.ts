import { isCalendarDate, parseCzechDate, parseCzechNumber } from '../../../../nodes/shared/czechFormats';

/** As report conversion reads numbers: only those a JSON number holds exactly. */
const exact = { exactOnly: true };

describe('Czech numbers', () => {
	it.each([
		['1234,5', 1234.5],
		['-12353,08', -12353.08],
		['1 234 567,89', 1234567.89],
		['1\u00a0234,50', 1234.5],
		['1\u202f234,50', 1234.5],
		['\u22120,75', -0.75],
		['42', 42],
		['0012345', 12345],
		['-0', 0],
	])('%j → %p', (text, expected) => {
		expect(parseCzechNumber(text, exact)).toBe(expected);
	});

	it.each([
		'1.234,50',
		'1 23,5',
		'12 3456',
		'1,2,3',
		'abc',
		'',
		'12,',
		',5',
		'1e5',
		'0x10',
		'12345678901234567',
		'1234567890123,4567',
	])('%j is not converted', (text) => {
		expect(parseCzechNumber(text, exact)).toBeUndefined();
	});

	it('keeps at most 15 significant digits, so no number is changed by conversion', () => {
		expect(parseCzechNumber('123456789012345', exact)).toBe(123456789012345);
		expect(parseCzechNumber('1234567890123456', exact)).toBeUndefined();
		expect(parseCzechNumber('0,000000000000001', exact)).toBe(1e-15);
	});

	it('requires a decimal comma when asked (whole numbers are codes as often as amounts)', () => {
		expect(parseCzechNumber('2026010045', { requireDecimalComma: true })).toBeUndefined();
		expect(parseCzechNumber('4356,00', { requireDecimalComma: true })).toBe(4356);
	});
});

describe('Czech dates', () => {
	it.each([
		['24.1.2026', '2026-01-24'],
		['01.02.2026', '2026-02-01'],
		['1. 2. 2026', '2026-02-01'],
		['29.2.2024', '2024-02-29'],
		['7.9.2024 8:05', '2024-09-07T08:05:00'],
		['7.9.2024 23:59:59', '2024-09-07T23:59:59'],
	])('%j → %j', (text, expected) => {
		expect(parseCzechDate(text)).toBe(expected);
	});

	it.each(['29.2.2026', '31.4.2026', '0.1.2026', '1.13.2026', '1.1.26', '2026-01-01', '1.1.2026 24:00', '1.2.3.4'])(
		'%j is not a date',
		(text) => {
			expect(parseCzechDate(text)).toBeUndefined();
		},
	);
});

describe('signs and the calendar', () => {
	it('takes a plus only when asked (Import does, report conversion does not)', () => {
		expect(parseCzechNumber('+1 234,5')).toBeUndefined();
		expect(parseCzechNumber('+1 234,5', { allowPlus: true })).toBe(1234.5);
		expect(parseCzechNumber('\u22121 234,5', { allowPlus: true })).toBe(-1234.5);
	});

	it('knows leap years', () => {
		expect(isCalendarDate(2024, 2, 29)).toBe(true);
		expect(isCalendarDate(1900, 2, 29)).toBe(false);
		expect(isCalendarDate(2000, 2, 29)).toBe(true);
	});
});
