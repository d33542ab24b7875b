/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/require-node-api-error -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `xml2js`, `formidable`); its errors are not a node's */
/**
 * What n8n 2.41.1's webhook server does with a request before a webhook node runs, for the webhook
 * harness (webhook.ts), read from n8n's own code (packages/cli: `middlewares/body-parser`,
 * `webhooks/webhook-helpers` parseRequestBody, `webhooks/webhook-form-data`,
 * `webhooks/webhook-request-sanitizer`, and @n8n/backend-network's parseIncomingMessage):
 * - the Content-Type's type (lower-cased, not trimmed) and charset (`utf-8` when none) are noted;
 * - n8n's session and sign-in cookies are removed from the Cookie header;
 * - the body is read in full, up to N8N_PAYLOAD_SIZE_MAX (16 MB), gzip and deflate inflated, for
 *   every content type on a node of version 1 and only for those n8n parses on later versions
 *   (JSON, plain text, forms, XML); a body above the limit gets n8n's 500, one whose caller went
 *   away mid-body a 400;
 * - JSON (`application/json` only), XML, form and plain-text bodies are parsed into `req.body`,
 *   malformed ones refused with 422;
 * - multipart/form-data is parsed by formidable into `req.body = { data, files }`, files written to
 *   temporary files that are deleted once the node's `webhook()` returned.
 */
import type { IncomingMessage } from 'node:http';
import { rm } from 'node:fs/promises';
import { parse as parseQueryString } from 'node:querystring';
import type { Readable } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';

import { formidable, type File, type Files } from 'formidable';
import type { IDataObject } from 'n8n-workflow';
import { jsonParse, sanitizeXmlName } from 'n8n-workflow';
import { Parser as XmlParser } from 'xml2js';

/** n8n's default N8N_PAYLOAD_SIZE_MAX (MiB): larger bodies of the types n8n reads never reach a node. */
export const N8N_PAYLOAD_SIZE_MAX_MB = 16;
/** n8n's default N8N_FORMDATA_FILE_SIZE_MAX (MiB), formidable's limit for multipart files. */
export const N8N_FORMDATA_FILE_SIZE_MAX_MB = 200;

/** A request as n8n hands it to webhook nodes: Node's message plus what n8n's middleware adds. */
export type WebhookRequest = IncomingMessage & {
	body?: unknown;
	rawBody?: Buffer;
	contentType?: string;
	encoding: BufferEncoding;
	query: IDataObject;
	params: Record<string, string>;
	readRawBody(): Promise<void>;
};

/** An answer n8n gives itself (a ResponseError of n8n's): its status and `{ code, message, hint }`. */
export class HttpRefusal extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly hint?: string,
	) {
		super(message);
	}
}

const xmlParser = new XmlParser({
	async: true,
	normalize: true,
	normalizeTags: true,
	explicitArray: false,
	tagNameProcessors: [sanitizeXmlName],
	attrNameProcessors: [sanitizeXmlName],
});

/** raw-body's errors: n8n turns an aborted read into a 400, and answers the others with a 500. */
class RawBodyError extends Error {
	constructor(
		readonly type: 'entity.too.large' | 'request.aborted' | 'request.size.invalid',
		message: string,
	) {
		super(message);
	}
}

/** raw-body as n8n calls it: `length` from Content-Length (none when inflating), `limit` the payload maximum. */
function readAll(source: IncomingMessage, stream: Readable, limit: number, declared: number | undefined): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		if (declared !== undefined && declared > limit) {
			stream.resume();
			reject(new RawBodyError('entity.too.large', 'request entity too large'));
			return;
		}
		const chunks: Buffer[] = [];
		let size = 0;
		let done = false;
		const fail = (error: RawBodyError) => {
			if (done) return;
			done = true;
			reject(error);
		};
		stream.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				stream.unpipe?.();
				stream.resume();
				fail(new RawBodyError('entity.too.large', 'request entity too large'));
			} else if (!done) chunks.push(chunk);
		});
		stream.on('end', () => {
			if (done) return;
			if (declared !== undefined && size !== declared) fail(new RawBodyError('request.size.invalid', 'request size did not match content length'));
			done = true;
			resolve(Buffer.concat(chunks));
		});
		stream.on('error', (error) => fail(new RawBodyError('request.aborted', error.message)));
		source.on('aborted', () => fail(new RawBodyError('request.aborted', 'request aborted')));
		source.on('close', () => {
			if (!source.complete) fail(new RawBodyError('request.aborted', 'request aborted'));
		});
	});
}

