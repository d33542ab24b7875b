import type { IBinaryKeyData } from 'n8n-workflow';

import { bodyEncodingOf, decodeBody, type BodyEncodingChoice } from './bodyText';
import { readBodyBytes, type BodySource } from './bodyStream';
import { isXmlMediaType, type ContentType } from './contentType';
import {
	checkedMultipart,
	multipartBinary,
	otherMultipart,
	parsedMultipart,
	UNPARSED_MULTIPART,
	type CopyBinaryFile,
} from './multipartBody';
import { chooseBodyFormat, parseBodyText, type BodyFormat, type BodyFormatChoice } from './requestBody';
import type { Checked } from './rejection';

/**
 * A request body as the item carries it: read within the trigger's Max Body Size (bytes n8n kept,
 * the stream, or n8n's parse of a multipart body), decoded, and parsed as what it is.
 */

/** The options of the trigger that concern the body. */
export interface BodyOptions {
	bodyEncoding?: BodyEncodingChoice;
	maxBodySizeMb?: unknown;
	parseBodyAs?: BodyFormatChoice;
}

export interface ReceivedBody {
	format: BodyFormat;
	value: unknown;
	/** The body as text, for "Include Raw Body"; none for multipart bodies. */
	text?: string;
	/** The files of a multipart body. */
	binary?: IBinaryKeyData;
}

export const DEFAULT_MAX_BODY_SIZE_MB = 1;
/**
 * n8n's own limit on the bodies it reads (N8N_PAYLOAD_SIZE_MAX, 16 MB by default): above it n8n
 * answers JSON, XML, form and plain-text bodies with its own error before the trigger runs, so Max
 * Body Size cannot promise more.
 */
export const MAX_BODY_SIZE_MB = 16;

/** Max Body Size in bytes, or what is wrong with the value an expression gave it. */
export function bodySizeLimit(value: unknown): { bytes: number } | { problem: string } {
	if (value === undefined || value === null || value === '') return { bytes: DEFAULT_MAX_BODY_SIZE_MB * 1024 * 1024 };
	const megabytes = typeof value === 'string' ? Number(value) : value;
	if (typeof megabytes !== 'number' || !Number.isFinite(megabytes) || megabytes <= 0 || megabytes > MAX_BODY_SIZE_MB) {
		return {
			problem: `"Max Body Size (MB)" must be a number above 0 and at most ${MAX_BODY_SIZE_MB} (got ${JSON.stringify(value)}): n8n itself refuses larger bodies before the trigger runs`,
		};
	}
	return { bytes: Math.max(1, Math.round(megabytes * 1024 * 1024)) };
}

/** A multipart/form-data body, parsed by n8n: its fields and its files. */
async function receiveMultipart(
	req: BodySource & { body?: unknown },
	limit: number,
	copyBinaryFile: CopyBinaryFile,
): Promise<Checked<ReceivedBody>> {
	// Measured on its parts, not on Content-Length: a chunked body has none, and is held alike.
	const parsed = parsedMultipart(req.body);
	if (parsed === undefined) return { rejection: UNPARSED_MULTIPART };
	const checked = checkedMultipart(parsed, limit);
	if ('rejection' in checked) return checked;
	const binary = await multipartBinary(parsed.files, copyBinaryFile);
	const format: BodyFormat = Object.keys(parsed.fields).length === 0 && parsed.files.length === 0 ? 'none' : 'form';
	return { value: { format, value: parsed.fields, ...(Object.keys(binary).length > 0 ? { binary } : {}) } };
}

export async function receiveBody(
	req: BodySource & { body?: unknown },
	contentType: ContentType | undefined,
	options: BodyOptions,
	limit: number,
	copyBinaryFile: CopyBinaryFile,
): Promise<Checked<ReceivedBody>> {
	const mediaType = contentType?.mediaType ?? '';
	if (mediaType === 'multipart/form-data') return await receiveMultipart(req, limit, copyBinaryFile);
	if (mediaType.startsWith('multipart/')) return { rejection: otherMultipart(mediaType) };
	const bytes = await readBodyBytes(req, limit);
	if ('rejection' in bytes) return bytes;
	if (bytes.value === undefined) {
		// The host consumed the stream without keeping the bytes: take what it parsed.
		const value = req.body ?? {};
		const format: BodyFormat = typeof value === 'string' ? 'text' : isXmlMediaType(mediaType) ? 'xml' : 'json';
		return { value: { format, value } };
	}
	const text = decodeBody(bytes.value, contentType, options.bodyEncoding);
	if ('rejection' in text) return text;
	const format = chooseBodyFormat(options.parseBodyAs ?? 'auto', contentType, text.value);
	const encoding = bodyEncodingOf(bytes.value, contentType, options.bodyEncoding);
	const parsed = parseBodyText(text.value, format, contentType, encoding);
	if ('rejection' in parsed) return parsed;
	return { value: { format, value: parsed.value, text: text.value } };
}
