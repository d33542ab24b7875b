/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside n8n
	(`@n8n/backend-common`, `@n8n/di`, `setImmediate`) */
/**
 * Records Report Trigger through n8n-core's PollContext and TriggersAndPollers, over real HTTP against
 * the Records sandbox. The static data returned by one poll is passed to the next, as n8n persists it;
 * a new node instance for a poll stands for a restarted n8n (or another queue-mode worker).
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { RecordsReportTrigger } from '../../nodes/RecordsReportTrigger/RecordsReportTrigger.node';
import { STATE_KEY } from '../../nodes/RecordsReportTrigger/memory';
import { runPoll, type RunPollOptions } from '../../tooling/harness/n8nCoreHarness';
import { addFaults, clearFaults, control } from '../../tooling/sandbox/control';
import { bankTransactionIds, generateBankRows, REPORTS, TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

jest.setTimeout(120_000);

const sandbox = useSandbox();

const appendBankRows = async (count: number, reportId: string = REPORTS.bankTransactions) =>
	await control(sandbox, `/reports/${reportId}/rows`, { generate: count });

const LEDGER_COLUMNS = [
	{ id: 'k1', name: 'Doklad' },
	{ id: 'k2', name: 'Částka' },
	{ id: 'k3', name: 'Stav' },
];

/** Defines (or replaces) a small report `ledger` with rows [doklad, částka, stav]. */
async function defineLedger(rows: Array<[string, string, string]>) {
	await control(sandbox, '/reports', {
		id: 'ledger',
		columns: LEDGER_COLUMNS,
		rows: rows.map(([k1, k2, k3]) => ({ k1, k2, k3 })),
	});
}

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

interface PollSetup {
	parameters?: IDataObject;
	staticData?: IDataObject;
	mode?: RunPollOptions['mode'];
	token?: string;
	workflowId?: string;
}

/** One poll by a fresh node instance, with the static data of the previous poll. */
async function poll({ parameters = {}, staticData, mode = 'trigger', token = TOKENS.analysisAdmin, workflowId }: PollSetup = {}) {
	return await runPoll({
		nodeType: new RecordsReportTrigger(),
		parameters: { report: byId(REPORTS.bankTransactions), ...parameters },
		credentials: sandbox.credentials(token),
		staticData,
		mode,
		workflowId,
	});
}

const ids = (items: INodeExecutionData[] | null, key = 'ID transakce') => (items ?? []).map((item) => item.json[key]);

/** The trigger's remembered rows inside the workflow's static data. */
const remembered = (staticData: IDataObject) =>
	(staticData['node:Records Report Trigger'] as IDataObject | undefined)?.[STATE_KEY] as IDataObject | undefined;

const reportRequests = () => sandbox.state.stats.requests.report?.total ?? 0;

describe('Records Report Trigger: first run', () => {
	it('by default only remembers the rows already there, then emits each added row once', async () => {
		const first = await poll();
		expect(first.items).toBeNull();
		expect(remembered(first.staticData)?.count).toBe(10_000);

		const unchanged = await poll({ staticData: first.staticData });
		expect(unchanged.items).toBeNull();

		await appendBankRows(5);
		const added = await poll({ staticData: unchanged.staticData });
		expect(ids(added.items)).toEqual(bankTransactionIds(10_001, 5));
		expect(added.items?.[0].json).toMatchObject({ 'ID transakce': 'TX00010001', 'Účet': generateBankRows(1, 10_000)[0].c8 });

		const again = await poll({ staticData: added.staticData });
		expect(again.items).toBeNull();
	});

	it('emits every current row once when asked to, in report order', async () => {
		const first = await poll({ parameters: { firstRun: 'emit', options: { concurrency: 4 } } });
		expect(ids(first.items)).toEqual(bankTransactionIds(1, 10_000));

		await appendBankRows(3);
		const next = await poll({ parameters: { firstRun: 'emit', options: { concurrency: 4 } }, staticData: first.staticData });
		expect(ids(next.items)).toEqual(bankTransactionIds(10_001, 3));
	});

	it('starts afresh when the report or the row identity changes', async () => {
		const first = await poll({ parameters: { firstRun: 'emit', report: byId(REPORTS.costs) } });
		expect(first.items).toHaveLength(60);

		// Same static data, another identity: a first run again.
		const rekeyed = await poll({
			parameters: { firstRun: 'emit', report: byId(REPORTS.costs), rowIdentity: 'columns', keyColumns: 'Interní číslo' },
			staticData: first.staticData,
		});
		expect(rekeyed.items).toHaveLength(60);
	});
});

