/**
 * What value preparation is given and what it gives (pure): its options, the prepared values and
 * records, and the error that refuses a value. Shared by the modules that prepare dates, numbers
 * and whole records, which depend on this one and not on each other.
 */
import { isLuxonDateTime } from '../../../../../shared/czechFormats';

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

export function truncate(text: string, max = 60): string {
	return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** Also true for Dates made in another JavaScript realm (e.g. n8n's Code node sandbox). */
export function isJsDate(value: unknown): value is Date {
	return Object.prototype.toString.call(value) === '[object Date]';
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
