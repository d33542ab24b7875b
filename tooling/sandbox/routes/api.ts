import type { SandboxContext } from '../context';
import { clientsRoute, invoicesRoute } from './illustrative';
import { importRoute } from './import';
import { recordsRoute } from './records';
import { reportRoute } from './reports';
import type { ApiRequest, RouteMatch } from './types';

/** The Records API's routes (spec §4): which one a request is for, and how it is handled. */

type RouteMatcher = (ctx: SandboxContext, request: ApiRequest) => RouteMatch | undefined;

const ROUTES: RouteMatcher[] = [importRoute, reportRoute, clientsRoute, invoicesRoute, recordsRoute];

export function matchApi(ctx: SandboxContext, request: ApiRequest): RouteMatch | undefined {
	for (const route of ROUTES) {
		const match = route(ctx, request);
		if (match) return match;
	}
	return undefined;
}