describe('Records Report Trigger: rows added between polls', () => {
	it('emits added rows exactly once across restarts, whatever the batch sizes', async () => {
		let { staticData } = await poll({ parameters: { rowIdentity: 'columns', keyColumns: 'ID transakce' } });
		const emitted: unknown[] = [];
		for (const count of [1, 0, 250, 7, 0, 120]) {
			if (count > 0) await appendBankRows(count);
			const result = await poll({ parameters: { rowIdentity: 'columns', keyColumns: 'ID transakce' }, staticData });
			emitted.push(...ids(result.items));
			// What n8n stores is plain JSON: the next poll starts from a serialised copy.
			staticData = JSON.parse(JSON.stringify(result.staticData)) as IDataObject;
		}
		expect(emitted).toEqual(bankTransactionIds(10_001, 378));
	});

	it('emits rows added while faults hit the reads, still exactly once', async () => {
		let { staticData } = await poll({ parameters: { options: { concurrency: 4 } } });
		await addFaults(
			sandbox,
			{ route: 'report', status: 503, retryAfter: 0, probability: 0.1, seed: 4 },
			{ route: 'report', reset: true, probability: 0.05, seed: 9 },
		);
		const emitted: unknown[] = [];
		for (const count of [40, 160, 1]) {
			await appendBankRows(count);
			const result = await poll({ parameters: { options: { concurrency: 4 } }, staticData });
			emitted.push(...ids(result.items));
			staticData = result.staticData;
		}
		expect(emitted).toEqual(bankTransactionIds(10_001, 201));
		expect(sandbox.state.stats.faults.total).toBeGreaterThan(3);
	});

	it('a failed poll emits nothing and keeps the state, so the next poll emits the rows', async () => {
		const { staticData } = await poll();
		await appendBankRows(2);
		await addFaults(sandbox, { route: 'report', status: 500 });

		await expect(poll({ staticData, parameters: { options: { retryAttempts: 0 } } })).rejects.toThrow(
			'The service failed while processing the request for the report "bank-transactions" (500)',
		);

		await clearFaults(sandbox);
		const next = await poll({ staticData });
		expect(ids(next.items)).toEqual(bankTransactionIds(10_001, 2));
	});
});

describe('Records Report Trigger: row identity', () => {
	const ledger: Array<[string, string, string]> = [
		['D1', '100,00', 'Nová'],
		['D2', '250,00', 'Nová'],
	];

	it('by key columns: an edited row is not emitted again, a new key is', async () => {
		await defineLedger(ledger);
		const parameters = { report: byId('ledger'), rowIdentity: 'columns', keyColumns: 'Doklad' };
		const first = await poll({ parameters });

		await defineLedger([['D1', '100,00', 'Uhrazeno'], ledger[1], ['D3', '80,00', 'Nová']]);
		const next = await poll({ parameters, staticData: first.staticData });

		expect(next.items?.map((item) => item.json)).toEqual([{ Doklad: 'D3', Částka: '80,00', Stav: 'Nová' }]);
	});

	it('by whole row: an edited row counts as new, and identical rows are counted', async () => {
		await defineLedger([...ledger, ledger[0]]);
		const parameters = { report: byId('ledger'), firstRun: 'emit' };
		const first = await poll({ parameters });
		expect(first.items).toHaveLength(3);

		await defineLedger([['D1', '100,00', 'Uhrazeno'], ledger[1], ledger[0], ledger[0], ledger[0]]);
		const next = await poll({ parameters, staticData: first.staticData });

		// The edited D1, and a third copy of D1 where two were seen.
		expect(next.items?.map((item) => item.json)).toEqual([
			{ Doklad: 'D1', Částka: '100,00', Stav: 'Uhrazeno' },
			{ Doklad: 'D1', Částka: '100,00', Stav: 'Nová' },
		]);
	});

	it('names an unknown key column and lists the columns; no state is written', async () => {
		await expect(
			poll({ parameters: { report: byId(REPORTS.costs), rowIdentity: 'columns', keyColumns: 'Číslo' } }),
		).rejects.toThrow('Key Columns: report "costs" has no column "Číslo"');
	});
});

