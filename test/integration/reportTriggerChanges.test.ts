/**
 * Records Report Trigger against the changes real reports go through, one test per way the trigger
 * once lost or repeated rows, through n8n-core's PollContext over real HTTP against the sandbox:
 * rows inserted while a poll pages, a report empty at the first poll, columns added, reordered and
 * removed, a deleted row and an appended copy in an ordered mode, the newest rows of a newest-first
 * report in a test run, bounded memory, and a poll's time budget.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { RecordsReportTrigger } from '../../nodes/RecordsReportTrigger/RecordsReportTrigger.node';
import { runPoll } from '../../tooling/harness/n8nCoreHarness';
import { addFaults, control } from '../../tooling/sandbox/control';
import { bankTransactionIds } from '../../tooling/sandbox/server';
import { captureWarnings, useSandbox } from './fixture';

jest.setTimeout(120_000);

const sandbox = useSandbox();
const logged = captureWarnings();

const FEED = 'changing-feed';
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const ids = (items: INodeExecutionData[] | null, key = 'ID transakce') => (items ?? []).map((item) => String(item.json[key]));

async function poll(parameters: IDataObject, staticData?: IDataObject, extra: { mode?: 'manual'; pollBudgetMs?: number } = {}) {
	return await runPoll({
		nodeType: new RecordsReportTrigger(),
		parameters: { report: byId(FEED), ...parameters },
		credentials: sandbox.credentials(),
		staticData,
		...extra,
	});
}

/** A generated bank report of `rows` rows, newest first when `top`. */
const bankFeed = async (rows: number) => await control(sandbox, '/reports', { id: FEED, generate: 'bank', rows });
const addRows = async (count: number, at: 'top' | 'end' = 'end') => await control(sandbox, `/reports/${FEED}/rows`, { generate: count, at });

describe('rows inserted above the read position while a poll pages (Whole Row, the default identity)', () => {
	it.each(['top', 'anywhere'])('New Rows Appear %s: 25 new rows over several pages and one more mid-read, each emitted once', async (position) => {
		await bankFeed(200);
		const parameters = { newRowPosition: position, options: { pageSize: 10 } };
		let { staticData } = await poll(parameters);
		await addRows(25, 'top');
		// After the second page request of the next read, a transaction arrives at the top.
		await addFaults(sandbox, { route: 'report', reportId: FEED, skip: 1, times: 1, insertRows: { at: 'top', count: 1 } });

		const emitted: string[] = [];
		for (let i = 0; i < 3; i++) {
			const next = await poll(parameters, staticData);
			emitted.push(...ids(next.items));
			staticData = next.staticData;
		}
		expect(new Set(emitted).size).toBe(emitted.length);
		expect(emitted.slice().sort()).toEqual(bankTransactionIds(201, 26).sort());
	});
});

describe('a report empty at the first poll (On First Run: Only Remember Them)', () => {
	it('emits the first rows that ever appear', async () => {
		await control(sandbox, '/reports', { id: FEED, columns: [{ id: 'c1', name: 'ID transakce' }], rows: [] });
		const first = await poll({});
		expect(first.items).toBeNull();
		await control(sandbox, '/reports', { id: FEED, columns: [{ id: 'c1', name: 'ID transakce' }], rows: [{ c1: 'TX1' }, { c1: 'TX2' }] });
		expect(ids((await poll({}, first.staticData)).items)).toEqual(['TX1', 'TX2']);
	});
});

describe('Whole Row and the report\'s columns', () => {
	const columns = [
		{ id: 'c1', name: 'Doklad' },
		{ id: 'c2', name: 'Částka' },
	];
	const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ c1: `D${i + 1}`, c2: `${i + 1},00` }));
	const define = async (cols: Array<{ id: string; name: string }>, data: IDataObject[]) =>
		await control(sandbox, '/reports', { id: FEED, columns: cols, rows: data });

	it('a column added or reordered: only the rows added since are emitted, the rest not again', async () => {
		await define(columns, rows(5));
		const first = await poll({});
		await define([...columns, { id: 'c3', name: 'Poznámka' }], rows(7).map((row) => ({ ...row, c3: 'x' })));
		const added = await poll({}, first.staticData);
		expect(ids(added.items, 'Doklad')).toEqual(['D6', 'D7']);
		await define([...columns].reverse(), rows(8));
		expect(ids((await poll({}, added.staticData)).items, 'Doklad')).toEqual(['D8']);
		expect(logged.messages.join('\n')).toContain("the report's columns changed");
	});

	it('a column removed: stops with an error naming it, emits nothing, and keeps its memory', async () => {
		await define(columns, rows(5));
		const first = await poll({ firstRun: 'emit' });
		expect(first.items).toHaveLength(5);
		await define([columns[0]], rows(6).map(({ c1 }) => ({ c1 })));
		await expect(poll({ firstRun: 'emit' }, first.staticData)).rejects.toThrow('no longer has the column "c2" that its rows were remembered by');
	});
});

