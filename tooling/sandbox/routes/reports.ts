/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/require-node-api-error -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules); its errors are not a node's */
import type * as http from 'node:http';

import { authenticate, type SandboxContext } from '../context';
import type { FaultEffect, FaultRuleState, OverLimitAnswer, PastEndAnswer } from '../faults';
import { decodeSegment, HttpError, methodNotAllowed, queryInteger, type Reply } from '../http';
import { runRows, type SandboxReport } from '../reportState';
import type { SandboxState } from '../state';
import type { ApiRequest, RouteMatch } from './types';

/** §4.2 `GET /api/analysis/reports/{reportId}/data/table`: one page of the rows the token's user may see. */

export function reportRoute(ctx: SandboxContext, { req, method, parts, query }: ApiRequest): RouteMatch | undefined {
	const isReportTable =
		parts[0] === 'api' && parts[1] === 'analysis' && parts[2] === 'reports' && parts.length === 6 && parts[4] === 'data' && parts[5] === 'table';
	if (!isReportTable) return undefined;
	const reportId = decodeSegment(parts[3]);
	const offset = Number(query.get('offset') ?? 0);
	return {
		route: 'report',
		target: { route: 'report', method, reportId, offset: Number.isInteger(offset) ? offset : undefined },
		needsBody: false,
		handle: (_body, context) => {
			if (method !== 'GET') throw methodNotAllowed('GET');
			return readReport(ctx.state, req, reportId, query, context.effect);
		},
	};
}

function readReport(state: SandboxState, req: http.IncomingMessage, reportId: string, query: URLSearchParams, effect: FaultEffect | undefined): Reply {
	const { user } = authenticate(state, req, 'analysis');
	const report = state.reports.get(reportId);
	if (!report || !report.apiEnabled) {
		throw new HttpError(404, 'report_not_found', `Report "${reportId}" does not exist or is not available through the API`);
	}
	let offset = queryInteger(query, 'offset', 0, 0);
	let limit = queryInteger(query, 'limit', 100, 1);
	if (effect?.ignoreOffset) offset = 0;
	if (effect?.maxDepth !== undefined && offset + limit > effect.maxDepth) {
		throw new HttpError(400, 'result_window_too_large', `offset + limit must be at most ${effect.maxDepth}`);
	}
	if (effect?.limitCap !== undefined) limit = Math.min(limit, effect.limitCap);
	if (effect?.maxLimit !== undefined && limit > effect.maxLimit) {
		// Which status says so is a guess (guesses.ts): 400, or the guide's only error, 500.
		if (state.guesses.tooLargeLimitStatus === 500) throw new HttpError(500, 'internal_error', 'Internal server error');
		return overLimit(effect.overLimit ?? 400, effect.maxLimit);
	}
	let page = report.page(user, offset, limit);
	if (page.length === 0 && offset > 0 && effect?.pastEnd !== undefined) return pastEnd(effect.pastEnd, offset);
	if (effect?.pageBytes !== undefined) page = withinBytes(page, effect.pageBytes, report.columnsJson.length);
	for (const rule of effect?.insertRows ?? []) insertRows(report, rule);
	return { status: 200, body: `{"columns":${report.columnsJson},"rows":[${page.join(',')}]}` };
}

/** A `pageBytes` fault: the first rows whose answer stays within `bytes` (at least one row, however large). */
function withinBytes(page: string[], bytes: number, columnsLength: number): string[] {
	let size = `{"columns":,"rows":[]}`.length + columnsLength;
	let count = 0;
	for (const row of page) {
		size += Buffer.byteLength(row) + (count > 0 ? 1 : 0);
		if (count > 0 && size > bytes) break;
		count++;
	}
	return page.slice(0, count);
}

/** A `maxLimit` fault: how a service with a hard maximum answers a `limit` above it. */
function overLimit(answer: OverLimitAnswer, maxLimit: number): Reply {
	const message = `limit must be at most ${maxLimit}`;
	if (answer === 'errorObject') return { status: 200, body: JSON.stringify({ error: 'invalid_limit', message }) };
	throw new HttpError(answer, answer === 413 ? 'page_too_large' : 'invalid_limit', message);
}

/** A `pastEnd` fault: how a service that does not serve empty pages answers an offset past the last row. */
function pastEnd(answer: PastEndAnswer, offset: number): Reply {
	const message = `offset ${offset} is past the last row`;
	if (answer === 'errorObject') return { status: 200, body: JSON.stringify({ error: 'offset_out_of_range', message }) };
	throw new HttpError(answer, answer === 404 ? 'offset_out_of_range' : 'invalid_offset', message);
}

/**
 * An `insertRows` fault: new bank rows appear after this page was read, before the client asks for
 * the next one. A rule that cannot insert (a report of explicit rows, an index past the end) fails
 * the request, so a mistaken rule is seen rather than silently doing nothing.
 */
function insertRows(report: SandboxReport, rule: FaultRuleState): void {
	const { at, count } = rule.insertRows!;
	try {
		rule.inserted?.push(...runRows(report.addGenerated(count, at)));
	} catch (error) {
		throw new HttpError(500, 'fault_rule_failed', `Fault rule ${rule.id} could not insert rows: ${(error as Error).message}`);
	}
}