describe('Records Report Trigger: bounded memory', () => {
	const rows = (prefix: string, count: number): Array<[string, string, string]> =>
		Array.from({ length: count }, (_, index) => [`${prefix}${index + 1}`, '1,00', 'Nová']);

	it('keeps at most Max Remembered Rows, forgetting rows gone from the report the longest first', async () => {
		const parameters = { report: byId('ledger'), rowIdentity: 'columns', keyColumns: 'k1', options: { maxRemembered: 10 } };
		await defineLedger(rows('A', 8));
		let { staticData } = await poll({ parameters });

		// All A rows leave the report, eight B rows arrive: 16 identities, cut to the 10 newest.
		await defineLedger(rows('B', 8));
		const b = await poll({ parameters, staticData });
		expect(ids(b.items, 'Doklad')).toEqual(rows('B', 8).map(([doklad]) => doklad));
		staticData = b.staticData;
		expect(remembered(staticData)?.count).toBe(8);
		expect(String(remembered(staticData)?.rows)).toHaveLength(10 * 12);

		// A7 and A8 are still remembered; A1 was forgotten, so it is new again.
		await defineLedger([['A1', '1,00', 'Nová'], ['A8', '1,00', 'Nová'], ...rows('B', 8)]);
		const back = await poll({ parameters, staticData });
		expect(ids(back.items, 'Doklad')).toEqual(['A1']);
	});

	it('refuses a report with more rows than it may remember, without emitting or forgetting', async () => {
		const { staticData } = await poll({ parameters: { options: { maxRemembered: 20_000 } } });
		await appendBankRows(1);

		await expect(poll({ staticData, parameters: { options: { maxRemembered: 10_000 } } })).rejects.toThrow(
			'Report "bank-transactions" has 10001 rows, more than Max Remembered Rows (10000)',
		);
		const next = await poll({ staticData, parameters: { options: { maxRemembered: 20_000 } } });
		expect(ids(next.items)).toEqual(['TX00010001']);
	});

	it('stores 12 characters per remembered row', async () => {
		const { staticData } = await poll();
		expect(JSON.stringify(staticData).length).toBeLessThan(10_000 * 12 + 500);
	});
});

describe('Records Report Trigger: manual test run', () => {
	it('returns the latest rows as a sample and leaves the state as it was', async () => {
		const manual = await poll({ mode: 'manual' });
		expect(ids(manual.items)).toEqual(bankTransactionIds(9_991, 10));
		expect(remembered(manual.staticData)).toBeUndefined();

		const { staticData } = await poll();
		await appendBankRows(3);
		const withNew = await poll({ mode: 'manual', staticData });
		expect(ids(withNew.items)).toEqual(bankTransactionIds(10_001, 3));
		expect(withNew.staticData).toEqual(staticData);

		// The active trigger still emits the three rows the test run showed.
		const active = await poll({ staticData });
		expect(ids(active.items)).toEqual(bankTransactionIds(10_001, 3));
	});

	// Issue 48: whether the report lists oldest first was the one setting a user could not justify.
	it("says in n8n's log which New Rows Appear choice the sample suggests, and logs nothing for an active poll", async () => {
		const info = jest.spyOn(Container.get(Logger), 'info').mockImplementation(() => undefined);
		const logged = () => info.mock.calls.map(([message]) => String(message)).filter((message) => message.includes('through the sample'));
		try {
			await poll({ mode: 'manual' });
			expect(logged()).toEqual([
				expect.stringMatching(/^Records Report Trigger: "ID transakce" rises row by row through the sample: the report looks oldest first, so New Rows Appear "Appended at the End" may fit/),
			]);
			info.mockClear();
			await poll();
			expect(logged()).toEqual([]);
		} finally {
			info.mockRestore();
		}
	});

	it('applies the output options to the sample', async () => {
		const manual = await poll({
			mode: 'manual',
			parameters: { report: byId(REPORTS.costs), options: { conversion: 'auto', includeColumns: true } },
		});
		const last = manual.items?.[9].json as IDataObject;
		expect(last['Interní číslo']).toBe('FP-2025-0060');
		expect(typeof last['Částka']).toBe('number');
		expect(typeof last['Částka (2)']).toBe('number');
		expect(last._columns).toHaveLength(8);
	});
});

