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
 * The most gzip members (files joined with `cat`) a body may have, as a form may have fields:
 * every member costs an inflater of its own (tenths of a millisecond), so their number is bounded.
 */
export const MAX_GZIP_MEMBERS = 1000;

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
	| { ended: 'with bytes after it'; bytes: Buffer }
	| { ended: 'too large' }
	| { ended: 'invalid' };

/**
 * Inflates `compressed` (zlib's deflate, or raw deflate) with the runtime's DecompressionStream,
 * stopping once the output passes `limit`. Bytes after the end of the compressed stream are ignored
 * by Node.js 20 and refused by Node.js 24 (ERR_TRAILING_JUNK_AFTER_STREAM_END), after the whole
 * stream was inflated; both end as 'whole' and 'with bytes after it' here.
 */
async function inflateOnce(compressed: Uint8Array, format: 'deflate' | 'deflate-raw', limit: number): Promise<Inflated> {
	const stream = new DecompressionStream(format);
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
				// Refused when the stream has failed meanwhile (Node.js 24 fails it at the bytes after its end).
				await reader.cancel().catch(() => undefined);
				return { ended: 'too large' };
			}
		}
	} catch (error) {
		const trailing = (error as { code?: unknown }).code === 'ERR_TRAILING_JUNK_AFTER_STREAM_END';
		return trailing ? { ended: 'with bytes after it', bytes: output.bytes() } : { ended: 'invalid' };
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
 * Where the compressed data of the gzip member at `start` begins, after its header (RFC 1952, 2.3:
 * fixed fields, then an extra field, a file name, a comment and a header CRC where its flags say);
 * undefined when no gzip member begins there.
 */
function gzipDataStart(body: Buffer, start: number): number | undefined {
	const flags = body[start + 3];
	if (body[start] !== 0x1f || body[start + 1] !== 0x8b || body[start + 2] !== 8 || flags === undefined || flags & 0xe0) return undefined;
	let at = start + 10;
	if (flags & 4) at = at + 2 > body.length ? Number.POSITIVE_INFINITY : at + 2 + body.readUInt16LE(at);
	for (const zeroTerminated of [8, 16]) {
		if (flags & zeroTerminated) at = at < body.length ? body.indexOf(0, at) + 1 || Number.POSITIVE_INFINITY : Number.POSITIVE_INFINITY;
	}
	// The header CRC: the low half of the CRC-32 of the header before it.
	if (flags & 2) at = at + 2 <= body.length && body.readUInt16LE(at) === (crc32(body.subarray(start, at)) & 0xffff) ? at + 2 : Number.POSITIVE_INFINITY;
	return at <= body.length ? at : undefined;
}

/**
 * Where what follows the gzip member whose compressed data begins at `dataStart` of `body` and
 * inflated to `inflated` begins: after its trailer (the CRC-32 and the size of `inflated`), where
 * the next member's header begins, or `'end'` when nothing or only zero bytes follow (from
 * `padding` on: padding, which gzip itself ignores). Undefined when no such place is found (the
 * member's trailer is missing or wrong). The search stops at the first such place, so it reads no
 * further than the member.
 */
function afterGzipMember(body: Buffer, dataStart: number, inflated: Uint8Array, padding: number): number | 'end' | undefined {
	const trailer = Buffer.alloc(8);
	trailer.writeUInt32LE(crc32(inflated), 0);
	trailer.writeUInt32LE(inflated.length % 2 ** 32, 4);
	for (let at = body.indexOf(trailer, dataStart); at >= 0; at = body.indexOf(trailer, at + 1)) {
		const next = at + 8;
		if (next >= padding) return 'end';
		if (body[next] === 0x1f && body[next + 1] === 0x8b) return next;
	}
	return undefined;
}

/** Where the zero bytes at the end of `bytes` begin (its length when it ends in another byte). */
function zeroPaddingFrom(bytes: Buffer): number {
	let end = bytes.length;
	while (end > 0 && bytes[end - 1] === 0) end--;
	return end;
}

/**
 * Inflates a gzip body of one or more members (files joined with `cat`), held to `limit` bytes of
 * output in all. Every member is read the same way on every runtime (the runtime's own gzip reader
 * reads them all on Node.js 20 and only the first on Node.js 24): its header here, its compressed
 * data by the runtime's raw inflater, its trailer checked here. Each member costs an inflater of
 * its own, so their number is bounded.
 */
async function gunzip(body: Buffer, limit: number): Promise<Checked<Buffer>> {
	const padding = zeroPaddingFrom(body);
	const members: Buffer[] = [];
	let size = 0;
	for (let start: number | 'end' = 0; start !== 'end'; ) {
		if (members.length === MAX_GZIP_MEMBERS) return { rejection: TOO_MANY_GZIP_MEMBERS };
		const dataStart = gzipDataStart(body, start);
		if (dataStart === undefined) return { rejection: INVALID_COMPRESSION };
		const inflated = await inflateOnce(body.subarray(dataStart), 'deflate-raw', limit - size);
		if (inflated.ended === 'too large') return tooLarge(undefined, limit);
		if (inflated.ended === 'invalid') return { rejection: INVALID_COMPRESSION };
		members.push(inflated.bytes);
		size += inflated.bytes.length;
		const next = afterGzipMember(body, dataStart, inflated.bytes, padding);
		if (next === undefined) return { rejection: INVALID_COMPRESSION };
		start = next;
	}
	return { value: members.length === 1 ? members[0] : Buffer.concat(members) };
}

/** The Adler-32 checksum that ends a zlib stream (RFC 1950). */
function adler32(bytes: Uint8Array): number {
	let a = 1;
	let b = 0;
	for (let from = 0; from < bytes.length; from += 4096) {
		// Reduced every 4,096 bytes, well before the sums can lose precision.
		for (const byte of bytes.subarray(from, from + 4096)) {
			a += byte;
			b += a;
		}
		a %= 65521;
		b %= 65521;
	}
	return (b * 65536 + a) >>> 0;
}

/**
 * Inflates `compressed` as its Content-Encoding says, held to `limit` bytes of output. A deflate
 * body must end where its stream ends (with the stream's checksum), as a gzip body must end with
 * its last member, on every runtime.
 */
async function inflate(compressed: Buffer, compression: Compression, limit: number): Promise<Checked<Buffer>> {
	if (compression === 'gzip') return await gunzip(compressed, limit);
	const inflated = await inflateOnce(compressed, 'deflate', limit);
	if (inflated.ended === 'too large') return tooLarge(undefined, limit);
	if (inflated.ended === 'invalid' || compressed.length < 4 || compressed.readUInt32BE(compressed.length - 4) !== adler32(inflated.bytes)) {
		return { rejection: INVALID_COMPRESSION };
	}
	return { value: inflated.bytes };
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
