/**
 * Finds what an import's JSON answer says, anywhere in it, pure (no n8n). The guide does not show
 * the answer (§4.1), so this reads the words APIs commonly use: in the objects that describe the
 * batch (summaries: `success: false`, `status: "error"`, `error`, counts such as `imported: 2`,
 * `failed: 1`) and in the entries of lists that describe records (`results: [{index, status}]`,
 * `errors: [{index, message}]`, read by recordEntry.ts). outcomes.ts decides what it means.
 */
import { type AnswerEntry, type AnswerParts, type ListKind, MAX_DEPTH } from './answerParts';
import {
	BATCH_STATUS_KEYS,
	FLAG_KEYS,
	isFailureKey,
	isObject,
	MESSAGE_KEYS,
	present,
	stem,
	SUCCESS_COUNT_KEYS,
	SUCCESS_LIST_KEYS,
	SUCCESS_PART_KEYS,
	textOf,
	wholeNumber,
} from './memberNames';
import { readRecordEntry } from './recordEntry';
import { type BatchRecord, claimOf, findNamedRecord, type NumberedClaim } from './recordNumbers';
import { mayTellOfFailure, statusSays, statusText } from './statusWords';

/** What the answer to the batch of these records (as sent) says. */
export function findAnswerParts(body: unknown, records: readonly BatchRecord[]): AnswerParts {
	return new AnswerWalker(records).walk(body);
}

class AnswerWalker {
	private readonly found: AnswerParts = {
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

	walk(body: unknown): AnswerParts {
		if (Array.isArray(body)) this.list(body, 'neutral', 0);
		else if (isObject(body)) this.object(body, 0);
		else if (body === false) this.found.summary.failed = true;
		else if (body === true) this.found.summary.positive = true;
		this.found.summary.message = this.failureMessage ?? this.anyMessage;
		const evidence = this.structured || this.found.entries.some((entry) => entry.negative || entry.positive);
		if (!evidence && this.anyMessage !== undefined && mayTellOfFailure(this.anyMessage)) {
			this.found.failureInWordsOnly = this.anyMessage;
		}
		return this.found;
	}

	private readonly isField = (key: string): boolean => {
		if (this.fields === undefined) {
			this.fields = new Set<string>();
			for (const record of this.records) for (const field of Object.keys(record)) this.fields.add(field);
		}
		return this.fields.has(key);
	};

	/** An object describing the batch (or a part of the answer around the lists). */
	private object(object: Record<string, unknown>, depth: number): void {
		if (depth > MAX_DEPTH) {
			this.found.tooDeep = true;
			return;
		}
		const summary = this.found.summary;
		let failedHere = false;
		let direct: number | undefined;
		let parts: number | undefined;
		for (const [key, value] of Object.entries(object)) {
			const name = stem(key);
			if (knownMember(name, value)) this.structured = true;
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

	/** A failure member that is no count: a list or a map of refused records, text, or a flag. */
	private failures(name: string, value: unknown, depth: number): void {
		const summary = this.found.summary;
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

	private list(values: unknown[], kind: ListKind, depth: number): void {
		if (depth > MAX_DEPTH) {
			this.found.tooDeep = true;
			return;
		}
		const list = this.newList(values.length);
		values.forEach((value, position) => {
			if (isObject(value)) {
				const { entry, claim, tooDeep } = readRecordEntry(value, kind, list, position, this.isField);
				if (tooDeep) this.found.tooDeep = true;
				this.add(list, entry, claim);
			} else if (Array.isArray(value)) this.list(value, kind, depth + 1);
			else if (kind === 'refusal' && typeof value === 'string') this.text(value, list, position);
			else if (kind === 'success' && typeof value === 'string') this.add(list, { negative: false, positive: true, values: [value], list, position });
			else if (kind === 'refusal' && value !== null && value !== undefined) {
				// A list of the refused records' numbers, e.g. `failed: [1, 3]`.
				const index = wholeNumber(value);
				this.add(list, { negative: true, positive: false, list, position, badIndex: index === undefined }, index === undefined ? undefined : { index });
			}
		});
	}

	/** A refusal given as text: "Record 2: …". */
	private text(text: string, list: number, position: number): void {
		const named = findNamedRecord(text);
		this.add(list, { negative: true, positive: false, message: text, list, position }, named && { index: named.index, ...(named.inSentList ? { inSentList: true } : {}) });
	}

	private newList(length: number): number {
		this.found.lists.push({ length, numbered: false });
		return this.found.lists.length - 1;
	}

	private add(list: number, entry: AnswerEntry, claim?: NumberedClaim): void {
		if (claim !== undefined) {
			entry.claim = claim;
			this.found.lists[list].numbered = true;
		}
		if (entry.badIndex) this.found.lists[list].numbered = true;
		this.found.entries.push(entry);
	}
}

/** Whether a member of a summary is one of the words read here (not a message, not a nested part). */
function knownMember(name: string, value: unknown): boolean {
	if (FLAG_KEYS.has(name) && typeof value === 'boolean') return true;
	if (BATCH_STATUS_KEYS.has(name) && statusText(value) !== undefined) return true;
	if (['error', 'exception', 'haserrors', 'hasfailures'].includes(name) || isFailureKey(name)) return true;
	return SUCCESS_LIST_KEYS.has(name) && (typeof value === 'number' || Array.isArray(value));
}
