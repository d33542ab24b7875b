/**
 * What an import's JSON answer says, gathered from anywhere in it, pure (no n8n). The guide does not
 * show the answer (§4.1), so this reads the words APIs commonly use: in the objects that describe
 * the batch (summaries: `success: false`, `status: "error"`, `error`, counts such as `imported: 2`,
 * `failed: 1`) and in the entries of lists that describe records (`results: [{index, status}]`,
 * `errors: [{index, message}]`). outcomes.ts decides what it means for each record.
 */
import { type BatchRecord, claimOf, findNamedRecord, type NumberedClaim } from './recordNumbers';
import { keptResults } from '../keptResults';

/** One entry of a list in the answer, about one record (which one, pairing decides). */
export interface AnswerEntry {
	/** The entry says the record was not imported. */
	negative: boolean;
	/** The entry says the record was imported (a status, `success: true`, an id, a list of imported records). */
	positive: boolean;
	/** The record's number as written; `badIndex` when it has one that is no whole number. */
	claim?: NumberedClaim;
	badIndex?: boolean;
	/** Field values naming the record, when the entry has no number. */
	identity?: Record<string, unknown>;
	/** Texts of members under other names (`key`, `ref`, …), which may be a record's value. */
	values?: string[];
	/** A status the node does not know: no evidence either way. */
	unknownStatus?: string;
	status?: string;
	id?: string | number;
	message?: string;
	/** Its list, and its place there, for pairing by order. */
	list: number;
	position: number;
}

/** What the objects describing the batch say, all of them together. */
export interface AnswerSummary {
	/** The import failed: `success: false`, `status: "error"`, an `error` member, `failed: true`. */
	failed: boolean;
	/** Some records failed: `status: "partial"`, a non-empty `errors` member. */
	partial: boolean;
	/** The import succeeded: `success: true`, `status: "ok"`. */
	positive: boolean;
	/** A status of the batch the node does not know (`queued`): no evidence either way. */
	unknownStatus?: string;
	/** Failed records counted (the highest count given). */
	failedCount?: number;
	/** Imported records counted (the lowest count given). */
	importedCount?: number;
	/** What the service says of the batch, preferably where it says it failed. */
	message?: string;
}

export interface WalkedAnswer {
	entries: AnswerEntry[];
	/** Per list: its length, and whether any entry of it is numbered. */
	lists: Array<{ length: number; numbered: boolean }>;
	summary: AnswerSummary;
	/** Nested beyond what is read: nothing can be said of it. */
	tooDeep: boolean;
	/**
	 * The answer has none of the words read here, only a message whose words may say the import
	 * failed ("Import failed: …"): what it means is not plain.
	 */
	failureInWordsOnly?: string;
}

const MAX_DEPTH = 32;

/** What an entry's members say besides its verdict: its number, the record's field values. */
interface EntryReading {
	claim: NumberedClaim | undefined;
	/** Made when the first such value is found (most entries have none). */
	identity?: Record<string, unknown>;
	positive: boolean;
	unknownStatus?: string;
	/** Texts of members under names the node does not read. */
	values?: string[];
}

/** A key without case, punctuation or the words that only say "how many". */
const stem = keptResults((key) =>
	key
		.toLowerCase()
		.replace(/[^a-z0-9]/g, '')
		.replace(/^(num|number|total|count)(?=[a-z])/, '')
		.replace(/(count|total|number|records|items|rows)$/, ''),
);

/** A status word's letters, without case. */
const word = (value: string) => value.toLowerCase().replace(/[^a-z]/g, '');

/** A failure stem anywhere in a status word (`import_failed`, `VALIDATION_ERROR`, `rejected_duplicate`, `not_created`). */
const NEGATIVE_STEM = /fail|error|reject|refus|invalid|skip|ignor|duplicat|denied|deny|forbid|unauthori|declin|abort|cancel|conflict|exception|^not|^no$|^ko$|^nok$/;
/** Words of a free-text message that may say an import failed (English, and Czech: chyba, nelze, selhal). */
const FAILURE_TEXT =
	/\b(errors?|fail(ed|ure|s)?|invalid|denied|refused|rejected|forbidden|not imported|unauthori[sz]ed|locked|disabled|not allowed)\b|chyb|nelze|selhal/i;
