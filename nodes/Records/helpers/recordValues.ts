/**
 * Turns one record as n8n holds it (any JSON, Luxon DateTimes, JS Dates) into the record the import
 * sends: string values in the service's local format. Pure functions: no n8n context, no I/O.
 *
 * The rule that keeps user data intact: a string value is sent exactly as given unless its field is
 * named as a date or number field. Only values whose type says what they are (numbers, booleans,
 * dates) are formatted without being asked. Bringing text to Unicode NFC is a step of its own
 * (normalizeRecordText), taken after the checks.
 */
import { IANAZone } from 'luxon';

export const DATE_FORMATS = ['d.M.yyyy', 'dd.MM.yyyy', 'd.M.yyyy H:mm'] as const;
export const NUMBER_FORMATS = ['decimalComma', 'decimalPoint', 'number'] as const;
export const THOUSANDS_SEPARATORS = ['none', 'space', 'nbsp'] as const;
export const EMPTY_VALUE_HANDLING = ['emptyString', 'omit'] as const;
export const BOOLEAN_FORMATS = ['trueFalse', 'anoNe', 'AnoNe', 'oneZero'] as const;
export const OBJECT_VALUE_HANDLING = ['error', 'json'] as const;

export type DateFormat = (typeof DATE_FORMATS)[number];
export type NumberFormat = (typeof NUMBER_FORMATS)[number];
export type ThousandsSeparator = (typeof THOUSANDS_SEPARATORS)[number];
export type EmptyValueHandling = (typeof EMPTY_VALUE_HANDLING)[number];
export type BooleanFormat = (typeof BOOLEAN_FORMATS)[number];
export type ObjectValueHandling = (typeof OBJECT_VALUE_HANDLING)[number];

export interface ValuePreparationOptions {
	/** IANA zone in which instants (DateTime, Date, ISO strings with an offset) are given a calendar date. */
	timezone: string;
	dateFormat: DateFormat;
	/** Normalized names of fields whose values are dates, whatever their type. */
	dateFields: ReadonlySet<string>;
	/** Whether ISO 8601 date strings in fields not named as date fields are converted too. */
	convertIsoDateStrings: boolean;
	/**
	 * Whether text in the exact form n8n gives a date it turns into text (see isDateAsN8nText) is
	 * converted in every field (node version 1.1 on). Version 1 sends it as it is.
	 */
	convertN8nDateText: boolean;
	/** Normalized names of fields whose values are numbers, whatever their type. */
	numberFields: ReadonlySet<string>;
	numberFormat: NumberFormat;
	thousandsSeparator: ThousandsSeparator;
	/** Round numbers to this many decimal places and pad with zeros; undefined keeps them as they are. */
	decimalPlaces?: number;
	emptyValues: EmptyValueHandling;
	booleanFormat: BooleanFormat;
	objectValues: ObjectValueHandling;
	/** NFC and trimming of field names, so that names typed on different systems match. */
	normalizeFieldNames: boolean;
}

export const DEFAULT_VALUE_PREPARATION: ValuePreparationOptions = {
	timezone: 'UTC',
	dateFormat: 'd.M.yyyy',
	dateFields: new Set(),
	convertIsoDateStrings: false,
	convertN8nDateText: false,
	numberFields: new Set(),
	numberFormat: 'decimalComma',
	thousandsSeparator: 'none',
	decimalPlaces: undefined,
	emptyValues: 'emptyString',
	booleanFormat: 'trueFalse',
	objectValues: 'error',
	normalizeFieldNames: true,
};

export type PreparedValue = string | number;
export type PreparedRecord = Record<string, PreparedValue>;

/** A record or value that cannot be sent as it is. The caller adds which item it came from. */
export class RecordValueError extends Error {
	constructor(
		message: string,
		/** How to fix it, addressed to the user. */
		readonly hint: string,
		/** The field, as named in the input, when the problem is about one field. */
		readonly field?: string,
	) {
		super(message);
		this.name = 'RecordValueError';
	}
}

/**
 * Text made only of characters below U+0300 (Latin, Latin Extended-A/B: all of Czech) is already in
 * NFC: composition starts at combining marks. Testing that is cheaper than String#normalize, which
 * copies every string it is given.
 */
const MAY_NEED_NFC = /[\u0300-\uffff]/;

function toNfc(text: string): string {
	return MAY_NEED_NFC.test(text) ? text.normalize('NFC') : text;
}

