/**
 * The one reading of how the service numbers the records of a batch, pure (no n8n): in the entries
 * of an import's answer and in an error message ("Record 3: …"). The guide shows neither, so a number
 * may count from 0 or from 1. The answer itself must settle which: a number 0 or one equal to the
 * batch size fits only one counting, a path into the `data` list that was sent (`data[2]`) counts
 * from 0, and a claim whose field values fit the record at only one of the two places settles it
 * too. Otherwise the number names no record: it is never guessed.
 */

export type BatchRecord = Readonly<Record<string, unknown>>;

/** A number the service gave for a record, and what else it says about that record. */
export interface NumberedClaim {
	/** The number as the service wrote it (a whole number from 0). */
	index: number;
	/** Field values of the record, as the service gave them (e.g. its key field). */
	identity?: Readonly<Record<string, unknown>>;
	/** A field the record was sent with, e.g. the field a message calls unknown. */
	sentField?: string;
	/**
	 * The number is a place in the request's `data` list (`data[2]`, `data.2`, `/data/2`): a path into
	 * the JSON that was sent counts from 0.
	 */
	inSentList?: boolean;
}

export type Counting = { base: 0 | 1 } | { problem: 'ambiguous' | 'outOfRange' | 'contradicted' };

/** Whether a record has exactly these field values (text compared in NFC, numbers as text). */
export function fitsIdentity(record: BatchRecord | undefined, identity: Readonly<Record<string, unknown>>): boolean {
	if (record === undefined) return false;
	return Object.entries(identity).every(
		([field, value]) =>
			Object.prototype.hasOwnProperty.call(record, field) && sameValue(record[field], value),
	);
}

function sameValue(a: unknown, b: unknown): boolean {
	return a === b || valueText(a) === valueText(b);
}

/** Whether the claim can be about this record; undefined when it says nothing either way. */
function fits(claim: NumberedClaim, record: BatchRecord | undefined): boolean | undefined {
	if (record === undefined) return false;
	if (claim.identity !== undefined && !fitsIdentity(record, claim.identity)) return false;
	if (claim.sentField !== undefined && !Object.prototype.hasOwnProperty.call(record, claim.sentField)) return false;
	return claim.identity !== undefined || claim.sentField !== undefined ? true : undefined;
}

/**
 * How the claims of one answer (or one message) count the batch's records: the counting every
 * claim fits (its number in range, its field values those of the record there), when only one
 * does; a problem otherwise.
 */
export function settleCounting(claims: readonly NumberedClaim[], records: readonly BatchRecord[]): Counting {
	const size = records.length;
	const candidates = ([0, 1] as const).filter((base) =>
		claims.every((claim) => claim.index - base >= 0 && claim.index - base < size && (base === 0 || claim.inSentList !== true)),
	);
	if (candidates.length === 0) return { problem: 'outOfRange' };
	const consistent = candidates.filter((base) => claims.every((claim) => fits(claim, records[claim.index - base]) !== false));
	if (consistent.length === 0) return { problem: 'contradicted' };
	if (consistent.length === 1) return { base: consistent[0] };
	return { problem: 'ambiguous' };
}

/** Per batch, per field: the positions of the records by their value, built when first asked. */
const byFieldValue = new WeakMap<readonly BatchRecord[], Map<string, Map<string, number[]>>>();

const valueText = (value: unknown) => (typeof value === 'string' ? value.normalize('NFC') : JSON.stringify(value));

function positionsWith(records: readonly BatchRecord[], field: string, value: unknown): readonly number[] {
	let fields = byFieldValue.get(records);
	if (!fields) {
		fields = new Map();
		byFieldValue.set(records, fields);
	}
	let values = fields.get(field);
	if (!values) {
		values = new Map();
		records.forEach((record, position) => {
			if (!Object.prototype.hasOwnProperty.call(record, field)) return;
			const text = valueText(record[field]);
			const list = values!.get(text);
			if (list) list.push(position);
			else values!.set(text, [position]);
		});
		fields.set(field, values);
	}
	return values.get(valueText(value)) ?? [];
}

/** The one record of the batch with exactly these field values, if there is exactly one. */
export function recordWithIdentity(identity: Readonly<Record<string, unknown>>, records: readonly BatchRecord[]): number | undefined {
	let candidates: readonly number[] | undefined;
	for (const [field, value] of Object.entries(identity)) {
		const here = positionsWith(records, field, value);
		candidates = candidates === undefined ? here : candidates.filter((position) => here.includes(position));
		if (candidates.length === 0) return undefined;
	}
	return candidates?.length === 1 ? candidates[0] : undefined;
}

/** A record of a batch that an error message of the service points at. */
export interface NamedRecord {
	/** The number as the service wrote it. */
	index: number;
	field?: string;
	/** The message says the record carries the field (it is unknown or invalid, not missing). */
	fieldSent?: boolean;
	/** Named by its place in the request's `data` list, which counts from 0. */
	inSentList?: boolean;
}

/**
 * Finds the record (and field) a message of the service is about: "Record 3: …", "record #3",
 * "data[3]", "data.3.Název", "/data/3", "index 3".
 */
export function findNamedRecord(text: string): NamedRecord | undefined {
	const path = /\bdata\s*(?:\[\s*(\d+)\s*\]|[./](\d+)\b)/i.exec(text);
	const match = path ?? /\brecords?\s*#?\s*(\d+)\b/i.exec(text) ?? /\bindex\s*[:=]?\s*(\d+)\b/i.exec(text);
	if (!match) return undefined;
	const named: NamedRecord = { index: Number(match[1] ?? match[2]) };
	if (path) named.inSentList = true;
	const field = /\bfield\s+["“„']([^"”“']+)["”“']/i.exec(text);
	if (field) {
		named.field = field[1];
		named.fieldSent = !/\b(required|missing|mandatory)\b|chybí|povinn/i.test(text);
	}
	return named;
}

/** The claim a named record makes, for settleCounting. */
export function claimOf(named: NamedRecord): NumberedClaim {
	const claim: NumberedClaim = { index: named.index };
	if (named.field !== undefined && named.fieldSent === true) claim.sentField = named.field;
	if (named.inSentList) claim.inSentList = true;
	return claim;
}
