/**
 * Turns one record as n8n holds it (any JSON, Luxon DateTimes, JS Dates) into the record the import
 * sends: string values in the service's local format (pure: no n8n context, no I/O). Each value is
 * prepared by fieldValue.ts; this module walks the fields, normalizes their names and refuses
 * records that cannot be sent.
 *
 * Two passes over one record share their rules: checkRecord, made for every record before the
 * first request, refuses what prepareRecord would refuse and says whether the record is sent as
 * given; prepareRecord, made as each batch is sent, builds what is sent.
 */
import { checkFieldValue, type FieldKind, fieldKind, isPlainText, prepareFieldValue } from './fieldValue';
import { normalizeFieldName } from './normalForm';
import {
	describeType,
	isJsDate,
	type PreparedRecord,
	type PreparedValue,
	RecordValueError,
	type ValuePreparationOptions,
} from './preparation';
import { isLuxonDateTime } from '../../../../../shared/czechFormats';

// Value preparation as one module, for the Import's other parts and its tests.
export { formatDateValue, isDateAsN8nText, looksLikeIsoDate } from './dates';
export { formatNumber, parseNumberText } from './numbers';
export { normalizeFieldName, normalizeRecordText, parseFieldList, recordsJsonInNfc } from './normalForm';
export {
	DEFAULT_VALUE_PREPARATION,
	type PreparedRecord,
	type PreparedValue,
	RecordValueError,
	type ValuePreparationOptions,
} from './preparation';

/**
 * Prepares one value of the field `field` (normalized name). Returns undefined when the value is to
 * be left out of the record.
 */
export function prepareValue(field: string, value: unknown, options: ValuePreparationOptions): PreparedValue | undefined {
	return prepareFieldValue(fieldKind(field, options), value, options);
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	// An object literal or parsed JSON is no DateTime or Date; asking the others (a Date of another
	// realm too) costs more, most of all of records that V8 keeps as dictionaries.
	return isSimpleObject(value) || (!isLuxonDateTime(value) && !isJsDate(value));
}

/** Whether an import JSON value is one record (an object of fields), for callers that unwrap lists. */
export function isRecordObject(value: unknown): value is Record<string, unknown> {
	return isPlainRecord(value);
}

/** An object literal or JSON-parsed object: sending it as it is sends exactly its own fields. */
function isSimpleObject(record: object): boolean {
	const prototype = Object.getPrototypeOf(record) as unknown;
	return prototype === Object.prototype || prototype === null;
}

// ---- the fields of a record, by position ---------------------------------------------------------

/**
 * How the fields of a record are sent, by position, for every record with the same keys in the
 * same order: the records of one import mostly have them, so names are normalized and looked up
 * in the field lists once, not once per record.
 */
interface FieldLayout {
	options: ValuePreparationOptions;
	/** The keys as the record has them. */
	keys: string[];
	/** The name each is sent under. */
	names: string[];
	kinds: FieldKind[];
	/** Some name is sent spelt differently from its key. */
	renamed: boolean;
	/**
	 * A name is empty, or two keys name one field. Such records are refused by prepareFields, which
	 * says exactly how, at the field where it happens.
	 */
	refused: boolean;
}

/** The layout of the record before; consecutive records mostly share it. */
let lastLayout: FieldLayout | undefined;

function layoutOf(keys: string[], options: ValuePreparationOptions): FieldLayout {
	const last = lastLayout;
	if (last !== undefined && last.options === options && sameKeys(last.keys, keys)) return last;
	const names = keys.map((key) => (options.normalizeFieldNames ? normalizeFieldName(key) : key));
	const layout: FieldLayout = {
		options,
		keys,
		names,
		kinds: names.map((name) => fieldKind(name, options)),
		renamed: names.some((name, index) => name !== keys[index]),
		refused: names.some((name) => name.trim() === '') || new Set(names).size < names.length,
	};
	lastLayout = layout;
	return layout;
}

function sameKeys(known: string[], keys: string[]): boolean {
	if (known.length !== keys.length) return false;
	for (let index = 0; index < keys.length; index++) if (known[index] !== keys[index]) return false;
	return true;
}

