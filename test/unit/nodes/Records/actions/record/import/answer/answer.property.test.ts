/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside
	n8n (`process`) */
/**
 * Property: whatever a back end answers to an import (tooling/sandbox/importAnswers.ts: results
 * numbered from 0 or 1 or in order, refusals alone under any key, by number, key, path or in words,
 * counts, nested, reordered, labelled text/html, parsed by n8n or not, with noise, huge), or a
 * gateway's page instead, readImportAnswer tells the truth about a model of what the service stored:
 *
 * - "imported" only for a record the service stored, "refused" only for one it did not;
 * - "unknown" otherwise, and never where the shape names every record's outcome (`plain`);
 * - a page that is not JSON is never the service's answer;
 * - anything negative the answer says of the batch, which no record accounts for, leaves no record
 *   "imported";
 * - any JSON at all is read without an exception, one verdict per record.
 *
 * Seeded and shrinking: a failure prints its seed and the smallest answer found; replay it with
 * FC_SEED=<seed> (and FC_PATH). FC_NUM_RUNS sets the answers per property (default 3,000; 7,500 in all).
 */
import fc from 'fast-check';

import { readImportAnswer, readRefusedAnswer } from '../../../../../../../../nodes/Records/actions/record/import/answer/answer';
import type { RecordVerdict } from '../../../../../../../../nodes/Records/actions/record/import/answer/outcomes';
import {
	type AnsweredRecord,
	BATCH_REFUSAL_SHAPES,
	IMPORT_ANSWER_SHAPES,
	renderBatchRefusal,
	renderImportAnswer,
} from '../../../../../../../../tooling/sandbox/importAnswers';
import { createRng } from '../../../../../../../../tooling/sandbox/seeds';

const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 3_000);
const runs = { numRuns: NUM_RUNS, seed: Number(process.env.FC_SEED ?? 32), path: process.env.FC_PATH };

jest.setTimeout(120_000);

const KEY_FIELD = 'Název';

type Sent = Array<Record<string, unknown>>;

/**
 * What the node makes of an answer by its HTTP status (send/sending.ts, send/failures.ts): a 2xx is
 * read; a redirect leaves every record unknown; a 4xx refuses the batch unless its body says that
 * records were imported, and then is read for each record.
 */
function readAsNode(statusCode: number, headers: Record<string, unknown>, body: unknown, sent: Sent, secrets: string[] = []) {
	if (statusCode < 300) return readImportAnswer({ statusCode, headers, body }, sent, secrets);
	const all = (outcome: 'unknown' | 'refused') => ({ kind: 'service' as const, verdicts: sent.map((): RecordVerdict => ({ outcome })) });
	if (statusCode < 400) return all('unknown');
	const reading = readRefusedAnswer(statusCode, body, sent, secrets);
	return reading === undefined ? all('refused') : { kind: 'service' as const, ...reading };
}

/** What the service did with each record of a batch: the model. */
const batchModel = fc
	.integer({ min: 1, max: 8 })
	.chain((size) =>
		fc.record({
			stored: fc.array(fc.boolean(), { minLength: size, maxLength: size }),
			edited: fc.array(fc.boolean(), { minLength: size, maxLength: size }),
			/** Two records of the batch share a key value (a key that names no single record). */
			sharedKey: fc.option(fc.tuple(fc.nat(size - 1), fc.nat(size - 1)), { freq: 5 }),
		}),
	);

function modelRecords({ stored, edited, sharedKey }: { stored: boolean[]; edited: boolean[]; sharedKey: [number, number] | null }) {
	const keys = stored.map((_, index) => `Úkol ${index}`);
	if (sharedKey) keys[sharedKey[1]] = keys[sharedKey[0]];
	const sent = keys.map((key, index) => ({ [KEY_FIELD]: key, Zadal: index % 2 === 0 ? 'Jana Nováková' : 'Petr Svoboda' }));
	const answered: AnsweredRecord[] = stored.map((isStored, index) =>
		isStored
			? { stored: true, status: edited[index] ? 'edited' : 'created', id: String(100 + index), key: keys[index] }
			: { stored: false, message: `Field "Zadal" of record ${index} is locked`, key: keys[index] },
	);
	return { sent, answered };
}

/** Harmless members a back end adds around its answer: ids, timings, links, an empty warnings list, a long log. */
function withNoise(body: unknown, random: () => number, huge: boolean): unknown {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
	const members: Array<[string, unknown]> = [
		...Object.entries(body),
		['meta', { requestId: Math.floor(random() * 1e9).toString(36), tookMs: 12 }],
		['warnings', []],
		['links', [{ rel: 'self', href: '/api/3p/import/ukoly' }]],
	];
	if (huge) members.push(['log', Array.from({ length: 3_000 }, (_, line) => ({ line, level: 'info', text: 'row accepted for validation' }))]);
	const shuffled = members.map((member) => [random(), member] as const).sort((a, b) => a[0] - b[0]);
	return Object.fromEntries(shuffled.map(([, member]) => member));
}

