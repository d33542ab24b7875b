/* eslint-disable @n8n/community-nodes/require-node-api-error -- tooling: its errors are not a
	node's */
import { recordType } from '../context';
import { ControlError, isObject, json, queryInteger, type Reply } from '../http';
import { validateFields } from '../recordFields';
import type { RecordTypeState, SandboxState } from '../state';

/** Control endpoints for record types: define one with its records, add fields, list what is stored. */

export function recordTypeSummary(type: RecordTypeState): Record<string, unknown> {
	return {
		id: type.id,
		name: type.name,
		fields: type.fields,
		keyField: type.keyField ?? null,
		recordCount: type.records.size,
	};
}

/** `POST /record-types`: {id, name?, fields, keyField?, records?}. */
export function defineRecordType(state: SandboxState, body: unknown): Reply {
	if (!isObject(body) || typeof body.id !== 'string' || body.id === '') throw new ControlError('A record type needs an "id" string');
	if (!Array.isArray(body.fields) || body.fields.some((field) => typeof field !== 'string' || field === '')) {
		throw new ControlError('"fields" must be a list of field names');
	}
	const fields = (body.fields as string[]).map((field) => field.normalize('NFC'));
	const keyField = typeof body.keyField === 'string' ? body.keyField.normalize('NFC') : undefined;
	if (keyField !== undefined && !fields.includes(keyField)) throw new ControlError(`keyField "${keyField}" is not one of the fields`);
	const records = body.records ?? [];
	if (!Array.isArray(records)) throw new ControlError('"records" must be a list of records');
	const type = state.defineRecordType({
		id: body.id,
		name: typeof body.name === 'string' ? body.name : body.id,
		fields,
		keyField,
		records: [],
	});
	const now = new Date().toISOString();
	records.forEach((record: unknown, index) => {
		try {
			type.create(validateFields(type, record, index), now);
		} catch (error) {
			throw new ControlError((error as Error).message);
		}
	});
	return json(200, recordTypeSummary(type));
}

/** `POST /record-types/:id/fields`: {fields: ["New field", ...]}; an unknown type is refused before the body is read. */
export async function addFields(state: SandboxState, recordTypeId: string, body: () => Promise<unknown>): Promise<Reply> {
	const type = recordType(state, recordTypeId);
	const input = await body();
	if (!isObject(input) || !Array.isArray(input.fields) || input.fields.some((f) => typeof f !== 'string' || f === '')) {
		throw new ControlError('Body must be {"fields": ["New field", ...]}');
	}
	type.addFields((input.fields as string[]).map((field) => field.normalize('NFC')));
	return json(200, recordTypeSummary(type));
}

/** `GET /records/:recordTypeId[?offset&limit]`: the stored records with the type's counters. */
export function listRecords(state: SandboxState, recordTypeId: string, query: URLSearchParams): Reply {
	const type = recordType(state, recordTypeId);
	const all = type.list();
	const offset = queryInteger(query, 'offset', 0, 0);
	const limit = queryInteger(query, 'limit', all.length, 0);
	return json(200, {
		recordTypeId: type.id,
		keyField: type.keyField ?? null,
		fields: type.fields,
		created: type.created,
		edited: type.edited,
		total: all.length,
		records: all.slice(offset, offset + limit),
	});
}
