/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A pass-through proxy in front of the sandbox that counts how many requests were in flight at once. */
export interface ConcurrencyProbe {
	baseUrl: string;
	/** The most requests that were open at the same moment since the last reset. */
	maxInFlight(): number;
	reset(): void;
	close(): Promise<void>;
}

export async function startConcurrencyProbe(targetBaseUrl: string): Promise<ConcurrencyProbe> {
	let inFlight = 0;
	let maxInFlight = 0;
	const server: Server = createServer((incoming, outgoing) => {
		inFlight++;
		maxInFlight = Math.max(maxInFlight, inFlight);
		outgoing.once('close', () => inFlight--);
		const upstream = request(
			`${targetBaseUrl}${incoming.url ?? '/'}`,
			{ method: incoming.method, headers: incoming.headers },
			(answer) => {
				outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(outgoing);
			},
		);
		upstream.once('error', () => outgoing.destroy());
		incoming.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		maxInFlight: () => maxInFlight,
		reset: () => {
			maxInFlight = inFlight;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