const answerKind = fc.oneof(
	{ weight: 12, arbitrary: fc.record({ kind: fc.constant('shape' as const), shape: fc.constantFrom(...IMPORT_ANSWER_SHAPES) }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('batchRefusal' as const), shape: fc.constantFrom(...BATCH_REFUSAL_SHAPES) }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('page' as const), shape: fc.constantFrom('signIn', 'text', 'xml') }) },
);

const PAGES: Record<string, [string, string]> = {
	signIn: ['text/html; charset=utf-8', '<!DOCTYPE html><html><body><form action="/sso/login">Sign in</form></body></html>'],
	text: ['text/plain', 'OK'],
	xml: ['application/xml', '<result>ok</result>'],
};

const scenario = fc.record({
	model: batchModel,
	answer: answerKind,
	/** n8n hands over the body parsed (axios parses any JSON text), or as text. */
	parsed: fc.boolean(),
	noise: fc.boolean(),
	huge: fc.nat(49).map((n) => n === 49),
	seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
});

describe('readImportAnswer over generated answers', () => {
	it('"imported" only if stored, "refused" only if not, decided wherever the answer names every outcome', () => {
		fc.assert(
			fc.property(scenario, ({ model, answer, parsed, noise, huge, seed }) => {
				const random = createRng(seed);
				const stored = answer.kind === 'batchRefusal' ? model.stored.map(() => false) : model.stored;
				const { sent, answered } = modelRecords({ ...model, stored });
				let rendered: { status?: number; contentType?: string; body: string; plain: boolean };
				if (answer.kind === 'page') {
					const [contentType, body] = PAGES[answer.shape];
					rendered = { contentType, body, plain: false };
				} else if (answer.kind === 'batchRefusal') {
					rendered = renderBatchRefusal(answer.shape, 'ukoly');
				} else {
					rendered = renderImportAnswer(answer.shape, answered, KEY_FIELD, random);
				}
				const isJson = answer.kind !== 'page';
				let body: unknown = rendered.body;
				if (isJson && rendered.body !== '') {
					const json = noise ? withNoise(JSON.parse(rendered.body), random, huge) : (JSON.parse(rendered.body) as unknown);
					body = parsed ? json : JSON.stringify(json);
				}
				const headers = rendered.contentType === undefined ? {} : { 'content-type': rendered.contentType };

				const result = readAsNode(answer.kind === 'shape' ? rendered.status ?? 200 : 200, headers, body, sent, ['rk_secret_token_value']);

				expect(result.kind).toBe(isJson ? 'service' : 'foreign');
				if (result.kind !== 'service') return;
				expect(result.verdicts).toHaveLength(sent.length);
				result.verdicts.forEach((verdict, index) => {
					if (verdict.outcome === 'imported') expect({ index, stored: stored[index] }).toEqual({ index, stored: true });
					if (verdict.outcome === 'refused') expect({ index, stored: stored[index] }).toEqual({ index, stored: false });
				});
				if (rendered.plain && model.sharedKey === null) {
					expect(result.verdicts.map((verdict) => verdict.outcome)).not.toContain('unknown');
				}
			}),
			runs,
		);
	});

	const negativeOfTheBatch = fc.constantFrom<Array<[string, unknown]>>(
		[['success', false]],
		[['ok', false]],
		[['status', 'error']],
		[['status', 'failed']],
		[['status', 'partial']],
		[['error', 'Import failed']],
		[['error', { code: 'E', message: 'Import failed' }]],
		[['failed', 2]],
		[['errorCount', 1]],
		[['errors', [{ message: 'A record failed' }]]],
		[['errors', ['Something failed']]],
		[['failures', { first: 'Something failed' }]],
		[['hasErrors', true]],
	);

	it('anything negative said of the batch that no record accounts for leaves no record "imported"', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 6 }),
				fc.constantFrom('results', 'resultsFromOne', 'counts', 'empty', 'nested', 'errors'),
				negativeOfTheBatch,
				fc.nat(3),
				fc.integer({ min: 1, max: 2 ** 31 - 1 }),
				(size, shape, negative, depth, seed) => {
					const stored = Array.from({ length: size }, () => true);
					const { sent, answered } = modelRecords({ stored, edited: stored.map(() => false), sharedKey: null });
					const rendered = renderImportAnswer(shape as never, answered, KEY_FIELD, createRng(seed));
					let body: Record<string, unknown> = rendered.body === '' ? {} : (JSON.parse(rendered.body) as Record<string, unknown>);
					// Said at the top, or in an object around it.
					let around: Record<string, unknown> = Object.fromEntries(negative);
					for (let level = 0; level < depth; level++) around = { detail: around };
					body = { ...body, summary: around };

					const result = readImportAnswer({ statusCode: 200, headers: {}, body }, sent, []);

					expect(result.kind === 'service' && result.verdicts.map((verdict) => verdict.outcome)).not.toContain('imported');
				},
			),
			runs,
		);
	});

	it('anything negative said inside an entry that names a record leaves that record not "imported"', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 6 }),
				fc.constantFrom('results', 'resultsFromOne', 'nested'),
				negativeOfTheBatch,
				fc.nat(3),
				fc.nat(5),
				fc.integer({ min: 1, max: 2 ** 31 - 1 }),
				(size, shape, negative, depth, which, seed) => {
					const stored = Array.from({ length: size }, () => true);
					const { sent, answered } = modelRecords({ stored, edited: stored.map(() => false), sharedKey: null });
					const body = JSON.parse(renderImportAnswer(shape as never, answered, KEY_FIELD, createRng(seed)).body) as Record<string, unknown>;
					const results = ((body.data as { result?: Record<string, unknown> } | undefined)?.result ?? body).results as Array<Record<string, unknown>>;
					const target = results.find((entry) => entry.index === (which % size) + (shape === 'resultsFromOne' ? 1 : 0))!;
					let said: Record<string, unknown> = Object.fromEntries(negative);
					for (let level = 0; level < depth; level++) said = { detail: said };
					target.outcome = said;

					const result = readImportAnswer({ statusCode: 200, headers: {}, body }, sent, []);

					expect(result.kind === 'service' && result.verdicts[which % size].outcome).not.toBe('imported');
				},
			),
			runs,
		);
	});

	// A JSON text value at the top is text to the node: n8n hands over a parsed "OK" and the text OK alike.
	const anyJsonButText = fc.jsonValue({ maxDepth: 5 }).filter((json) => typeof json !== 'string');

	it('reads any JSON without an exception, one verdict per record', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 5 }), anyJsonButText, (size, json) => {
				const sent = Array.from({ length: size }, (_, index) => ({ [KEY_FIELD]: `Úkol ${index}` }));
				const result = readImportAnswer({ statusCode: 200, headers: {}, body: json }, sent, []);
				expect(result.kind).toBe('service');
				expect(result.kind === 'service' && result.verdicts).toHaveLength(size);
			}),
			{ ...runs, numRuns: Math.ceil(NUM_RUNS / 2) },
		);
	});
});

