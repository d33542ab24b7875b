import type { ContentType } from './contentType';
import type { Checked, Rejection } from './rejection';

/**
 * The text of a request body: which encoding its bytes are in, and decoding them without ever
 * replacing a byte silently. A byte order mark decides first (UTF-8, UTF-16LE, UTF-16BE, as
 * browsers decide), then the Content-Type charset, then an XML declaration, then the trigger's
 * "Body Encoding" option.
 */

/** The "Body Encoding" option: the encoding of bodies that do not declare one. */
export type BodyEncodingChoice = 'utf-8' | 'windows-1250' | 'iso-8859-2';

/**
 * Content types n8n decodes itself before a webhook node runs, with Node's Buffer encodings: a
 * charset such as windows-1250 on them gets n8n's 422 "Unknown encoding" (n8n 1.x and 2.x). Bodies
 * of other content types reach the node as bytes, whatever charset they declare.
 */
export const TYPES_N8N_DECODES = 'application/json, application/xml (and other XML types), text/plain and form';

const BYTE_ORDER_MARKS: Array<{ bytes: number[]; encoding: string }> = [
	{ bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
	{ bytes: [0xff, 0xfe], encoding: 'utf-16le' },
	{ bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

function byteOrderMarkEncoding(bytes: Uint8Array): string | undefined {
	return BYTE_ORDER_MARKS.find((mark) => mark.bytes.every((byte, index) => bytes[index] === byte))?.encoding;
}

/** The encoding an XML declaration names, read without decoding the rest of the document. */
function xmlDeclaredEncoding(bytes: Uint8Array): string | undefined {
	const head = String.fromCharCode(...bytes.subarray(0, 200));
	return /^<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
}

/** The encoding the body is read in: its byte order mark's, the Content-Type charset, an XML declaration's, or the option's. */
export function bodyEncodingOf(
	bytes: Uint8Array,
	contentType: ContentType | undefined,
	undeclared: BodyEncodingChoice = 'utf-8',
): string {
	return byteOrderMarkEncoding(bytes) ?? contentType?.charset ?? xmlDeclaredEncoding(bytes) ?? undeclared;
}

/**
 * Bytes that no text in the 8-bit encodings or UTF-8 contains: NUL and the C0 controls other than
 * tab, line feed, form feed, carriage return and escape, looked for in the first 4 KB. Such a body
 * is a file or other binary data, or UTF-16 without a byte order mark.
 */
function looksBinary(bytes: Uint8Array): boolean {
	const end = Math.min(bytes.length, 4096);
	for (let index = 0; index < end; index++) {
		const byte = bytes[index];
		if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) return true;
	}
	return false;
}

const NOT_TEXT: Rejection = {
	status: 415,
	code: 'not_text',
	message:
		'The request body is not text: it holds bytes that text does not (a file or other binary data, or UTF-16 without a byte order mark). Send JSON, XML or form data as text (UTF-16 with a byte order mark), and files as multipart/form-data.',
};

/**
 * Advice that works on n8n: a charset on the content types n8n decodes itself never reaches this
 * node (422), so the way there is the "Body Encoding" option, or another content type.
 */
export function invalidEncoding(label: string): Rejection {
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

/**
 * Decodes the body bytes in bodyEncodingOf's encoding. A body that is not text is refused as such;
 * bytes that are not valid in the encoding are refused rather than silently replaced, so that no
 * field value arrives corrupted, with advice on Czech 8-bit encodings.
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
	// UTF-16 text has zero bytes; in any other encoding they mean the body is no text at all. The
	// decoder names the encoding a label stands for (unicode-1-1-utf-8 is UTF-8, unicode is UTF-16LE).
	if (!decoder.encoding.startsWith('utf-16') && looksBinary(bytes)) return { rejection: NOT_TEXT };
	try {
		// The byte order mark is dropped: it is not part of the data.
		return { value: decoder.decode(bytes) };
	} catch {
		return { rejection: invalidEncoding(label) };
	}
}
