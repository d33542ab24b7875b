/**
 * What an import's JSON answer means for each record of the batch, pure (no n8n). docs/import.md
 * has the table. In short: a record is imported when nothing in the answer says otherwise, refused
 * when an entry that plainly names it says it was not imported (or the whole import failed), and
 * unknown when the answer says some records failed without saying which, or contradicts itself.
 * Numbers are read by recordNumbers.ts, never guessed.
 */
import { type AnswerEntry, AnswerWalker, type AnswerSummary } from './answerWalk';
import { type BatchRecord, type Counting, recordWithIdentity, settleCounting } from './recordNumbers';

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

/** The entries of a record that has none (shared, never changed). */
const NO_ENTRIES: AnswerEntry[] = [];

/** Each entry paired with its record's position in the batch, or left unpaired. */
function pairEntries(entries: AnswerEntry[], lists: Array<{ length: number; numbered: boolean }>, records: readonly BatchRecord[]) {
	const numbered = entries.filter((entry) => entry.claim !== undefined);
	const counting: Counting | undefined =
		numbered.length === 0 ? undefined : settleCounting(numbered.map((entry) => entry.claim!), records);
	// Most records have one entry or none: a list is made for those that have one.
	const byRecord: AnswerEntry[][] = new Array<AnswerEntry[]>(records.length).fill(NO_ENTRIES);
	const unpaired: AnswerEntry[] = [];
	for (const entry of entries) {
		let position: number | undefined;
		if (entry.badIndex) position = undefined;
		else if (entry.claim) position = counting && 'base' in counting ? entry.claim.index - counting.base : undefined;
		else if (entry.identity) position = recordWithIdentity(entry.identity, records);
		else if (!lists[entry.list].numbered && lists[entry.list].length === records.length) position = entry.position;
		if (position === undefined) unpaired.push(entry);
		else if (byRecord[position] === NO_ENTRIES) byRecord[position] = [entry];
		else byRecord[position].push(entry);
	}
	return { byRecord, unpaired, counting };
}

/** Why the refusals the answer lists cannot be paired with records. */
function unpairedReason(unpaired: AnswerEntry[], counting: Counting | undefined, size: number): string {
	const numbers = [...new Set(unpaired.filter((entry) => entry.claim).map((entry) => entry.claim!.index))].sort((a, b) => a - b);
	const listed = numbers.slice(0, 5).join(', ') + (numbers.length > 5 ? ', …' : '');
	if (counting && 'problem' in counting && numbers.length > 0) {
		if (counting.problem === 'ambiguous') {
			return `numbers refused records (${listed}) in a way that could count from 0 or from 1, and says nothing that settles which`;
		}
		if (counting.problem === 'outOfRange') return `numbers refused records (${listed}) that do not fit the ${plural(size, 'record')} sent`;
		return 'numbers refused records, but the field values it gives for them are not those of the records at these numbers';
	}
	return `lists ${plural(unpaired.length, 'refused record')} without a number or field value that says which record`;
}

/**
 * What the answer says of the records it does not name as refused (`named`: the records an entry
 * names as not imported): imported, refused, or unknown and why.
 */
function restOutcome(
	summary: AnswerSummary,
	named: number,
	rest: number[],
	confirmed: (position: number) => boolean,
	anyPositive: boolean,
): 'imported' | 'refused' | string {
	const counted = summary.importedCount;
	const sent = rest.length + named;
	const nothingPositive = !anyPositive && !summary.positive;
	// "Imported: 0", or a failure that names no record and nothing says otherwise: the whole batch.
	if (counted === 0 && nothingPositive) return 'refused';
	if (summary.failed && named === 0) {
		if (nothingPositive && counted === undefined) return 'refused';
		return 'says the import failed, and also that records were imported, without saying which';
	}
	if (summary.failed) {
		if (counted === rest.length || (rest.length > 0 && rest.every(confirmed))) return 'imported';
		return 'says the import failed, and does not say whether the records it does not name were imported';
	}
	if ((summary.failedCount ?? 0) > named) {
		return `counts ${plural(summary.failedCount!, 'failed record')} but names ${named === 0 ? 'none' : `only ${named}`}`;
	}
	if (summary.partial && named === 0) return 'says the import was partial, but names no refused record';
	if (counted !== undefined && counted < rest.length) return `counts ${counted} imported of the ${plural(sent, 'record')} sent`;
	return 'imported';
}

