import type { Checked, Rejection } from './rejection';

/**
 * The bytes of a request body, at most a limit of them, as the trigger reads them itself: from the
 * bytes n8n kept (`rawBody`), or from the request stream when n8n left it unread (content types n8n
 * does not parse). gzip and deflate are inflated here too; memory stays bounded by the limit
 * whatever the caller sends (an oversized or endlessly inflating body is read past and discarded,
 * so that the caller still gets an answer), and a caller that goes away mid-body ends the reading
 * quietly, also when it went away before the trigger ran: an aborted body is never read as empty.
 */

type HeaderValue = string | string[] | undefined;

/** The request as n8n hands it to webhook nodes (an Express request), narrowed to what is read here. */
export interface BodySource {
	headers: Record<string, HeaderValue>;
	rawBody?: unknown;
	readable?: boolean;
	readableEnded?: boolean;
	/** Destroyed before its end: the caller went away (or the connection broke) before n8n or anyone read it all. */
	readableAborted?: boolean;
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

/**
 * The most gzip members (files joined with `cat`) inflated one by one where the runtime stops after
 * each: every member costs a new inflater, about a millisecond, so their number is bounded.
 */
export const MAX_GZIP_MEMBERS = 16;

const TOO_MANY_GZIP_MEMBERS: Rejection = {
	...INVALID_COMPRESSION,
	message: `The request body is more than ${MAX_GZIP_MEMBERS} gzip files joined together, more than this trigger inflates. Compress the body as one gzip file.`,
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

/** How one run of the runtime's inflater ended. */
type Inflated =
	| { ended: 'whole'; bytes: Buffer }
	| { ended: 'after one gzip member'; bytes: Buffer }
	| { ended: 'too large' }
	| { ended: 'invalid' };

/**
 * Inflates `compressed` with the runtime's DecompressionStream, stopping once the output passes
 * `limit`. Node.js 24 stops after the first member of a gzip body of several, saying so
 * (ERR_TRAILING_JUNK_AFTER_STREAM_END); earlier releases read them all.
 */
async function inflateOnce(compressed: Uint8Array, compression: Compression, limit: number): Promise<Inflated> {
	const stream = new DecompressionStream(compression);
	const writer = stream.writable.getWriter();
	// Written without waiting: the reader below drains the output, and a refused write is seen there.
	const written = (async () => {
		await writer.write(compressed);
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
				return { ended: 'too large' };
			}
		}
	} catch (error) {
		const trailing = (error as { code?: unknown }).code === 'ERR_TRAILING_JUNK_AFTER_STREAM_END';
		return trailing && compression === 'gzip' ? { ended: 'after one gzip member', bytes: output.bytes() } : { ended: 'invalid' };
	} finally {
		await written;
	}
	return { ended: 'whole', bytes: output.bytes() };
}

let crcTable: Uint32Array | undefined;

/** The CRC-32 a gzip member's trailer holds for its inflated bytes (RFC 1952). */
function crc32(bytes: Uint8Array): number {
	crcTable ??= Uint32Array.from({ length: 256 }, (_, index) => {
		let crc = index;
		for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
		return crc >>> 0;
	});
	let crc = 0xffffffff;
	for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff] ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

/**
 * Where the gzip member that inflated to `inflated` ends in `compressed`: after its trailer (the
 * CRC-32 and the size of `inflated`), where the next member's header begins. Undefined when no such
 * place is found.
 */
function gzipMemberEnd(compressed: Buffer, inflated: Uint8Array): number | undefined {
	const trailer = Buffer.alloc(8);
	trailer.writeUInt32LE(crc32(inflated), 0);
	trailer.writeUInt32LE(inflated.length % 2 ** 32, 4);
	for (let at = compressed.indexOf(trailer, 10); at >= 0; at = compressed.indexOf(trailer, at + 1)) {
		if (compressed[at + 8] === 0x1f && compressed[at + 9] === 0x8b) return at + 8;
	}
	return undefined;
}

/** Inflates `compressed` (gzip of one or more members, or deflate), held to `limit` bytes of output. */
async function inflate(compressed: Buffer, compression: Compression, limit: number): Promise<Checked<Buffer>> {
	const members: Buffer[] = [];
	let size = 0;
	let rest = compressed;
	for (;;) {
		const inflated = await inflateOnce(rest, compression, limit - size);
		if (inflated.ended === 'too large') return tooLarge(undefined, limit);
		if (inflated.ended === 'invalid') return { rejection: INVALID_COMPRESSION };
		members.push(inflated.bytes);
		size += inflated.bytes.length;
		if (inflated.ended === 'whole') return { value: members.length === 1 ? members[0] : Buffer.concat(members) };
		const end = gzipMemberEnd(rest, inflated.bytes);
		if (end === undefined) return { rejection: INVALID_COMPRESSION };
		if (members.length >= MAX_GZIP_MEMBERS) return { rejection: TOO_MANY_GZIP_MEMBERS };
		rest = rest.subarray(end);
	}
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
		return await inflate(req.rawBody, compression.value, limit);
	}
	const declared = Number(header(req.headers, 'content-length'));
	if (Number.isFinite(declared) && declared > limit) return tooLarge(declared, limit);
	// Before n8n ran the node, the caller may have gone away mid-body: no bytes, and nothing to start.
	if (req.readableAborted === true) return { rejection: ABORTED };
	if (req.readable === false || req.readableEnded === true) return { value: undefined };
	const { complete, bytes } = await readStream(req, limit);
	if (!complete) return { rejection: ABORTED };
	if (bytes.overLimit) return tooLarge(bytes.size, limit);
	if (compression.value === undefined) return { value: bytes.bytes() };
	return await inflate(bytes.bytes(), compression.value, limit);
}
