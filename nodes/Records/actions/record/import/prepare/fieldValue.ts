/**
 * One field's value (pure): what the import sends for it (prepareFieldValue), and whether it can be
 * sent and is sent as given, learnt without converting it (checkFieldValue).
 *
 * The rule that keeps user data intact: a string value is sent exactly as given unless its field is
 * named as a date or number field. Only values whose type says what they are (numbers, booleans,
 * dates) are formatted without being asked.
 *
 * The two functions take the same branches in the same order and refuse a value with the same
 * error: the import checks every record before its first request and converts each batch's records
 * as it sends them. A model test holds them to each other.
 */
import { checkDateValue, formatDateValue, hasN8nDateLength, isDateAsN8nText, looksLikeIsoDate } from './dates';
import { checkBigInt, checkNumber, formatBigInt, formatNumber, parseNumberText } from './numbers';
import {
	type BooleanFormat,
	describeType,
	isJsDate,
	type PreparedValue,
	RecordValueError,
	type ValuePreparationOptions,
} from './preparation';
import { isLuxonDateTime } from '../../../../../shared/czechFormats';

/** A field named in "Date Fields", in "Number Fields", or in neither. */
export type FieldKind = 'plain' | 'date' | 'number';

/** The kind of the field of this normalized name. */
export function fieldKind(field: string, options: ValuePreparationOptions): FieldKind {
	if (options.dateFields.size > 0 && options.dateFields.has(field)) return 'date';
	if (options.numberFields.size > 0 && options.numberFields.has(field)) return 'number';
	return 'plain';
}

/** What preparing a value does with it: sends it as given, sends something else, or leaves it out. */
export type ValueCheck = 'asGiven' | 'changed' | 'leftOut';

const BOOLEAN_TEXT: Record<BooleanFormat, [string, string]> = {
	trueFalse: ['true', 'false'],
	anoNe: ['ano', 'ne'],
	AnoNe: ['Ano', 'Ne'],
	oneZero: ['1', '0'],
};

/**
 * Prepares one value of a field of the given kind. Returns undefined when the value is to be left
 * out of the record.
 */
export function prepareFieldValue(
	kind: FieldKind,
	value: unknown,
	options: ValuePreparationOptions,
): PreparedValue | undefined {
	if (value === null || value === undefined) return options.emptyValues === 'omit' ? undefined : '';
	if (typeof value === 'string') {
		if (kind === 'plain') return isTextDate(value, options) ? formatDateValue(value, options) : value;
		if (value.trim() === '') return '';
		return kind === 'date' ? formatDateValue(value, options) : formatNumber(parseNumberText(value), options);
	}
	if (kind === 'date') return formatDateValue(value, options);
	if (typeof value === 'number') return formatNumber(value, options);
	if (typeof value === 'bigint') return formatBigInt(value, options);
	if (kind === 'number') throw notANumber(value);
	if (typeof value === 'boolean') return BOOLEAN_TEXT[options.booleanFormat][value ? 0 : 1];
	if (isLuxonDateTime(value) || isJsDate(value)) return formatDateValue(value, options);
	if (typeof value === 'object') {
		if (options.objectValues === 'json') return JSON.stringify(value);
		throw notOneValue(value);
	}
	throw cannotBeSent(value);
}

/**
 * Whether a value is sent as given without a closer look: text in a field not named as a date or
 * number field, too long or too short to be a date as n8n writes one, while ISO dates in text are
 * not converted. Most values of an import are such text; checkRecord asks this first, and
 * checkFieldValue only of the others (it would say 'asGiven' of these too).
 */
export function isPlainText(kind: FieldKind, value: unknown, options: ValuePreparationOptions): boolean {
	return typeof value === 'string' && kind === 'plain' && !options.convertIsoDateStrings && !hasN8nDateLength(value);
}

/** Throws what prepareFieldValue throws for the value, and says what it would do, without converting. */
export function checkFieldValue(kind: FieldKind, value: unknown, options: ValuePreparationOptions): ValueCheck {
	if (value === null || value === undefined) return options.emptyValues === 'omit' ? 'leftOut' : 'changed';
	if (typeof value === 'string') {
		if (kind === 'plain') return isTextDate(value, options) ? checkedDate(value) : 'asGiven';
		if (value.trim() === '') return value === '' ? 'asGiven' : 'changed';
		if (kind === 'date') return checkedDate(value);
		checkNumber(parseNumberText(value));
		return 'changed';
	}
	if (kind === 'date') return checkedDate(value);
	if (typeof value === 'number') {
		checkNumber(value);
		return 'changed';
	}
	if (typeof value === 'bigint') {
		checkBigInt(value, options);
		return 'changed';
	}
	if (kind === 'number') throw notANumber(value);
	if (typeof value === 'boolean') return 'changed';
	if (isLuxonDateTime(value) || isJsDate(value)) return checkedDate(value);
	if (typeof value === 'object') {
		// Serializing is the only check there is (a cycle or a BigInt inside throws).
		if (options.objectValues === 'json') return JSON.stringify(value) === undefined ? 'leftOut' : 'changed';
		throw notOneValue(value);
	}
	throw cannotBeSent(value);
}

/**
 * Text in a field not named as a date field that is sent as a date: the exact text n8n makes of a
 * date (see isDateAsN8nText) in every field, and any ISO date when "Convert ISO Date Strings" is on.
 */
function isTextDate(text: string, options: ValuePreparationOptions): boolean {
	return isDateAsN8nText(text) || (options.convertIsoDateStrings && looksLikeIsoDate(text.trim()));
}

function checkedDate(value: unknown): ValueCheck {
	checkDateValue(value);
	return 'changed';
}

function notANumber(value: unknown): RecordValueError {
	return new RecordValueError(
		`must be a number, but is ${describeType(value)}`,
		'Send a number or numeric text, or remove the field from "Number Fields".',
	);
}

function notOneValue(value: unknown): RecordValueError {
	return new RecordValueError(
		`is ${describeType(value)}, but a field holds one value`,
		'Pick the value you need with an expression (e.g. {{ $json.partner.name }}), join a list into text, or set "Object Values" to "Send as JSON Text".',
	);
}

function cannotBeSent(value: unknown): RecordValueError {
	return new RecordValueError(`is ${describeType(value)}, which cannot be sent`, 'Send text, a number, a boolean or a date.');
}
