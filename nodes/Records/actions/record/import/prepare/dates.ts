/**
 * Date fields of an import: an instant (Luxon DateTime, JS Date, ISO date-time with an offset) as the
 * date it is in the chosen time zone; a calendar date (ISO date, Czech date text) as written (pure).
 */
import { IANAZone } from 'luxon';

import {
	describeType,
	isJsDate,
	RecordValueError,
	truncate,
	type DateFormat,
	type ValuePreparationOptions,
} from './preparation';
import { czechDateParts, isCalendarDate, isLuxonDateTime } from '../../../../../shared/czechFormats';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;
/** day.month.year text, valid or not: an invalid one is reported as such, not as "not a date". */
const LOCAL_DATE_SHAPE = /^(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A date as n8n writes it when it turns one into text: a Luxon DateTime from an expression
 * (`{{ $now }}`, `{{ $today }}`) becomes `toISO()`, a Date or DateTime in a Code node's output
 * becomes its JSON. Both have milliseconds and an offset, which people do not type: text of this
 * form is a date that was an object a moment before.
 */
const N8N_DATE_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * Whether text has the length of a date as n8n writes it: 24 characters with `Z`, 29 with an
 * offset. Most text has neither, so this is asked of every text value before anything else.
 */
export function hasN8nDateLength(text: string): boolean {
	return text.length === 24 || text.length === 29;
}

export function isDateAsN8nText(text: string): boolean {
	return hasN8nDateLength(text) && N8N_DATE_TEXT.test(text);
}

/** Whether a string is an ISO 8601 date or date-time (the shapes JSON APIs and n8n produce). */
export function looksLikeIsoDate(text: string): boolean {
	// Both shapes have at least 10 characters and start with a digit.
	if (text.length < 10 || !isDigit(text.charCodeAt(0))) return false;
	return ISO_DATE.test(text) || ISO_DATE_TIME.test(text);
}

function isDigit(code: number): boolean {
	return code >= 48 && code <= 57;
}

/** A calendar date and wall-clock time, as written in a date field. */
interface WallTime {
	year: number;
	month: number;
	day: number;
	hour: number;
	minute: number;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

function formatWallTime(time: WallTime, format: DateFormat): string {
	if (format === 'dd.MM.yyyy') return `${pad2(time.day)}.${pad2(time.month)}.${time.year}`;
	const date = `${time.day}.${time.month}.${time.year}`;
	return format === 'd.M.yyyy H:mm' ? `${date} ${time.hour}:${pad2(time.minute)}` : date;
}

/** A wall time from its written parts, or undefined when no such day or time exists. */
function wallTime(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): WallTime | undefined {
	return isCalendarDate(year, month, day, hour, minute, second) ? { year, month, day, hour, minute } : undefined;
}

/**
 * The UTC offset of a zone, looked up once per quarter hour of time (every offset change in use
 * falls on a quarter hour), because each lookup asks Intl and costs several microseconds.
 */
class ZoneOffsets {
	private readonly zone: IANAZone;

	private readonly cache = new Map<number, number>();

	constructor(name: string) {
		this.zone = IANAZone.create(name);
	}

	wallTimeAt(millis: number): WallTime {
		const bucket = Math.floor(millis / 900_000);
		let offset = this.cache.get(bucket);
		if (offset === undefined) {
			offset = this.zone.offset(millis);
			if (this.cache.size > 10_000) this.cache.clear();
			this.cache.set(bucket, offset);
		}
		const shifted = new Date(millis + offset * 60_000);
		return {
			year: shifted.getUTCFullYear(),
			month: shifted.getUTCMonth() + 1,
			day: shifted.getUTCDate(),
			hour: shifted.getUTCHours(),
			minute: shifted.getUTCMinutes(),
		};
	}
}

const zoneOffsets = new Map<string, ZoneOffsets>();

function zoneOffsetsOf(timezone: string): ZoneOffsets {
	let offsets = zoneOffsets.get(timezone);
	if (!offsets) {
		offsets = new ZoneOffsets(timezone);
		zoneOffsets.set(timezone, offsets);
	}
	return offsets;
}

/** Formats an instant (in ms since the epoch) as the date (and time) it is in `options.timezone`. */
function formatInstant(millis: number, options: ValuePreparationOptions): string {
	return formatWallTime(zoneOffsetsOf(options.timezone).wallTimeAt(millis), options.dateFormat);
}

/** Milliseconds of a written offset: `Z`, `+01`, `+0100`, `-05:00`. */
function offsetMillis(text: string): number {
	if (text === 'Z') return 0;
	const sign = text.startsWith('-') ? -1 : 1;
	const digits = text.slice(1).replace(':', '');
	const hours = Number(digits.slice(0, 2));
	const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
	return sign * (hours * 60 + minutes) * 60_000;
}

/** A date value as read: an instant (ms since the epoch), or a calendar date and time as written. */
type DateReading = number | WallTime;

/**
 * Converts a date value to the date format. Values that name an instant (a Luxon DateTime, a JS
 * Date, an ISO date-time with an offset) are shown as the date (and time) they are in
 * `options.timezone`. Values that name a calendar date (an ISO date, day.month.year text, an ISO
 * date-time without an offset) are kept as written: the same day in every timezone.
 */
export function formatDateValue(value: unknown, options: ValuePreparationOptions): string {
	const date = readDateValue(value);
	return typeof date === 'number' ? formatInstant(date, options) : formatWallTime(date, options.dateFormat);
}

/** Throws what formatDateValue throws for the value, without writing the date. */
export function checkDateValue(value: unknown): void {
	readDateValue(value);
}

function readDateValue(value: unknown): DateReading {
	if (isLuxonDateTime(value)) {
		if (!value.isValid) throw new RecordValueError('is an invalid date-time', 'Check the expression that produces it.');
		return value.toMillis();
	}
	if (isJsDate(value)) {
		const millis = value.getTime();
		if (Number.isNaN(millis)) throw new RecordValueError('is an invalid date', 'Check the expression that produces it.');
		return millis;
	}
	if (typeof value !== 'string') {
		throw new RecordValueError(
			`must be a date, but is ${describeType(value)}${typeof value === 'number' ? ` (${value})` : ''}`,
			'Send a date as an ISO 8601 string (2026-01-31), as day.month.year text (31.1.2026), or as a DateTime, or remove the field from "Date Fields".',
		);
	}
	const text = value.trim();
	const isoDate = ISO_DATE.exec(text);
	if (isoDate) {
		const time = wallTime(Number(isoDate[1]), Number(isoDate[2]), Number(isoDate[3]));
		if (!time) throw invalidDateText(value);
		return time;
	}
	const isoDateTime = ISO_DATE_TIME.exec(text);
	if (isoDateTime) {
		const [, year, month, day, hour, minute, second, offset] = isoDateTime;
		const time = wallTime(Number(year), Number(month), Number(day), Number(hour), Number(minute), Number(second ?? 0));
		if (!time || (offset !== undefined && offset !== 'Z' && Math.abs(offsetMillis(offset)) >= 24 * 3_600_000)) {
			throw invalidDateText(value);
		}
		if (offset === undefined) return time;
		const asUtc = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, Number(second ?? 0));
		return asUtc - offsetMillis(offset);
	}
	if (LOCAL_DATE_SHAPE.test(text)) {
		const parts = czechDateParts(text);
		if (!parts) throw invalidDateText(value);
		return { ...parts, hour: parts.hour ?? 0, minute: parts.minute ?? 0 };
	}
	throw new RecordValueError(
		`must be a date, but "${truncate(value)}" is not one`,
		'Send an ISO 8601 date (2026-01-31 or 2026-01-31T10:00:00+01:00) or day.month.year (31.1.2026), or remove the field from "Date Fields".',
	);
}

function invalidDateText(value: string): RecordValueError {
	return new RecordValueError(
		`"${truncate(value)}" is not a valid calendar date`,
		'Correct the date in the input (day, month and year must exist).',
	);
}