/**
 * Reads what a service's JSON answer (already parsed) says of each record of the batch sent.
 * `clean` is applied to every text taken from the answer (a reason, a status), before any cut: it
 * takes the secrets out.
 */
export function readOutcomes(body: unknown, records: readonly BatchRecord[], clean: (text: string) => string = (text) => text): AnswerReading {
	const size = records.length;
	const unknown = (because: string): AnswerReading => ({ verdicts: records.map(() => ({ outcome: 'unknown' })), unknownBecause: because });
	const { entries, lists, summary, tooDeep, failureInWordsOnly } = new AnswerWalker(records).walk(body);
	if (tooDeep) return unknown('is nested too deeply to be read');
	if (failureInWordsOnly !== undefined) {
		const said = clean(failureInWordsOnly);
		const words = said.length > 120 ? `${said.slice(0, 120)}…` : said;
		return unknown(`says only in words, which may mean that the import failed: "${words}"`);
	}
	const { byRecord, unpaired, counting } = pairEntries(entries, lists, records);

	const refused: number[] = [];
	const conflicting: number[] = [];
	byRecord.forEach((paired, position) => {
		if (!paired.some((entry) => entry.negative)) return;
		(paired.some((entry) => entry.positive) ? conflicting : refused).push(position);
	});
	if (summary.failedCount !== undefined && summary.failedCount < refused.length + conflicting.length) {
		return unknown(`counts ${plural(summary.failedCount, 'failed record')} but names ${refused.length + conflicting.length} refused ones`);
	}
	if (summary.importedCount !== undefined && refused.length > 0 && summary.importedCount > size - refused.length) {
		return unknown(`counts ${summary.importedCount} imported of ${size} records, but names ${refused.length} refused ones`);
	}
	const unpairedRefusals = unpaired.filter((entry) => entry.negative);
	const isRefused = new Set(refused);
	const isConflicting = new Set(conflicting);
	const rest = byRecord.map((_, position) => position).filter((p) => !isRefused.has(p) && !isConflicting.has(p));
	const confirmed = (position: number) => byRecord[position].some((entry) => entry.positive);
	const anyPositive = entries.some((entry) => entry.positive);
	const restVerdict =
		unpairedRefusals.length > 0 ? unpairedReason(unpairedRefusals, counting, size) : restOutcome(summary, refused.length + conflicting.length, rest, confirmed, anyPositive);

	const batchMessage = summary.message === undefined ? undefined : clean(summary.message);
	const verdicts = byRecord.map((paired, position): RecordVerdict => {
		if (isRefused.has(position)) {
			const reason = paired.find((entry) => entry.negative && entry.message !== undefined)?.message;
			const message = reason === undefined ? batchMessage : clean(reason);
			return message === undefined ? { outcome: 'refused' } : { outcome: 'refused', message };
		}
		if (isConflicting.has(position)) return { outcome: 'unknown' };
		if (restVerdict === 'refused') return batchMessage === undefined ? { outcome: 'refused' } : { outcome: 'refused', message: batchMessage };
		if (restVerdict !== 'imported') return { outcome: 'unknown' };
		const said = paired.find((entry) => entry.positive);
		const verdict: RecordVerdict = { outcome: 'imported' };
		if (said?.status !== undefined) verdict.status = clean(said.status);
		if (said?.id !== undefined) verdict.id = typeof said.id === 'string' ? clean(said.id) : said.id;
		if (said?.message !== undefined) verdict.message = clean(said.message);
		return verdict;
	});
	const reading: AnswerReading = { verdicts };
	if (restVerdict !== 'imported' && restVerdict !== 'refused') reading.unknownBecause = restVerdict;
	else if (conflicting.length > 0) reading.unknownBecause = 'says of some records both that they were imported and that they were not';
	return reading;
}
