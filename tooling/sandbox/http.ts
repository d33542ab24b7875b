/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console,
	@n8n/community-nodes/require-node-api-error -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, the console); its errors are not a node's */
import type * as http from 'node:http';

/** The sandbox's HTTP plumbing: replies, errors, bodies and query values, shared by every route. */

/** Largest request body accepted (imports of 100k records fit comfortably). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

const JSON_TYPE = 'application/json; charset=utf-8';

/** A control request the sandbox cannot carry out: answered 400 `invalid_control_request`. */
export class ControlError extends Error {
	constructor(message: string) {
		super(message);
	}
}

export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly extra: Record<string, unknown> = {},
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}

	body(): string {
		return JSON.stringify({ error: this.code, message: this.message, ...this.extra });
	}
}

export interface Reply {
	status: number;
	/** Already serialised JSON. */
	body: string;
	headers?: Record<string, string>;
}

export function json(status: number, value: unknown): Reply {
	return { status, body: JSON.stringify(value) };
}

export function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readBody(req: http.IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				reject(new HttpError(413, 'payload_too_large', `Request body exceeds ${MAX_BODY_BYTES} bytes`));
				req.destroy();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
		// A client that gives up mid-body: settle, so the request is accounted as a reset.
		req.on('close', () => {
			if (!req.complete) reject(new HttpError(400, 'client_closed', 'The client closed the connection before sending the whole body'));
		});
	});
}

export function parseJsonBody(text: string, what: string): unknown {
	if (text.trim() === '') throw new HttpError(400, 'invalid_json', `${what}: the request body is empty; send a JSON object`);
	try {
		return JSON.parse(text) as unknown;
	} catch (error) {
		throw new HttpError(400, 'invalid_json', `${what}: the request body is not valid JSON (${(error as Error).message})`);
	}
}

export function requireJsonContentType(req: http.IncomingMessage): void {
	const type = (req.headers['content-type'] ?? '').toLowerCase();
	if (!/^application\/([\w.+-]*\+)?json\b/.test(type)) {
		throw new HttpError(
			415,
			'unsupported_media_type',
			`Content-Type must be application/json (got ${type === '' ? 'none' : `"${type}"`})`,
		);
	}
}

/** Parses a query value that must be a non-negative integer (`min` at least). */
export function queryInteger(params: URLSearchParams, name: string, fallback: number, min: number): number {
	const raw = params.get(name);
	if (raw === null) return fallback;
	if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
		throw new HttpError(400, 'invalid_parameter', `Query parameter "${name}" must be an integer >= ${min} (got "${raw}")`, {
			parameter: name,
		});
	}
	return Number(raw);
}

export function methodNotAllowed(allowed: string): HttpError {
	return new HttpError(405, 'method_not_allowed', `Use ${allowed} on this path`, {}, { allow: allowed });
}

/** One path segment, percent-decoded and in NFC (names with diacritics arrive in either form). */
export function decodeSegment(segment: string): string {
	try {
		return decodeURIComponent(segment).normalize('NFC');
	} catch {
		throw new HttpError(400, 'invalid_path', `Malformed percent-encoding in "${segment}"`);
	}
}

/** The path's segments without empty ones: `/api/3p/import/x` is ['api', '3p', 'import', 'x']. */
export function pathParts(path: string): string[] {
	return path.split('/').filter((part) => part !== '');
}

/**
 * Writes a reply, whole or (a fault) cut: `body` sends a complete response with half the JSON,
 * `connection` announces the full length, sends half, then destroys the connection.
 */
export function writeReply(res: http.ServerResponse, reply: Reply, truncate?: 'body' | 'connection'): void {
	if (res.destroyed) return;
	const full = Buffer.from(reply.body, 'utf8');
	const headers: Record<string, string | number> = { 'content-type': JSON_TYPE, ...reply.headers };
	if (truncate === undefined) {
		headers['content-length'] = full.length;
		res.writeHead(reply.status, headers);
		res.end(full);
		return;
	}
	const half = full.subarray(0, Math.floor(full.length / 2));
	if (truncate === 'body') {
		headers['content-length'] = half.length;
		res.writeHead(reply.status, headers);
		res.end(half);
		return;
	}
	headers['content-length'] = full.length;
	res.writeHead(reply.status, headers);
	res.write(half, () => res.destroy());
}

/** The reply for an error thrown by a route; anything unexpected is a 500 (logged unless quiet). */
export function errorReply(error: unknown, quiet: boolean | undefined): Reply {
	if (error instanceof HttpError) return { status: error.status, body: error.body(), headers: error.headers };
	if (error instanceof ControlError) return json(400, { error: 'invalid_control_request', message: error.message });
	if (!quiet) console.error('Sandbox internal error:', error);
	return json(500, { error: 'internal_error', message: 'Internal server error' });
}
