/**
 * Unicode NFC and trimming (pure): field names typed on different systems made equal, and text
 * values brought to NFC as a step of its own, taken as each batch's body is made.
 */

import type { PreparedRecord } from './preparation';
import { keptResults } from '../keptResults';

/**
 * Text made only of characters below U+0300 (Latin, Latin Extended-A/B: all of Czech) is already in
 * NFC: composition starts at combining marks. Testing that is cheaper than String#normalize, which
 * copies every string it is given.
 */
const MAY_NEED_NFC = /[\u0300-\uffff]/;

function toNfc(text: string): string {
	return MAY_NEED_NFC.test(text) ? text.normalize('NFC') : text;
}

/** A field name in NFC without surrounding spaces; names repeat in every record and are normalized once. */
export const normalizeFieldName = keptResults((name) => toNfc(name).trim());

/** Parses a comma-separated list of field names into their normalized forms. */
export function parseFieldList(text: string | undefined): Set<string> {
	const names = new Set<string>();
	for (const part of (text ?? '').split(',')) {
		const name = normalizeFieldName(part);
		if (name !== '') names.add(name);
	}
	return names;
}

/**
 * Brings a prepared record's text values to NFC (canonically equivalent text, e.g. a key value typed
 * on a Mac), copying the record only when one changes. Values the preparation formatted (dates,
 * numbers, booleans) are Latin-1, which NFC leaves alone.
 *
 * A step of its own because it cannot fail: the import checks every record before its first
 * request, and takes this step as it makes each batch's body.
 */
export function normalizeRecordText(record: PreparedRecord): PreparedRecord {
	let normalized: PreparedRecord | undefined;
	for (const name of Object.keys(record)) {
		const value = record[name];
		if (typeof value !== 'string') continue;
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
