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
