/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside
	n8n (`process`) */
/**
 * Property: whatever answers each import request gets (a gateway's 200 sign-in page before or after
 * passing the records on; 500/502/503/504 or a reset after the service stored them; 429 or 503 with
 * Retry-After before; records refused inside a 2xx; a 200 that says the whole import failed; the
 * answer in the shape of another back end: numbered from 1, refusals alone by number, key, path or
 * in words, counts only, nested, JSON labelled text/html), the items of Record → Import (Continue On
 * Fail) tell the truth about what the sandbox stored. Oracle, per record:
 *
 * - an item whose outcome is "imported" is a record the service stored;
 * - "refused" or "notSent": a record it did not store ("notSent": one it never received);
 * - "unknown": either;
 * - no record is stored twice, and none is sent again after a request whose outcome the node could
 *   not know, unless Retry When Outcome Unknown is on;
 * - every input item has its output item, paired.
 *
 * Seeded and shrinking; FC_NUM_RUNS sets the runs per guess set (default 100), FC_SEED the seed.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { runNode } from '../../tooling/harness/n8nCoreHarness';
import { addFaults, setGuesses } from '../../tooling/sandbox/control';
import { GUESS_SETS } from '../../tooling/sandbox/guesses';
import { BATCH_REFUSAL_SHAPES, IMPORT_ANSWER_SHAPES } from '../../tooling/sandbox/importAnswers';
import { TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

jest.setTimeout(600_000);

const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 100);
const SEED = Number(process.env.FC_SEED ?? 26);

const sandbox = useSandbox({ bankRows: 10 });
const credentials = sandbox.credentials(TOKENS.import);

/** What a gateway (or the service) can answer to one request, as a sandbox fault rule; `ok` is none. */
const ANSWERS: Record<string, IDataObject | undefined> = {
	ok: undefined,
	signInPage: { htmlPage: true },
	signInPageAfterProcessing: { htmlPage: true, afterProcessing: true },
	'500AfterProcessing': { status: 500, afterProcessing: true },
	'502AfterProcessing': { status: 502, afterProcessing: true },
	'503AfterProcessing': { status: 503, afterProcessing: true },
	'504AfterProcessing': { status: 504, afterProcessing: true },
	'503RetryAfter': { status: 503, retryAfter: 0 },
	'429RetryAfter': { status: 429, retryAfter: 0 },
	resetAfterProcessing: { reset: true, afterProcessing: true },
	refusedRecords: { refuseProbability: 0.5 },
	...Object.fromEntries(BATCH_REFUSAL_SHAPES.map((shape) => [`batchRefused:${shape}`, { refuseBatch: shape }])),
	...Object.fromEntries(IMPORT_ANSWER_SHAPES.map((shape) => [`answer:${shape}`, { answerShape: shape, refuseProbability: 0.4 }])),
};

/** Answers after which the node knows the service did not process the request: it may send it again. */
const REFUSED_BEFORE_PROCESSING = new Set(['429RetryAfter', '503RetryAfter']);

const scenario = fc.record({
	records: fc.integer({ min: 1, max: 9 }),
	batchSize: fc.integer({ min: 1, max: 4 }),
	concurrency: fc.constantFrom(1, 2),
	retryUnknownOutcome: fc.boolean(),
	answers: fc.array(fc.constantFrom(...Object.keys(ANSWERS)), { maxLength: 12 }),
	seed: fc.integer({ min: 1, max: 1000 }),
});

describe.each(GUESS_SETS)('under %s', (_label, guesses) => {
	it('every item tells what became of its record, whatever the gateway or the service answers', async () => {
		await fc.assert(
			fc.asyncProperty(scenario, async ({ records, batchSize, concurrency, retryUnknownOutcome, answers, seed }) => {
				sandbox.reset();
				await setGuesses(sandbox, guesses);
				const rules: IDataObject[] = [];
				answers.forEach((answer, request) => {
					const fault = ANSWERS[answer];
					if (fault) rules.push({ route: 'import', skip: request, times: 1, seed: seed + request, ...fault });
				});
				if (rules.length > 0) await addFaults(sandbox, ...rules);
				const input = Array.from({ length: records }, (_, i) => ({ Název: `Záznam ${i}`, Zadal: 'Jana Nováková' }));

				const result = await runNode({
					nodeType: new Records(),
					parameters: {
						resource: 'record',
						operation: 'import',
						recordTypeId: 'ukoly',
						options: { batchSize, concurrency, retryAttempts: 2, ...(retryUnknownOutcome ? { retryUnknownOutcome } : {}) },
					},
					credentials,
					input,
					continueOnFail: true,
				});

				expect(result.error).toBeUndefined();
				expect(result.items.map((item) => item.pairedItem)).toEqual(input.map((_, item) => ({ item })));
				const log = sandbox.state.stats.importLog;
				input.forEach((record, index) => {
					const name = record.Název;
					const stored = log.filter((entry) => entry.processed && entry.keys.includes(name)).length;
					const carried = log.filter((entry) => entry.sent.includes(name)).sort((a, b) => a.arrival - b.arrival);
					const { outcome } = result.items[index].json;
					const seen = { item: index, outcome, stored };
					if (outcome === 'imported') expect(seen).toEqual({ ...seen, stored: retryUnknownOutcome ? Math.max(stored, 1) : 1 });
					else if (outcome === 'refused') expect(seen).toEqual({ ...seen, stored: 0 });
					else if (outcome === 'notSent') expect({ ...seen, carried: carried.length }).toEqual({ ...seen, stored: 0, carried: 0 });
					else expect(seen).toEqual({ ...seen, outcome: 'unknown' });
					if (!retryUnknownOutcome) expect(seen).toEqual({ ...seen, stored: Math.min(stored, 1) });
					// Sent again only after a request the node knew was not processed (or with Retry When Outcome Unknown).
					const resentAfter = carried.slice(0, -1).map((entry) => answers[entry.arrival - 1] ?? 'ok');
					if (!retryUnknownOutcome) {
						expect({ item: index, resentAfter: resentAfter.filter((answer) => !REFUSED_BEFORE_PROCESSING.has(answer)) }).toEqual({
							item: index,
							resentAfter: [],
						});
					}
				});
			}),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	});
});
