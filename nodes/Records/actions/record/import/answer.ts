/**
 * What a 2xx answer to an import says, pure (no n8n). The guide (§4.1) does not show the answer, so
 * the node cannot know more than "the service answered 2xx"; but some 2xx answers cannot be the
 * service's: an HTML page is a sign-in page, proxy or captive portal in front of it, and any body
 * that is neither JSON nor empty is not the JSON service either. Such an
 * answer is a failure whose outcome is unknown. A JSON answer may list records the service refused.
 */
import { readRecordOutcomes, type RecordOutcome } from './batches';

/** Characters of a foreign answer shown in the error. */
const EXCERPT_LENGTH = 160;

export type ImportAnswer =
	| { kind: 'service'; outcomes: Array<RecordOutcome | undefined> | undefined }
	| { kind: 'foreign'; statusCode: number; contentType: string; excerpt: string };

export interface AnswerToRead {
	statusCode: number;
	headers: Record<string, unknown>;
	body: unknown;
}

function header(headers: Record<string, unknown>, name: string): string {
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() === name) return String(Array.isArray(value) ? value[0] : value);
	}
	return '';
}

const HTML_TYPE = /^\s*(text\/html|application\/xhtml\+xml)\b/i;
const JSON_TYPE = /^\s*application\/([\w.+-]*\+)?json\b/i;
const MARKUP_START = /^\s*</;

/** Reads an import's 2xx answer: only JSON or an empty body can be the service's. */
export function readImportAnswer(answer: AnswerToRead, recordCount: number): ImportAnswer {
	const contentType = header(answer.headers, 'content-type');
	const text = typeof answer.body === 'string' ? answer.body : undefined;
	const empty = answer.body === undefined || answer.body === null || (text !== undefined && text.trim() === '');
	const html = HTML_TYPE.test(contentType) || (text !== undefined && MARKUP_START.test(text));
	const foreign = html || (!empty && text !== undefined && !JSON_TYPE.test(contentType));
	if (foreign) {
		return {
			kind: 'foreign',
			statusCode: answer.statusCode,
			contentType: contentType || 'no content type',
			excerpt: (text ?? '').replace(/\s+/g, ' ').trim().slice(0, EXCERPT_LENGTH),
		};
	}
	return { kind: 'service', outcomes: readRecordOutcomes(answer.body, recordCount) };
}
