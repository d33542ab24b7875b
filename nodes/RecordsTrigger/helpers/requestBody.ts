import { XML_MAX_DEPTH, parseXml } from '../../shared/workflowCall/xml';
import { isJsonMediaType, isXmlMediaType, type ContentType } from './contentType';
import { parseForm } from './formBody';
import type { Checked } from './rejection';

/**
 * A request body's text read as what it is: the parser chosen from the "Parse Body As" option, the
 * Content-Type or the first character, and malformed input refused with the parser's reason.
 */

/** How a request body was read: what the item's `format` field says. */
export type BodyFormat = 'json' | 'xml' | 'form' | 'text' | 'none';

/** The "Parse Body As" option: `auto` follows the Content-Type header. */
export type BodyFormatChoice = 'auto' | 'json' | 'xml' | 'text';

/** JSON is held to the nesting XML is held to: deeper values break n8n's handling of the execution. */
export const JSON_MAX_DEPTH = XML_MAX_DEPTH;

/**
 * Whether JSON text nests arrays and objects deeper than `max`, found in one pass over the text
 * (brackets inside strings are text). Checked before parsing: V8 parses far deeper JSON, which n8n
 * then fails to save or show, and a Respond node to answer.
 */
function nestsDeeperThan(text: string, max: number): boolean {
	let depth = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (inString) {
			if (code === 0x5c) index++;
			else if (code === 0x22) inString = false;
		} else if (code === 0x22) {
			inString = true;
		} else if (code === 0x5b || code === 0x7b) {
			if (++depth > max) return true;
		} else if (code === 0x5d || code === 0x7d) {
			depth--;
		}
	}
	return false;
}

/** Which parser to use: the option when set, else the Content-Type, else a look at the first character. */
export function chooseBodyFormat(
	choice: BodyFormatChoice,
	contentType: ContentType | undefined,
	text: string,
): BodyFormat {
	if (text.trim() === '') return 'none';
	if (choice !== 'auto') return choice;
	const mediaType = contentType?.mediaType;
	if (mediaType !== undefined) {
		if (isJsonMediaType(mediaType)) return 'json';
		if (isXmlMediaType(mediaType)) return 'xml';
		if (mediaType === 'application/x-www-form-urlencoded') return 'form';
		if (mediaType.startsWith('text/')) return 'text';
		if (mediaType !== 'application/octet-stream') return 'text';
	}
	const first = text.trimStart()[0];
	if (first === '{' || first === '[') return 'json';
	if (first === '<') return 'xml';
	return 'text';
}

function describeMediaType(contentType: ContentType | undefined): string {
	return contentType === undefined ? 'no Content-Type' : `Content-Type ${contentType.mediaType}`;
}

/**
 * Parses decoded body text in the given format; malformed input is a 400 with the parser's reason.
 * `encoding` is the body's (bodyEncodingOf): a form's percent-encoded bytes are text in it.
 */
export function parseBodyText(
	text: string,
	format: BodyFormat,
	contentType: ContentType | undefined,
	encoding = 'utf-8',
): Checked<unknown> {
	switch (format) {
		case 'none':
			return { value: {} };
		case 'json':
			if (nestsDeeperThan(text, JSON_MAX_DEPTH)) {
				return {
					rejection: {
						status: 400,
						code: 'invalid_json',
						message: `The request body is JSON nested more than ${JSON_MAX_DEPTH} levels deep, more than this trigger reads. Send flatter data.`,
					},
				};
			}
			try {
				return { value: JSON.parse(text) as unknown };
			} catch (error) {
				return {
					rejection: {
						status: 400,
						code: 'invalid_json',
						message: `The request body is not valid JSON (${(error as Error).message}; ${describeMediaType(contentType)}). Check the body of the service's call API action or webhook.`,
					},
				};
			}
		case 'xml':
			try {
				return { value: parseXml(text) };
			} catch (error) {
				return {
					rejection: {
						status: 400,
						code: 'invalid_xml',
						message: `The request body is not acceptable XML: ${(error as Error).message}. Check the body of the service's call API action (format XML).`,
					},
				};
			}
		case 'form':
			return parseForm(text, encoding);
		case 'text':
			return { value: text };
	}
}
