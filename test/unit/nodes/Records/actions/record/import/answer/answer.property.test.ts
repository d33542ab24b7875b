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

import { readImportAnswer } from '../../../../../../../../nodes/Records/actions/record/import/answer/answer';
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
				let rendered: { contentType?: string; body: string; plain: boolean };
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

				const result = readImportAnswer({ statusCode: 200, headers, body }, sent, ['rk_secret_token_value']);

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
