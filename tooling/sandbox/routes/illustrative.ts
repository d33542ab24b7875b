/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
import type * as http from 'node:http';

import { authenticate, type SandboxContext } from '../context';
import { HttpError, isObject, json, methodNotAllowed, parseJsonBody, queryInteger, requireJsonContentType, type Reply } from '../http';
import type { SandboxState } from '../state';
import type { ApiRequest, RouteMatch } from './types';

/** §4.4 illustrative endpoints: clients (`/api/v1/clients` and `/clients`) and invoices. */

export function clientsRoute(ctx: SandboxContext, { req, method, parts, query }: ApiRequest): RouteMatch | undefined {
	const listed = parts.length === 3 && parts[0] === 'api' && parts[1] === 'v1' && parts[2] === 'clients';
	const illustrative = parts.length === 1 && parts[0] === 'clients';
	if (!listed && !illustrative) return undefined;
	return {
		route: 'clients',
		target: { route: 'clients', method },
		needsBody: false,
		handle: () => {
			if (method !== 'GET') throw methodNotAllowed('GET');
			if (!illustrative) return listClients(ctx.state, req, query);
			authenticate(ctx.state, req);
			return json(200, { clients: ctx.state.clients.map(({ id, name }) => ({ id, name })) });
		},
	};
}

export function invoicesRoute(ctx: SandboxContext, { req, method, parts }: ApiRequest): RouteMatch | undefined {
	if (!(parts.length === 1 && parts[0] === 'invoices')) return undefined;
	return {
		route: 'invoices',
		target: { route: 'invoices', method },
		needsBody: method === 'POST',
		handle: (body) => {
			if (method === 'GET') {
				authenticate(ctx.state, req);
				return json(200, { invoices: ctx.state.invoices });
			}
			if (method !== 'POST') throw methodNotAllowed('GET, POST');
			return createInvoice(ctx.state, req, body);
		},
	};
}

function listClients(state: SandboxState, req: http.IncomingMessage, query: URLSearchParams): Reply {
	authenticate(state, req);
	const status = query.get('status');
	const offset = queryInteger(query, 'offset', 0, 0);
	const limit = queryInteger(query, 'limit', 100, 1);
	const matching = status === null || status === '' ? state.clients : state.clients.filter((c) => c.status === status);
	return json(200, {
		data: matching.slice(offset, offset + limit).map(({ id, name, revenue }) => ({ id, name, revenue })),
		total: matching.length,
	});
}

function createInvoice(state: SandboxState, req: http.IncomingMessage, text: string): Reply {
	authenticate(state, req);
	requireJsonContentType(req);
	const body = parseJsonBody(text, 'Invoice');
	if (!isObject(body)) throw new HttpError(400, 'invalid_body', 'The body must be a JSON object');
	const invalid = (field: string, expected: string): HttpError =>
		new HttpError(400, 'invalid_field', `"${field}" must be ${expected} (got ${JSON.stringify(body[field]) ?? 'nothing'})`, { field });
	const clientId = body.client_id;
	if (typeof clientId !== 'number' || !Number.isInteger(clientId)) throw invalid('client_id', 'an integer');
	if (!state.clients.some((c) => c.id === clientId)) {
		throw new HttpError(400, 'invalid_field', `"client_id" ${clientId} is not a known client`, { field: 'client_id' });
	}
	const amount = body.amount;
	if (typeof amount !== 'number' || !Number.isFinite(amount)) throw invalid('amount', 'a number');
	const currency = body.currency;
	if (typeof currency !== 'string' || currency.trim() === '') throw invalid('currency', 'a non-empty string such as "CZK"');
	const due = body.due_date;
	if (typeof due !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(due) || Number.isNaN(Date.parse(due))) {
		throw invalid('due_date', 'a date string such as "2026-12-31"');
	}
	const unknown = Object.keys(body).filter((key) => !['client_id', 'amount', 'currency', 'due_date'].includes(key));
	if (unknown.length > 0) {
		throw new HttpError(400, 'unknown_field', `Unknown invoice field(s): ${unknown.join(', ')}. Known: client_id, amount, currency, due_date`, {
			field: unknown[0],
		});
	}
	const invoice = state.addInvoice({ client_id: clientId, amount, currency, due_date: due });
	return json(201, invoice);
}
