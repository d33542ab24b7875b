import type { IBinaryData, IBinaryKeyData } from 'n8n-workflow';

import { tooLarge } from './bodyStream';
import type { Checked, Rejection } from './rejection';

/**
 * multipart/form-data bodies. n8n parses them itself before any webhook node runs (into
 * `{ data, files }`, its files in temporary files it deletes once the node returned): the trigger
 * holds them to its Max Body Size, takes the fields as the body (a form's, so that an "event" field
 * is found) and keeps each file as binary data of the item.
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

/** The size of the fields and files together, as the caller sent them (without the multipart framing). */
function multipartSize(parsed: ParsedMultipart): number {
	let size = 0;
	for (const value of Object.values(parsed.fields)) {
		for (const entry of Array.isArray(value) ? value : [value]) size += Buffer.byteLength(entry, 'utf8');
	}
	for (const [, list] of parsed.files) for (const file of list) size += file.size;
	return size;
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
	for (const [field, list] of files) {
		const base = field.endsWith('[]') ? field.slice(0, -2) : field;
		for (const [index, file] of list.entries()) {
			let key = list.length > 1 ? `${base}${index}` : base;
			for (let suffix = 2; Object.prototype.hasOwnProperty.call(binary, key); suffix++) key = `${base}_${suffix}`;
			const fileName = file.originalFilename || file.newFilename || base;
			const data = await copyBinaryFile(file.filepath, fileName, file.mimetype ?? undefined);
			Object.defineProperty(binary, key, { value: data, enumerable: true, writable: true, configurable: true });
		}
	}
	return binary;
}

/** The fields of a parsed multipart body, held to `limit` bytes. */
export function checkedMultipart(parsed: ParsedMultipart, limit: number): Checked<ParsedMultipart> {
	const size = multipartSize(parsed);
	return size > limit ? tooLarge(size, limit) : { value: parsed };
}
