/**
 * Property: whatever a gateway in front of the service answers to each import request (a 200
 * sign-in page before or after passing the records on, 500/502/503/504 or a reset after the
 * service stored them, 429 or 503 with Retry-After before, records refused inside a 2xx), the items
 * of Record → Import (Continue On Fail) tell the truth. Oracle: what the sandbox
 * stored, per record, against what its item says:
 * - no record is stored twice;
 * - an item that says imported is a record stored once;
 * - a record stored under an error item is one whose error says the outcome is unknown;
 * - every input item has its output item, paired.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { runNode } from '../../tooling/harness/n8nCoreHarness';
import { addFaults, setGuesses } from '../../tooling/sandbox/control';
import { GUESS_SETS } from '../../tooling/sandbox/guesses';
import { TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

jest.setTimeout(180_000);

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
};

const UNKNOWN_OUTCOME = /may already have processed|whether they were imported is unknown/;

const scenario = fc.record({
	records: fc.integer({ min: 1, max: 9 }),
	batchSize: fc.integer({ min: 1, max: 3 }),
	concurrency: fc.constantFrom(1, 2),
	answers: fc.array(fc.constantFrom(...Object.keys(ANSWERS)), { maxLength: 12 }),
	seed: fc.integer({ min: 1, max: 1000 }),
});

describe.each(GUESS_SETS)('under %s', (_label, guesses) => {
	it('every item tells what became of its record, whatever the gateway answers', async () => {
		await fc.assert(
			fc.asyncProperty(scenario, async ({ records, batchSize, concurrency, answers, seed }) => {
				sandbox.reset();
				await setGuesses(sandbox, guesses);
				const rules: IDataObject[] = [];
				answers.forEach((answer, request) => {
					const fault = ANSWERS[answer];
					if (fault) rules.push({ route: 'import', skip: request, times: 1, seed, ...fault });
				});
				if (rules.length > 0) await addFaults(sandbox, ...rules);
				const input = Array.from({ length: records }, (_, i) => ({ Název: `Záznam ${i}`, Zadal: 'Jana Nováková' }));

				const result = await runNode({
					nodeType: new Records(),
					parameters: { resource: 'record', operation: 'import', recordTypeId: 'ukoly', options: { batchSize, concurrency } },
					credentials,
					input,
					continueOnFail: true,
				});

				expect(result.error).toBeUndefined();
				expect(result.items.map((item) => item.pairedItem)).toEqual(input.map((_, item) => ({ item })));
				const log = sandbox.state.stats.importLog;
				input.forEach((record, index) => {
					const stored = log.filter((entry) => entry.processed && entry.keys.includes(record.Název)).length;
					const { json } = result.items[index];
					expect(stored).toBeLessThanOrEqual(1);
					if (json.error === undefined) {
						expect({ item: index, stored }).toEqual({ item: index, stored: 1 });
					} else if (stored === 1) {
						expect(`${String(json.error)} ${String(json.description)}`).toMatch(UNKNOWN_OUTCOME);
					}
				});
			}),
			{ seed: 26, numRuns: 40 },
		);
	});
});
