/**
 * Answers a real back end can give to an import, each telling the truth about what it stored in its
 * own shape: the guide does not show the answer (§4.1), so Record → Import must read any of them. The
 * sandbox answers in one of these shapes with the `answerShape` fault option (importOutcomeFaults.ts),
 * the soak mixes them into its gateway run, and the answer-reading property test generates them.
 *
 * `plain` says whether the shape names every record's outcome so that a reader must decide each one;
 * otherwise a reader may call some outcomes unknown, but never call a refused record imported.
 */

export const IMPORT_ANSWER_SHAPES = [
	/** `{status, created, edited, results: [{index, status, id | message}]}`, numbered from 0 (the sandbox's guess). */
	'results',
	/** The same, numbered from 1. */
	'resultsFromOne',
	/** A list with one entry per record, in order, without numbers. */
	'resultsInOrder',
	/** `{status: "partial", imported, failed, errors: [{index, message}]}`: the refused records only, from 0. */
	'errors',
	/** The same, numbered from 1. */
	'errorsFromOne',
	/** `{failed: [{<key field>: value, message}]}`: the refused records only, by their key. */
	'errorsByKey',
	/** `{results: [{status: "error", message}]}`: the refused records only, without a number or key. */
	'errorsUnnumbered',
	/** `{errors: {"data.2.<field>": [message]}}`: paths into the request's data list. */
	'errorPaths',
	/** `{errors: ["Record 3: message"]}`: numbered from 1, in words. */
	'errorTexts',
	/** `{imported, failed}`: counts only. */
	'counts',
	/** The results wrapped: `{data: {result: {...}}}`. */
	'nested',
	/** The results as JSON, labelled `text/html` (a PHP back end's default header). */
	'jsonAsHtml',
	/** No body when every record was stored (the results otherwise). */
	'empty',
	/** 207 Multi-Status, `{results: [{index, status: 201 | 422, id | message}]}`: statuses as numbers, from 0. */
	'numericStatuses',
	/** A SCIM bulk answer (RFC 7644 §3.7): `Operations` in order, each with its status as text ("201", "400"). */
	'scimBulk',
	/** Per-record statuses in compound words: `created`, or `validation_error`, `not_created`, `rejected_duplicate`, … */
	'compoundStatuses',
	/** Results sorted failures first, each naming its record by its key field's value under `key`. */
	'sortedByKey',
	/** `{imported: [{id}, …]}`: the stored records only, without anything that names them. */
	'importedList',
	/** `{created: [{id, key}], updated: [{id, key}]}`: the stored records only, by their key. */
	'createdUpdated',
	/** 202 Accepted, `{jobId, status: "queued"}`: the service processes the batch later (the sandbox stores it at once). */
	'queued',
	/** 303 See Other to the import's result, as a service answers a processed POST. */
	'seeOther',
	/** 422 `{imported, failed, errors: [{index, message}]}` from 0 when a record was refused (200 otherwise). */
	'unprocessable',
] as const;

export type ImportAnswerShape = (typeof IMPORT_ANSWER_SHAPES)[number];

/** A 200 that says the whole import failed, at its top level; nothing is stored. */
export const BATCH_REFUSAL_SHAPES = ['successFalse', 'statusError', 'errorObject', 'importFailed', 'validationError'] as const;

export type BatchRefusalShape = (typeof BATCH_REFUSAL_SHAPES)[number];

/** One record of the request, and what the service did with it. */
export interface AnsweredRecord {
	stored: boolean;
	/** With `stored`: created or edited. */
	status?: 'created' | 'edited';
	id?: string;
	/** Without `stored`: why. */
	message?: string;
	/** The value of the record type's key field, when it has one. */
	key?: string;
}

export interface RenderedAnswer {
	status: number;
	contentType?: string;
	/** A redirect's target. */
	location?: string;
	body: string;
	plain: boolean;
}

const JSON_TYPE = 'application/json';

