/**
 * Record → Import reports only what happened: answers a gateway, sign-in proxy or captive portal
 * in front of the service can give (a 200 sign-in page, 502/503/504 after the service stored the
 * records), records the service refuses inside a 2xx answer, and n8n's Retry On Fail. Asserted on
 * what the sandbox stored against what the output items say, under the sandbox's guesses and under
 * the guide alone.
 */
import type { IDataObject } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { runNode, type RunNodeOptions, type RunNodeResult } from '../../tooling/harness/n8nCoreHarness';
import { addFaults, setGuesses } from '../../tooling/sandbox/control';
import { GUESS_SETS } from '../../tooling/sandbox/guesses';
import { TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const sandbox = useSandbox({ bankRows: 10 });
const credentials = sandbox.credentials(TOKENS.import);

function importTasks(
	input: IDataObject[],
	options: IDataObject = {},
	extra: Pick<RunNodeOptions, 'continueOnFail' | 'retryOnFail'> = {},
): Promise<RunNodeResult> {
	return runNode({
		nodeType: new Records(),
		parameters: { resource: 'record', operation: 'import', recordTypeId: 'ukoly', options: { batchSize: 2, ...options } },
		credentials,
		input,
		...extra,
	});
}

const tasks = (count: number, prefix = 'Úkol') =>
	Array.from({ length: count }, (_, i) => ({ Název: `${prefix} ${i}`, Zadal: 'Jana Nováková' }));
const importLog = () => sandbox.state.stats.importLog;
/** How many times each task was stored (0: never), by the import log. */
const timesStored = (name: string) =>
	importLog().filter((entry) => entry.processed && entry.keys.includes(name)).length;
const statuses = (result: RunNodeResult) => result.items.map((item) => item.json.status ?? 'error');

function expectNoToken(result: RunNodeResult) {
	const error = result.error as unknown as Record<string, unknown> | undefined;
	expect(JSON.stringify({ items: result.items, message: error?.message, description: error?.description })).not.toContain(
		credentials.token,
	);
}

describe.each(GUESS_SETS)('under %s', (_label, guesses) => {
	beforeEach(async () => await setGuesses(sandbox, guesses));

	it('a plain import: every record stored once, every item says so', async () => {
		const result = await importTasks(tasks(3));

		expect(result.error).toBeUndefined();
		expect(statuses(result)).toEqual(
			guesses.importAnswer === 'results' ? ['created', 'created', 'created'] : ['imported', 'imported', 'imported'],
		);
		for (const task of tasks(3)) expect(timesStored(task.Název)).toBe(1);
	});

	describe('a 200 sign-in page', () => {
		it('a 200 sign-in page is not an import: the batch fails, outcome unknown, nothing sent again or after it', async () => {
			await addFaults(sandbox, { route: 'import', htmlPage: true, skip: 1, times: 1 });
			const result = await importTasks(tasks(5));

			expect(result.items).toEqual([]);
			expect(result.error?.message).toBe(
				'Batch 2 of 3 (items 2–3) for record type "ukoly" failed: The answer was not the service\'s: 200 with text/html; charset=utf-8, where the service answers JSON',
			);
			expect(result.error?.description).toContain('It began: "<!DOCTYPE html> <html lang="en"><head><title>Sign in</title>');
			expect(result.error?.description).toContain('whether they were imported is unknown');
			expect(result.error?.description).toContain('Check the records in the service');
			expect(result.error?.description).toContain('Already imported: 2 records of batch 1.');
			expect(result.error?.description).toContain('Not sent: 1 record of batch 3.');
			expect(importLog().map((entry) => [entry.records, entry.processed, entry.status])).toEqual([
				[2, true, 200],
				[2, false, 200],
			]);
			expectNoToken(result);
		});

		it('with Continue On Fail: the batch behind the sign-in page and the batches after it fail, paired', async () => {
			await addFaults(sandbox, { route: 'import', htmlPage: true, afterProcessing: true, skip: 1, times: 1 });
			const result = await importTasks(tasks(5), {}, { continueOnFail: true });

			expect(result.error).toBeUndefined();
			expect(result.items.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3, 4].map((item) => ({ item })));
			expect(statuses(result).map((status) => status !== 'error')).toEqual([true, true, false, false, false]);
			expect(result.items[2].json.description).toContain('whether they were imported is unknown');
			expect(result.items[4].json.error).toContain('Not sent, because batch 2 failed');
			// The gateway passed batch 2 on: stored once, never sent again; batch 3 was never sent.
			expect(timesStored('Úkol 2')).toBe(1);
			expect(timesStored('Úkol 4')).toBe(0);
			expect(importLog()).toHaveLength(2);
		});
	});

	it.each([502, 503, 504])(
		'%s after the service stored the batch: not sent again, and the error says the records may be there',
		async (status) => {
			await addFaults(sandbox, { route: 'import', status, afterProcessing: true, times: 1 });
			const result = await importTasks(tasks(2));

			expect(result.error?.message).toContain(`(${status})`);
			expect(result.error?.description).toContain('may already have processed this request, so it was not sent again');
			expect(importLog()).toHaveLength(1);
			expect(timesStored('Úkol 0')).toBe(1);
		},
	);

	it('503 with Retry-After, a deliberate "come back later", is sent again: stored once', async () => {
		await addFaults(sandbox, { route: 'import', status: 503, retryAfter: 0, times: 1 });
		const result = await importTasks(tasks(2));

		expect(result.error).toBeUndefined();
		expect(importLog().map((entry) => [entry.processed, entry.status])).toEqual([
			[false, 503],
			[true, 200],
		]);
		expect(timesStored('Úkol 0')).toBe(1);
	});
});