const POSITIVE_WORDS = new Set([
	'ok', 'success', 'succeeded', 'successful', 'successfully', 'done', 'completed', 'complete', 'imported', 'created',
	'edited', 'updated', 'saved', 'stored', 'inserted', 'upserted', 'unchanged',
]);
/** Words that may stand beside a word of success (`record_created`, `successfully_imported`). */
const FILLER_WORDS = new Set(['record', 'row', 'item', 'all', 'new', 'fully']);
const isPartialWord = (value: string) => value.startsWith('partial') || value.endsWith('witherrors');

export type StatusSays = 'positive' | 'negative' | 'partial' | 'unknown';

/**
 * What a status says: an HTTP-like number (2xx but 202 imported, 4xx and 5xx not), a failure stem
 * anywhere in a word, or a word made only of known words of success. Anything else is not evidence.
 */
export const statusSays = keptResults((value): StatusSays => {
	const text = value.trim();
	if (/^\d{3}$/.test(text)) {
		if (text.startsWith('2') && text !== '202') return 'positive';
		return text.startsWith('4') || text.startsWith('5') ? 'negative' : 'unknown';
	}
	const letters = word(text);
	if (isPartialWord(letters)) return 'partial';
	if (NEGATIVE_STEM.test(letters)) return 'negative';
	const words = text.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).filter((part) => part !== '');
	const known = words.some((part) => POSITIVE_WORDS.has(part)) && words.every((part) => POSITIVE_WORDS.has(part) || FILLER_WORDS.has(part));
	return known ? 'positive' : 'unknown';
}) as (value: string) => StatusSays;

/** A status member's value as text: a word, or a whole number such as 201 or "422". */
function statusText(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value;
	if (typeof value === 'number' && Number.isInteger(value) && value >= 100 && value < 600) return String(value);
	return undefined;
}

const STATUS_KEYS = new Set(['status', 'state', 'result', 'outcome', 'action', 'statuscode', 'code']);
/** Of the batch, `action` and `code` say what was asked or which error, not how it ended. */
const BATCH_STATUS_KEYS = new Set(['status', 'state', 'result', 'outcome', 'statuscode']);
const FLAG_KEYS = new Set(['success', 'ok', 'imported', 'succeeded', 'successful', 'valid']);
/** Members whose content is about records not imported: a list, a map by record, a count, a flag. */
const FAILURE_KEYS = new Set(['errors', 'failures', 'failed', 'rejected', 'refused', 'invalid', 'skipped', 'notimported', 'unimported', 'errored']);
/** A member under any name with a failure stem in it (`validationErrors`, `rejectedRecords`, `duplicates`) is a failure member. */
const isFailureKey = (name: string) => FAILURE_KEYS.has(name) || (name !== 'error' && /error|fail|reject|refus|invalid|skipped|ignored|duplicat/.test(name));
const SUCCESS_COUNT_KEYS = ['imported', 'succeeded', 'successful', 'success', 'saved', 'stored'];
const SUCCESS_PART_KEYS = ['created', 'inserted', 'added', 'edited', 'updated', 'modified', 'upserted', 'unchanged'];
const SUCCESS_LIST_KEYS = new Set([...SUCCESS_COUNT_KEYS, ...SUCCESS_PART_KEYS]);
const MESSAGE_KEYS = ['message', 'msg', 'detail', 'details', 'description', 'reason', 'title'];
const INDEX_KEYS = new Set(['index', 'recordindex', 'idx', 'position', 'dataindex', 'itemindex']);
const ID_KEYS = new Set(['id', 'recordid']);
const PATH_KEYS = new Set(['path', 'pointer', 'loc', 'location']);
/** Objects inside an entry that hold the record's own fields. */
const RECORD_KEYS = new Set(['record', 'data', 'fields', 'input', 'item', 'values']);

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty value of an `error` member: text, an object, a list, true, a count above 0. */
function present(value: unknown): boolean {
	if (Array.isArray(value)) return value.length > 0;
	if (isObject(value)) return Object.keys(value).length > 0;
	return value === true || (typeof value === 'string' && value.trim() !== '') || (typeof value === 'number' && value > 0);
}

