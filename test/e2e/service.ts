import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Sandbox } from '../sandbox/server';

/**
 * The Records service's side of the end-to-end tests: the sandbox's control endpoints and its
 * outbound "call API" actions and webhooks (spec §4.3, §6), fired at a real n8n.
 */

async function postJson<T>(url: string, body: unknown): Promise<T> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${text}`);
	return JSON.parse(text) as T;
}

/** A control request (`/__sandbox/...`), e.g. defining a report or appending rows to it. */
export async function control<T = unknown>(sandbox: Sandbox, path: string, body: unknown): Promise<T> {
	return await postJson<T>(`${sandbox.baseUrl}/__sandbox${path}`, body);
}

/** What the sandbox reports after performing a call API action. */
export interface CallOutcome {
	ok: boolean;
	status: number | null;
	headers: Record<string, string>;
	body: string | null;
	parsed: unknown;
	mapped: Record<string, string>;
	unmapped: string[];
	error?: string;
}

/** What the sandbox reports after sending a webhook. */
export interface WebhookOutcome {
	ok: boolean;
	status: number | null;
	headers: Record<string, string>;
	body: string | null;
	error?: string;
}

export type ServiceAuth =
	| { type: 'none' }
	| { type: 'basic'; username: string; password: string }
	| { type: 'oauth2'; accessToken: string };

/** The service performs a workflow "call API" action (see test/sandbox/README.md for the fields). */
export async function callApi(sandbox: Sandbox, action: Record<string, unknown>): Promise<CallOutcome> {
	return await postJson<CallOutcome>(`${sandbox.baseUrl}/__sandbox/outbound/call`, action);
}

/** The service sends a webhook (default body: the `invoice.paid` event of spec §6). */
export async function sendWebhook(sandbox: Sandbox, webhook: Record<string, unknown>): Promise<WebhookOutcome> {
	return await postJson<WebhookOutcome>(`${sandbox.baseUrl}/__sandbox/outbound/webhook`, webhook);
}

/** A stored record's fields, as the service holds them after imports and mapped answers. */
export function storedFields(sandbox: Sandbox, recordTypeId: string, key: string): Record<string, unknown> {
	const record = sandbox.state.findRecordByKey(recordTypeId, key);
	if (!record) throw new Error(`The sandbox holds no ${recordTypeId} record with the key ${key}`);
	return { ...record.fields };
}

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