/** Field names repeat in every record; normalizing each once saves most of the work. */
const normalizedNames = new Map<string, string>();

export function normalizeFieldName(name: string): string {
	let normalized = normalizedNames.get(name);
	if (normalized === undefined) {
		normalized = toNfc(name).trim();
		if (normalizedNames.size >= 10_000) normalizedNames.clear();
		normalizedNames.set(name, normalized);
	}
	return normalized;
}

/** Parses a comma-separated list of field names into their normalized forms. */
export function parseFieldList(text: string | undefined): Set<string> {
	const names = new Set<string>();
	for (const part of (text ?? '').split(',')) {
		const name = normalizeFieldName(part);
		if (name !== '') names.add(name);
	}
	return names;
}

export function isValidTimezone(zone: string): boolean {
	return IANAZone.isValidZone(zone);
}

/** Names a value's type the way a user would, for messages. */
export function describeType(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (isLuxonDateTime(value)) return 'a date-time';
	if (isJsDate(value)) return 'a date';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string') return 'text';
	if (typeof value === 'number') return 'a number';
	if (typeof value === 'boolean') return 'a boolean';
	return `a ${typeof value}`;
}

/**
 * Luxon DateTimes are recognised by their brand, not `instanceof`: the DateTime class of n8n's
 * expression engine may be another copy of Luxon than this package's.
 */
interface LuxonLike {
	isLuxonDateTime: true;
	isValid: boolean;
	toMillis(): number;
}

function isLuxonDateTime(value: unknown): value is LuxonLike {
	return (
		typeof value === 'object' &&
		value !== null &&
		(value as { isLuxonDateTime?: unknown }).isLuxonDateTime === true &&
		typeof (value as { toMillis?: unknown }).toMillis === 'function'
	);
}

