import type { Checked, Rejection } from './rejection';

/**
 * The bytes of a request body, at most a limit of them, as the trigger reads them itself: from the
 * bytes n8n kept (`rawBody`), or from the request stream when n8n left it unread (content types n8n
 * does not parse). gzip and deflate are inflated here too; memory stays bounded by the limit
 * whatever the caller sends (an oversized or endlessly inflating body is read past and discarded,
 * so that the caller still gets an answer), and a caller that goes away mid-body ends the reading
 * quietly.
 */

type HeaderValue = string | string[] | undefined;

/** The request as n8n hands it to webhook nodes (an Express request), narrowed to what is read here. */
export interface BodySource {
	headers: Record<string, HeaderValue>;
	rawBody?: unknown;
	readable?: boolean;
	readableEnded?: boolean;
	on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
	on(event: 'end' | 'close' | 'aborted', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
}

type Compression = 'gzip' | 'deflate';

export function header(headers: Record<string, HeaderValue>, name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? value[0] : value;
}

function formatBytes(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 100) / 100} MB`;
	if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
	return `${bytes} bytes`;
}

export function tooLarge(size: number | undefined, limit: number): { rejection: Rejection } {
	const what = size === undefined ? 'The request body' : `The request body (${formatBytes(size)})`;
	return {
		rejection: {
			status: 413,
			code: 'payload_too_large',
			message: `${what} is larger than the ${formatBytes(limit)} this trigger accepts. Send less data per call, or raise the trigger's "Max Body Size" option.`,
		},
	};
}

/** The caller went away before sending the whole body: nobody reads the answer, nothing starts. */
export const ABORTED: Rejection = {
	status: 400,
	code: 'aborted',
	message: 'The caller closed the connection before the whole request body arrived.',
};

const INVALID_COMPRESSION: Rejection = {
	status: 400,
	code: 'invalid_compression',
	message: 'The request body could not be inflated as its Content-Encoding says. Check how the caller compresses it, or send it uncompressed.',
};

/** The compression a Content-Encoding names, undefined for none, or the refusal of one the trigger cannot read. */
export function compressionOf(contentEncoding: string | undefined): Checked<Compression | undefined> {
	const coding = (contentEncoding ?? '').trim().toLowerCase();
	if (coding === '' || coding === 'identity') return { value: undefined };
	if (coding === 'gzip' || coding === 'x-gzip') return { value: 'gzip' };
	if (coding === 'deflate') return { value: 'deflate' };
	return {
		rejection: {
			status: 415,
			code: 'unsupported_encoding',
			message: `Request bodies compressed as "${contentEncoding}" are not accepted. Send the body uncompressed, or compressed with gzip or deflate.`,
		},
	};
}

/**
 * Whether n8n has already inflated `rawBody`: n8n 1.x and 2.x inflate when Content-Encoding is
 * exactly "gzip" or "deflate", and keep other bodies as they arrived.
 */
const n8nInflated = (contentEncoding: string | undefined) => contentEncoding === 'gzip' || contentEncoding === 'deflate';

/**
 * Collects chunks up to `limit` bytes; past it, counts and discards them. `add` returns false once
 * the limit is passed.
 */
class BoundedBytes {
	private readonly chunks: Uint8Array[] = [];
	size = 0;

	constructor(private readonly limit: number) {}

	add(chunk: Uint8Array): boolean {
		this.size += chunk.length;
		if (this.size > this.limit) return false;
		this.chunks.push(chunk);
		return true;
	}

	get overLimit(): boolean {
		return this.size > this.limit;
	}

	bytes(): Buffer {
		return Buffer.concat(this.chunks);
	}
}

/** Inflates `compressed`, stopping (and returning undefined) once the output passes `limit`. */
async function inflate(compressed: Uint8Array[], compression: Compression, limit: number): Promise<Checked<Buffer>> {
	const stream = new DecompressionStream(compression);
	const writer = stream.writable.getWriter();
	// Written without waiting: the reader below drains the output, and a refused write is seen there.
	const written = (async () => {
		for (const chunk of compressed) await writer.write(chunk);
		await writer.close();
	})().catch(() => undefined);
	const output = new BoundedBytes(limit);
	const reader = stream.readable.getReader();
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			if (!output.add(value)) {
				await reader.cancel();
				return tooLarge(undefined, limit);
			}
		}
	} catch {
		return { rejection: INVALID_COMPRESSION };
	} finally {
		await written;
	}
	return { value: output.bytes() };
}

/** Reads the stream to its end (or the caller's going away), keeping at most `limit` bytes. */
function readStream(req: BodySource, limit: number): Promise<{ complete: boolean; bytes: BoundedBytes }> {
	return new Promise((resolve) => {
		const bytes = new BoundedBytes(limit);
		let settled = false;
		const finish = (complete: boolean) => {
			if (settled) return;
			settled = true;
			resolve({ complete, bytes });
		};
		req.on('data', (chunk) => bytes.add(chunk));
		req.on('end', () => finish(true));
		req.on('error', () => finish(false));
		req.on('aborted', () => finish(false));
		// 'close' before 'end': the connection went away.
		req.on('close', () => finish(false));
	});
}

/**
 * The body bytes, inflated, at most `limit` of them; `undefined` when n8n consumed the stream
 * without keeping the bytes (it parsed a multipart body). A compressed body is held to the limit
 * both as sent and inflated.
 */
export async function readBodyBytes(req: BodySource, limit: number): Promise<Checked<Buffer | undefined>> {
	const contentEncoding = header(req.headers, 'content-encoding');
	const compression = compressionOf(contentEncoding);
	if ('rejection' in compression) return compression;
	if (Buffer.isBuffer(req.rawBody)) {
		if (compression.value === undefined || n8nInflated(contentEncoding)) {
			return req.rawBody.length > limit ? tooLarge(req.rawBody.length, limit) : { value: req.rawBody };
		}
		if (req.rawBody.length > limit) return tooLarge(req.rawBody.length, limit);
		return await inflate([req.rawBody], compression.value, limit);
	}
	const declared = Number(header(req.headers, 'content-length'));
	if (Number.isFinite(declared) && declared > limit) return tooLarge(declared, limit);
	if (req.readable === false || req.readableEnded === true) return { value: undefined };
	const { complete, bytes } = await readStream(req, limit);
	if (!complete) return { rejection: ABORTED };
	if (bytes.overLimit) return tooLarge(bytes.size, limit);
	if (compression.value === undefined) return { value: bytes.bytes() };
	return await inflate([bytes.bytes()], compression.value, limit);
}