/** The keys of a record, which must be an object of fields. */
function recordKeys(record: unknown): string[] {
	if (!isPlainRecord(record)) {
		throw new RecordValueError(
			`A record must be an object of field names and values, but this one is ${describeType(record)}`,
			'Give each record as an object, e.g. {"Title": "Task 1"}.',
		);
	}
	return Object.keys(record);
}

/** The exact refusal of a record whose layout is refused (prepareFields throws it). */
function refuseFields(record: Record<string, unknown>, keys: string[], options: ValuePreparationOptions): PreparedRecord {
	return prepareFields(
		keys.map((key) => [key, record[key]] as const),
		options,
	);
}

// ---- whole records ---------------------------------------------------------------------------------

/**
 * Prepares a whole record: normalizes its field names, refuses empty and colliding names, and
 * prepares every value. Errors name the field as the input spelt it. A record that needs no change
 * is sent as it is, without a copy (most records of an import that is already clean).
 */
export function prepareRecord(record: unknown, options: ValuePreparationOptions): PreparedRecord {
	const keys = recordKeys(record);
	const fields = record as Record<string, unknown>;
	const layout = layoutOf(keys, options);
	if (layout.refused) return refuseFields(fields, keys, options);
	// Undefined as long as every field so far is sent exactly as given.
	let prepared: PreparedRecord | undefined = layout.renamed || !isSimpleObject(fields) ? {} : undefined;
	let sentCount = 0;
	let index = 0;
	try {
		for (; index < keys.length; index++) {
			const value = fields[keys[index]];
			const preparedValue = prepareFieldValue(layout.kinds[index], value, options);
			if (prepared === undefined) {
				if (preparedValue === value && value !== undefined) {
					sentCount++;
					continue;
				}
				prepared = copyFields(fields, keys, index);
			}
			if (preparedValue !== undefined) {
				prepared[layout.names[index]] = preparedValue;
				sentCount++;
			}
		}
	} catch (error) {
		throw fieldError(keys[index], error);
	}
	return nonEmpty(prepared ?? (fields as PreparedRecord), keys.length, sentCount);
}

/**
 * Refuses what prepareRecord refuses, with the same error, without building anything; returns
 * whether prepareRecord would send the record itself, unchanged.
 */
export function checkRecord(record: unknown, options: ValuePreparationOptions): boolean {
	const keys = recordKeys(record);
	const fields = record as Record<string, unknown>;
	const layout = layoutOf(keys, options);
	if (layout.refused) {
		refuseFields(fields, keys, options);
		return false;
	}
	let asGiven = !layout.renamed && isSimpleObject(fields);
	let sentCount = 0;
	let index = 0;
	try {
		for (; index < keys.length; index++) {
			const value = fields[keys[index]];
			if (isPlainText(layout.kinds[index], value, options)) {
				sentCount++;
				continue;
			}
			const check = checkFieldValue(layout.kinds[index], value, options);
			if (check !== 'leftOut') sentCount++;
			if (check !== 'asGiven') asGiven = false;
		}
	} catch (error) {
		throw fieldError(keys[index], error);
	}
	nonEmpty(fields, keys.length, sentCount);
	return asGiven;
}

/** The first fields of a record, up to `end`, all of which are sent as given. */
function copyFields(record: Record<string, unknown>, keys: string[], end: number): PreparedRecord {
	const copy: PreparedRecord = {};
	for (let index = 0; index < end; index++) copy[keys[index]] = record[keys[index]] as PreparedValue;
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
		let preparedValue: PreparedValue | undefined;
		try {
			preparedValue = prepareFieldValue(fieldKind(name, options), value, options);
		} catch (error) {
			throw fieldError(rawName, error);
		}
		if (preparedValue !== undefined) {
			prepared[name] = preparedValue;
			sentCount++;
		}
	}
	return nonEmpty(prepared, fields.length, sentCount);
}

/** A value's refusal, naming its field; anything else that fails is reported as a refusal too. */
function fieldError(rawName: string, error: unknown): RecordValueError {
	const refusal =
		error instanceof RecordValueError
			? error
			: new RecordValueError(
					`could not be prepared: ${(error as Error).message}`,
					'Check the value; if it looks right, report this as a bug of the node.',
				);
	return new RecordValueError(`Field "${rawName}" ${refusal.message}`, refusal.hint, rawName);
}

function nonEmpty<T extends object>(prepared: T, fieldCount: number, sentCount: number): T {
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
