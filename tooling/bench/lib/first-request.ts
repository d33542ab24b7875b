/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * When an operation's first HTTP request leaves: Node.js announces every client request it starts on
 * the `http.client.request.start` diagnostics channel, whichever client makes it (axios in the raw
 * client, n8n's HTTP helper in the node), so the measuring process sees it without changing either.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';

const REQUEST_START = 'http.client.request.start';

/**
 * Runs the operation; `firstRequestMs` is the time from its start to its first request, and
 * `firstRequestAt` when that was (ms since the epoch, as n8n's run data gives a node's start), if it
 * made one.
 */
export async function withFirstRequestTime<T>(
	operation: () => Promise<T>,
): Promise<{ result: T; firstRequestMs?: number; firstRequestAt?: number }> {
	const started = performance.now();
	let first: number | undefined;
	const onRequest = () => {
		first ??= performance.now();
	};
	subscribe(REQUEST_START, onRequest);
	try {
		const result = await operation();
		if (first === undefined) return { result };
		return { result, firstRequestMs: first - started, firstRequestAt: performance.timeOrigin + first };
	} finally {
		unsubscribe(REQUEST_START, onRequest);
	}
}
