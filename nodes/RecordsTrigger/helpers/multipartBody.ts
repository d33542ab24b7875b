import type { IBinaryData, IBinaryKeyData } from 'n8n-workflow';
import { sanitizeFilename } from 'n8n-workflow';

import { tooLarge } from './bodyStream';
import { MAX_FORM_FIELDS } from './formBody';
import type { Checked, Rejection } from './rejection';

/**
 * multipart/form-data bodies. n8n parses them itself before any webhook node runs (into
 * `{ data, files }`, its files in temporary files it deletes once the node returned): the trigger
 * holds them to its Max Body Size and its part count, takes the fields as the body (a form's, so
 * that an "event" field is found) and keeps each file as binary data of the item.
 *
 * The size is measured on what n8n parsed, not on the bytes as they travelled, so that a body sent
 * in chunks without a Content-Length is held to the limit exactly as the same body with one.
 */

/** One file as n8n's multipart parser (formidable) describes it. */
interface ParsedFile {
	filepath: string;
	originalFilename?: string | null;
	newFilename?: string;
	mimetype?: string | null;
	size: number;
}

export type FormFields = Record<string, string | string[]>;

export type CopyBinaryFile = (filePath: string, fileName: string, mimeType?: string) => Promise<IBinaryData>;

export const UNPARSED_MULTIPART: Rejection = {
	status: 415,
	code: 'unsupported_media_type',
	message: 'This multipart body was not read by n8n. Send fields and files as multipart/form-data, or the data as JSON or XML.',
};

export function otherMultipart(mediaType: string): Rejection {
	return {
		status: 415,
		code: 'unsupported_media_type',
		message: `${mediaType} bodies are not accepted. Send fields and files as multipart/form-data, or the data as JSON or XML.`,
	};
}

function isParsedFile(value: unknown): value is ParsedFile {
	return typeof value === 'object' && value !== null && typeof (value as ParsedFile).filepath === 'string';
}

export interface ParsedMultipart {
	fields: FormFields;
	files: Array<[string, ParsedFile[]]>;
}

/** n8n's parse of a multipart/form-data body, when `body` is one. */
export function parsedMultipart(body: unknown): ParsedMultipart | undefined {
	if (typeof body !== 'object' || body === null) return undefined;
	const { data, files } = body as { data?: unknown; files?: unknown };
	if (typeof data !== 'object' || data === null || typeof files !== 'object' || files === null) return undefined;
	const fields: FormFields = {};
	for (const [name, value] of Object.entries(data)) {
		const values = (Array.isArray(value) ? value : [value]).map((entry) => String(entry ?? ''));
		Object.defineProperty(fields, name, { value: values.length === 1 ? values[0] : values, enumerable: true, writable: true, configurable: true });
	}
	const fileLists: Array<[string, ParsedFile[]]> = [];
	for (const [name, value] of Object.entries(files)) {
		const list = (Array.isArray(value) ? value : [value]).filter(isParsedFile);
		if (list.length > 0) fileLists.push([name, list]);
	}
	return { fields, files: fileLists };
}

/**
 * What every part costs beyond its name, file name, type and content: its boundary line (with a
 * boundary of one character), its Content-Disposition header and the line ends around its content.
 * A client never sends less, so counting it keeps the measure at or below the bytes sent.
 */
const PART_FRAMING_BYTES = Buffer.byteLength('--x\r\nContent-Disposition: form-data; name=""\r\n\r\n\r\n');
const FILE_FRAMING_BYTES = Buffer.byteLength('; filename=""');
const TYPE_FRAMING_BYTES = Buffer.byteLength('\r\nContent-Type: ');

const bytesOf = (text: string | null | undefined) => (text ? Buffer.byteLength(text, 'utf8') : 0);

function* fieldValues(parsed: ParsedMultipart): Generator<[string, string]> {
	for (const [name, value] of Object.entries(parsed.fields)) {
		for (const entry of Array.isArray(value) ? value : [value]) yield [name, entry];
	}
}

