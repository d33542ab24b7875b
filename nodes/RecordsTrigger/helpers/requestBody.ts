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

/**
 * Decodes the body bytes: the Content-Type charset, else an XML declaration's encoding, else UTF-8.
 * Bytes that are not valid in that encoding are refused rather than silently replaced, so that no
 * field value arrives corrupted.
 */
export function decodeBody(bytes: Uint8Array, contentType: ContentType | undefined): Checked<string> {
	const label = contentType?.charset ?? xmlDeclaredEncoding(bytes) ?? 'utf-8';
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
		return {
			rejection: {
				status: 400,
				code: 'invalid_encoding',
				message: `The body is not valid ${label === 'utf-8' ? 'UTF-8' : label}. If the service sends another encoding, name it in the Content-Type header, e.g. "application/json; charset=windows-1250".`,
			},
		};
	}
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

function parseForm(text: string): Record<string, string | string[]> {
	const result: Record<string, string | string[]> = {};
	for (const [name, value] of new URLSearchParams(text)) {
		const existing = Object.prototype.hasOwnProperty.call(result, name) ? result[name] : undefined;
		const next = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
		Object.defineProperty(result, name, { value: next, enumerable: true, writable: true, configurable: true });
	}
	return result;
}

/** Parses decoded body text in the given format; malformed input is a 400 with the parser's reason. */
export function parseBodyText(text: string, format: BodyFormat, contentType: ContentType | undefined): Checked<unknown> {
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
			return { value: parseForm(text) };
		case 'text':
			return { value: text };
	}
}
