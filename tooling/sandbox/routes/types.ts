/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
/** The shapes the sandbox's API routes share: a request as the matchers see it, and a match. */
import type * as http from 'node:http';

import type { FaultEffect, FaultTarget } from '../faults';
import type { Reply } from '../http';

/** What an import request did: its reply, and the records it carried and stored. */
export interface ImportOutcome {
	reply: Reply;
	records: number;
	keys: string[];
	/** Every record of the request, stored or not (identityOf). */
	sent: string[];
	processed: boolean;
}

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
