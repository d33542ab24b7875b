/**
 * What the reader finds in an import's JSON answer (types only): the entries of its lists, each
 * about one record, and the summary of what the objects around them say of the batch. outcomes.ts
 * decides what they mean for each record.
 */
import type { NumberedClaim } from './recordNumbers';

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

/** A list of the answer: its length, and whether any entry of it is numbered. */
export interface AnswerList {
	length: number;
	numbered: boolean;
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

export interface AnswerParts {
	entries: AnswerEntry[];
	lists: AnswerList[];
	summary: AnswerSummary;
	/** Nested beyond what is read: nothing can be said of it. */
	tooDeep: boolean;
	/**
	 * The answer has none of the words read here, only a message whose words may say the import
	 * failed ("Import failed: …"): what it means is not plain.
	 */
	failureInWordsOnly?: string;
}

/** What a list's entries are about: refused records (`errors`), imported ones (`created`), or either. */
export type ListKind = 'refusal' | 'success' | 'neutral';

/** How deep the reader follows objects and lists into an answer. */
export const MAX_DEPTH = 32;
