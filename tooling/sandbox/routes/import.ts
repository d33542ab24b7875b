/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
import type * as http from 'node:http';

import { authenticate, recordType, type SandboxContext } from '../context';
import { decodeSegment, HttpError, isObject, json, methodNotAllowed, parseJsonBody, requireJsonContentType } from '../http';
import { identityOf, validateFields } from '../recordFields';
import type { FaultEffect } from '../faults';
import { type AnsweredRecord, renderBatchRefusal, renderImportAnswer } from '../importAnswers';
import type { SandboxState } from '../state';
import type { ApiRequest, ImportOutcome, RouteMatch } from './types';

/** §4.1 `POST /api/3p/import/{recordTypeId}`: create or edit records by key. */

export function importRoute(ctx: SandboxContext, { req, method, parts }: ApiRequest): RouteMatch | undefined {
	if (!(parts[0] === 'api' && parts[1] === '3p' && parts[2] === 'import' && parts.length === 4)) return undefined;
	const recordTypeId = decodeSegment(parts[3]);
	return {
		route: 'import',
		target: { route: 'import', method, recordTypeId },
		needsBody: true,
		handle: (body, context) => {
			if (method !== 'POST') throw methodNotAllowed('POST');
			context.importOutcome = importRecords(ctx.state, req, recordTypeId, body, context.effect);
			return context.importOutcome.reply;
		},
	};
}

function importRecords(
	state: SandboxState,
	req: http.IncomingMessage,
	recordTypeId: string,
	text: string,
	effect: FaultEffect | undefined,
): ImportOutcome {
	authenticate(state, req, 'import');
	const type = recordType(state, recordTypeId);
	requireJsonContentType(req);
	const body = parseJsonBody(text, 'Import');
	if (!isObject(body)) throw new HttpError(400, 'invalid_body', 'The body must be a JSON object {"data": [records]}');
	if (!('data' in body)) throw new HttpError(400, 'missing_data', 'The body has no "data" property; send {"data": [records]}');
	const data = body.data;
	if (!Array.isArray(data)) {
		throw new HttpError(400, 'invalid_data', `"data" must be an array of record objects (got ${data === null ? 'null' : typeof data})`);
	}
	const records = data.map((item, index) => validateFields(type, item, index));
	const sent = data.map((item) => identityOf(type, item));
	if (effect?.refuseBatch !== undefined) {
		// A fault (importOutcomeFaults.ts): the whole import fails, said at the top of a 200.
		const refusal = renderBatchRefusal(effect.refuseBatch, recordTypeId);
		return { reply: { status: 200, body: refusal.body }, records: records.length, keys: [], sent, processed: true };
	}
	const refuseRecord = effect?.refuseRecord;
	const now = new Date().toISOString();
	const results: Array<{ index: number; status: 'created' | 'edited' | 'error'; id?: string; message?: string }> = [];
	const keys: string[] = [];
	let created = 0;
	let edited = 0;
	records.forEach((fields, index) => {
		if (refuseRecord?.(index)) {
			// A fault (importOutcomeFaults.ts): the record is refused, the others are stored.
			results.push({ index, status: 'error', message: `Record ${index} was refused (fault injected by the sandbox)` });
			return;
		}
		const key = type.keyOf(fields);
		keys.push(key ?? JSON.stringify(fields));
		const existing = key === undefined ? undefined : type.findByKey(key);
		if (existing) {
			type.update(existing, fields, now);
			type.edited++;
			edited++;
			results.push({ index, status: 'edited', id: existing.id });
		} else {
			const record = type.create(fields, now);
			type.created++;
			created++;
			results.push({ index, status: 'created', id: record.id });
		}
	});
	state.stats.markStored(recordTypeId, keys);
	const refused = results.length - created - edited;
	if (effect?.answerShape !== undefined) {
		// A fault (importOutcomeFaults.ts): the answer in the shape of another back end, telling the same.
		const answered: AnsweredRecord[] = results.map((result, index) => ({
			stored: result.status !== 'error',
			...(result.status === 'error' ? { message: result.message } : { status: result.status, id: result.id }),
			key: type.keyOf(records[index]),
		}));
		const rendered = renderImportAnswer(effect.answerShape.shape, answered, type.keyField, effect.answerShape.random);
		const headers: Record<string, string> = rendered.contentType === undefined ? {} : { 'content-type': rendered.contentType };
		if (rendered.location !== undefined) headers.location = rendered.location;
		return { reply: { status: rendered.status, headers, body: rendered.body }, records: records.length, keys, sent, processed: true };
	}
	// The answer is a guess (guesses.ts); records refused by a fault are always listed.
	const reply =
		state.guesses.importAnswer === 'empty' && refused === 0
			? { status: 200, body: '' }
			: json(200, { status: refused > 0 ? 'partial' : 'ok', created, edited, results });
	return {
		reply,
		records: records.length,
		keys,
		sent,
		processed: true,
	};
}

/** Best effort count of the records in a body that was not processed, for the import log. */
export function describeUnprocessedImport(
	state: SandboxState,
	recordTypeId: string,
	text: string | undefined,
): { records: number; keys: string[]; sent: string[] } {
	if (text === undefined) return { records: 0, keys: [], sent: [] };
	try {
		const body = JSON.parse(text) as unknown;
		if (isObject(body) && Array.isArray(body.data)) {
			const type = state.recordTypes.get(recordTypeId);
			const sent = body.data.map((item: unknown) => identityOf(type, item));
			return { records: body.data.length, keys: sent, sent };
		}
	} catch {
		// An unreadable body simply has no records to log.
	}
	return { records: 0, keys: [], sent: [] };
}