/**
 * Answers beyond the shapes the sandbox knows (issue 47): per-record statuses in words the node
 * knows, does not know, or with a failure stem inside a compound word, or as numbers (or their
 * text); lists of all records, of the imported ones only, or of the refused ones only; numbered
 * from 0 or 1, named by a value under a name the node does not read, or by place; reordered; under
 * an HTTP status that may contradict the body. The answer need not be true: the oracle is evidence.
 *
 * - "imported" only for a record the answer says was imported (a known word or a 2xx number), or
 *   leaves out of a list of refusals only; never under 202 or a redirect;
 * - never "refused" for a record the answer says was imported.
 */
describe('readImportAnswer over generated statuses, lists and HTTP codes', () => {
	type Said = 'positive' | 'negative' | 'unknownWord';
	const positiveStatus = fc.oneof(
		fc.constantFrom('created', 'updated', 'OK', 'Success', 'IMPORTED', 'record_created', 'successfully_imported', 'upserted'),
		fc.constantFrom(200, 201, 204, '200', '201'),
	);
	const filler = fc.constantFrom('record', 'import', 'row', 'VALIDATION', 'data', 'batch', 'key', 'x');
	const stem = fc.constantFrom('failed', 'error', 'ERROR', 'rejected', 'refused', 'invalid', 'skipped', 'ignored', 'duplicate', 'not_created', 'notImported');
	const negativeStatus = fc.oneof(
		fc.tuple(fc.option(filler, { nil: undefined }), stem, fc.option(filler, { nil: undefined }), fc.constantFrom('_', '-', '.', ' ')).map(([before, core, after, glue]) =>
			[before, core, after].filter((part) => part !== undefined).join(glue),
		),
		fc.constantFrom(400, 404, 409, 422, 500, 503, '400', '422', '500'),
	);
	const unknownStatus = fc.oneof(
		fc.constantFrom('queued', 'pending', 'processing', 'accepted', 'received', 'warning', 'in_progress', 'scheduled', 102, 202, '202', 302, '304'),
		fc.stringMatching(/^[a-z]{3,10}$/).filter((text) => !/fail|err|rej|ref|inv|skip|ign|dup|den|dec|abo|can|con|exc|^not?|ok|succ|done|compl|impor|creat|edit|updat|sav|stor|inser|upser|unch|parti/.test(text)),
	);
	const saidStatus = (said: Said) => (said === 'positive' ? positiveStatus : said === 'negative' ? negativeStatus : unknownStatus);

	const generated = fc
		.record({
			size: fc.integer({ min: 1, max: 7 }),
			layout: fc.constantFrom('all', 'importedOnly', 'refusedOnly'),
			naming: fc.constantFrom('index0', 'index1', 'value', 'place'),
			keyName: fc.constantFrom('key', 'ref', 'externalId', 'recordKey', 'name'),
			statusKey: fc.constantFrom('status', 'state', 'result', 'outcome', 'statusCode'),
			listKey: fc.constantFrom('results', 'records', 'items', 'data', 'Operations'),
			/** A list of the imported records only is known by its name (an empty `results` may as well list no refusals). */
			successKey: fc.constantFrom('imported', 'created', 'updated', 'succeeded', 'saved'),
			httpStatus: fc.constantFrom(200, 200, 200, 201, 207, 202, 303, 400, 409, 422),
			/** What a status at the top of the answer says, if it has one. */
			top: fc.option(fc.constantFrom<Said>('positive', 'negative', 'unknownWord'), { freq: 3, nil: undefined }),
			seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
		})
		.chain((shape) =>
			fc.record({
				shape: fc.constant(shape),
				said: fc.array(
					shape.layout === 'refusedOnly' ? fc.constantFrom<Said>('positive', 'negative') : fc.constantFrom<Said>('positive', 'negative', 'unknownWord'),
					{ minLength: shape.size, maxLength: shape.size },
				),
			}).chain(({ shape: fixed, said }) =>
				fc.record({
					shape: fc.constant(fixed),
					said: fc.constant(said),
					statuses: fc.tuple(...said.map(saidStatus)),
					topStatus: fixed.top === undefined ? fc.constant(undefined) : saidStatus(fixed.top),
				}),
			),
		);

	it('"imported" only on evidence, never "refused" where the answer says imported', () => {
		fc.assert(
			fc.property(generated, ({ shape, said, statuses, topStatus }) => {
				const sent = Array.from({ length: shape.size }, (_, index) => ({ [KEY_FIELD]: `Úkol ${index}`, Zadal: 'Jana Nováková' }));
				const random = createRng(shape.seed);
				const listed = said
					.map((what, index) => ({ what, index, status: statuses[index] }))
					.filter(({ what }) => shape.layout === 'all' || (shape.layout === 'importedOnly' ? what === 'positive' : what === 'negative'));
				const entries = listed.map(({ index, status }) => {
					const entry: Record<string, unknown> = { [shape.statusKey]: status };
					if (shape.naming === 'index0') entry.index = index;
					if (shape.naming === 'index1') entry.index = index + 1;
					if (shape.naming === 'value') entry[shape.keyName] = `Úkol ${index}`;
					return entry;
				});
				// Reordered unless the place is what names the record.
				const list = shape.naming === 'place' ? entries : entries.map((entry) => [random(), entry] as const).sort((a, b) => a[0] - b[0]).map(([, entry]) => entry);
				const body: Record<string, unknown> = { [shape.layout === 'importedOnly' ? shape.successKey : shape.listKey]: list };
				if (topStatus !== undefined) body.status = topStatus;

				const result = readAsNode(shape.httpStatus, {}, body, sent);
				if (result.kind !== 'service') return;
				// What the answer says of each record: in a list of refusals only, under a 2xx and no status of the batch
				// that says otherwise, a record left out is said to be imported.
				const noImportYet = shape.httpStatus === 202 || (shape.httpStatus >= 300 && shape.httpStatus < 400);
				const saysImported = (index: number) => said[index] === 'positive' && (shape.layout !== 'refusedOnly' || (shape.httpStatus < 300 && (shape.top ?? 'positive') === 'positive'));
				result.verdicts.forEach((verdict, index) => {
					const seen = { index, saysImported: saysImported(index), httpStatus: shape.httpStatus, outcome: verdict.outcome };
					if (verdict.outcome === 'imported') expect(seen).toEqual({ ...seen, saysImported: true, httpStatus: noImportYet ? 'neither 202 nor 3xx' : shape.httpStatus });
					if (verdict.outcome === 'refused') expect(seen).toEqual({ ...seen, saysImported: false });
				});
			}),
			runs,
		);
	});
});
