/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `clearTimeout`, `setTimeout`) */
import * as http from 'node:http';
import * as https from 'node:https';
import { ControlError, isObject } from './http';
import { DEFAULT_WEBHOOK_PAYLOAD, type FieldValue } from './seeds';
import type { SandboxState, StoredRecord } from './state';
import { escapeXml, parseXml, toXml } from './xml';

/** The service's outbound "call API" action (spec §4.3) and webhooks (spec §6), driven by tests. */


export type OutboundAuth =
	| { type: 'none' }
	| { type: 'basic'; username: string; password: string }
	| { type: 'oauth2'; accessToken: string };

export interface OutboundHeader {
	name: string;
	value: string;
}

export interface OutboundCallInput {
	url: string;
	method: 'PING' | 'GET' | 'POST' | 'PUT' | 'DELETE';
	format: 'json' | 'xml';
	headers: OutboundHeader[];
	auth: OutboundAuth;
	contentType?: string;
	body?: string | Record<string, unknown> | unknown[];
	/** Sent as is, without templating or serialisation (for malformed-body tests). */
	rawBody?: string;
	xmlRoot: string;
	timeoutSeconds: number;
	recordTypeId?: string;
	recordKey?: string;
	recordId?: string;
	variables: Record<string, string>;
	mapping: Array<{ from: string; to: string }>;
	/** How a PING is sent: HEAD (default) or GET; both carry the header `X-Records-Ping: 1`. */
	pingMethod: 'HEAD' | 'GET';
}

export interface HttpOutcome {
	ok: boolean;
	status?: number;
	headers?: Record<string, string | string[] | undefined>;
	body?: string;
	durationMs: number;
	error?: string;
}

const USER_AGENT = 'RecordsSandbox/1.0 (workflow call API)';


function requireString(raw: Record<string, unknown>, key: string, optional = false): string | undefined {
	const value = raw[key];
	if (value === undefined && optional) return undefined;
	if (typeof value !== 'string' || value === '') throw new ControlError(`"${key}" must be a non-empty string`);
	return value;
}

function parseHeaders(value: unknown): OutboundHeader[] {
	if (value === undefined) return [];
	if (isObject(value)) return Object.entries(value).map(([name, v]) => ({ name, value: String(v) }));
	if (!Array.isArray(value)) throw new ControlError('"headers" must be a list of {name, value} (or an object)');
	return value.map((header: unknown, index) => {
		if (!isObject(header) || typeof header.name !== 'string' || header.value === undefined) {
			throw new ControlError(`headers[${index}] must be {name, value}`);
		}
		return { name: header.name, value: String(header.value) };
	});
}

function parseAuth(value: unknown): OutboundAuth {
	if (value === undefined) return { type: 'none' };
	if (!isObject(value)) throw new ControlError('"auth" must be an object');
	const type = typeof value.type === 'string' ? value.type.toLowerCase() : '';
	if (type === 'none' || type === '') return { type: 'none' };
	if (type === 'basic') {
		if (typeof value.username !== 'string' || typeof value.password !== 'string') {
			throw new ControlError('auth type "basic" needs "username" and "password" strings');
		}
		return { type: 'basic', username: value.username, password: value.password };
	}
	if (type === 'oauth2') {
		if (typeof value.accessToken !== 'string' || value.accessToken === '') {
			throw new ControlError('auth type "oauth2" needs an "accessToken" string');
		}
		return { type: 'oauth2', accessToken: value.accessToken };
	}
	throw new ControlError('auth.type must be "none", "basic" or "oauth2"');
}