/** Also true for Dates made in another JavaScript realm (e.g. n8n's Code node sandbox). */
function isJsDate(value: unknown): value is Date {
	return Object.prototype.toString.call(value) === '[object Date]';
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;
const LOCAL_DATE = /^(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A date as n8n writes it when it turns one into text: a Luxon DateTime from an expression
 * (`{{ $now }}`, `{{ $today }}`) becomes `toISO()`, a Date or DateTime in a Code node's output
 * becomes its JSON. Both have milliseconds and an offset, which people do not type: text of this
 * form is a date that was an object a moment before.
 */
const N8N_DATE_TEXT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(?:Z|[+-]\d{2}:\d{2})$/;

export function isDateAsN8nText(text: string): boolean {
	return N8N_DATE_TEXT.test(text);
}

/** Whether a string is an ISO 8601 date or date-time (the shapes JSON APIs and n8n produce). */
export function looksLikeIsoDate(text: string): boolean {
	return ISO_DATE.test(text) || ISO_DATE_TIME.test(text);
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

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
}

/** A wall time from its written parts, or undefined when no such day or time exists. */
function wallTime(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): WallTime | undefined {
	const valid =
		month >= 1 &&
		month <= 12 &&
		day >= 1 &&
		day <= daysInMonth(year, month) &&
		hour <= 23 &&
		minute <= 59 &&
		second <= 59;
	return valid ? { year, month, day, hour, minute } : undefined;
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

/**
 * Converts a date value to the date format. Values that name an instant (a Luxon DateTime, a JS
 * Date, an ISO date-time with an offset) are shown as the date (and time) they are in
 * `options.timezone`. Values that name a calendar date (an ISO date, day.month.year text, an ISO
 * date-time without an offset) are kept as written: the same day in every timezone.
 */
export function formatDateValue(value: unknown, options: ValuePreparationOptions): string {
	if (isLuxonDateTime(value)) {
		if (!value.isValid) throw new RecordValueError('is an invalid date-time', 'Check the expression that produces it.');
		return formatInstant(value.toMillis(), options);
	}
	if (isJsDate(value)) {
		const millis = value.getTime();
		if (Number.isNaN(millis)) throw new RecordValueError('is an invalid date', 'Check the expression that produces it.');
		return formatInstant(millis, options);
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
		return formatWallTime(time, options.dateFormat);
	}
	const isoDateTime = ISO_DATE_TIME.exec(text);
	if (isoDateTime) {
		const [, year, month, day, hour, minute, second, offset] = isoDateTime;
		const time = wallTime(Number(year), Number(month), Number(day), Number(hour), Number(minute), Number(second ?? 0));
		if (!time || (offset !== undefined && offset !== 'Z' && Math.abs(offsetMillis(offset)) >= 24 * 3_600_000)) {
			throw invalidDateText(value);
		}
		if (offset === undefined) return formatWallTime(time, options.dateFormat);
		const asUtc = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, Number(second ?? 0));
		return formatInstant(asUtc - offsetMillis(offset), options);
	}
	const local = LOCAL_DATE.exec(text);
	if (local) {
		const [, day, month, year, hour, minute, second] = local;
		const time = wallTime(
			Number(year),
			Number(month),
			Number(day),
			Number(hour ?? 0),
			Number(minute ?? 0),
			Number(second ?? 0),
		);
		if (!time) throw invalidDateText(value);
		return formatWallTime(time, options.dateFormat);
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

// ---- numbers -------------------------------------------------------------------------------------

interface DecimalParts {
	negative: boolean;
	integer: string;
	fraction: string;
}

/**
 * The decimal digits of a finite number as JavaScript's shortest round-trip representation gives
 * them (so 0.1 stays 0.1), without exponent notation.
 */
function decimalParts(value: number): DecimalParts {
	const negative = value < 0;
	const text = String(Math.abs(value));
	if (!text.includes('e')) {
		const point = text.indexOf('.');
		return point < 0
			? { negative, integer: text, fraction: '' }
			: { negative, integer: text.slice(0, point), fraction: text.slice(point + 1) };
	}
	const match = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text);
	if (!match) throw new RecordValueError(`cannot be written as a decimal number (${text})`, 'Send the number as text.');
	const [, whole, fractionDigits = '', exponentText] = match;
	const exponent = exponentText === undefined ? 0 : Number(exponentText);
	const digits = whole + fractionDigits;
	let point = whole.length + exponent;
	let padded = digits;
	if (point <= 0) {
		padded = '0'.repeat(1 - point) + digits;
		point = 1;
	} else if (point > digits.length) {
		padded = digits + '0'.repeat(point - digits.length);
	}
	const integer = padded.slice(0, point).replace(/^0+(?=\d)/, '');
	const fraction = padded.slice(point).replace(/0+$/, '');
	return { negative, integer, fraction };
}

/** Rounds half away from zero on the decimal digits, so 1.005 becomes 1.01 as a person expects. */
function roundParts(parts: DecimalParts, places: number): DecimalParts {
	if (parts.fraction.length <= places) {
		return { ...parts, fraction: parts.fraction.padEnd(places, '0') };
	}
	const kept = parts.integer + parts.fraction.slice(0, places);
	const roundUp = parts.fraction.charCodeAt(places) >= '5'.charCodeAt(0);
	let digits = kept;
	if (roundUp) {
		const chars = kept.split('');
		let i = chars.length - 1;
		while (i >= 0) {
			if (chars[i] === '9') {
				chars[i] = '0';
				i--;
			} else {
				chars[i] = String(Number(chars[i]) + 1);
				break;
			}
		}
		digits = (i < 0 ? '1' : '') + chars.join('');
	}
	const integerLength = digits.length - places;
	return {
		negative: parts.negative,
		integer: digits.slice(0, integerLength).replace(/^0+(?=\d)/, '') || '0',
		fraction: digits.slice(integerLength),
	};
}

const SEPARATORS: Record<ThousandsSeparator, string> = { none: '', space: ' ', nbsp: '\u00a0' };

function joinParts(parts: DecimalParts, decimalSeparator: string, thousands: ThousandsSeparator): string {
	const grouping = SEPARATORS[thousands];
	const integer = grouping === '' ? parts.integer : parts.integer.replace(/\B(?=(\d{3})+(?!\d))/g, grouping);
	const isZero = /^0*$/.test(parts.integer + parts.fraction);
	const sign = parts.negative && !isZero ? '-' : '';
	return `${sign}${integer}${parts.fraction === '' ? '' : decimalSeparator + parts.fraction}`;
}

/** Largest integer a JSON number carries exactly; beyond it, digits were already lost. */
const MAX_EXACT = Number.MAX_SAFE_INTEGER;

/** Formats a finite number in the chosen local format. */
export function formatNumber(value: number, options: ValuePreparationOptions): PreparedValue {
	if (!Number.isFinite(value)) {
		throw new RecordValueError(`is ${String(value)}, which is not a number the service can store`, 'Replace it with a real number or leave the field empty.');
	}
	if (Math.abs(value) > MAX_EXACT) {
		throw new RecordValueError(
			`is the number ${String(value)}, which is too large to be exact (digits may already have been lost)`,
			'Send long numbers such as account or document numbers as text, e.g. "12345678901234567890".',
		);
	}
	let parts = decimalParts(value);
	if (options.decimalPlaces !== undefined) parts = roundParts(parts, options.decimalPlaces);
	if (options.numberFormat === 'number') return Number(joinParts(parts, '.', 'none'));
	return joinParts(parts, options.numberFormat === 'decimalComma' ? ',' : '.', options.thousandsSeparator);
}

function formatBigInt(value: bigint, options: ValuePreparationOptions): PreparedValue {
	const negative = value < BigInt(0);
	const integer = (negative ? -value : value).toString();
	let parts: DecimalParts = { negative, integer, fraction: '' };
	if (options.decimalPlaces !== undefined) parts = roundParts(parts, options.decimalPlaces);
	if (options.numberFormat === 'number') {
		if (integer.length > 15) {
			throw new RecordValueError(
				`is the integer ${value.toString()}, which a JSON number cannot carry exactly`,
				'Choose a text "Number Format" (decimal comma or point).',
			);
		}
		return Number(joinParts(parts, '.', 'none'));
	}
	return joinParts(parts, options.numberFormat === 'decimalComma' ? ',' : '.', options.thousandsSeparator);
}

const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const LOCAL_NUMBER = /^[+-]?\d{1,3}(?:[ \u00a0\u202f]\d{3})*(?:,\d+)?$|^[+-]?\d+(?:,\d+)?$/;

/** Reads the text of a named number field: plain `1234.5`, or local `1 234,5` / `1234,5`. */
export function parseNumberText(text: string): number {
	const trimmed = text.trim();
	if (PLAIN_NUMBER.test(trimmed)) return Number(trimmed);
	if (LOCAL_NUMBER.test(trimmed)) {
		if (/^[+-]?\d{1,3},\d{3}$/.test(trimmed)) {
			throw new RecordValueError(
				`"${trimmed}" is ambiguous: the comma could be a decimal or a thousands separator`,
				'Write the number with a decimal point and no thousands separator (1234.5 or 1.234), or remove the field from "Number Fields".',
			);
		}
		return Number(trimmed.replace(/[ \u00a0\u202f]/g, '').replace(',', '.'));
	}
	throw new RecordValueError(
		`must be a number, but "${truncate(text)}" is not one`,
		'Send a number, or text such as 1234.5 or 1 234,5, or remove the field from "Number Fields".',
	);
}

// ---- values and records ------------------------------------------------------------------------

const BOOLEAN_TEXT: Record<BooleanFormat, [string, string]> = {
	trueFalse: ['true', 'false'],
	anoNe: ['ano', 'ne'],
	AnoNe: ['Ano', 'Ne'],
	oneZero: ['1', '0'],
};

function truncate(text: string, max = 60): string {
	return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * Prepares one value of the field `field` (normalized name). Returns undefined when the value is to
 * be left out of the record.
 */
export function prepareValue(
	field: string,
	value: unknown,
	options: ValuePreparationOptions,
): PreparedValue | undefined {
	if (value === null || value === undefined) {
		return options.emptyValues === 'omit' ? undefined : '';
	}
	const isDateField = options.dateFields.size > 0 && options.dateFields.has(field);
	const isNumberField = options.numberFields.size > 0 && options.numberFields.has(field);

	if (isDateField) {
		if (typeof value === 'string' && value.trim() === '') return '';
		return formatDateValue(value, options);
	}
	if (isNumberField) {
		if (typeof value === 'number') return formatNumber(value, options);
		if (typeof value === 'bigint') return formatBigInt(value, options);
		if (typeof value === 'string') {
			if (value.trim() === '') return '';
			return formatNumber(parseNumberText(value), options);
		}
		throw new RecordValueError(
			`must be a number, but is ${describeType(value)}`,
			'Send a number or numeric text, or remove the field from "Number Fields".',
		);
	}

	if (typeof value === 'string') {
		if (options.convertN8nDateText && isDateAsN8nText(value)) return formatDateValue(value, options);
		if (options.convertIsoDateStrings && looksLikeIsoDate(value.trim())) return formatDateValue(value, options);
		return value;
	}
	if (typeof value === 'number') return formatNumber(value, options);
	if (typeof value === 'bigint') return formatBigInt(value, options);
	if (typeof value === 'boolean') {
		const [yes, no] = BOOLEAN_TEXT[options.booleanFormat];
		return value ? yes : no;
	}
	if (isLuxonDateTime(value) || isJsDate(value)) return formatDateValue(value, options);
	if (typeof value === 'object') {
		if (options.objectValues === 'json') return JSON.stringify(value);
		throw new RecordValueError(
			`is ${describeType(value)}, but a field holds one value`,
			'Pick the value you need with an expression (e.g. {{ $json.partner.name }}), join a list into text, or set "Object Values" to "Send as JSON Text".',
		);
	}
	throw new RecordValueError(
		`is ${describeType(value)}, which cannot be sent`,
		'Send text, a number, a boolean or a date.',
	);
}

/** prepareValue, with its refusal returned instead of thrown; nothing else is expected to fail. */
function attemptValue(
	field: string,
	value: unknown,
	options: ValuePreparationOptions,
): PreparedValue | undefined | RecordValueError {
	try {
		return prepareValue(field, value, options);
	} catch (error) {
		return error instanceof RecordValueError
			? error
			: new RecordValueError(
					`could not be prepared: ${(error as Error).message}`,
					'Check the value; if it looks right, report this as a bug of the node.',
				);
	}
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLuxonDateTime(value) && !isJsDate(value);
}

/** Whether an import JSON value is one record (an object of fields), for callers that unwrap lists. */
export function isRecordObject(value: unknown): value is Record<string, unknown> {
	return isPlainRecord(value);
}

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

/**
 * Prepares a whole record: normalizes its field names, refuses empty and colliding names, and
 * prepares every value. Errors name the field as the input spelt it.
 *
 * This runs once per imported record, so it walks the object's keys itself instead of building
 * name/value pairs; two keys of one object can only name the same field when normalizing changed
 * one of them, and only then is the record handed to prepareFields for the exact refusal.
 */
export function prepareRecord(record: unknown, options: ValuePreparationOptions): PreparedRecord {
	if (!isPlainRecord(record)) {
		throw new RecordValueError(
			`A record must be an object of field names and values, but this one is ${describeType(record)}`,
			'Give each record as an object, e.g. {"Název": "Úkol 1"}.',
		);
	}
	// Undefined as long as every field so far is sent exactly as given: a record that needs no change
	// is sent as it is, without a copy (most records of an import that is already clean).
	let prepared: PreparedRecord | undefined = isSimpleObject(record) ? undefined : {};
	let renamed: Set<string> | undefined;
	let fieldCount = 0;
	let sentCount = 0;
	for (const rawName in record) {
		if (!hasOwn(record, rawName)) continue;
		fieldCount++;
		const name = options.normalizeFieldNames ? normalizeFieldName(rawName) : rawName;
		if (name !== rawName) {
			if (hasOwn(record, name) || renamed?.has(name)) return prepareFields(Object.entries(record), options);
			(renamed ??= new Set()).add(name);
		}
		// A normalized name is trimmed already.
		if (name === '' || (!options.normalizeFieldNames && name.trim() === '')) {
			return prepareFields(Object.entries(record), options);
		}
		const value = record[rawName];
		const preparedValue = fieldValue(rawName, name, value, options);
		if (prepared === undefined) {
			if (preparedValue === value && name === rawName) {
				sentCount++;
				continue;
			}
			prepared = copyFieldsBefore(record, rawName);
		}
		if (preparedValue !== undefined) {
			prepared[name] = preparedValue;
			sentCount++;
		}
	}
	return nonEmpty(prepared ?? (record as PreparedRecord), fieldCount, sentCount);
}

/**
 * Brings a prepared record's text values to NFC (canonically equivalent text, e.g. a key value typed
 * on a Mac), copying the record only when one changes. Values prepareRecord formatted (dates, numbers,
 * booleans) are Latin-1, which NFC leaves alone.
 *
 * A step of its own because it cannot fail: the import checks every record before its first
 * request, and takes this step as it makes each batch's body.
 */
export function normalizeRecordText(record: PreparedRecord): PreparedRecord {
	let normalized: PreparedRecord | undefined;
	for (const name in record) {
		const value = record[name];
		if (typeof value !== 'string' || !hasOwn(record, name)) continue;
		const nfc = toNfc(value);
		if (nfc !== value) (normalized ??= { ...record })[name] = nfc;
	}
	return normalized ?? record;
}

/**
 * The JSON text of prepared records after normalizeRecordText, and the records it gave (the same
 * objects when nothing changed).
 *
 * One test of the JSON text stands for walking every record again: when it holds no character from
 * U+0300 up, neither does any name or value (JSON escapes only ASCII and lone surrogates, which NFC
 * leaves alone), so all of them are in NFC already. The records are walked only when it does.
 */
export function recordsJsonInNfc(records: PreparedRecord[]): { json: string; records: PreparedRecord[] } {
	const json = JSON.stringify(records);
	if (!MAY_NEED_NFC.test(json)) return { json, records };
	const normalized = records.map(normalizeRecordText);
	return normalized.some((record, index) => record !== records[index])
		? { json: JSON.stringify(normalized), records: normalized }
		: { json, records };
}

/** An object literal or JSON-parsed object: sending it as it is sends exactly its own fields. */
function isSimpleObject(record: object): boolean {
	const prototype = Object.getPrototypeOf(record) as unknown;
	return prototype === Object.prototype || prototype === null;
}

/** The fields before `field`, all of which are sent as given. */
function copyFieldsBefore(record: Record<string, unknown>, field: string): PreparedRecord {
	const copy: PreparedRecord = {};
	for (const name in record) {
		if (name === field) break;
		if (hasOwn(record, name)) copy[name] = record[name] as PreparedValue;
	}
	return copy;
}

/**
 * Prepares a record given as name/value pairs, which (unlike an object) can name a field twice;
 * that is refused like two spellings of one name.
 */
export function prepareFields(
	fields: ReadonlyArray<readonly [string, unknown]>,
	options: ValuePreparationOptions,
): PreparedRecord {
	const prepared: PreparedRecord = {};
	const sourceOf = new Map<string, string>();
	let sentCount = 0;
	for (const [rawName, value] of fields) {
		const name = options.normalizeFieldNames ? normalizeFieldName(rawName) : rawName;
		if (name.trim() === '') {
			throw new RecordValueError(
				`A field has an empty name${rawName === '' ? '' : ` ("${rawName}")`}`,
				'Give every field the name it has in the record type, or remove it.',
				rawName,
			);
		}
		const earlier = sourceOf.get(name);
		if (earlier !== undefined) {
			throw new RecordValueError(
				earlier === rawName
					? `The field "${rawName}" is given twice`
					: `The fields "${earlier}" and "${rawName}" are the same field "${name}" once Unicode form and surrounding spaces are normalized`,
				earlier === rawName
					? 'Keep only one of them.'
					: 'Keep only one of them (they were probably typed on different systems).',
				rawName,
			);
		}
		sourceOf.set(name, rawName);
		const preparedValue = fieldValue(rawName, name, value, options);
		if (preparedValue !== undefined) {
			prepared[name] = preparedValue;
			sentCount++;
		}
	}
	return nonEmpty(prepared, fields.length, sentCount);
}

/** The value to send for one field, or undefined to leave it out; refusals name the field. */
function fieldValue(rawName: string, name: string, value: unknown, options: ValuePreparationOptions): PreparedValue | undefined {
	const preparedValue = attemptValue(name, value, options);
	if (preparedValue instanceof RecordValueError) {
		throw new RecordValueError(`Field "${rawName}" ${preparedValue.message}`, preparedValue.hint, rawName);
	}
	return preparedValue;
}

function nonEmpty(prepared: PreparedRecord, fieldCount: number, sentCount: number): PreparedRecord {
	if (sentCount > 0) return prepared;
	throw new RecordValueError(
		fieldCount === 0
			? 'The record has no fields'
			: 'The record has no fields left to send (all its values are empty and "Null Values" omits them)',
		'Give the record at least one field of the record type.',
	);
}

/** Keeps or drops fields of a record by their normalized names. */
export function selectFields(
	record: Record<string, unknown>,
	selection: { include?: ReadonlySet<string>; exclude?: ReadonlySet<string> },
): Record<string, unknown> {
	const selected: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(record)) {
		const normalized = normalizeFieldName(name);
		if (selection.include && !selection.include.has(normalized)) continue;
		if (selection.exclude?.has(normalized)) continue;
		selected[name] = value;
	}
	return selected;
}
