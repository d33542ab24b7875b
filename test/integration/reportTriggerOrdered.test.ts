/**
 * Records Report Trigger's ordered polls ("New Rows Appear": appended at the end, at the top) through
 * n8n-core's PollContext against the Records sandbox: how many requests a poll makes, and that every
 * change the boundary check catches makes that poll read in full, emitting each new row once and
 * saying why in n8n's log.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { RecordsReportTrigger } from '../../nodes/RecordsReportTrigger/RecordsReportTrigger.node';
import { runPoll } from '../../tooling/harness/n8nCoreHarness';
import { control } from '../../tooling/sandbox/control';
import { bankTransactionIds, REPORTS } from '../../tooling/sandbox/server';
import { captureWarnings, useSandbox } from './fixture';

jest.setTimeout(120_000);

const sandbox = useSandbox();
const logged = captureWarnings();

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const reportRequests = () => sandbox.state.stats.requests.report?.total ?? 0;
const ids = (items: INodeExecutionData[] | null, key = 'ID transakce') => (items ?? []).map((item) => item.json[key]);

/** One poll by a fresh node instance, with the static data (as n8n stores it) of the previous poll. */
async function poll(parameters: IDataObject, staticData?: IDataObject) {
	const before = reportRequests();
	const result = await runPoll({
		nodeType: new RecordsReportTrigger(),
		parameters: { report: byId(REPORTS.bankTransactions), ...parameters },
		credentials: sandbox.credentials(),
		staticData,
	});
	return { ...result, requests: reportRequests() - before };
}

/** The stored memory's size in bytes, as n8n stores static data (JSON). */
const storedBytes = (staticData: IDataObject) => JSON.stringify(staticData).length;

describe('Records Report Trigger, new rows appended at the end', () => {
	const parameters = { newRowPosition: 'end' };

	it('polls a 10,000-row report in 3 requests, emitting appended rows once across restarts', async () => {
		let { staticData } = await poll(parameters);
		const emitted: unknown[] = [];
		const requests: number[] = [];
		for (const count of [0, 50, 1, 250, 0]) {
			if (count > 0) await control(sandbox, `/reports/${REPORTS.bankTransactions}/rows`, { generate: count });
			const result = await poll(parameters, staticData);
			emitted.push(...ids(result.items));
			requests.push(result.requests);
			staticData = result.staticData;
		}
		expect(emitted).toEqual(bankTransactionIds(10_001, 301));
		// The page from the remembered window on, and its end in two steps (nothing after the last row,
		// then the rows before it still in place); 250 rows: at most 2 more pages (fewer with an
		// adaptive page size).
		expect(requests).toEqual([3, 3, 3, expect.any(Number), 3]);
		expect(requests[3]).toBeLessThanOrEqual(5);
		expect(logged.messages).toEqual([]);
		// 64 rows remembered, whatever the report's size.
		expect(storedBytes(staticData)).toBeLessThan(2_000);
	});

	it('reads on past a silent page cap from the boundary, losing no row', async () => {
		const { staticData } = await poll(parameters);
		await control(sandbox, '/faults', { route: 'report', limitCap: 20 });
		await control(sandbox, `/reports/${REPORTS.bankTransactions}/rows`, { generate: 70 });
		const next = await poll(parameters, staticData);
		expect(ids(next.items)).toEqual(bankTransactionIds(10_001, 70));
	});
});

const COLUMNS = [
	{ id: 'k1', name: 'Doklad' },
	{ id: 'k2', name: 'Částka' },
];
/** A report `ledger` of rows D<n> with amount n, in the order given. */
const ledger = async (numbers: number[], amount = (n: number) => `${n},00`) =>
	await control(sandbox, '/reports', {
		id: 'ledger',
		columns: COLUMNS,
		rows: numbers.map((n) => ({ k1: `D${n}`, k2: amount(n) })),
	});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const doklady = (items: INodeExecutionData[] | null) => ids(items, 'Doklad');