export function parseOutboundCall(input: unknown): OutboundCallInput {
	if (!isObject(input)) throw new ControlError('Body must be a JSON object');
	const url = requireString(input, 'url') as string;
	const method = (typeof input.method === 'string' ? input.method.toUpperCase() : 'POST') as OutboundCallInput['method'];
	if (!['PING', 'GET', 'POST', 'PUT', 'DELETE'].includes(method)) {
		throw new ControlError('"method" must be PING, GET, POST, PUT or DELETE');
	}
	const format = (typeof input.format === 'string' ? input.format.toLowerCase() : 'json') as 'json' | 'xml';
	if (format !== 'json' && format !== 'xml') throw new ControlError('"format" must be "json" or "xml"');
	const body = input.body;
	if (body !== undefined && typeof body !== 'string' && typeof body !== 'object') {
		throw new ControlError('"body" must be a string template or a JSON object');
	}
	if (input.rawBody !== undefined && typeof input.rawBody !== 'string') throw new ControlError('"rawBody" must be a string');
	const timeoutSeconds = input.timeoutSeconds ?? 60;
	if (typeof timeoutSeconds !== 'number' || !(timeoutSeconds > 0)) {
		throw new ControlError('"timeoutSeconds" must be a positive number');
	}
	const variables: Record<string, string> = {};
	if (input.variables !== undefined) {
		if (!isObject(input.variables)) throw new ControlError('"variables" must be an object');
		for (const [name, value] of Object.entries(input.variables)) variables[name] = String(value);
	}
	const mapping: Array<{ from: string; to: string }> = [];
	if (input.mapping !== undefined) {
		if (!Array.isArray(input.mapping)) throw new ControlError('"mapping" must be a list of {from, to}');
		input.mapping.forEach((entry: unknown, index) => {
			if (!isObject(entry) || typeof entry.from !== 'string' || typeof entry.to !== 'string') {
				throw new ControlError(`mapping[${index}] must be {from: "response.path", to: "Field name"}`);
			}
			mapping.push({ from: entry.from, to: entry.to.normalize('NFC') });
		});
	}
	const pingMethod = input.pingMethod === undefined ? 'HEAD' : String(input.pingMethod).toUpperCase();
	if (pingMethod !== 'HEAD' && pingMethod !== 'GET') throw new ControlError('"pingMethod" must be HEAD or GET');
	return {
		url,
		method,
		format,
		headers: parseHeaders(input.headers),
		auth: parseAuth(input.auth),
		contentType: requireString(input, 'contentType', true),
		body: body as OutboundCallInput['body'],
		rawBody: input.rawBody as string | undefined,
		xmlRoot: requireString(input, 'xmlRoot', true) ?? 'record',
		timeoutSeconds,
		recordTypeId: requireString(input, 'recordTypeId', true),
		recordKey: input.recordKey === undefined ? undefined : String(input.recordKey),
		recordId: input.recordId === undefined ? undefined : String(input.recordId),
		variables,
		mapping,
		pingMethod,
	};
}

const VARIABLE = /#\(([^()]+)\)/g;

/** Replaces every `#(NAME)`; an unknown name is an error listing the known ones. */
export function substituteVariables(
	template: string,
	variables: Record<string, string>,
	encode: (value: string) => string,
	where: string,
): string {
	return template.replace(VARIABLE, (_match, name: string) => {
		const key = name.normalize('NFC');
		if (!(key in variables)) {
			throw new ControlError(
				`Unknown variable #(${name}) in ${where}. Known: ${Object.keys(variables).join(', ') || '(none)'}`,
			);
		}
		return encode(variables[key]);
	});
}

function substituteDeep(value: unknown, variables: Record<string, string>): unknown {
	if (typeof value === 'string') return substituteVariables(value, variables, (v) => v, 'body');
	if (Array.isArray(value)) return value.map((item) => substituteDeep(item, variables));
	if (isObject(value)) {
		const result: Record<string, unknown> = {};
		for (const [key, item] of Object.entries(value)) result[key] = substituteDeep(item, variables);
		return result;
	}
	return value;
}

/** Follows `a.b.0.c` or `a.b[0].c` through parsed JSON or XML. */
export function readPath(value: unknown, path: string): unknown {
	const parts = path
		.replace(/\[(\d+)\]/g, '.$1')
		.split('.')
		.filter((part) => part !== '');
	let current: unknown = value;
	for (const part of parts) {
		if (Array.isArray(current)) {
			current = /^\d+$/.test(part) ? current[Number(part)] : undefined;
		} else if (isObject(current)) {
			current = current[part];
		} else {
			return undefined;
		}
		if (current === undefined) return undefined;
	}
	return current;
}

/** Sends one HTTP request; never throws: failures come back as `ok: false` with `error`. */
export function sendHttp(
	method: string,
	url: string,
	headers: Record<string, string>,
	body: Buffer | undefined,
	timeoutMs: number,
): Promise<HttpOutcome> {
	const started = performance.now();
	const elapsed = (): number => Math.round((performance.now() - started) * 10) / 10;
	return new Promise((resolve) => {
		let target: URL;
		try {
			target = new URL(url);
		} catch {
			resolve({ ok: false, durationMs: 0, error: `Invalid URL: ${url}` });
			return;
		}
		const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : undefined;
		if (!client) {
			resolve({ ok: false, durationMs: 0, error: `Unsupported protocol ${target.protocol}` });
			return;
		}
		let settled = false;
		const finish = (outcome: HttpOutcome): void => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			resolve(outcome);
		};
		const requestHeaders: Record<string, string> = { ...headers };
		if (body !== undefined) requestHeaders['content-length'] = String(body.length);
		const request = client.request(target, { method, headers: requestHeaders, agent: false }, (response) => {
			const chunks: Buffer[] = [];
			response.on('data', (chunk: Buffer) => chunks.push(chunk));
			response.on('end', () => {
				const status = response.statusCode ?? 0;
				finish({
					ok: status >= 200 && status < 300,
					status,
					headers: response.headers,
					body: Buffer.concat(chunks).toString('utf8'),
					durationMs: elapsed(),
				});
			});
			response.on('error', (error) => finish({ ok: false, status: response.statusCode, durationMs: elapsed(), error: error.message }));
		});
		const timer = setTimeout(() => {
			finish({ ok: false, durationMs: elapsed(), error: 'timeout' });
			request.destroy();
		}, timeoutMs);
		request.on('error', (error: NodeJS.ErrnoException) =>
			finish({ ok: false, durationMs: elapsed(), error: error.code ?? error.message }),
		);
		request.end(body);
	});
}

