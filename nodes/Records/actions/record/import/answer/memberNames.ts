/**
 * The members of an import's answer the reader knows, pure (no n8n): their names, compared by stem
 * (without case, punctuation or the words that only say "how many", so that `failedCount`,
 * `num_failed` and `FAILED` are one name), and the plain values it takes from them.
 */
import { keptResults } from '../keptResults';

/** A key without case, punctuation or the words that only say "how many". */
export const stem = keptResults((key) =>
	key
		.toLowerCase()
		.replace(/[^a-z0-9]/g, '')
		.replace(/^(num|number|total|count)(?=[a-z])/, '')
		.replace(/(count|total|number|records|items|rows)$/, ''),
);

export const STATUS_KEYS = new Set(['status', 'state', 'result', 'outcome', 'action', 'statuscode', 'code']);
/** Of the batch, `action` and `code` say what was asked or which error, not how it ended. */
export const BATCH_STATUS_KEYS = new Set(['status', 'state', 'result', 'outcome', 'statuscode']);
export const FLAG_KEYS = new Set(['success', 'ok', 'imported', 'succeeded', 'successful', 'valid']);
/** Members whose content is about records not imported: a list, a map by record, a count, a flag. */
const FAILURE_KEYS = new Set(['errors', 'failures', 'failed', 'rejected', 'refused', 'invalid', 'skipped', 'notimported', 'unimported', 'errored']);
/** A member under any name with a failure stem in it (`validationErrors`, `rejectedRecords`, `duplicates`) is a failure member. */
export const isFailureKey = (name: string) =>
	FAILURE_KEYS.has(name) || (name !== 'error' && /error|fail|reject|refus|invalid|skipped|ignored|duplicat/.test(name));
export const SUCCESS_COUNT_KEYS = ['imported', 'succeeded', 'successful', 'success', 'saved', 'stored'];
export const SUCCESS_PART_KEYS = ['created', 'inserted', 'added', 'edited', 'updated', 'modified', 'upserted', 'unchanged'];
export const SUCCESS_LIST_KEYS = new Set([...SUCCESS_COUNT_KEYS, ...SUCCESS_PART_KEYS]);
export const MESSAGE_KEYS = ['message', 'msg', 'detail', 'details', 'description', 'reason', 'title'];
export const INDEX_KEYS = new Set(['index', 'recordindex', 'idx', 'position', 'dataindex', 'itemindex']);
export const ID_KEYS = new Set(['id', 'recordid']);
export const PATH_KEYS = new Set(['path', 'pointer', 'loc', 'location']);
/** Objects inside an entry that hold the record's own fields. */
export const RECORD_KEYS = new Set(['record', 'data', 'fields', 'input', 'item', 'values']);

export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const isPrimitive = (value: unknown) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** A non-empty value of an `error` member: text, an object, a list, true, a count above 0. */
export function present(value: unknown): boolean {
	if (Array.isArray(value)) return value.length > 0;
	if (isObject(value)) return Object.keys(value).length > 0;
	return value === true || (typeof value === 'string' && value.trim() !== '') || (typeof value === 'number' && value > 0);
}

/** The text an error value carries: itself, its message, or its first entry's. */
export function textOf(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim() === '' ? undefined : value;
	if (Array.isArray(value)) return textOf(value[0]);
	if (isObject(value)) {
		for (const key of [...MESSAGE_KEYS, 'error']) {
			const text = textOf(value[key]);
			if (text !== undefined) return text;
		}
	}
	return undefined;
}

export function wholeNumber(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
	if (typeof value === 'string' && /^\d{1,9}$/.test(value.trim())) return Number(value);
	return undefined;
}
