/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
import type * as http from 'node:http';

import { authenticate, recordType, type SandboxContext } from '../context';
import { decodeSegment, HttpError, json, methodNotAllowed, parseJsonBody, queryInteger, requireJsonContentType, type Reply } from '../http';
import { validateFields } from '../recordFields';
import type { RecordTypeState, StoredRecord } from '../state';
import type { ApiRequest, RouteMatch } from './types';

/** Sandbox-only CRUD over all records: `/api/v1/records/{recordTypeId}[/{recordId}]`. */

export function recordsRoute(ctx: SandboxContext, { req, method, parts, query }: ApiRequest): RouteMatch | undefined {
	if (!(parts[0] === 'api' && parts[1] === 'v1' && parts[2] === 'records' && (parts.length === 4 || parts.length === 5))) return undefined;
	const recordTypeId = decodeSegment(parts[3]);
	const recordId = parts.length === 5 ? decodeSegment(parts[4]) : undefined;
	return {
		route: 'records',
		target: { route: 'records', method, recordTypeId },
		needsBody: method === 'POST' || method === 'PUT',
		handle: (body) => {
			const allowed = recordId === undefined ? ['GET', 'POST'] : ['GET', 'PUT', 'DELETE'];
			if (!allowed.includes(method)) throw methodNotAllowed(allowed.join(', '));
			authenticate(ctx.state, req, method === 'GET' ? undefined : 'import');
			const type = recordType(ctx.state, recordTypeId);
			return recordId === undefined ? allRecords(req, method, type, query, body) : oneRecord(req, method, type, recordId, body);
		},
	};
}

function recordJson(record: StoredRecord): Record<string, unknown> {
	return { id: record.id, fields: record.fields, createdAt: record.createdAt, updatedAt: record.updatedAt };
}

/** GET lists a page of the type's records; POST creates one (409 when its key exists). */
function allRecords(req: http.IncomingMessage, method: string, type: RecordTypeState, query: URLSearchParams, text: string): Reply {
	if (method === 'GET') {
		const offset = queryInteger(query, 'offset', 0, 0);
		const limit = queryInteger(query, 'limit', 100, 1);
		const all = type.list();
		return json(200, { data: all.slice(offset, offset + limit).map(recordJson), total: all.length });
	}
	requireJsonContentType(req);
	const fields = validateFields(type, parseJsonBody(text, 'Record'));
	const key = type.keyOf(fields);
	if (key !== undefined && type.findByKey(key)) {
		throw new HttpError(409, 'duplicate_key', `A record with ${type.keyField} "${key}" already exists`);
	}
	const record = type.create(fields, new Date().toISOString());
	type.created++;
	return json(201, recordJson(record));
}

/** GET, PUT (replace the given fields) or DELETE one record. */
function oneRecord(req: http.IncomingMessage, method: string, type: RecordTypeState, recordId: string, text: string): Reply {
	const record = type.records.get(recordId);
	if (!record) throw new HttpError(404, 'record_not_found', `Record "${recordId}" does not exist in "${type.id}"`);
	if (method === 'GET') return json(200, recordJson(record));
	if (method === 'DELETE') {
		type.delete(record.id);
		return json(200, { id: record.id, deleted: true });
	}
	requireJsonContentType(req);
	const fields = validateFields(type, parseJsonBody(text, 'Record'));
	type.update(record, fields, new Date().toISOString());
	type.edited++;
	return json(200, recordJson(record));
}
