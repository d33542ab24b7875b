/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
import type * as http from 'node:http';

import type { SandboxContext } from '../context';
import { createFaultRuleState, parseFaultRule, type FaultRuleState } from '../faults';
import { parseGuesses } from '../guesses';
import { ControlError, decodeSegment, HttpError, isObject, json, parseJsonBody, pathParts, readBody, type Reply } from '../http';
import { parseOutboundCall, parseWebhook, performOutboundCall, sendWebhook } from '../outbound';
import { replaceClients, addToken, addUser } from './controlAccess';
import { addFields, defineRecordType, listRecords, recordTypeSummary } from './controlRecordTypes';
import { appendRows, defineReport, reportSummary } from './controlReports';

/**
 * The sandbox's control endpoints (`/__sandbox/...`, no auth, see README.md): reset, define data,
 * inject faults, read stats and logs, and make the service's outbound calls.
 */

export interface ControlRequest {
	/** The path's `:name` segments, in order, percent-decoded. */
	params: string[];
	query: URLSearchParams;
	/** The JSON body; `{}` when empty. Read only by the routes that take one. */
	body(): Promise<unknown>;
}

type ControlHandler = (ctx: SandboxContext, request: ControlRequest) => Reply | Promise<Reply>;

const ok = (status: string): Reply => json(200, { status });

const summary = (ctx: SandboxContext): Record<string, unknown> => ({
	recordTypes: [...ctx.state.recordTypes.values()].map(recordTypeSummary),
	reports: [...ctx.state.reports.values()].map(reportSummary),
	users: [...ctx.state.users.values()],
	// With their values: the sandbox is a demo, and this page is where a user looks for them.
	tokens: [...ctx.state.tokens.values()].map(({ name, token, permissions, userId, validUntil }) => ({ name, token, permissions, userId, validUntil })),
});

/** A fault rule as the control API shows it: without its random source and its rate-limit counters. */
function shownFault(fault: FaultRuleState): Omit<FaultRuleState, 'rng' | 'windows'> {
	const shown: Omit<FaultRuleState, 'rng' | 'windows'> & Partial<FaultRuleState> = { ...fault };
	delete shown.rng;
	delete shown.windows;
	return shown;
}

function addFaults(ctx: SandboxContext, input: unknown): Reply {
	const list: unknown[] = Array.isArray(input) ? input : isObject(input) && Array.isArray(input.rules) ? input.rules : [input];
	const parsed = list.map((rule, index) => {
		const result = parseFaultRule(rule, index);
		if (typeof result === 'string') throw new ControlError(result);
		return result;
	});
	const added = parsed.map((rule) => createFaultRuleState(rule, ctx.nextFaultId()));
	ctx.state.faults.push(...added);
	return json(200, { faults: added.map(shownFault) });
}

/** `METHOD /path` with `:name` for a parameter segment, in the order they are tried. */
const CONTROL_ROUTES: Array<[string, ControlHandler]> = [
	['POST /reset', (ctx) => {
		ctx.state.seed();
		return ok('reset');
	}],
	['GET /', (ctx) => json(200, summary(ctx))],
	['GET /info', (ctx) => json(200, summary(ctx))],
	['GET /record-types', (ctx) => json(200, [...ctx.state.recordTypes.values()].map(recordTypeSummary))],
	['POST /record-types', async (ctx, r) => defineRecordType(ctx.state, await r.body())],
	['POST /record-types/:id/fields', (ctx, r) => addFields(ctx.state, r.params[0], r.body)],
	['GET /records/:recordTypeId', (ctx, r) => listRecords(ctx.state, r.params[0], r.query)],
	['GET /reports', (ctx) => json(200, [...ctx.state.reports.values()].map(reportSummary))],
	['POST /reports', async (ctx, r) => defineReport(ctx.state, await r.body())],
	['POST /reports/:id/rows', async (ctx, r) => appendRows(ctx.state, r.params[0], await r.body())],
	['POST /tokens', async (ctx, r) => addToken(ctx.state, await r.body())],
	['POST /users', async (ctx, r) => addUser(ctx.state, await r.body())],
	['POST /clients', async (ctx, r) => replaceClients(ctx.state, await r.body())],
	['GET /stats', (ctx) => json(200, ctx.state.stats.summary())],
	['POST /stats/reset', (ctx) => {
		ctx.state.stats.clear();
		return ok('reset');
	}],
	['GET /imports', (ctx) => json(200, ctx.state.stats.importLog)],
	['GET /faults', (ctx) => json(200, ctx.state.faults.map(shownFault))],
	['POST /faults', async (ctx, r) => addFaults(ctx, await r.body())],
	['DELETE /faults', (ctx) => {
		ctx.state.faults = [];
		return ok('cleared');
	}],
	['GET /guesses', (ctx) => json(200, ctx.state.guesses)],
	['POST /guesses', async (ctx, r) => {
		const guesses = parseGuesses(await r.body(), ctx.state.guesses);
		if (typeof guesses === 'string') throw new ControlError(guesses);
		ctx.state.guesses = guesses;
		return json(200, guesses);
	}],
	['POST /outbound/call', async (ctx, r) => json(200, await performOutboundCall(ctx.state, parseOutboundCall(await r.body())))],
	['POST /outbound/webhook', async (ctx, r) => json(200, await sendWebhook(ctx.state, parseWebhook(await r.body())))],
	['GET /outbound/log', (ctx) => json(200, ctx.state.outboundLog)],
];

/** The `:name` segments of `parts` when they fit the route's pattern, else undefined. */
function matchPattern(pattern: string[], parts: string[]): string[] | undefined {
	if (pattern.length !== parts.length) return undefined;
	const params: string[] = [];
	for (let index = 0; index < pattern.length; index++) {
		if (pattern[index].startsWith(':')) params.push(parts[index]);
		else if (pattern[index] !== parts[index]) return undefined;
	}
	return params;
}

const ROUTES = CONTROL_ROUTES.map(([route, handle]) => {
	const [method, path] = route.split(' ');
	return { method, pattern: pathParts(path), handle };
});

export async function handleControl(ctx: SandboxContext, req: http.IncomingMessage, method: string, path: string, query: URLSearchParams): Promise<Reply> {
	const parts = pathParts(path).slice(1).map(decodeSegment);
	const body = async (): Promise<unknown> => {
		const text = await readBody(req);
		return text.trim() === '' ? {} : parseJsonBody(text, 'Control request');
	};
	for (const route of ROUTES) {
		if (route.method !== method) continue;
		const params = matchPattern(route.pattern, parts);
		if (params) return route.handle(ctx, { params, query, body });
	}
	throw new HttpError(404, 'not_found', `No sandbox control endpoint ${method} /${parts.join('/')}; see tooling/sandbox/README.md`);
}
