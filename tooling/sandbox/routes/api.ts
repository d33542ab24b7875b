/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
import type * as http from 'node:http';

import type { SandboxContext } from '../context';
import type { FaultEffect, FaultTarget } from '../faults';
import type { Reply } from '../http';
import { clientsRoute, invoicesRoute } from './illustrative';
import { importRoute, type ImportOutcome } from './import';
import { recordsRoute } from './records';
import { reportRoute } from './reports';

/** The Records API's routes (spec §4): which one a request is for, and how it is handled. */

export type ApiRoute = FaultTarget['route'];

/** Per-request facts the route handlers share with the request handler. */
export interface RequestContext {
	effect: FaultEffect | undefined;
	importOutcome?: ImportOutcome;
}

export interface RouteMatch {
	route: ApiRoute;
	target: FaultTarget;
	needsBody: boolean;
	handle: (body: string, context: RequestContext) => Reply | Promise<Reply>;
}

/** One API request as the route matchers see it: `parts` are the path's raw (still encoded) segments. */
export interface ApiRequest {
	req: http.IncomingMessage;
	method: string;
	parts: string[];
	query: URLSearchParams;
}

type RouteMatcher = (ctx: SandboxContext, request: ApiRequest) => RouteMatch | undefined;

const ROUTES: RouteMatcher[] = [importRoute, reportRoute, clientsRoute, invoicesRoute, recordsRoute];

export function matchApi(ctx: SandboxContext, request: ApiRequest): RouteMatch | undefined {
	for (const route of ROUTES) {
		const match = route(ctx, request);
		if (match) return match;
	}
	return undefined;
}