function shuffled<T>(list: T[], random: () => number): T[] {
	const copy = [...list];
	for (let i = copy.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[copy[i], copy[j]] = [copy[j], copy[i]];
	}
	return copy;
}

function results(records: AnsweredRecord[], from: 0 | 1, random: () => number): Record<string, unknown> {
	const created = records.filter((record) => record.status === 'created').length;
	const edited = records.filter((record) => record.status === 'edited').length;
	const refused = records.length - created - edited;
	const entries = records.map((record, index) =>
		record.stored
			? { index: index + from, status: record.status ?? 'created', id: record.id }
			: { index: index + from, status: 'error', message: record.message ?? 'refused' },
	);
	return { status: refused > 0 ? 'partial' : 'ok', created, edited, results: shuffled(entries, random) };
}

const refusedOf = (records: AnsweredRecord[]) =>
	records.flatMap((record, index) => (record.stored ? [] : [{ index, message: record.message ?? 'refused', key: record.key }]));

/** The answer of this shape to a request whose records fared as given. `keyField`: the record type's key field. */
export function renderImportAnswer(
	shape: ImportAnswerShape,
	records: AnsweredRecord[],
	keyField: string | undefined,
	random: () => number,
): RenderedAnswer {
	const refused = refusedOf(records);
	const size = records.length;
	const imported = size - refused.length;
	const json = (body: unknown, plain: boolean, contentType = JSON_TYPE, status = 200): RenderedAnswer => ({
		status,
		contentType,
		body: JSON.stringify(body),
		plain,
	});
	const stored = records.flatMap((record) => (record.stored ? [record] : []));
	const keyed = keyField !== undefined && records.every((record) => record.key !== undefined) && new Set(records.map((record) => record.key)).size === size;
	const partial = refused.length > 0 ? 'partial' : 'ok';
	switch (shape) {
		case 'results':
			return json(results(records, 0, random), true);
		case 'resultsFromOne':
			return json(results(records, 1, random), true);
		case 'resultsInOrder':
			return json(
				records.map((record) =>
					record.stored ? { status: record.status ?? 'created', id: record.id } : { success: false, error: record.message ?? 'refused' },
				),
				true,
			);
		case 'errors':
		case 'errorsFromOne': {
			const from = shape === 'errors' ? 0 : 1;
			const errors = refused.map((entry) => ({ index: entry.index + from, message: entry.message }));
			// Settled only by a number that fits one counting: 0 from 0, the batch size from 1.
			const settled = refused.length === 0 || refused.some((entry) => entry.index === (from === 0 ? 0 : size - 1));
			return json({ status: partial, imported, failed: refused.length, errors: shuffled(errors, random) }, settled);
		}
		case 'errorsByKey': {
			if (keyField === undefined || refused.some((entry) => entry.key === undefined)) return renderImportAnswer('errorsUnnumbered', records, keyField, random);
			const keys = records.map((record) => record.key);
			const unique = new Set(keys).size === keys.length;
			return json({ imported, failed: refused.map((entry) => ({ [keyField]: entry.key, message: entry.message })) }, unique);
		}
		case 'errorsUnnumbered':
			return json({ results: refused.map((entry) => ({ status: 'error', message: entry.message })) }, refused.length === 0);
		case 'errorPaths':
			return json(
				{ message: refused.length > 0 ? 'Some records are invalid' : 'OK', errors: Object.fromEntries(refused.map((entry) => [`data.${entry.index}.${keyField ?? 'record'}`, [entry.message]])) },
				true,
			);
		case 'errorTexts':
			return json(
				{ errors: refused.map((entry) => `Record ${entry.index + 1}: ${entry.message}`) },
				refused.length === 0 || refused.some((entry) => entry.index === size - 1),
			);
		case 'counts':
			return json({ imported, failed: refused.length }, refused.length === 0 || imported === 0);
		case 'nested':
			return json({ data: { result: results(records, 0, random) }, meta: { requestId: Math.floor(random() * 1e9).toString(36) } }, true);
		case 'jsonAsHtml':
			return json(results(records, 0, random), true, 'text/html; charset=UTF-8');
		case 'empty':
			return refused.length === 0 ? { status: 200, body: '', plain: true } : json(results(records, 0, random), true);
		case 'numericStatuses':
			return json(
				{
					results: shuffled(
						records.map((record, index) =>
							record.stored
								? { index, status: record.status === 'edited' ? 200 : 201, id: record.id }
								: { index, status: 422, message: record.message ?? 'refused' },
						),
						random,
					),
				},
				true,
				JSON_TYPE,
				207,
			);
		case 'scimBulk':
			return json(
				{
					schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkResponse'],
					Operations: records.map((record, index) =>
						record.stored
							? { method: 'POST', bulkId: `b${index}`, location: `/records/${record.id}`, status: record.status === 'edited' ? '200' : '201' }
							: { method: 'POST', bulkId: `b${index}`, status: '400', response: { scimType: 'invalidValue', detail: record.message ?? 'refused', status: '400' } },
					),
				},
				true,
			);
		case 'compoundStatuses': {
			const failures = ['validation_error', 'not_created', 'rejected_duplicate', 'DUPLICATE', 'ignored', 'import_failed', 'SKIPPED_INVALID'];
			return json(
				{
					results: records.map((record, index) =>
						record.stored
							? { index, status: record.status === 'edited' ? 'record_updated' : 'CREATED', id: record.id }
							: { index, status: failures[Math.floor(random() * failures.length)], message: record.message ?? 'refused' },
					),
				},
				true,
			);
		}
		case 'sortedByKey': {
			if (!keyed) return renderImportAnswer('errorsUnnumbered', records, keyField, random);
			const sorted = [...records].sort((a, b) => Number(a.stored) - Number(b.stored));
			return json(
				{ results: sorted.map((record) => (record.stored ? { key: record.key, status: record.status ?? 'created', id: record.id } : { key: record.key, status: 'error', message: record.message ?? 'refused' })) },
				true,
			);
		}
		case 'importedList':
			return json({ imported: stored.map((record) => ({ id: record.id })) }, refused.length === 0 || imported === 0);
		case 'createdUpdated': {
			const entry = (record: AnsweredRecord) => (keyed ? { id: record.id, key: record.key } : { id: record.id });
			return json(
				{ created: stored.filter((record) => record.status !== 'edited').map(entry), updated: stored.filter((record) => record.status === 'edited').map(entry) },
				refused.length === 0 || imported === 0,
			);
		}
		case 'queued':
			return json({ jobId: Math.floor(random() * 1e9).toString(36), status: 'queued' }, false, JSON_TYPE, 202);
		case 'seeOther':
			return { status: 303, location: `/api/3p/import/jobs/${Math.floor(random() * 1e9).toString(36)}`, body: '', plain: false };
		case 'unprocessable':
			if (refused.length === 0) return json({ imported }, true);
			return json(
				{ imported, failed: refused.length, errors: refused.map((entry) => ({ index: entry.index, message: entry.message })) },
				imported === 0 || refused.some((entry) => entry.index === 0),
				JSON_TYPE,
				422,
			);
	}
}

/** A 200 whose top level says the import failed (nothing was stored). */
export function renderBatchRefusal(shape: BatchRefusalShape, recordTypeId: string): RenderedAnswer {
	const reason = `Record type "${recordTypeId}" is locked for import (fault injected by the sandbox)`;
	const bodies: Record<BatchRefusalShape, unknown> = {
		successFalse: { success: false, error: reason },
		statusError: { status: 'error', message: reason },
		errorObject: { error: { code: 'LOCKED', message: reason } },
		importFailed: { status: 'import_failed', message: `Import failed: ${reason}` },
		validationError: { status: 'VALIDATION_ERROR', detail: reason },
	};
	const body = bodies[shape];
	return { status: 200, contentType: JSON_TYPE, body: JSON.stringify(body), plain: true };
}
