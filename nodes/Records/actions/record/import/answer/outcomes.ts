/**
 * What an import's JSON answer means for each record of the batch, pure (no n8n); the rule is the
 * paragraph of docs/import.md. In short: imported only on evidence (a known word of success or a 2xx
 * status in an entry that names the record, a list of imported records naming it, a list of
 * refusals or a count that leaves it out, or a plain success); refused when an entry that certainly
 * names it says so, or the whole import failed; unknown otherwise, with the reason. Entries are
 * paired by what names a record before their place, never guessed (numbers: recordNumbers.ts).
 */
import type { AnswerEntry, AnswerSummary } from './answerParts';
import { findAnswerParts } from './findAnswerParts';
import { pairEntries } from './pairing';
import type { BatchRecord, Counting } from './recordNumbers';

export type RecordVerdict =
	| { outcome: 'imported'; status?: string; id?: string | number; message?: string }
	| { outcome: 'refused'; message?: string }
	| { outcome: 'unknown' };

export interface AnswerReading {
	verdicts: RecordVerdict[];
	/** Why some outcomes are unknown, as the end of "its answer …". */
	unknownBecause?: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Why the refusals the answer lists cannot be paired with records. */
function unpairedReason(unpaired: AnswerEntry[], counting: Counting | undefined, size: number): string {
	const numbers = [...new Set(unpaired.filter((entry) => entry.claim).map((entry) => entry.claim!.index))].sort((a, b) => a - b);
	const listed = numbers.slice(0, 5).join(', ') + (numbers.length > 5 ? ', …' : '');
	if (counting && 'problem' in counting && numbers.length > 0) {
		if (counting.problem === 'outOfRange') return `numbers refused records (${listed}) that do not fit the ${plural(size, 'record')} sent`;
		return 'numbers refused records, but the field values it gives for them are not those of the records at these numbers';
	}
	return `lists ${plural(unpaired.length, 'refused record')} without a number or field value that says which record`;
}

/** What the entries that name records say, for the records they do not name. */
interface Named {
	/** Refusals that name a record, or two (a number that counts from 0 or from 1). */
	refusals: number;
	/** Some entry says of a record that it was imported. */
	anyPositive: boolean;
	/** Entries say something of records other than refusals: successes, or a status the node does not know. */
	notRefusalsOnly: boolean;
}

/**
 * What the answer says of the batch that no entry accounts for: a failure, failures counted or a
 * partial import without the refusals that would account for them. `refused` when the whole batch
 * failed; a reason when no record can be called imported, not even one an entry confirms.
 */
function batchDoubt(summary: AnswerSummary, named: Named): 'refused' | string | undefined {
	const counted = summary.importedCount;
	const nothingPositive = !named.anyPositive && !summary.positive;
	// "Imported: 0", or a failure that names no record and nothing says otherwise: the whole batch.
	if (counted === 0 && nothingPositive) return 'refused';
	if (summary.failed && named.refusals === 0) {
		if (nothingPositive && counted === undefined) return 'refused';
		return 'says the import failed, and also that records were imported, without saying which';
	}
	if ((summary.failedCount ?? 0) > named.refusals) {
		return `counts ${plural(summary.failedCount!, 'failed record')} but names ${named.refusals === 0 ? 'none' : `only ${named.refusals}`}`;
	}
	if (summary.partial && named.refusals === 0) return 'says the import was partial, but names no refused record';
	return undefined;
}

/**
 * Whether the answer gives evidence that the records no entry names were imported: a plain success,
 * refusals listed without them, or a count that leaves exactly them imported. A reason when not.
 */
function unnamedEvidence(summary: AnswerSummary, named: Named, size: number): 'imported' | string {
	const counted = summary.importedCount;
	if (counted !== undefined && counted === size - named.refusals) return 'imported';
	if (summary.failed) return 'says the import failed, and does not say whether the records it does not name were imported';
	if (summary.unknownStatus !== undefined) return `gives the batch the status "${summary.unknownStatus}", which does not say whether records were imported`;
	if (counted !== undefined && counted < size - named.refusals) return `counts ${counted} imported of the ${plural(size, 'record')} sent`;
	if (named.notRefusalsOnly) return 'lists records as imported, but not these';
	return 'imported';
}

/**
 * Reads what a service's JSON answer (already parsed) says of each record of the batch sent.
 * `clean` is applied to every text taken from the answer (a reason, a status), before any cut: it
 * takes the secrets out. `failed`: the answer came with a status that says the request failed (4xx).
 */
export function readOutcomes(
	body: unknown,
	records: readonly BatchRecord[],
	clean: (text: string) => string = (text) => text,
	failed = false,
): AnswerReading {
	const size = records.length;
	const unknown = (because: string): AnswerReading => ({ verdicts: records.map(() => ({ outcome: 'unknown' })), unknownBecause: because });
	const { entries, lists, summary, tooDeep, failureInWordsOnly } = findAnswerParts(body, records);
	if (failed) summary.failed = true;
	if (tooDeep) return unknown('is nested too deeply to be read');
	if (failureInWordsOnly !== undefined && !failed) {
		const said = clean(failureInWordsOnly);
		const words = said.length > 120 ? `${said.slice(0, 120)}…` : said;
		return unknown(`says only in words, which may mean that the import failed: "${words}"`);
	}
	const { byRecord, unpaired, eitherOf, counting } = pairEntries(entries, lists, records);

	const refused: number[] = [];
	const conflicting: number[] = [];
	const unknownStatus: number[] = [];
	byRecord.forEach((paired, position) => {
		if (paired.some((entry) => entry.negative)) (paired.some((entry) => entry.positive) ? conflicting : refused).push(position);
		else if (!paired.some((entry) => entry.positive) && paired.some((entry) => entry.unknownStatus !== undefined)) unknownStatus.push(position);
	});
	const eitherRefused = eitherOf.filter(({ entry }) => entry.negative);
	const namedRefusals = refused.length + conflicting.length + eitherRefused.length;
	if (summary.failedCount !== undefined && summary.failedCount < namedRefusals) {
		return unknown(`counts ${plural(summary.failedCount, 'failed record')} but names ${namedRefusals} refused ones`);
	}
	if (summary.importedCount !== undefined && refused.length > 0 && summary.importedCount > size - refused.length) {
		return unknown(`counts ${summary.importedCount} imported of ${size} records, but names ${refused.length} refused ones`);
	}
	const isRefused = new Set(refused);
	const maybe = new Set<number>([...conflicting, ...unknownStatus, ...eitherOf.flatMap(({ positions }) => positions)]);
	const confirmed = (position: number) => byRecord[position].some((entry) => entry.positive);
	const unpairedRefusals = unpaired.filter((entry) => entry.negative);
	const named: Named = {
		refusals: namedRefusals,
		anyPositive: entries.some((entry) => entry.positive),
		notRefusalsOnly: entries.some((entry) => entry.positive || entry.unknownStatus !== undefined) || eitherOf.length > eitherRefused.length,
	};
	// A record an entry confirms is imported, unless the answer leaves even that in doubt.
	const doubt = unpairedRefusals.length > 0 ? unpairedReason(unpairedRefusals, counting, size) : batchDoubt(summary, named);
	const confirmedVerdict = doubt ?? 'imported';
	const restVerdict = doubt ?? unnamedEvidence(summary, named, size);

	const batchMessage = summary.message === undefined ? undefined : clean(summary.message);
	const reasons = new Set<string>();
	const verdicts = byRecord.map((paired, position): RecordVerdict => {
		if (isRefused.has(position) && !maybe.has(position)) {
			const reason = paired.find((entry) => entry.negative && entry.message !== undefined)?.message;
			const message = reason === undefined ? batchMessage : clean(reason);
			return message === undefined ? { outcome: 'refused' } : { outcome: 'refused', message };
		}
		if (maybe.has(position) || isRefused.has(position)) {
			if (conflicting.includes(position)) reasons.add('says of some records both that they were imported and that they were not');
			else if (unknownStatus.includes(position)) {
				const status = paired.find((entry) => entry.unknownStatus !== undefined)!.unknownStatus!;
				reasons.add(`gives records a status the node does not know ("${clean(status).slice(0, 60)}")`);
			} else reasons.add('numbers refused records in a way that could count from 0 or from 1, and says nothing that settles which');
			return { outcome: 'unknown' };
		}
		const verdict = confirmed(position) ? confirmedVerdict : restVerdict;
		if (verdict === 'refused') return batchMessage === undefined ? { outcome: 'refused' } : { outcome: 'refused', message: batchMessage };
		if (verdict !== 'imported') {
			reasons.add(verdict);
			return { outcome: 'unknown' };
		}
		const said = paired.find((entry) => entry.positive);
		const imported: RecordVerdict = { outcome: 'imported' };
		if (said?.status !== undefined) imported.status = clean(said.status);
		if (said?.id !== undefined) imported.id = typeof said.id === 'string' ? clean(said.id) : said.id;
		if (said?.message !== undefined) imported.message = clean(said.message);
		return imported;
	});
	const reading: AnswerReading = { verdicts };
	if (reasons.size > 0) reading.unknownBecause = [...reasons].join(', and ');
	return reading;
}
