import { parseXml } from '../../shared/workflowCall/xml';

/** How a request body was read: what the item's `format` field says. */
export type BodyFormat = 'json' | 'xml' | 'form' | 'text' | 'none';

/** The "Parse Body As" option: `auto` follows the Content-Type header. */
export type BodyFormatChoice = 'auto' | 'json' | 'xml' | 'text';

export interface ContentType {
	/** Lower case, without parameters, e.g. `application/json`. */
	mediaType: string;
	charset?: string;
}

/** Why a request cannot be accepted; `status` is the HTTP status to answer with. */
export interface Rejection {
	status: number;
	code: string;
	message: string;
}

/** A step's result, or why the request is refused: expected outcomes of bad input, not exceptions. */
export type Checked<T> = { value: T } | { rejection: Rejection };

export function parseContentType(header: string | undefined): ContentType | undefined {
	if (header === undefined || header.trim() === '') return undefined;
	const [type, ...parameters] = header.split(';');
	const result: ContentType = { mediaType: type.trim().toLowerCase() };
	for (const parameter of parameters) {
		const equals = parameter.indexOf('=');
		if (equals < 0) continue;
		if (parameter.slice(0, equals).trim().toLowerCase() === 'charset') {
			result.charset = parameter
				.slice(equals + 1)
				.trim()
				.replace(/^"(.*)"$/, '$1')
				.toLowerCase();
		}
	}
	return result;
}

export function isJsonMediaType(mediaType: string): boolean {
	return mediaType === 'application/json' || mediaType.endsWith('+json') || mediaType === 'text/json';
}

export function isXmlMediaType(mediaType: string): boolean {
	return mediaType.endsWith('/xml') || mediaType.endsWith('+xml');
}

/** The encoding an XML declaration names, read without decoding the rest of the document. */
function xmlDeclaredEncoding(bytes: Uint8Array): string | undefined {
	const head = String.fromCharCode(...bytes.subarray(0, 200));
	return /^(?:\uFEFF|\u00EF\u00BB\u00BF)?<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
}

/** The "Body Encoding" option: the encoding of bodies that do not declare one. */
export type BodyEncodingChoice = 'utf-8' | 'windows-1250' | 'iso-8859-2';

/**
 * Content types n8n decodes itself before a webhook node runs, with Node's Buffer encodings: a
 * charset such as windows-1250 on them gets n8n's 422 "Unknown encoding" (n8n 1.x and 2.x). Bodies
 * of other content types reach the node as bytes, whatever charset they declare.
 */
export const TYPES_N8N_DECODES = 'application/json, application/xml (and other XML types), text/plain and form';

/** The encoding the body is read in: the Content-Type charset, else an XML declaration's, else the option's. */
export function bodyEncodingOf(
	bytes: Uint8Array,
	contentType: ContentType | undefined,
	undeclared: BodyEncodingChoice = 'utf-8',
): string {
	return contentType?.charset ?? xmlDeclaredEncoding(bytes) ?? undeclared;
}

/**
 * Decodes the body bytes: the Content-Type charset, else an XML declaration's encoding, else the
 * "Body Encoding" option (UTF-8 by default). Bytes that are not valid in that encoding are refused
 * rather than silently replaced, so that no field value arrives corrupted.
 */
export function decodeBody(
	bytes: Uint8Array,
	contentType: ContentType | undefined,
	undeclared: BodyEncodingChoice = 'utf-8',
): Checked<string> {
	const label = bodyEncodingOf(bytes, contentType, undeclared);
	let decoder: InstanceType<typeof TextDecoder>;
	try {
		decoder = new TextDecoder(label, { fatal: true });
	} catch {
		return {
			rejection: {
				status: 415,
				code: 'unsupported_charset',
				message: `The body's character encoding "${label}" is not supported. Send UTF-8, or another encoding this system knows (e.g. windows-1250, iso-8859-2).`,
			},
		};
	}
	try {
		// The byte order mark is dropped: it is not part of the data.
		return { value: decoder.decode(bytes) };
	} catch {
		return { rejection: invalidEncoding(label) };
	}
}

/**
 * Advice that works on n8n: a charset on the content types n8n decodes itself never reaches this
 * node (422), so the way there is the "Body Encoding" option, or another content type.
 */
function invalidEncoding(label: string): Rejection {
	return {
		status: 400,
		code: 'invalid_encoding',
		message:
			`The body is not valid ${label === 'utf-8' ? 'UTF-8' : label}. If the caller sends windows-1250 or ISO-8859-2, ` +
			`choose it in the trigger's option "Body Encoding" and send no charset in the Content-Type, or declare the ` +
			`charset with a content type n8n passes on as it is, e.g. "text/json; charset=windows-1250" (on ` +
			`${TYPES_N8N_DECODES} bodies n8n refuses such a charset with 422 before this trigger runs).`,
	};
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
 * One name or value of a form body: "+" is a space, and each run of %XX escapes is bytes of text in
 * the body's encoding (a windows-1250 caller's "%9A" is "š"; in UTF-8 "š" is "%C5%A1"). A "%" not
 * followed by two hex digits stays as it is, as in URLSearchParams. Throws on bytes not valid in
 * the encoding.
 */
function formComponent(raw: string, decoder: InstanceType<typeof TextDecoder>): string {
	return raw
		.replace(/\+/g, ' ')
		.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => decoder.decode(Uint8Array.from(run.slice(1).split('%'), (hex) => parseInt(hex, 16))));
}

/** An application/x-www-form-urlencoded body; a name given more than once gets a list of its values. */
function parseForm(text: string, encoding: string): Checked<Record<string, string | string[]>> {
	const decoder = new TextDecoder(encoding, { fatal: true });
	const result: Record<string, string | string[]> = {};
	try {
		for (const pair of text.split('&')) {
			if (pair === '') continue;
			const equals = pair.indexOf('=');
			const name = formComponent(equals < 0 ? pair : pair.slice(0, equals), decoder);
			const value = equals < 0 ? '' : formComponent(pair.slice(equals + 1), decoder);
			const existing = Object.prototype.hasOwnProperty.call(result, name) ? result[name] : undefined;
			const next = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
			Object.defineProperty(result, name, { value: next, enumerable: true, writable: true, configurable: true });
		}
	} catch {
		return { rejection: invalidEncoding(encoding) };
	}
	return { value: result };
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
