/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- tooling: runs in
	Node.js, not inside n8n (Node.js's modules, the console) */
import type * as http from 'node:http';

import type { SandboxContext } from './context';
import { faultKinds, resolveFaults, type FaultEffect } from './faults';
import type { SandboxGuesses } from './guesses';
import { errorReply, HttpError, pathParts, readBody, writeReply, type Reply } from './http';
import { matchApi } from './routes/api';
import type { RequestContext, RouteMatch } from './routes/types';
import { describeUnprocessedImport } from './routes/import';

/**
 * One Records API request: find its route, apply the fault rules that fire for it (latency, a
 * refused or failed answer, a reset, a slow or truncated reply), handle it, and count it in the
 * stats and the import log.
 */
export async function handleApi(
	ctx: SandboxContext,
	req: http.IncomingMessage,
	res: http.ServerResponse,
	method: string,
	path: string,
	query: URLSearchParams,
): Promise<void> {
	const { state, options } = ctx;
	const started = performance.now();
	const match = matchApi(ctx, { req, method, parts: pathParts(path), query });
	if (!match) {
		// Drain so the keep-alive connection stays usable.
		req.resume();
		const reply = errorReply(new HttpError(404, 'not_found', `No such endpoint: ${method} ${path}`), options.quiet);
		writeReply(res, reply);
		state.stats.countRequest('unknown', reply.status);
		return;
	}
	const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
	const effect = state.faults.length > 0 ? resolveFaults(state.faults, { ...match.target, token }) : undefined;
	if (effect) state.stats.countFault(effect.ruleIds.join('+'), faultKinds(effect));
	const context: RequestContext = { effect };
	const request: { text?: string } = {};
	const logImport = importLogger(ctx, match, context, request);
	if (effect?.reset && !effect.afterProcessing) {
		req.socket.destroy();
		state.stats.countRequest(match.route, 'reset');
		logImport('reset');
		return;
	}
	if (effect && effect.latencyMs > 0) await ctx.delay(effect.latencyMs);
	let reply: Reply;
	try {
		if (match.needsBody) request.text = await readBody(req);
		else req.resume();
		if (effect?.status !== undefined && !effect.afterProcessing) {
			throw faultError(effect, state.guesses);
		}
		reply = effect?.htmlPage && !effect.afterProcessing ? signInPage() : await match.handle(request.text ?? '', context);
	} catch (error) {
		reply = errorReply(error, options.quiet);
	}
	// Handled (when it succeeded) before failing the response: the service may have processed it.
	if (effect?.afterProcessing && effect.status !== undefined) reply = errorReply(faultError(effect, state.guesses), options.quiet);
	if (effect?.afterProcessing && effect.htmlPage) reply = signInPage();
	if (effect && effect.slowMs > 0) await ctx.delay(effect.slowMs);
	let status: number | 'reset';
	if (effect?.afterProcessing && effect.reset) {
		req.socket.destroy();
		status = 'reset';
	} else if (res.destroyed || req.socket.destroyed) {
		status = 'reset';
	} else {
		writeReply(res, reply, effect?.truncate);
		status = reply.status;
	}
	state.stats.countRequest(match.route, status);
	logImport(status);
	if (options.log) {
		const faults = effect ? ` faults ${effect.ruleIds.join('+')}: ${faultKinds(effect).join(', ')}` : '';
		console.log(`${method} ${path}${query.size > 0 ? `?${query.toString()}` : ''} -> ${status} ${Math.round(performance.now() - started)} ms${faults}`);
	}
}

/** Logs an import request's outcome (what was stored, or what the unprocessed body held); other routes log nothing. */
function importLogger(
	ctx: SandboxContext,
	match: RouteMatch,
	context: RequestContext,
	request: { text?: string },
): (status: number | 'reset') => void {
	if (match.route !== 'import') return () => undefined;
	const arrival = ++ctx.state.stats.importArrivals;
	const recordTypeId = match.target.recordTypeId ?? '';
	return (status) => {
		const outcome = context.importOutcome ?? { ...describeUnprocessedImport(ctx.state, recordTypeId, request.text), processed: false };
		ctx.state.stats.logImport({
			arrival,
			recordTypeId,
			records: outcome.records,
			keys: outcome.keys,
			sent: outcome.sent,
			processed: outcome.processed,
			status,
		});
	};
}

/** What a sign-in proxy or captive portal in front of the service answers (`htmlPage`): 200 and a page. */
function signInPage(): Reply {
	return {
		status: 200,
		headers: { 'content-type': 'text/html; charset=utf-8' },
		body: '<!DOCTYPE html>\n<html lang="en"><head><title>Sign in</title></head><body><form method="post" action="/sso/login"><h1>Sign in to continue</h1><input name="user"><input name="password" type="password"></form></body></html>',
	};
}

/** The error answer a fault rule's `status` injects. */
function faultError(effect: FaultEffect, guesses: SandboxGuesses): HttpError {
	const status = effect.status as number;
	const headers: Record<string, string> = {};
	const retryAfterGuessed = effect.rateLimited === true && guesses.rateLimitHeaders === 'none';
	if (effect.retryAfter !== undefined && !retryAfterGuessed) headers['retry-after'] = String(effect.retryAfter);
	const messages: Record<number, [string, string]> = {
		429: ['rate_limited', 'Too many requests; slow down'],
		500: ['internal_error', 'Internal server error'],
		502: ['bad_gateway', 'Bad gateway'],
		503: ['service_unavailable', 'Service temporarily unavailable'],
		504: ['gateway_timeout', 'Gateway timeout'],
	};
	const [code, message] = messages[status] ?? ['injected_error', `Error ${status}`];
	return new HttpError(status, code, `${message} (fault injected by the sandbox)`, {}, headers);
}
