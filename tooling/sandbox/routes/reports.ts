import type * as http from 'node:http';

import { authenticate, type SandboxContext } from '../context';
import type { FaultEffect } from '../faults';
import { decodeSegment, HttpError, methodNotAllowed, queryInteger, type Reply } from '../http';
import type { SandboxState } from '../state';
import type { ApiRequest, RouteMatch } from './api';

/** §4.2 `GET /api/analysis/reports/{reportId}/data/table`: one page of the rows the token's user may see. */

export function reportRoute(ctx: SandboxContext, { req, method, parts, query }: ApiRequest): RouteMatch | undefined {
	const isReportTable =
		parts[0] === 'api' && parts[1] === 'analysis' && parts[2] === 'reports' && parts.length === 6 && parts[4] === 'data' && parts[5] === 'table';
	if (!isReportTable) return undefined;
	const reportId = decodeSegment(parts[3]);
	return {
		route: 'report',
		target: { route: 'report', method, reportId },
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
	if (effect?.limitCap !== undefined) limit = Math.min(limit, effect.limitCap);
	if (effect?.maxLimit !== undefined && limit > effect.maxLimit) {
		// Which status says so is a guess (guesses.ts): 400, or the guide's only error, 500.
		if (state.guesses.tooLargeLimitStatus === 500) throw new HttpError(500, 'internal_error', 'Internal server error');
		throw new HttpError(400, 'invalid_limit', `limit must be at most ${effect.maxLimit}`);
	}
	const visible = report.visibleTo(user);
	const page = visible.json.slice(offset, offset + limit);
	return { status: 200, body: `{"columns":${report.columnsJson},"rows":[${page.join(',')}]}` };
}
