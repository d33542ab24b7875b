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

import { formatDateValue, isDateAsN8nText, isJsDate, looksLikeIsoDate } from './dates';
import { formatBigInt, formatNumber, parseNumberText } from './numbers';
import { isLuxonDateTime } from '../../../../shared/czechFormats';

// Read by the tests and the Import settings with the rest of value preparation.
export { formatDateValue, formatNumber, isDateAsN8nText, looksLikeIsoDate, parseNumberText };

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

// ---- values and records ------------------------------------------------------------------------

const BOOLEAN_TEXT: Record<BooleanFormat, [string, string]> = {
	trueFalse: ['true', 'false'],
	anoNe: ['ano', 'ne'],
	AnoNe: ['Ano', 'Ne'],
	oneZero: ['1', '0'],
};

export function truncate(text: string, max = 60): string {
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
		// The exact text n8n makes of a date (see isDateAsN8nText) is a date in every field.
		if (isDateAsN8nText(value)) return formatDateValue(value, options);
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
			'Give each record as an object, e.g. {"Title": "Task 1"}.',
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