function authHeader(auth: OutboundAuth): string | undefined {
	if (auth.type === 'basic') return `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`;
	if (auth.type === 'oauth2') return `Bearer ${auth.accessToken}`;
	return undefined;
}

function stringFields(fields: Record<string, FieldValue>): Record<string, string> {
	const result: Record<string, string> = {};
	for (const [name, value] of Object.entries(fields)) result[name] = String(value);
	return result;
}

function findRecord(state: SandboxState, input: OutboundCallInput): StoredRecord | undefined {
	if (input.recordTypeId === undefined) {
		if (input.recordKey !== undefined || input.recordId !== undefined) {
			throw new ControlError('"recordKey"/"recordId" need "recordTypeId"');
		}
		return undefined;
	}
	const type = state.recordTypes.get(input.recordTypeId);
	if (!type) throw new ControlError(`Record type "${input.recordTypeId}" does not exist`);
	const record =
		input.recordId !== undefined
			? type.records.get(input.recordId)
			: input.recordKey !== undefined
				? type.findByKey(input.recordKey)
				: undefined;
	if (!record) {
		throw new ControlError(
			`No record ${input.recordId !== undefined ? `with id "${input.recordId}"` : `with key "${input.recordKey ?? ''}"`} in "${input.recordTypeId}" (give recordKey or recordId)`,
		);
	}
	for (const entry of input.mapping) {
		if (!type.fieldSet.has(entry.to)) {
			throw new ControlError(`Mapping target "${entry.to}" is not a field of "${type.id}". Known: ${type.fields.join(', ')}`);
		}
	}
	return record;
}

function parseResponse(outcome: HttpOutcome, format: 'json' | 'xml'): { parsed: unknown; parseError?: string } {
	if (outcome.body === undefined || outcome.body === '') return { parsed: null };
	const contentType = String(outcome.headers?.['content-type'] ?? '').toLowerCase();
	const asXml = contentType.includes('xml') || (!contentType.includes('json') && format === 'xml');
	try {
		return { parsed: asXml ? parseXml(outcome.body) : (JSON.parse(outcome.body) as unknown) };
	} catch (error) {
		return { parsed: null, parseError: (error as Error).message };
	}
}

/** One line of the outbound log (`GET /__sandbox/outbound/log`) for a call or webhook the sandbox sent. */
function logOutbound(state: SandboxState, kind: 'call' | 'webhook', method: string, url: string, outcome: HttpOutcome): void {
	state.outboundLog.push({
		at: new Date().toISOString(),
		kind,
		method,
		url,
		status: outcome.status,
		ok: outcome.ok,
		error: outcome.error,
		durationMs: outcome.durationMs,
	});
}