/** The number of parts: each field value and each file. */
export function multipartPartCount(parsed: ParsedMultipart): number {
	let parts = 0;
	for (const value of Object.values(parsed.fields)) parts += Array.isArray(value) ? value.length : 1;
	for (const [, list] of parsed.files) parts += list.length;
	return parts;
}

/**
 * The size of the body as its parts make it: each part's name, file name, type and content, and
 * its framing (PART_FRAMING_BYTES).
 */
export function multipartSize(parsed: ParsedMultipart): number {
	let size = 0;
	for (const [name, value] of fieldValues(parsed)) size += PART_FRAMING_BYTES + bytesOf(name) + bytesOf(value);
	for (const [name, list] of parsed.files) {
		for (const file of list) {
			size += PART_FRAMING_BYTES + FILE_FRAMING_BYTES + bytesOf(name) + bytesOf(file.originalFilename) + file.size;
			if (file.mimetype) size += TYPE_FRAMING_BYTES + bytesOf(file.mimetype);
		}
	}
	return size;
}

/**
 * The binary data of an empty file: nothing to store, so nothing is written to n8n's binary data
 * folder (copying writes the data and its metadata, two files for every empty one).
 */
function emptyFile(fileName: string, mimeType: string | undefined): IBinaryData {
	return { data: '', mimeType: mimeType ?? 'text/plain', fileName: sanitizeFilename(fileName), fileSize: '0 B', bytes: 0 };
}

/**
 * Names for the binary entries: `base` when free, else `base_2`, `base_3`, … Each base remembers
 * the suffix it reached, so naming n colliding files takes n steps, not n² (every name taken is
 * passed over at most once per base).
 */
class BinaryKeys {
	private readonly taken = new Set<string>();
	private readonly nextSuffix = new Map<string, number>();

	claim(base: string, preferred: string): string {
		let key = preferred;
		if (this.taken.has(key)) {
			let suffix = this.nextSuffix.get(base) ?? 2;
			for (key = `${base}_${suffix}`; this.taken.has(key); key = `${base}_${suffix}`) suffix++;
			this.nextSuffix.set(base, suffix + 1);
		}
		this.taken.add(key);
		return key;
	}
}

/**
 * The item's binary data: each file under its field's name ("[]" at the end dropped), numbered
 * from 0 when a field holds several files.
 */
export async function multipartBinary(
	files: Array<[string, ParsedFile[]]>,
	copyBinaryFile: CopyBinaryFile,
): Promise<IBinaryKeyData> {
	const binary: IBinaryKeyData = {};
	const keys = new BinaryKeys();
	for (const [field, list] of files) {
		const base = field.endsWith('[]') ? field.slice(0, -2) : field;
		for (const [index, file] of list.entries()) {
			const key = keys.claim(base, list.length > 1 ? `${base}${index}` : base);
			const fileName = file.originalFilename || file.newFilename || base;
			const mimeType = file.mimetype ?? undefined;
			const data = file.size === 0 ? emptyFile(fileName, mimeType) : await copyBinaryFile(file.filepath, fileName, mimeType);
			Object.defineProperty(binary, key, { value: data, enumerable: true, writable: true, configurable: true });
		}
	}
	return binary;
}

/** A parsed multipart body, held to MAX_FORM_FIELDS parts and to `limit` bytes. */
export function checkedMultipart(parsed: ParsedMultipart, limit: number): Checked<ParsedMultipart> {
	const parts = multipartPartCount(parsed);
	if (parts > MAX_FORM_FIELDS) {
		return {
			rejection: {
				status: 413,
				code: 'too_many_fields',
				message: `The multipart body has ${parts.toLocaleString('en-US')} fields and files, more than the ${MAX_FORM_FIELDS.toLocaleString('en-US')} this trigger reads from one call. Send fewer per call, or the data as JSON or XML.`,
			},
		};
	}
	const size = multipartSize(parsed);
	return size > limit ? tooLarge(size, limit) : { value: parsed };
}