describe('Records Report Trigger: output and errors', () => {
	it('can put all new rows of a poll in one item', async () => {
		const { staticData } = await poll();
		await appendBankRows(4);

		const next = await poll({ staticData, parameters: { options: { outputMode: 'all', outputKeys: 'id' } } });

		expect(next.items).toHaveLength(1);
		expect(next.items?.[0].json).toEqual({
			reportId: REPORTS.bankTransactions,
			rowCount: 4,
			rows: generateBankRows(4, 10_000),
		});
	});

	it('reads a large report in parallel on every poll, one pass per poll', async () => {
		await control(sandbox, '/reports', { id: 'bank-large', generate: 'bank', rows: 50_000 });
		const parameters = { report: byId('bank-large'), options: { pageSize: 1000, concurrency: 6 } };

		const first = await poll({ parameters });
		expect(first.items).toBeNull();
		const afterFirst = reportRequests();
		// 998 new rows a page after the first (each repeats the two rows before it), the end in two
		// steps (nothing after the last row, then the rows before it still in place), and at most 6
		// past the end.
		expect(afterFirst).toBeLessThanOrEqual(53 + 6);

		await appendBankRows(1500, 'bank-large');
		const next = await poll({ parameters, staticData: first.staticData });
		expect(ids(next.items)).toEqual(bankTransactionIds(50_001, 1500));
	});

	it('reports a refused token without showing it, and a report not shared through the API', async () => {
		const refused = poll({ token: TOKENS.expired });
		await expect(refused).rejects.toThrow('The service refused the API token (401)');
		await refused.catch((error: unknown) => expect(JSON.stringify(error)).not.toContain(TOKENS.expired));

		await expect(poll({ parameters: { report: byId(REPORTS.notShared) } })).rejects.toThrow(
			'The report "not-shared" does not exist or is not made available through the API (404)',
		);
	});

	it('returns nothing for an empty report', async () => {
		await control(sandbox, '/reports', { id: 'empty', columns: LEDGER_COLUMNS, rows: [] });
		const result = await poll({ parameters: { report: byId('empty'), firstRun: 'emit' } });
		expect(result.items).toBeNull();
	});
});

describe('Records Report Trigger: overlapping polls', () => {
	const FEED = 'overlap-feed';
	// Polls of one trigger in one n8n: the same workflow, and each test a workflow of its own.
	let workflowId = '';
	const feedPoll = (staticData?: IDataObject, mode: PollSetup['mode'] = 'trigger') =>
		poll({ parameters: { report: byId(FEED), rowIdentity: 'columns', keyColumns: 'ID transakce' }, staticData, mode, workflowId });
	/** Starts a poll and resolves once the sandbox has answered nothing yet but received its first read. */
	const startedPoll = async (staticData: IDataObject) => {
		const before = reportRequests();
		const running = feedPoll(staticData);
		while (reportRequests() === before) await new Promise((resolve) => setImmediate(resolve));
		return running;
	};

	beforeEach(async () => {
		workflowId = `overlap-${expect.getState().currentTestName}`;
		await control(sandbox, '/reports', { id: FEED, generate: 'bank', rows: 120 });
	});

	it('a poll that starts while the same trigger is still reading emits nothing and remembers nothing; the running poll emits each new row once', async () => {
		const first = await feedPoll();
		await appendBankRows(3, FEED);
		await addFaults(sandbox, { route: 'report', reportId: FEED, latencyMs: 300 });

		const running = startedPoll(first.staticData);
		const overlapping = await feedPoll(first.staticData);
		const finished = await running;

		expect(overlapping.items).toBeNull();
		expect(overlapping.staticData).toEqual(first.staticData);
		expect(ids(finished.items)).toEqual(bankTransactionIds(121, 3));
		// The next poll reads from what the running poll remembered.
		expect((await feedPoll(finished.staticData)).items).toBeNull();
	});

	it('a poll after a failed poll runs: a failure releases the trigger', async () => {
		const first = await feedPoll();
		await appendBankRows(2, FEED);
		await addFaults(sandbox, { route: 'report', reportId: FEED, status: 401, times: 1 });
		await expect(feedPoll(first.staticData)).rejects.toThrow();
		expect(ids((await feedPoll(first.staticData)).items)).toEqual(bankTransactionIds(121, 2));
	});

	it('a manual test run beside a running poll still shows rows', async () => {
		const first = await feedPoll();
		await appendBankRows(1, FEED);
		await addFaults(sandbox, { route: 'report', reportId: FEED, latencyMs: 300 });

		const running = startedPoll(first.staticData);
		const manual = await feedPoll(first.staticData, 'manual');
		expect(ids(manual.items)).toEqual(bankTransactionIds(121, 1));
		expect(ids((await running).items)).toEqual(bankTransactionIds(121, 1));
	});
});