/** n8n's parseIncomingMessage and rawBodyReader, with the query and path values Express adds. */
export function decorateRequest(raw: IncomingMessage, url: URL, params: Record<string, string>): WebhookRequest {
	const req = raw as WebhookRequest;
	const contentTypeHeader = req.headers['content-type'];
	req.encoding = 'utf-8';
	if (contentTypeHeader) {
		const [type, ...parameters] = contentTypeHeader.split(';');
		req.contentType = type.toLowerCase();
		const charset = parameters.map((p) => p.trim().split('=')).find(([name]) => name.toLowerCase() === 'charset');
		if (charset?.[1] !== undefined) req.encoding = charset[1].replace(/"/g, '').toLowerCase() as BufferEncoding;
	}
	const query: IDataObject = {};
	for (const key of new Set(url.searchParams.keys())) {
		const values = url.searchParams.getAll(key);
		query[key] = values.length === 1 ? values[0] : values;
	}
	req.query = query;
	req.params = params;
	req.readRawBody = async () => {
		if (req.rawBody !== undefined) return;
		let stream: Readable = req;
		let declared: number | undefined;
		// n8n compares the header exactly: "GZIP" or "gzip, gzip" reach the parsers compressed.
		const contentEncoding = req.headers['content-encoding'];
		if (contentEncoding === 'gzip') stream = req.pipe(createGunzip());
		else if (contentEncoding === 'deflate') stream = req.pipe(createInflate());
		else if (req.headers['content-length'] !== undefined) declared = Number(req.headers['content-length']);
		if (req.destroyed || !stream.readable) throw new HttpRefusal(400, 'Request body stream was aborted or is not readable');
		try {
			req.rawBody = await readAll(req, stream, N8N_PAYLOAD_SIZE_MAX_MB * 1024 * 1024, declared);
		} catch (error) {
			if (error instanceof RawBodyError && error.type === 'request.aborted') {
				throw new HttpRefusal(400, 'Request body stream was aborted mid-read or is not readable');
			}
			throw error;
		}
	};
	return req;
}

/** The cookies n8n removes from requests to a webhook node (webhook-request-sanitizer). */
const N8N_COOKIES = new Set([
	'n8n-auth',
	'n8n-browserId',
	'n8n-oauth-session',
	'n8n-oauth-binding',
	'n8n-oidc-id-token',
	'n8n-oidc-state',
	'n8n-oidc-nonce',
	'n8n-form-oauth',
	'n8n-chat-oauth',
	'n8n-chat-oauth-refresh',
]);

export function removeN8nCookies(req: IncomingMessage): void {
	const header = req.headers.cookie;
	if (typeof header !== 'string') return;
	const cookies = header.split(';').map((cookie) => cookie.trim());
	const kept = cookies.filter((cookie) => {
		const name = cookie.split('=')[0];
		return !N8N_COOKIES.has(name) && !name.startsWith('n8n-form-auth-');
	});
	if (kept.length !== cookies.length) req.headers.cookie = kept.join('; ');
}

const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** n8n's parseBody (middlewares/body-parser). */
async function parseBody(req: WebhookRequest): Promise<void> {
	if (req.contentType?.startsWith('multipart/')) return;
	await req.readRawBody();
	const { rawBody, contentType, encoding } = req;
	if (!rawBody?.length) return;
	try {
		if (contentType === 'application/json') {
			req.body = jsonParse(stripBom(rawBody.toString(encoding)));
		} else if (contentType?.endsWith('/xml') || contentType?.endsWith('+xml')) {
			req.body = await xmlParser.parseStringPromise(rawBody.toString(encoding));
		} else if (contentType === 'application/x-www-form-urlencoded') {
			req.body = parseQueryString(stripBom(rawBody.toString(encoding)), undefined, undefined, { maxKeys: 1000 });
		} else if (contentType === 'text/plain') {
			req.body = rawBody.toString(encoding);
		}
	} catch (error) {
		throw new HttpRefusal(422, 'Failed to parse request body', (error as Error).message);
	}
}

/** n8n's isParsableContentType: what it reads for webhook nodes of versions above 1. */
function n8nParses(contentType: string | undefined): boolean {
	if (!contentType) return false;
	return (
		contentType.startsWith('application/json') ||
		contentType.startsWith('text/plain') ||
		contentType.startsWith('application/x-www-form-urlencoded') ||
		contentType.endsWith('/xml') ||
		contentType.endsWith('+xml')
	);
}

/** n8n's createMultiFormDataParser (webhook-form-data, discardBlankFileInputs and normalizeFormData). */
async function parseMultipart(req: WebhookRequest): Promise<() => Promise<void>> {
	const paths = new Set<string>();
	const form = formidable({
		multiples: true,
		encoding: req.encoding,
		maxFileSize: N8N_FORMDATA_FILE_SIZE_MAX_MB * 1024 * 1024,
		allowEmptyFiles: true,
		minFileSize: 0,
	});
	form.on('fileBegin', (_name, file) => paths.add(file.filepath));
	const cleanup = async () => {
		await Promise.all([...paths].map(async (path) => await rm(path, { force: true }).catch(() => undefined)));
	};
	try {
		const [data, parsedFiles] = await form.parse(req);
		const files: Files = {};
		for (const [name, entries] of Object.entries(parsedFiles)) {
			const kept = ([] as File[]).concat(entries ?? []).filter((file) => !(file.originalFilename === '' && file.size === 0));
			if (kept.length > 0) files[name] = kept.length === 1 ? kept[0] : kept;
		}
		for (const [name, values] of Object.entries(data)) if (Array.isArray(values) && values.length === 1) data[name] = values[0];
		req.body = { data, files };
		return cleanup;
	} catch (error) {
		await cleanup();
		const httpCode = (error as { httpCode?: unknown }).httpCode;
		if (httpCode === 413) throw new HttpRefusal(413, 'The submitted form data exceeds the allowed size.');
		if (httpCode === 400) throw new HttpRefusal(400, 'The submitted form data could not be parsed.');
		throw error;
	}
}

/**
 * n8n's parseRequestBody for a node of `typeVersion` (its Webhook node's legacy "binary data"
 * option, which version 1 would evaluate, is not set here). Returns the clean-up of multipart
 * files, which n8n runs once the node's `webhook()` returned.
 */
export async function readBodyAsN8nDoes(req: WebhookRequest, typeVersion: number): Promise<(() => Promise<void>) | undefined> {
	if (req.contentType === 'multipart/form-data') return await parseMultipart(req);
	if (typeVersion > 1 && !n8nParses(req.contentType)) return undefined;
	await parseBody(req);
	return undefined;
}
