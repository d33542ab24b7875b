/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
import * as http from 'node:http';

/** A plain HTTP client for the sandbox's own tests: reports connection failures instead of throwing. */

export interface ClientResponse {
	status: number;
	headers: http.IncomingHttpHeaders;
	text: string;
	/** Parsed JSON body, or undefined when the body is not JSON. */
	json: unknown;
}

export interface ClientFailure {
	status: 0;
	/** e.g. ECONNRESET, timeout, aborted. */
	error: string;
	/** Whatever arrived before the failure. */
	text: string;
}

export interface RequestOptions {
	token?: string;
	headers?: Record<string, string>;
	/** An object is sent as JSON; a string as is. */
	body?: unknown;
	timeoutMs?: number;
	agent?: http.Agent;
}

export function request(
	baseUrl: string,
	method: string,
	path: string,
	options: RequestOptions = {},
): Promise<ClientResponse | ClientFailure> {
	return new Promise((resolve) => {
		const headers: Record<string, string> = { ...options.headers };
		if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
		let payload: Buffer | undefined;
		if (options.body !== undefined) {
			payload = Buffer.from(typeof options.body === 'string' ? options.body : JSON.stringify(options.body), 'utf8');
			headers['content-type'] ??= 'application/json';
			headers['content-length'] = String(payload.length);
		}
		let settled = false;
		const chunks: Buffer[] = [];
		const fail = (error: string): void => {
			if (settled) return;
			settled = true;
			resolve({ status: 0, error, text: Buffer.concat(chunks).toString('utf8') });
		};
		const req = http.request(`${baseUrl}${path}`, { method, headers, agent: options.agent ?? false }, (res) => {
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('aborted', () => fail('aborted'));
			res.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
			res.on('end', () => {
				if (settled) return;
				settled = true;
				const text = Buffer.concat(chunks).toString('utf8');
				let json: unknown;
				try {
					json = JSON.parse(text) as unknown;
				} catch {
					json = undefined;
				}
				resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
			});
		});
		if (options.timeoutMs !== undefined) {
			req.setTimeout(options.timeoutMs, () => {
				fail('timeout');
				req.destroy();
			});
		}
		req.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? error.message));
		req.end(payload);
	});
}

/** Narrows to a response, failing the test with the connection error otherwise. */
export function ok(result: ClientResponse | ClientFailure): ClientResponse {
	if ('error' in result) throw new Error(`Expected an HTTP response, got connection failure ${result.error}`);
	return result;
}