describe('Records Report Trigger: a poll handed older memory than the last poll saved', () => {
	const FEED = 'generation-feed';
	const feedPoll = (staticData: IDataObject | undefined, workflowId: string) =>
		poll({ parameters: { report: byId(FEED), rowIdentity: 'columns', keyColumns: 'ID transakce' }, staticData, workflowId });

	beforeEach(async () => {
		await control(sandbox, '/reports', { id: FEED, generate: 'bank', rows: 120 });
	});

	it('emits nothing once (n8n dispatched it with a copy read before the last save), then trusts the saved memory', async () => {
		const workflowId = 'generation-stale';
		const first = await feedPoll(undefined, workflowId);
		await appendBankRows(3, FEED);
		const emitting = await feedPoll(first.staticData, workflowId);
		expect(ids(emitting.items)).toEqual(bankTransactionIds(121, 3));

		// A copy of the memory from before that poll saved: its rows were emitted already.
		const stale = await feedPoll(first.staticData, workflowId);
		expect(stale.items).toBeNull();
		expect(stale.staticData).toEqual(first.staticData);
		// From the saved memory, nothing new.
		expect((await feedPoll(emitting.staticData, workflowId)).items).toBeNull();
	});

	it('never emits from an older copy again: refuses it every time, and after 3 refusals fails saying what to do', async () => {
		const workflowId = 'generation-repeated';
		const first = await feedPoll(undefined, workflowId);
		await appendBankRows(2, FEED);
		expect(ids((await feedPoll(first.staticData, workflowId)).items)).toEqual(bankTransactionIds(121, 2));

		// n8n keeps handing out the copy from before the emitting poll saved.
		expect((await feedPoll(first.staticData, workflowId)).items).toBeNull();
		expect((await feedPoll(first.staticData, workflowId)).items).toBeNull();
		await expect(feedPoll(first.staticData, workflowId)).rejects.toThrow(
			'n8n handed this poll an older memory (generation 1) than the last poll of this process saved with the rows it emitted (generation 2), 3 polls in a row',
		);
	});

	it('stops emitting when another process saved the memory after this one (two pollers)', async () => {
		const workflowId = 'generation-two-pollers';
		const first = await feedPoll(undefined, workflowId);
		await appendBankRows(1, FEED);
		const emitting = await feedPoll(first.staticData, workflowId);
		expect(ids(emitting.items)).toEqual(bankTransactionIds(121, 1));

		// Another n8n process polled the same trigger and saved a newer memory (as durable cursors show it).
		const key = 'node:Records Report Trigger';
		const theirs = structuredClone(emitting.staticData);
		const memory = (theirs[key] as IDataObject)[STATE_KEY] as IDataObject;
		memory.generation = Number(memory.generation) + 1;
		memory.writer = 'another';
		await appendBankRows(1, FEED);
		const warn = jest.spyOn(Container.get(Logger), 'warn').mockImplementation(() => undefined);
		expect((await feedPoll(theirs, workflowId)).items).toBeNull();
		expect(warn.mock.calls.map(([message]) => String(message)).join('\n')).toContain('another n8n process (another) saved this trigger');
		warn.mockRestore();
	});
});

describe('Records Report Trigger: page size', () => {
	const firstRunEmit = async (options: { pageSize?: number }) => {
		sandbox.state.stats.clear();
		const result = await runPoll({
			nodeType: new RecordsReportTrigger(),
			parameters: { report: byId(REPORTS.bankTransactions), firstRun: 'emit', options },
			credentials: sandbox.credentials(TOKENS.analysisAdmin),
		});
		return { ids: ids(result.items), requests: reportRequests() };
	};

	it('chosen by the node, emits the rows in a handful of requests; Page Size 100 in 105, and 0 is the default', async () => {
		const chosen = await firstRunEmit({});
		const pagesOf100 = await firstRunEmit({ pageSize: 100 });
		const zero = await firstRunEmit({ pageSize: 0 });

		expect(chosen.ids).toEqual(bankTransactionIds(1, 10_000));
		expect(pagesOf100.ids).toEqual(chosen.ids);
		expect(zero).toEqual(chosen);
		// 100 rows, then 98 new rows a page (each repeats the two rows before it), and the end in two
		// steps: nothing after the last row, then the rows before it still in place.
		expect(pagesOf100.requests).toBe(105);
		expect(chosen.requests).toBe(6);
	});
});
