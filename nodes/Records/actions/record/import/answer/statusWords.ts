/**
 * What a status in an import's answer says, pure (no n8n): an HTTP-like number or a word, read as
 * positive, negative, partial or unknown; and whether a free-text message may say that an import
 * failed. A status the node does not know is no evidence either way.
 */
import { keptResults } from '../keptResults';

export type StatusSays = 'positive' | 'negative' | 'partial' | 'unknown';

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
export function statusText(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value;
	if (typeof value === 'number' && Number.isInteger(value) && value >= 100 && value < 600) return String(value);
	return undefined;
}

/** Whether a free-text message has words that may say an import failed ("Import failed: …"). */
export function mayTellOfFailure(message: string): boolean {
	return FAILURE_TEXT.test(message);
}