describe('Appended at the End: a middle row deleted and a copy of the last row appended (A B C X → A B X X)', () => {
	const columns = [
		{ id: 'c1', name: 'Popis' },
		{ id: 'c2', name: 'Částka' },
	];
	const rowsOf = (...labels: string[]) => labels.map((c1) => ({ c1, c2: '-10,00' }));
	const define = async (labels: string[]) => await control(sandbox, '/reports', { id: FEED, columns, rows: rowsOf(...labels) });

	it('with a full check (every row remembered), reads in full and emits the new X once', async () => {
		const parameters = { newRowPosition: 'end', options: { fullCheckEvery: 100 } };
		await define(['A', 'B', 'C', 'X']);
		const first = await poll(parameters);
		await define(['A', 'B', 'X', 'X']);
		const next = await poll(parameters, first.staticData);
		expect(ids(next.items, 'Popis')).toEqual(['X']);
		expect((await poll(parameters, next.staticData)).items).toBeNull();
	});

	it('by default stops with an error that names the change', async () => {
		await define(['A', 'B', 'C', 'X']);
		const first = await poll({ newRowPosition: 'end' });
		await define(['A', 'B', 'X', 'X']);
		await expect(poll({ newRowPosition: 'end' }, first.staticData)).rejects.toThrow('does not allow: the 4 rows remembered last are no longer rows 1–4');
	});
});

describe('Fetch Test Event', () => {
	it('At the Top shows the newest rows: the first ones', async () => {
		await bankFeed(50);
		await addRows(3, 'top');
		const manual = await poll({ newRowPosition: 'top' }, undefined, { mode: 'manual' });
		expect(ids(manual.items).slice(0, 3)).toEqual(bankTransactionIds(51, 3).reverse());
		expect(manual.items).toHaveLength(10);
	});
});

describe('Fetch Test Event reads only what it shows', () => {
	const requests = () => sandbox.state.stats.requests.report?.total ?? 0;
	const millionRows = async () => await control(sandbox, '/reports', { id: FEED, generate: 'bank', rows: 1_000_000, virtual: true });

	it.each(['end', 'anywhere'])('%s, before the first poll: the last 10 rows of a 1,000,000-row report in under 30 requests, not a read of all of them', async (position) => {
		await millionRows();
		const manual = await poll({ newRowPosition: position }, undefined, { mode: 'manual' });
		expect(ids(manual.items)).toEqual(bankTransactionIds(999_991, 10));
		expect(requests()).toBeLessThan(30);
	});

	it('with Page Size 100: the last 10 rows of a 100,000-row report in under 30 requests, not 1,001', async () => {
		await bankFeed(100_000);
		const manual = await poll({ newRowPosition: 'end', options: { pageSize: 100 } }, undefined, { mode: 'manual' });
		expect(ids(manual.items)).toEqual(bankTransactionIds(99_991, 10));
		expect(requests()).toBeLessThan(30);
	});

	it('Appended at the End, with no new rows: the newest rows from the requests of a poll', async () => {
		await millionRows();
		const first = await poll({ newRowPosition: 'end' });
		sandbox.state.stats.clear();
		const manual = await poll({ newRowPosition: 'end' }, first.staticData, { mode: 'manual' });
		expect(ids(manual.items)).toEqual(bankTransactionIds(999_991, 10));
		expect(requests()).toBeLessThanOrEqual(3);
	});

	it('Anywhere, with no new rows: one read of the report, as a poll makes', async () => {
		await bankFeed(30_000);
		const first = await poll({});
		sandbox.state.stats.clear();
		await poll({}, first.staticData);
		const pollRequests = requests();
		sandbox.state.stats.clear();
		const manual = await poll({}, first.staticData, { mode: 'manual' });
		expect(ids(manual.items)).toEqual(bankTransactionIds(29_991, 10));
		expect(requests()).toBe(pollRequests);
	});

	it('with new rows: what the trigger would emit, from the same read', async () => {
		await bankFeed(30_000);
		const first = await poll({ newRowPosition: 'end' });
		await addRows(3);
		sandbox.state.stats.clear();
		const manual = await poll({ newRowPosition: 'end' }, first.staticData, { mode: 'manual' });
		expect(ids(manual.items)).toEqual(bankTransactionIds(30_001, 3));
		expect(requests()).toBeLessThanOrEqual(3);
	});
});

