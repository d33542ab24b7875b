/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * One HTTP(S) request with its whole answer as text. For tooling that talks to a sandbox serving
 * HTTPS with its own CA: fetch cannot be told to trust a CA, Node's https can (`ca`).
 */
export function requestText(
	url: string,
	{ method = 'GET', headers = {}, body, ca }: { method?: string; headers?: Record<string, string>; body?: string; ca?: string } = {},
): Promise<{ status: number; text: string }> {
	const send = url.startsWith('https:') ? httpsRequest : httpRequest;
	return new Promise((resolve, reject) => {
		const request = send(url, { method, headers, ca }, (response) => {
			let text = '';
			response.setEncoding('utf8');
			response.on('data', (chunk: string) => (text += chunk));
			response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
		});
		request.on('error', reject);
		request.end(body);
	});
}

/** An answer as sent: its status, headers and text, and the text parsed when it is JSON. */
export interface RawAnswer {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	text: string;
	json?: Record<string, unknown>;
}

/**
 * One request over node:http exactly as given (POST by default), so that a test sees the answer's
 * headers as sent. With `chunked` the body goes in 64 KB chunks without a Content-Length, as a
 * streaming upload sends it.
 */
export function sendRaw(
	url: string,
	options: { method?: string; headers?: Record<string, string>; body?: Buffer | string; chunked?: boolean },
): Promise<RawAnswer> {
	return new Promise((resolve, reject) => {
		const body = options.body === undefined ? undefined : Buffer.from(options.body);
		const headers: Record<string, string> = { ...options.headers };
		if (body !== undefined && !options.chunked) headers['content-length'] = String(body.length);
		const request = httpRequest(url, { method: options.method ?? 'POST', headers }, (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				let json: Record<string, unknown> | undefined;
				try {
					json = JSON.parse(text) as Record<string, unknown>;
				} catch {
					json = undefined;
				}
				resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
			});
		});
		request.on('error', reject);
		if (body !== undefined && options.chunked) {
			for (let offset = 0; offset < body.length; offset += 64 * 1024) request.write(body.subarray(offset, offset + 64 * 1024));
			request.end();
		} else {
			request.end(body);
		}
	});
}