/** Performs the "call API" action and maps the response into the record. */
export async function performOutboundCall(state: SandboxState, input: OutboundCallInput): Promise<Record<string, unknown>> {
	const record = findRecord(state, input);
	const variables: Record<string, string> = {
		...(record ? { ID: record.id, ...stringFields(record.fields) } : {}),
		...input.variables,
	};
	const url = substituteVariables(input.url, variables, encodeURIComponent, 'url');
	const headers: Record<string, string> = {
		'user-agent': USER_AGENT,
		accept: input.format === 'xml' ? 'application/xml, text/xml;q=0.9, */*;q=0.1' : 'application/json, */*;q=0.1',
	};
	const authorization = authHeader(input.auth);
	if (authorization !== undefined) headers.authorization = authorization;
	for (const header of input.headers) {
		headers[header.name.toLowerCase()] = substituteVariables(header.value, variables, (v) => v, `header ${header.name}`);
	}

	let method: string = input.method;
	let payload: string | undefined;
	if (input.method === 'PING') {
		method = input.pingMethod;
		headers['x-records-ping'] = '1';
	} else if (input.rawBody !== undefined) {
		payload = input.rawBody;
	} else {
		let body = input.body;
		if (body === undefined && record && (input.method === 'POST' || input.method === 'PUT')) body = { ...record.fields };
		if (typeof body === 'string') {
			const escape = input.format === 'xml' ? escapeXml : (v: string) => JSON.stringify(v).slice(1, -1);
			payload = substituteVariables(body, variables, escape, 'body');
		} else if (body !== undefined) {
			const resolved = substituteDeep(body, variables);
			payload = input.format === 'xml' ? toXml(input.xmlRoot, resolved) : JSON.stringify(resolved);
		}
	}
	if (payload !== undefined && headers['content-type'] === undefined) {
		headers['content-type'] =
			input.contentType ?? (input.format === 'xml' ? 'application/xml; charset=utf-8' : 'application/json; charset=utf-8');
	}

	const outcome = await sendHttp(
		method,
		url,
		headers,
		payload === undefined ? undefined : Buffer.from(payload, 'utf8'),
		input.timeoutSeconds * 1000,
	);
	const { parsed, parseError } = parseResponse(outcome, input.format);

	const mapped: Record<string, string> = {};
	const unmapped: string[] = [];
	if (outcome.ok && parsed !== null) {
		for (const entry of input.mapping) {
			let value = readPath(parsed, entry.from);
			// XML documents parse to {root: ...}; a path may leave out the root element.
			if (value === undefined && input.format === 'xml' && isObject(parsed)) {
				const [root] = Object.values(parsed);
				value = readPath(root, entry.from);
			}
			if (value === undefined) unmapped.push(entry.from);
			else mapped[entry.to] = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
		}
	} else {
		unmapped.push(...input.mapping.map((entry) => entry.from));
	}
	if (record && Object.keys(mapped).length > 0) {
		const type = state.recordTypes.get(input.recordTypeId as string);
		type?.update(record, mapped, new Date().toISOString());
	}

	logOutbound(state, 'call', method, url, outcome);

	return {
		ok: outcome.ok,
		status: outcome.status ?? null,
		request: { method, url, headers: redactHeaders(headers), body: payload ?? null },
		headers: outcome.headers ?? {},
		body: outcome.body ?? null,
		parsed,
		...(parseError !== undefined ? { parseError } : {}),
		mapped,
		unmapped,
		record: record ? { id: record.id, fields: record.fields } : null,
		durationMs: outcome.durationMs,
		...(outcome.error !== undefined ? { error: outcome.error } : {}),
	};
}

/** The request as sent, minus the credentials themselves. */
function redactHeaders(headers: Record<string, string>): Record<string, string> {
	const copy = { ...headers };
	if (copy.authorization !== undefined) copy.authorization = `${copy.authorization.split(' ')[0]} <redacted>`;
	return copy;
}

export interface WebhookInput {
	url: string;
	method: string;
	payload: Record<string, unknown>;
	rawBody?: string;
	contentType: string;
	headers: OutboundHeader[];
	auth: OutboundAuth;
	timeoutSeconds: number;
}

export function parseWebhook(input: unknown): WebhookInput {
	if (!isObject(input)) throw new ControlError('Body must be a JSON object');
	const url = requireString(input, 'url') as string;
	if (input.payload !== undefined && !isObject(input.payload)) throw new ControlError('"payload" must be an object');
	if (input.rawBody !== undefined && typeof input.rawBody !== 'string') throw new ControlError('"rawBody" must be a string');
	const timeoutSeconds = input.timeoutSeconds ?? 60;
	if (typeof timeoutSeconds !== 'number' || !(timeoutSeconds > 0)) {
		throw new ControlError('"timeoutSeconds" must be a positive number');
	}
	const payload: Record<string, unknown> = { ...DEFAULT_WEBHOOK_PAYLOAD };
	if (typeof input.event === 'string') payload.event = input.event;
	Object.assign(payload, input.payload ?? {});
	return {
		url,
		method: typeof input.method === 'string' ? input.method.toUpperCase() : 'POST',
		payload,
		rawBody: input.rawBody as string | undefined,
		contentType: requireString(input, 'contentType', true) ?? 'application/json; charset=utf-8',
		headers: parseHeaders(input.headers),
		auth: parseAuth(input.auth),
		timeoutSeconds,
	};
}

export async function sendWebhook(state: SandboxState, input: WebhookInput): Promise<Record<string, unknown>> {
	const payload = input.rawBody ?? JSON.stringify(input.payload);
	const headers: Record<string, string> = { 'user-agent': USER_AGENT, 'content-type': input.contentType };
	const authorization = authHeader(input.auth);
	if (authorization !== undefined) headers.authorization = authorization;
	for (const header of input.headers) headers[header.name.toLowerCase()] = header.value;
	const outcome = await sendHttp(input.method, input.url, headers, Buffer.from(payload, 'utf8'), input.timeoutSeconds * 1000);
	logOutbound(state, 'webhook', input.method, input.url, outcome);
	return {
		ok: outcome.ok,
		status: outcome.status ?? null,
		sent: input.rawBody === undefined ? input.payload : input.rawBody,
		headers: outcome.headers ?? {},
		body: outcome.body ?? null,
		durationMs: outcome.durationMs,
		...(outcome.error !== undefined ? { error: outcome.error } : {}),
	};
}