/** The text an error value carries: itself, its message, or its first entry's. */
function textOf(value: unknown): string | undefined {
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

function wholeNumber(value: unknown): number | undefined {
	if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
	if (typeof value === 'string' && /^\d{1,9}$/.test(value.trim())) return Number(value);
	return undefined;
}

const isPrimitive = (value: unknown) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

export class AnswerWalker {
	private readonly walked: WalkedAnswer = {
		entries: [],
		lists: [],
		summary: { failed: false, partial: false, positive: false },
		tooDeep: false,
	};

	private failureMessage?: string;
	private anyMessage?: string;
	/** A word read here was seen (a flag, a status, an error, a count, a list of failures). */
	private structured = false;

	/**
	 * The field names of the batch as sent: an entry's members by these names name its record. Made
	 * when first asked: most answers name records by number, and walking every record costs.
	 */
	private fields: Set<string> | undefined;

	constructor(private readonly records: readonly BatchRecord[]) {}

	walk(body: unknown): WalkedAnswer {
		if (Array.isArray(body)) this.list(body, 'neutral', 0);
		else if (isObject(body)) this.object(body, 0);
		else if (body === false) this.walked.summary.failed = true;
		else if (body === true) this.walked.summary.positive = true;
		this.walked.summary.message = this.failureMessage ?? this.anyMessage;
		const evidence = this.structured || this.walked.entries.some((entry) => entry.negative || entry.positive);
		if (!evidence && this.anyMessage !== undefined && FAILURE_TEXT.test(this.anyMessage)) {
			this.walked.failureInWordsOnly = this.anyMessage;
		}
		return this.walked;
	}

	private isField(key: string): boolean {
		if (this.fields === undefined) {
			this.fields = new Set<string>();
			for (const record of this.records) for (const field of Object.keys(record)) this.fields.add(field);
		}
		return this.fields.has(key);
	}

	/** An object describing the batch (or a part of the answer around the lists). */
	private object(object: Record<string, unknown>, depth: number): void {
		if (depth > MAX_DEPTH) {
			this.walked.tooDeep = true;
			return;
		}
		const summary = this.walked.summary;
		let failedHere = false;
		let direct: number | undefined;
		let parts: number | undefined;
		for (const [key, value] of Object.entries(object)) {
			const name = stem(key);
			const known = this.knownMember(name, value);
			if (known) this.structured = true;
			if (FLAG_KEYS.has(name) && typeof value === 'boolean') {
				if (value) summary.positive = true;
				else failedHere = true;
			} else if (BATCH_STATUS_KEYS.has(name) && statusText(value) !== undefined) {
				const status = statusText(value)!;
				const says = statusSays(status);
				if (says === 'negative') failedHere = true;
				else if (says === 'partial') summary.partial = true;
				else if (says === 'positive') summary.positive = true;
				else summary.unknownStatus ??= status;
			} else if ((name === 'error' || name === 'exception') && !(typeof value === 'number')) {
				if (present(value)) {
					failedHere = true;
					this.failureMessage ??= textOf(value);
				}
			} else if (name === 'haserrors' || name === 'hasfailures') {
				if (value === true) summary.partial = true;
			} else if ((isFailureKey(name) || name === 'error') && typeof value === 'number') {
				summary.failedCount = Math.max(summary.failedCount ?? 0, value);
			} else if (isFailureKey(name)) {
				this.failures(name, value, depth);
			} else if (SUCCESS_COUNT_KEYS.includes(name) && typeof value === 'number') {
				direct = Math.min(direct ?? Infinity, value);
			} else if (SUCCESS_PART_KEYS.includes(name) && typeof value === 'number') {
				parts = (parts ?? 0) + value;
			} else if (MESSAGE_KEYS.includes(name) && typeof value === 'string' && value.trim() !== '') {
				this.anyMessage ??= value;
			} else if (Array.isArray(value) && SUCCESS_LIST_KEYS.has(name)) {
				// A list of the records imported counts them, and names those it can.
				if (SUCCESS_COUNT_KEYS.includes(name)) direct = Math.min(direct ?? Infinity, value.length);
				else parts = (parts ?? 0) + value.length;
				this.list(value, 'success', depth + 1);
			} else if (Array.isArray(value)) {
				this.list(value, 'neutral', depth + 1);
			} else if (isObject(value)) {
				this.object(value, depth + 1);
			}
		}
		if (failedHere) {
			summary.failed = true;
			this.failureMessage ??= textOf(object);
		}
		const counted = direct ?? parts;
		if (counted !== undefined) summary.importedCount = Math.min(summary.importedCount ?? Infinity, counted);
	}

	/** Whether a member of a summary is one of the words read here (not a message, not a nested part). */
	private knownMember(name: string, value: unknown): boolean {
		if (FLAG_KEYS.has(name) && typeof value === 'boolean') return true;
		if (BATCH_STATUS_KEYS.has(name) && statusText(value) !== undefined) return true;
		if (['error', 'exception', 'haserrors', 'hasfailures'].includes(name) || isFailureKey(name)) return true;
		return SUCCESS_LIST_KEYS.has(name) && (typeof value === 'number' || Array.isArray(value));
	}

	/** A failure member that is no count: a list or a map of refused records, text, or a flag. */
	private failures(name: string, value: unknown, depth: number): void {
		const summary = this.walked.summary;
		if (Array.isArray(value)) {
			if (value.length > 0) summary.partial = true;
			this.list(value, 'refusal', depth + 1);
		} else if (isObject(value)) {
			const members = Object.entries(value);
			if (members.length === 0) return;
			summary.partial = true;
			const list = this.newList(members.length);
			members.forEach(([key, member], position) => {
				const named = /^\d+$/.test(key) ? { index: Number(key) } : findNamedRecord(key);
				this.add(list, { negative: true, positive: false, message: textOf(member) ?? key, list, position }, named && claimOf(named));
			});
		} else if (value === true) {
			// `failed: true` says the import failed; `errors: true` only that some records did.
			if (name === 'errors' || name === 'failures') summary.partial = true;
			else summary.failed = true;
		} else if (typeof value === 'string' && value.trim() !== '') {
			summary.partial = true;
			this.text(value, this.newList(1), 0);
		}
	}

	private newList(length: number): number {
		this.walked.lists.push({ length, numbered: false });
		return this.walked.lists.length - 1;
	}

	private add(list: number, entry: AnswerEntry, claim?: NumberedClaim): void {
		if (claim !== undefined) {
			entry.claim = claim;
			this.walked.lists[list].numbered = true;
		}
		if (entry.badIndex) this.walked.lists[list].numbered = true;
		this.walked.entries.push(entry);
	}

	/** A refusal given as text: "Record 2: …". */
	private text(text: string, list: number, position: number): void {
		const named = findNamedRecord(text);
		this.add(list, { negative: true, positive: false, message: text, list, position }, named && { index: named.index, ...(named.inSentList ? { inSentList: true } : {}) });
	}

	private list(values: unknown[], kind: 'refusal' | 'success' | 'neutral', depth: number): void {
		if (depth > MAX_DEPTH) {
			this.walked.tooDeep = true;
			return;
		}
		const list = this.newList(values.length);
		values.forEach((value, position) => {
			if (isObject(value)) this.entry(value, kind, list, position);
			else if (Array.isArray(value)) this.list(value, kind, depth + 1);
			else if (kind === 'refusal' && typeof value === 'string') this.text(value, list, position);
			else if (kind === 'success' && typeof value === 'string') this.add(list, { negative: false, positive: true, values: [value], list, position });
			else if (kind === 'refusal' && value !== null && value !== undefined) {
				// A list of the refused records' numbers, e.g. `failed: [1, 3]`.
				const index = wholeNumber(value);
				this.add(list, { negative: true, positive: false, list, position, badIndex: index === undefined }, index === undefined ? undefined : { index });
			}
		});
	}

	private entry(object: Record<string, unknown>, kind: 'refusal' | 'success' | 'neutral', list: number, position: number): void {
		const entry: AnswerEntry = { negative: kind === 'refusal', positive: false, list, position };
		const read: EntryReading = { claim: undefined, positive: kind === 'success' };
		this.entryMembers(object, entry, read, 0);
		entry.positive = !entry.negative && (read.positive || (read.unknownStatus === undefined && entry.id !== undefined));
		if (!entry.negative && !read.positive && read.unknownStatus !== undefined) entry.unknownStatus = read.unknownStatus;
		if (read.values !== undefined) entry.values = read.values;
		if (read.identity !== undefined) {
			entry.identity = read.identity;
			if (read.claim) read.claim.identity = read.identity;
		}
		this.add(list, entry, read.claim);
	}

	/**
	 * The members of an entry, and of the objects inside it (`{"index": 1, "result": {"status":
	 * "error"}}`): what they say of the record is said of it, wherever in the entry it stands.
	 */
	private entryMembers(object: Record<string, unknown>, entry: AnswerEntry, read: EntryReading, depth: number): void {
		if (depth > MAX_DEPTH) {
			this.walked.tooDeep = true;
			return;
		}
		const top = depth === 0;
		for (const key of Object.keys(object)) {
			const value = object[key];
			const name = stem(key);
			if (top && INDEX_KEYS.has(name)) {
				const index = wholeNumber(value);
				if (index === undefined) entry.badIndex = true;
				else read.claim = { index };
			} else if (STATUS_KEYS.has(name) && statusText(value) !== undefined) {
				const status = statusText(value)!;
				if (name !== 'code') entry.status ??= status;
				const says = statusSays(status);
				if (says === 'negative' || says === 'partial') entry.negative = true;
				else if (says === 'positive') read.positive = true;
				else read.unknownStatus ??= status;
			} else if (FLAG_KEYS.has(name) && typeof value === 'boolean') {
				if (value) read.positive = true;
				else entry.negative = true;
			} else if (name === 'error' || name === 'exception' || isFailureKey(name)) {
				if (present(value)) {
					entry.negative = true;
					entry.message ??= textOf(value);
				}
			} else if (name === 'haserrors' || name === 'hasfailures') {
				if (value === true) entry.negative = true;
			} else if (top && ID_KEYS.has(name) && (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))) {
				entry.id = value;
			} else if (MESSAGE_KEYS.includes(name) && typeof value === 'string' && value !== '') {
				if (entry.message === undefined || (top && name === 'message')) entry.message = value;
			} else if (top && PATH_KEYS.has(name) && typeof value === 'string') {
				const named = findNamedRecord(value);
				if (named) read.claim ??= { index: named.index, ...(named.inSentList ? { inSentList: true } : {}) };
			} else if (top && RECORD_KEYS.has(name) && isObject(value)) {
				for (const [field, fieldValue] of Object.entries(value)) {
					if (isPrimitive(fieldValue) && this.isField(field.normalize('NFC'))) (read.identity ??= {})[field.normalize('NFC')] = fieldValue;
				}
			} else if (top && isPrimitive(value) && this.isField(key.normalize('NFC'))) {
				(read.identity ??= {})[key.normalize('NFC')] = value;
			} else if (top && typeof value === 'string' && value.trim() !== '' && !MESSAGE_KEYS.includes(name)) {
				(read.values ??= []).push(value);
			} else if (isObject(value)) {
				this.entryMembers(value, entry, read, depth + 1);
			} else if (Array.isArray(value)) {
				for (const element of value) if (isObject(element)) this.entryMembers(element, entry, read, depth + 1);
			}
		}
	}
}
