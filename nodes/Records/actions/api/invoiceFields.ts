import { DateTime } from 'luxon';

import { czechDateParts, isCalendarDate, isLuxonDateTime, isoOfParts } from '../../../shared/czechFormats';

/**
 * Checks and converts the fields of a new invoice (spec §4.4: `client_id` integer, `amount` number,
 * `currency` string, `due_date` date). Each throws an Error whose message says what was wrong and
 * what to enter instead.
 */

function shown(value: unknown): string {
	if (typeof value === 'string') return `"${value}"`;
	if (value === undefined) return 'nothing';
	return JSON.stringify(value) ?? String(value);
}

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export function parseClientId(value: unknown): number {
	if (isEmpty(value)) throw new Error('it is required; enter the whole-number ID of a client');
	const number =
		typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
	if (!Number.isSafeInteger(number) || number < 1) {
		throw new Error(`${shown(value)} is not a client ID; enter a whole number of at least 1, e.g. 12`);
	}
	return number;
}

export function parseAmount(value: unknown): number {
	if (isEmpty(value)) throw new Error('it is required; enter the amount as a number, e.g. 1234.5');
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)
				? Number(value)
				: NaN;
	if (!Number.isFinite(number)) {
		throw new Error(
			`${shown(value)} is not a number; enter digits with a dot as the decimal separator and no thousands separators, e.g. 1234.5`,
		);
	}
	return number;
}

export function parseCurrency(value: unknown): string {
	if (isEmpty(value)) throw new Error('it is required; enter a three-letter ISO 4217 code such as CZK or EUR');
	if (typeof value !== 'string' || !/^\s*[A-Za-z]{3}\s*$/.test(value)) {
		throw new Error(
			`${shown(value)} is not a three-letter ISO 4217 currency code; enter e.g. CZK, EUR or USD`,
		);
	}
	return value.trim().toUpperCase();
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/;
function calendarDate(year: number, month: number, day: number): string | undefined {
	return isCalendarDate(year, month, day) ? isoOfParts({ year, month, day }) : undefined;
}

/**
 * A due date as `yyyy-mm-dd`. A date-time gives the day it is in the workflow's time zone (the rule
 * Import follows), so `{{ $now }}` and a Code node's date (UTC text) give the day the user sees; a
 * date-time without an offset names a wall time, and a date without a time is that day. Never
 * converted to UTC first, which would move late-evening dates by a day.
 */
export function formatDueDate(value: unknown, timezone: string): string {
	const fail = (): never => {
		throw new Error(
			`${shown(value)} is not a date; enter yyyy-mm-dd (e.g. 2026-12-31), an ISO 8601 date-time, or d.m.yyyy`,
		);
	};
	const inZone = (date: DateTime): string => {
		const placed = date.setZone(timezone);
		return (placed.isValid && placed.toISODate()) || fail();
	};
	if (isEmpty(value)) throw new Error('it is required; enter the date the invoice is due, e.g. 2026-12-31');
	if (isLuxonDateTime(value)) {
		if (!value.isValid) return fail();
		// Possibly another copy of Luxon's DateTime: its instant, placed in the workflow's zone.
		return inZone(DateTime.fromMillis(value.toMillis()));
	}
	if (Object.prototype.toString.call(value) === '[object Date]') {
		const date = DateTime.fromJSDate(value as Date, { zone: timezone });
		return (date.isValid && date.toISODate()) || fail();
	}
	if (typeof value !== 'string') return fail();

	const text = value.trim();
	const iso = ISO_DATE.exec(text);
	if (iso) {
		const [year, month, date] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
		if (text.length === 10) return calendarDate(year, month, date) ?? fail();
		const parsed = [DateTime.fromISO(text, { setZone: true }), DateTime.fromSQL(text, { setZone: true })].find(
			(candidate) => candidate.isValid,
		);
		if (!parsed || !calendarDate(year, month, date)) return fail();
		// Without an offset the text names a wall time: its day is the day written.
		const hasOffset = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i.test(text);
		return hasOffset ? inZone(parsed) : (calendarDate(year, month, date) ?? fail());
	}
	if (/^\d{1,2}\.\s*\d{1,2}\.\s*\d{4}$/.test(text)) {
		const czech = czechDateParts(text, { withTime: false });
		return czech ? isoOfParts(czech) : fail();
	}
	for (const parsed of [
		DateTime.fromRFC2822(text, { setZone: true }),
		DateTime.fromHTTP(text, { setZone: true }),
	]) {
		if (parsed.isValid) return inZone(parsed);
	}
	return fail();
}