describe('memory', () => {
	// At the Top checks that the row remembered last is still last: a read that ends on a short answer,
	// which the paging engine confirms as the end in two steps (nothing after it, then it still in place).
	const mostRequests = (position: string) => (position === 'top' ? 4 : 3);

	it.each(['end', 'top'])('%s: a 20,000-row report is remembered in under 2 KB, and polls in at most 3 or 4 requests', async (position) => {
		await bankFeed(20_000);
		const first = await poll({ newRowPosition: position });
		expect(JSON.stringify(first.staticData).length).toBeLessThan(2_000);
		await addRows(5, position === 'top' ? 'top' : 'end');
		sandbox.state.stats.clear();
		const next = await poll({ newRowPosition: position }, first.staticData);
		expect(ids(next.items).sort()).toEqual(bankTransactionIds(20_001, 5).sort());
		expect(sandbox.state.stats.requests.report?.total).toBeLessThanOrEqual(mostRequests(position));
	});

	it.each(['end', 'top'])('%s: the first poll remembers a 1,000,000-row report without reading it, in under 50 requests', async (position) => {
		await control(sandbox, '/reports', { id: FEED, generate: 'bank', rows: 1_000_000, virtual: true });
		const first = await poll({ newRowPosition: position });
		expect(first.items).toBeNull();
		expect(sandbox.state.stats.requests.report?.total).toBeLessThan(50);
		expect(JSON.stringify(first.staticData).length).toBeLessThan(2_000);

		await addRows(5, position === 'top' ? 'top' : 'end');
		sandbox.state.stats.clear();
		const next = await poll({ newRowPosition: position }, first.staticData);
		expect(ids(next.items).sort()).toEqual(bankTransactionIds(1_000_001, 5).sort());
		expect(sandbox.state.stats.requests.report?.total).toBeLessThanOrEqual(mostRequests(position));
	});
});

describe("a poll's time budget (n8n's durable scheduler)", () => {
	it("a first run that does not fit goes on over the next polls, each row emitted once; a later full read that does not fit fails, saying which setting to change, and remembers nothing", async () => {
		await bankFeed(300);
		const parameters = { firstRun: 'emit', options: { pageSize: 20 } };
		// Each page takes 250 ms; a poll may take 2 s: about 4 pages, with the safety margin.
		await addFaults(sandbox, { route: 'report', reportId: FEED, latencyMs: 250 });
		const goesOn = (data: IDataObject) => (data['node:Records Report Trigger'] as { reportRows: { readOnAt?: number } }).reportRows.readOnAt !== undefined;
		const emitted: string[] = [];
		let staticData: IDataObject | undefined;
		let polls = 0;
		do {
			const next = await poll(parameters, staticData, { pollBudgetMs: 2_000 });
			emitted.push(...ids(next.items));
			staticData = next.staticData;
		} while (goesOn(staticData) && ++polls < 10);
		expect(polls).toBeGreaterThan(0);
		expect(emitted).toEqual(bankTransactionIds(1, 300));
		const failed = await poll(parameters, staticData, { pollBudgetMs: 2_000 }).catch((error: unknown) => error as Error & { description?: string });
		expect(failed).toBeInstanceOf(Error);
		expect((failed as Error).message).toContain('could not be read within the time n8n gives one poll');
		expect((failed as { description?: string }).description).toContain('raise Page Size');
		const next = await poll({ ...parameters, options: { pageSize: 1_000 } }, staticData, { pollBudgetMs: 2_000 });
		expect(next.items).toBeNull();
	});

	it('a rate limit the node cannot wait out tells n8n to back off', async () => {
		await bankFeed(10);
		await addFaults(sandbox, { route: 'report', reportId: FEED, status: 429, retryAfter: 3600 });
		const failed = await poll({}).catch((error: unknown) => error as { failure?: unknown });
		expect((failed as { failure?: unknown }).failure).toEqual({ cause: 'rate-limited', retryAfterMs: 3_600_000 });
	});
});