describe.each([
	['appended at the end', 'end', (old: number[], added: number[]) => [...old, ...added]],
	['at the top', 'top', (old: number[], added: number[]) => [...added.slice().reverse(), ...old]],
])('Records Report Trigger, new rows %s', (_, position, withAdded) => {
	const order = (numbers: number[]) => (position === 'top' ? numbers.slice().reverse() : numbers);
	const parameters = { report: byId('ledger'), newRowPosition: position };
	// At the Top also checks that the row remembered last is still last: a read ending on a short
	// answer, which the paging engine confirms as the end in two steps (nothing after it, then it still
	// in place).
	const mostRequests = position === 'top' ? 4 : 3;
	const start = async () => {
		await ledger(order(range(1, 500)));
		return (await poll(parameters)).staticData;
	};

	it('emits nothing in at most 3 requests (4 at the top) when nothing was added, and new rows once', async () => {
		let staticData = await start();
		const quiet = await poll(parameters, staticData);
		expect(quiet.items).toBeNull();
		expect(quiet.requests).toBeLessThanOrEqual(mostRequests);

		await ledger(withAdded(order(range(1, 500)), range(501, 550)));
		const added = await poll(parameters, quiet.staticData);
		expect(doklady(added.items).sort()).toEqual(range(501, 550).map((n) => `D${n}`).sort());
		expect(added.requests).toBeLessThanOrEqual(mostRequests);
		staticData = added.staticData;
		expect((await poll(parameters, staticData)).items).toBeNull();
		expect(logged.messages).toEqual([]);
	});

	const changes: Array<[string, (old: number[]) => number[], string]> = [
		['a row was deleted', (old) => old.filter((n) => n !== (position === 'top' ? 480 : 490)), 'deleted'],
		['the report was re-sorted', (old) => old.slice().reverse(), 're-sorted'],
		['the boundary row was edited', (old) => old, 'edited'],
		['the report shrank', (old) => (position === 'top' ? old.slice(100) : old.slice(0, 400)), 'deleted'],
	];
	// An edit of a row the poll checks: the last remembered one.
	const amountFor = (change: string) => (change.includes('edited') ? (n: number) => (n === 500 ? '9,99' : `${n},00`) : undefined);

	it.each(changes)('with a full check: when %s, reads in full that poll, emits each new row once and logs why', async (change, changed, why) => {
		// Full Check Every remembers every row, so a failed check can read the whole report instead.
		const fullCheck = { ...parameters, options: { fullCheckEvery: 1000 } };
		await ledger(order(range(1, 500)));
		const { staticData } = await poll(fullCheck);
		const amount = amountFor(change);
		await ledger(withAdded(changed(order(range(1, 500))), range(501, 503)), amount);

		const next = await poll(fullCheck, staticData);
		const emitted = doklady(next.items);
		// An edited row is a new row by whole-row identity.
		const expected = [...range(501, 503), ...(amount ? [500] : [])].map((n) => `D${n}`);
		expect(emitted.slice().sort()).toEqual(expected.sort());
		expect(logged.messages).toHaveLength(1);
		expect(logged.messages[0]).toMatch(/is read in full this poll, since .*none is lost or emitted twice/);
		expect(logged.messages[0]).toContain(why);

		// The next poll is ordered again, with nothing new.
		logged.messages = [];
		const after = await poll(fullCheck, next.staticData);
		expect([after.items, logged.messages]).toEqual([null, []]);
		expect(after.requests).toBeLessThanOrEqual(mostRequests);
	});

	it.each(changes)('by default, when %s, stops with an error that names the change and what to choose', async (change, changed, why) => {
		const staticData = await start();
		await ledger(withAdded(changed(order(range(1, 500))), range(501, 503)), amountFor(change));
		await expect(poll(parameters, staticData)).rejects.toThrow(new RegExp(`changed in a way New Rows Appear .* does not allow: .*${why}`));
		// Nothing was remembered: the next poll fails the same way rather than lose the new rows.
		await expect(poll(parameters, staticData)).rejects.toThrow(/does not allow/);
	});
});

describe('Records Report Trigger, key columns shared by several rows', () => {
	it('emits each different new row with a shared key, and names the key in a warning', async () => {
		const parameters = { report: byId('ledger'), rowIdentity: 'columns', keyColumns: 'Doklad' };
		await ledger([1, 2]);
		const { staticData } = await poll(parameters);
		await control(sandbox, '/reports', {
			id: 'ledger',
			columns: COLUMNS,
			rows: [{ k1: 'D1', k2: '1,00' }, { k1: 'D2', k2: '2,00' }, { k1: 'D3', k2: '3,00' }, { k1: 'D3', k2: '4,00' }, { k1: 'D1', k2: '5,00' }],
		});
		const next = await poll(parameters, staticData);
		expect(next.items?.map((item) => item.json)).toEqual([
			{ Doklad: 'D3', Částka: '3,00' },
			{ Doklad: 'D3', Částka: '4,00' },
		]);
		expect(logged.messages).toHaveLength(1);
		expect(logged.messages[0]).toContain('several rows share the key "D3" (new: each different row emitted), "D1" (emitted before: the rows not emitted again)');
	});
});
