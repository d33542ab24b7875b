import type { SandboxGuesses } from './guesses';
import type { Sandbox } from './server';

/**
 * The Records service's side, as the integration and end-to-end tests drive it: the sandbox's
 * control endpoints (`/__sandbox/...`) and its outbound "call API" actions and webhooks (spec §4.3,
 * §6). Every request fails the test when the sandbox refuses it, so a mistyped fault rule or record
 * type cannot pass unnoticed.
 */

async function sendJson<T>(method: 'POST' | 'DELETE', url: string, body?: unknown): Promise<T> {
	const response = await fetch(url, {
		method,
		...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
	return JSON.parse(text) as T;
}

/** A control request, e.g. defining a report, appending rows to it, adding a record type or a fault rule. */
export async function control<T = unknown>(sandbox: Sandbox, path: string, body: unknown): Promise<T> {
	return await sendJson<T>('POST', `${sandbox.baseUrl}/__sandbox${path}`, body);
}

/** Adds fault rules (`POST /__sandbox/faults`, see README.md). */
export async function addFaults(sandbox: Sandbox, ...rules: Array<Record<string, unknown>>): Promise<void> {
	await control(sandbox, '/faults', rules);
}

/** Sets the behaviours the guide does not define (`POST /__sandbox/guesses`, guesses.ts): "guess", "guide" or some settings. */
export async function setGuesses(sandbox: Sandbox, guesses: 'guess' | 'guide' | Partial<SandboxGuesses>): Promise<SandboxGuesses> {
	return await control<SandboxGuesses>(sandbox, '/guesses', guesses);
}

/** Removes every fault rule. */
export async function clearFaults(sandbox: Sandbox): Promise<void> {
	await sendJson('DELETE', `${sandbox.baseUrl}/__sandbox/faults`);
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

/** The service performs a workflow "call API" action (see README.md for the fields). */
export async function callApi(sandbox: Sandbox, action: Record<string, unknown>): Promise<CallOutcome> {
	return await sendJson<CallOutcome>('POST', `${sandbox.baseUrl}/__sandbox/outbound/call`, action);
}

/** The service sends a webhook (default body: the `invoice.paid` event of spec §6). */
export async function sendWebhook(sandbox: Sandbox, webhook: Record<string, unknown>): Promise<WebhookOutcome> {
	return await sendJson<WebhookOutcome>('POST', `${sandbox.baseUrl}/__sandbox/outbound/webhook`, webhook);
}

/** A stored record's fields, as the service holds them after imports and mapped answers. */
export function storedFields(sandbox: Sandbox, recordTypeId: string, key: string): Record<string, unknown> {
	const record = sandbox.state.findRecordByKey(recordTypeId, key);
	if (!record) throw new Error(`The sandbox holds no ${recordTypeId} record with the key ${key}`);
	return { ...record.fields };
}
