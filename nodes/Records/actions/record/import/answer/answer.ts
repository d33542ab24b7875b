/**
 * What a 2xx answer to an import says, pure (no n8n). The guide (§4.1) does not show the answer, so
 * the node reads it for what it plainly says (outcomes.ts) and judges by content, not by label,
 * whether it is the service's at all: JSON (as n8n parsed it, or text that parses as JSON) or no
 * body is the service's whatever its Content-Type; an HTML page is a sign-in page, proxy or captive
 * portal in front of the service, and any other text is not the JSON service either. Such an answer
 * is foreign: whether the records were imported is unknown.
 */
import { readOutcomes, type AnswerReading } from './outcomes';
import type { BatchRecord } from './recordNumbers';
import { findAnswerParts } from './findAnswerParts';
import { excerpt, redactor } from '../../../../../shared/transport/redaction';

/** Characters of a foreign answer shown in the error. */
export const EXCERPT_LENGTH = 160;

export type ImportAnswer =
	| ({ kind: 'service' } & AnswerReading)
	| { kind: 'foreign'; statusCode: number; contentType: string; excerpt: string };

function header(headers: Record<string, unknown>, name: string): string {
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === name) return String(Array.isArray(value) ? value[0] : value);
	}
	return '';
}

/** The body as JSON: itself when n8n parsed it, parsed when it is text; `foreign` when it is neither. */
function jsonOf(body: unknown): { json: unknown } | 'foreign' {
	if (typeof body !== 'string') return { json: body ?? undefined };
	const text = body.trim();
	if (text === '') return { json: undefined };
	if (text.startsWith('<')) return 'foreign';
	try {
		return { json: JSON.parse(text) as unknown };
	} catch {
		return 'foreign';
	}
}

export interface AnswerToRead {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
	/**
	 * An earlier attempt of this request failed after the service may have processed it: a record
	 * this answer refuses may have been imported by that attempt, so its outcome is unknown.
	 */
	afterUnknownOutcome?: boolean;
}

/** A refusal of the last attempt says nothing of an earlier attempt that may have imported the record. */
function afterEarlierAttempt(reading: AnswerReading): AnswerReading {
	if (!reading.verdicts.some((verdict) => verdict.outcome === 'refused')) return reading;
	const because =
		'refuses records that an earlier attempt of the same request may already have imported (that attempt failed without an answer, and "Retry When Outcome Unknown" sent the batch again)';
	return {
		verdicts: reading.verdicts.map((verdict) => (verdict.outcome === 'refused' ? { outcome: 'unknown' } : verdict)),
		unknownBecause: reading.unknownBecause === undefined ? because : `${reading.unknownBecause}, and ${because}`,
	};
}

/** 202 Accepted: the service took the batch to process later; only a refusal it already gives is final. */
function acceptedForLater(reading: AnswerReading): AnswerReading {
	if (reading.verdicts.every((verdict) => verdict.outcome === 'refused')) return reading;
	const because = 'was 202 Accepted: the service took the batch to process later, so whether it imports the records is not known yet';
	return {
		verdicts: reading.verdicts.map((verdict) => (verdict.outcome === 'refused' ? verdict : { outcome: 'unknown' })),
		unknownBecause: reading.unknownBecause === undefined ? because : `${because}, and ${reading.unknownBecause}`,
	};
}

/**
 * What the body of a 4xx answer says of the batch's records, when it says that some were imported
 * (`{"imported": 2, "failed": 1, "errors": [...]}` with 422): the status counts as a failure of the
 * batch that the body's refusals and counts must account for. Undefined when the body says nothing
 * of records imported: then the batch was refused, as its status says.
 */
export function readRefusedAnswer(statusCode: number, body: unknown, records: readonly BatchRecord[], secrets: readonly string[]): AnswerReading | undefined {
	const content = jsonOf(body);
	if (content === 'foreign' || content.json === undefined) return undefined;
	const { summary, entries } = findAnswerParts(content.json, records);
	if (!((summary.importedCount ?? 0) > 0 || summary.positive || entries.some((entry) => entry.positive))) return undefined;
	const reading = readOutcomes(content.json, records, redactor(secrets), true);
	const because = `was ${statusCode}, which says the request failed, yet it says records were imported`;
	return { verdicts: reading.verdicts, unknownBecause: reading.unknownBecause === undefined ? because : `${because}: it ${reading.unknownBecause}` };
}

/**
 * Reads an import's 2xx answer for the batch's records (as sent). `secrets` are redacted from the
 * excerpt of a foreign answer before it is cut.
 */
export function readImportAnswer(answer: AnswerToRead, records: readonly BatchRecord[], secrets: readonly string[]): ImportAnswer {
	const content = jsonOf(answer.body);
	if (content === 'foreign') {
		return {
			kind: 'foreign',
			statusCode: answer.statusCode,
			contentType: header(answer.headers, 'content-type') || 'no content type',
			excerpt: excerpt(String(answer.body), secrets, EXCERPT_LENGTH),
		};
	}
	const reading = readOutcomes(content.json, records, redactor(secrets));
	const read = answer.statusCode === 202 ? acceptedForLater(reading) : reading;
	return { kind: 'service', ...(answer.afterUnknownOutcome === true ? afterEarlierAttempt(read) : read) };
}
