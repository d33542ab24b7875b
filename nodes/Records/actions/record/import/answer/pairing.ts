/**
 * Which record of the batch each entry of an import's answer is about, pure (no n8n): by what names
 * the record (its number, its field values, a text only it has) before the entry's place in a list,
 * and never guessed. How numbers count (from 0 or 1) is settled in recordNumbers.ts.
 */
import type { AnswerEntry, AnswerList } from './answerParts';
import { type BatchRecord, type Counting, recordWithIdentity, settleCounting } from './recordNumbers';

/** The entries of a record that has none (shared, never changed). */
const NO_ENTRIES: AnswerEntry[] = [];

/** Per batch: the positions of the records by each text value any of their fields has, built when first asked. */
const byText = new WeakMap<readonly BatchRecord[], Map<string, number[]>>();

/**
 * The one record that texts of an entry under names the node does not read (`key`, `ref`) name: a
 * text only one record of the batch has. `conflict` when they name two records.
 */
function recordWithValues(values: readonly string[], records: readonly BatchRecord[]): number | 'conflict' | undefined {
	let texts = byText.get(records);
	if (!texts) {
		texts = new Map();
		records.forEach((record, position) => {
			for (const value of Object.values(record)) {
				if (typeof value !== 'string') continue;
				const list = texts!.get(value.normalize('NFC'));
				if (!list) texts!.set(value.normalize('NFC'), [position]);
				else if (list.at(-1) !== position) list.push(position);
			}
		});
		byText.set(records, texts);
	}
	let named: number | undefined;
	for (const value of values) {
		const positions = texts.get(value.normalize('NFC'));
		if (positions?.length !== 1) continue;
		if (named !== undefined && named !== positions[0]) return 'conflict';
		named = positions[0];
	}
	return named;
}

export interface Pairing {
	byRecord: AnswerEntry[][];
	/** Entries that name no record for certain. */
	unpaired: AnswerEntry[];
	/** Refusals numbered in a way that counts from 0 or from 1: the records either reading names. */
	eitherOf: Array<{ entry: AnswerEntry; positions: number[] }>;
	counting?: Counting;
}

/**
 * Each entry paired with its record's position in the batch: by its number, its field values or a
 * value only one record has, before its place in a list (only a list with one entry per record, none
 * of which names one otherwise). Where that is not certain, unpaired, never guessed.
 */
export function pairEntries(entries: AnswerEntry[], lists: readonly AnswerList[], records: readonly BatchRecord[]): Pairing {
	const numbered = entries.filter((entry) => entry.claim !== undefined);
	const counting: Counting | undefined =
		numbered.length === 0 ? undefined : settleCounting(numbered.map((entry) => entry.claim!), records);
	// Most records have one entry or none: a list is made for those that have one.
	const byRecord: AnswerEntry[][] = new Array<AnswerEntry[]>(records.length).fill(NO_ENTRIES);
	const unpaired: AnswerEntry[] = [];
	const eitherOf: Pairing['eitherOf'] = [];
	const named = entries.map((entry) => (entry.values && !entry.claim && !entry.identity ? recordWithValues(entry.values, records) : undefined));
	const namedLists = new Set(entries.filter((entry, i) => entry.identity !== undefined || named[i] !== undefined).map((entry) => entry.list));
	entries.forEach((entry, i) => {
		let position: number | undefined;
		if (entry.badIndex) position = undefined;
		else if (entry.claim && counting && 'base' in counting) position = entry.claim.index - counting.base;
		else if (entry.claim) {
			if (counting && 'problem' in counting && counting.problem === 'ambiguous') {
				eitherOf.push({ entry, positions: [entry.claim.index, entry.claim.index - 1] });
				return;
			}
		} else if (entry.identity) position = recordWithIdentity(entry.identity, records);
		else if (named[i] !== undefined) position = named[i] === 'conflict' ? undefined : (named[i] as number);
		else if (!lists[entry.list].numbered && !namedLists.has(entry.list) && lists[entry.list].length === records.length) position = entry.position;
		if (position === undefined) unpaired.push(entry);
		else if (byRecord[position] === NO_ENTRIES) byRecord[position] = [entry];
		else byRecord[position].push(entry);
	});
	return { byRecord, unpaired, eitherOf, counting };
}
