/**
 * One entry of a list in an import's answer, read for what it says of its record, pure (no n8n):
 * a status, a flag, an error, an id, a message, and what names the record (its number, a path into
 * the list sent, its field values, texts under other names). Members of objects inside the entry
 * (`{"index": 1, "result": {"status": "error"}}`) are said of the record too.
 */
import { type AnswerEntry, type ListKind, MAX_DEPTH } from './answerParts';
import {
	FLAG_KEYS,
	ID_KEYS,
	INDEX_KEYS,
	isFailureKey,
	isObject,
	isPrimitive,
	MESSAGE_KEYS,
	PATH_KEYS,
	present,
	RECORD_KEYS,
	STATUS_KEYS,
	stem,
	textOf,
	wholeNumber,
} from './memberNames';
import { findNamedRecord, type NumberedClaim } from './recordNumbers';
import { statusSays, statusText } from './statusWords';

/** What an entry's members say besides its verdict: its number, the record's field values. */
interface EntryReading {
	claim: NumberedClaim | undefined;
	/** Made when the first such value is found (most entries have none). */
	identity?: Record<string, unknown>;
	positive: boolean;
	unknownStatus?: string;
	/** Texts of members under names the node does not read. */
	values?: string[];
	/** Part of the entry is nested beyond what is read. */
	tooDeep?: boolean;
}

/**
 * Reads an entry at `position` of a list. `isField`: whether a name is one of the batch's field
 * names (a member by such a name names its record).
 */
export function readRecordEntry(
	object: Record<string, unknown>,
	kind: ListKind,
	list: number,
	position: number,
	isField: (name: string) => boolean,
): { entry: AnswerEntry; claim?: NumberedClaim; tooDeep: boolean } {
	const entry: AnswerEntry = { negative: kind === 'refusal', positive: false, list, position };
	const read: EntryReading = { claim: undefined, positive: kind === 'success' };
	readMembers(object, entry, read, 0, isField);
	entry.positive = !entry.negative && (read.positive || (read.unknownStatus === undefined && entry.id !== undefined));
	if (!entry.negative && !read.positive && read.unknownStatus !== undefined) entry.unknownStatus = read.unknownStatus;
	if (read.values !== undefined) entry.values = read.values;
	if (read.identity !== undefined) {
		entry.identity = read.identity;
		if (read.claim) read.claim.identity = read.identity;
	}
	return { entry, claim: read.claim, tooDeep: read.tooDeep === true };
}

/** The members of an entry (depth 0), and of the objects inside it: what they say of the record. */
function readMembers(
	object: Record<string, unknown>,
	entry: AnswerEntry,
	read: EntryReading,
	depth: number,
	isField: (name: string) => boolean,
): void {
	if (depth > MAX_DEPTH) {
		read.tooDeep = true;
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
				if (isPrimitive(fieldValue) && isField(field.normalize('NFC'))) (read.identity ??= {})[field.normalize('NFC')] = fieldValue;
			}
		} else if (top && isPrimitive(value) && isField(key.normalize('NFC'))) {
			(read.identity ??= {})[key.normalize('NFC')] = value;
		} else if (top && typeof value === 'string' && value.trim() !== '' && !MESSAGE_KEYS.includes(name)) {
			(read.values ??= []).push(value);
		} else if (isObject(value)) {
			readMembers(value, entry, read, depth + 1, isField);
		} else if (Array.isArray(value)) {
			for (const element of value) if (isObject(element)) readMembers(element, entry, read, depth + 1, isField);
		}
	}
}