describe('records the service refuses inside a 2xx answer', () => {
	it('with Continue On Fail: each refused record is an error item paired to its input item; the others are imported', async () => {
		await addFaults(sandbox, { route: 'import', refuseRecords: [1], times: 1 });
		const result = await importTasks(tasks(4), {}, { continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(statuses(result)).toEqual(['created', 'error', 'created', 'created']);
		expect(result.items[1]).toEqual({
			json: {
				error: 'The service did not import this record: Record 1 was refused (fault injected by the sandbox)',
				outcome: 'refused',
				description:
					'Batch 1 of 2 (items 0–1) for record type "ukoly": the service did not import 1 record (item 1)',
				recordTypeId: 'ukoly',
				batch: 1,
				record: tasks(4)[1],
			},
			pairedItem: { item: 1 },
		});
		expect([0, 1, 2, 3].map((i) => timesStored(`Úkol ${i}`))).toEqual([1, 0, 1, 1]);
	});

	it('without it: the node fails naming the refused items and the reason; the batches after it are not sent', async () => {
		await addFaults(sandbox, { route: 'import', refuseRecords: [0, 1], times: 1 });
		const result = await importTasks(tasks(4, 'Zamčený'));

		expect(result.error?.message).toBe(
			'Batch 1 of 2 (items 0–1) for record type "ukoly": the service did not import 2 records (items 0–1)',
		);
		expect(result.error?.description).toBe(
			'Item 0: Record 0 was refused (fault injected by the sandbox). Item 1: Record 1 was refused (fault injected by the sandbox). Correct the refused records and import them again. No records were imported. Not sent: 2 records of batch 2.',
		);
		expect(importLog()).toHaveLength(1);
	});
});

describe('Retry When Outcome Unknown', () => {
	it('a record refused by the retry that followed a 502 after processing is unknown, not refused: the first attempt stored it', async () => {
		await addFaults(sandbox, { route: 'import', status: 502, afterProcessing: true, times: 1 }, { route: 'import', skip: 1, refuseRecords: [0], times: 1 });
		const result = await importTasks(tasks(2), { retryUnknownOutcome: true }, { continueOnFail: true });

		expect(timesStored('Úkol 0')).toBe(1);
		expect(result.items.map((item) => item.json.outcome)).toEqual(['unknown', 'imported']);
		expect(result.items[0].json.error).toContain('an earlier attempt of the same request may already have imported');
	});

	it('a 400 on the retry that followed a 502 after processing leaves the batch unknown, not refused', async () => {
		await addFaults(sandbox, { route: 'import', status: 502, afterProcessing: true, times: 1 }, { route: 'import', skip: 1, status: 400, times: 1 });
		const result = await importTasks(tasks(2), { retryUnknownOutcome: true }, { continueOnFail: true });

		expect(timesStored('Úkol 0')).toBe(1);
		expect(result.items.map((item) => item.json.outcome)).toEqual(['unknown', 'unknown']);
	});
});

describe("n8n's Retry On Fail", () => {
	it('is refused before anything is sent: n8n would run the whole import again after a failure', async () => {
		await addFaults(sandbox, { route: 'import', status: 500, afterProcessing: true, skip: 1 });
		const result = await importTasks(tasks(4), {}, { retryOnFail: { maxTries: 2, waitBetweenTries: 0 } });

		expect(result.error?.message).toBe('Import does not run with "Retry On Fail" on');
		expect(result.error?.description).toContain('Nothing was sent. Turn "Retry On Fail" off in this node\'s settings');
		expect(importLog()).toHaveLength(0);
		expect(timesStored('Úkol 0')).toBe(0);
	});

	it('is refused with On Error: Continue too, where n8n runs the node again when its first item is an error', async () => {
		await addFaults(sandbox, { route: 'import', refuseRecords: [0] });
		const result = await importTasks(tasks(2), {}, { continueOnFail: true, retryOnFail: { maxTries: 2, waitBetweenTries: 0 } });

		expect(result.error?.message).toBe('Import does not run with "Retry On Fail" on');
		expect(importLog()).toHaveLength(0);
	});
});
