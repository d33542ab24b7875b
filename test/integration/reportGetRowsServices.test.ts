/**
 * Report → Get Rows, and the Records Report Trigger's reads, on services that page differently from
 * the integration guide, through n8n's execution engine over real HTTP against the sandbox's named
 * faults: pages capped in bytes (`pageBytes`), one row per page (`limitCap: 1`) or at a row count
 * (`limitCap`), a hard maximum of `limit` (`maxLimit`), and offsets past the end answered with 404,
 * 400 or a 200 error object (`pastEnd`); identical rows at page boundaries. Every row once, in order,
 * never a request above the page size, and an error only where one is due.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { RecordsReportTrigger } from '../../nodes/RecordsReportTrigger/RecordsReportTrigger.node';
import { runNode, runPoll } from '../../tooling/harness/n8nCoreHarness';
import { addFaults, control } from '../../tooling/sandbox/control';
import { bankTransactionIds, REPORTS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

jest.setTimeout(120_000);

const sandbox = useSandbox();

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const reportRequests = () => sandbox.state.stats.requests.report?.total ?? 0;
const statuses = () => sandbox.state.stats.requests.report?.byStatus ?? {};
const addFault = async (rule: IDataObject) => await addFaults(sandbox, { route: 'report', ...rule });

type Row = { c1: string; c2: string };
const COLUMNS = [
	{ id: 'c1', name: 'ID' },
	{ id: 'c2', name: 'Text' },
];
const row = (id: string, text = `row ${id}`): Row => ({ c1: id, c2: text });
/** A bank fee as a day's statement shows it: every fee of the day the same row. */
const FEE = row('FEE-4', '4.3.2026 -2,00 Poplatek za transakci');

async function defineReport(id: string, rows: Row[]): Promise<void> {
	await control(sandbox, '/reports', { id, columns: COLUMNS, rows });
}

/** `count` rows R1…Rcount, with `at` replaced by a row of 5 KB. */
function rowsWithLargeOne(count: number, at: number): Row[] {
	return Array.from({ length: count }, (_, i) => (i === at ? row(`R${i + 1}`, 'x'.repeat(5_000)) : row(`R${i + 1}`)));
}

function getRows(report: string, options: INodeParameters = {}, parameters: INodeParameters = {}) {
	return runNode({
		nodeType: new Records(),
		parameters: { resource: 'report', operation: 'getRows', report: byId(report), returnAll: true, options, ...parameters },
		credentials: sandbox.credentials(),
	});
}

function poll(report: string, parameters: IDataObject, staticData?: IDataObject) {
	return runPoll({
		nodeType: new RecordsReportTrigger(),
		parameters: { report: byId(report), ...parameters },
		credentials: sandbox.credentials(),
		staticData,
	});
}

const ids = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => item.json.ID);
const idsOf = (rows: Row[]) => rows.map((r) => r.c1);

describe('an answer holding only the overlap row is not the end (finding 2.1)', () => {
	it('pages capped at 4 KB with one row of 5 KB: Get Rows reads all 50 rows, once each', async () => {
		const rows = rowsWithLargeOne(50, 10);
		await defineReport('large-row', rows);
		await addFault({ pageBytes: 4_096 });

		const { items, error } = await getRows('large-row');

		expect(error).toBeUndefined();
		expect(ids(items)).toEqual(idsOf(rows));
	});

	it('one row per page: Get Rows reads all 50 rows, once each', async () => {
		const rows = Array.from({ length: 50 }, (_, i) => row(`R${i + 1}`));
		await defineReport('one-per-page', rows);
		await addFault({ limitCap: 1 });

		const { items, error } = await getRows('one-per-page');

		expect(error).toBeUndefined();
		expect(ids(items)).toEqual(idsOf(rows));
	});

	it('the Report Trigger\'s first poll with "Emit All Current Rows" emits all 50, and a row added later once', async () => {
		const rows = rowsWithLargeOne(50, 10);
		await defineReport('large-row', rows);
		await addFault({ pageBytes: 4_096 });

		const first = await poll('large-row', { firstRun: 'emit' });
		expect(ids(first.items)).toEqual(idsOf(rows));

		await control(sandbox, '/reports/large-row/rows', { rows: [row('R51')] });
		const next = await poll('large-row', { firstRun: 'emit' }, first.staticData);
		expect(ids(next.items)).toEqual(['R51']);
	});
});

describe('never a request for more rows than the page size (finding 2.2)', () => {
	/** `count` rows in which every two neighbours R1, R1, R2, R2, … are identical. */
	const pairs = (count: number) => Array.from({ length: count }, (_, i) => row(`R${Math.floor(i / 2) + 1}`));

	it('Page Size 1000 on a service whose maximum is 1000, two equal fees at a page boundary', async () => {
		const rows = Array.from({ length: 2_000 }, (_, i) => (i === 998 || i === 999 ? FEE : row(`T${i + 1}`)));
		await defineReport('fees-at-boundary', rows);
		await addFault({ maxLimit: 1_000 });

		const { items, error } = await getRows('fees-at-boundary', { pageSize: 1_000 });

		expect(error).toBeUndefined();
		expect(ids(items)).toEqual(idsOf(rows));
		expect(statuses()).not.toHaveProperty('400');
	});

	it('the page size chosen by the node, on a service whose maximum is 5000, with identical rows at every boundary', async () => {
		const rows = pairs(12_000);
		await defineReport('pairs', rows);
		await addFault({ maxLimit: 5_000 });

		const { items, error } = await getRows('pairs');

		expect(error).toBeUndefined();
		expect(ids(items)).toEqual(idsOf(rows));
		expect(statuses()).not.toHaveProperty('400');
	});

	it('the Report Trigger (Anywhere, Page Size 1000) on a service whose maximum is 1000 polls without an error', async () => {
		const rows = Array.from({ length: 2_000 }, (_, i) => (i === 998 || i === 999 ? FEE : row(`T${i + 1}`)));
		await defineReport('fees-at-boundary', rows);
		await addFault({ maxLimit: 1_000 });

		const first = await poll('fees-at-boundary', { options: { pageSize: 1_000 } });
		await control(sandbox, '/reports/fees-at-boundary/rows', { rows: [row('T2001')] });
		const next = await poll('fees-at-boundary', { options: { pageSize: 1_000 } }, first.staticData);

		expect(ids(next.items)).toEqual(['T2001']);
		expect(statuses()).not.toHaveProperty('400');
	});
});

describe('a run of identical rows longer than what the service serves in one page (finding 3.5)', () => {
	it.each([
		[100, 250, {}],
		[100, 250, { pageSize: 100 }],
		[4, 9, { pageSize: 10 }],
	] as Array<[number, number, INodeParameters]>)('a page cap of %i rows and %i equal fees: read to the end, not taken for a change', async (cap, fees, options) => {
		const rows = [row('T1'), ...Array.from({ length: fees }, () => FEE), row('T2'), row('T3')];
		await defineReport('fee-run', rows);
		await addFault({ limitCap: cap });

		const { items, error } = await getRows('fee-run', options);

		expect(error).toBeUndefined();
		expect(ids(items)).toEqual(idsOf(rows));
	});

	it('the Report Trigger (Anywhere) on a 100-row cap and 250 equal fees emits a new row once, without an error', async () => {
		const rows = [row('T1'), ...Array.from({ length: 250 }, () => FEE), row('T2')];
		await defineReport('fee-run', rows);
		await addFault({ limitCap: 100 });

		const first = await poll('fee-run', {});
		await control(sandbox, '/reports/fee-run/rows', { rows: [row('T3')] });
		const next = await poll('fee-run', {}, first.staticData);

		expect(ids(next.items)).toEqual(['T3']);
	});
});

describe('offsets past the end answered with an error (finding 2.3)', () => {
	const answers: Array<[string, IDataObject]> = [
		['404', { pastEnd: 404 }],
		['400', { pastEnd: 400 }],
		['an error object in a 200', { pastEnd: 'errorObject' }],
	];

	it.each(answers)('%s: Get Rows reads a report of 250 identical rows (its offset probe goes past the end)', async (_label, fault) => {
		await defineReport('fees', Array.from({ length: 250 }, () => FEE));
		await addFault(fault);

		const { items, error } = await getRows('fees', { pageSize: 100, concurrency: 3 });

		expect(error).toBeUndefined();
		expect(items).toHaveLength(250);
	});

	it.each(answers)('%s: Get Rows without the change check reads every row, its last request past the end', async (_label, fault) => {
		await addFault(fault);

		const { items, error } = await getRows(REPORTS.bankTransactions, { pageSize: 1_000, changedReport: 'accept' });

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json['ID transakce'])).toEqual(bankTransactionIds(1, 10_000));
	});

	it.each(answers)("%s: the Report Trigger's first poll in an ordered mode finds the report's end", async (_label, fault) => {
		await addFault(fault);

		const first = await poll(REPORTS.bankTransactions, { newRowPosition: 'end' });
		await control(sandbox, `/reports/${REPORTS.bankTransactions}/rows`, { generate: 2 });
		const next = await poll(REPORTS.bankTransactions, { newRowPosition: 'end' }, first.staticData);

		expect(next.items?.map((item) => item.json['ID transakce'])).toEqual(bankTransactionIds(10_001, 2));
	});

	it('a report that does not exist is still a clear 404', async () => {
		await addFault({ pastEnd: 404 });

		const { error } = await getRows('no-such-report');

		expect(error?.message).toBe('The report "no-such-report" does not exist or is not made available through the API (404)');
	});
});

describe('the page size chosen by the node recovers after a short page (finding 2.4)', () => {
	it.each([
		['with the change check', {}],
		['without it', { changedReport: 'accept' }],
	] as Array<[string, INodeParameters]>)('one 5 KB row near the top of a 2,000-row report on a 4 KB-capped service: pages grow back (%s)', async (_label, options) => {
		const rows = rowsWithLargeOne(2_000, 5);
		await defineReport('large-row-top', rows);
		await addFault({ pageBytes: 4_096 });

		const { items, error } = await getRows('large-row-top', options);

		expect(error).toBeUndefined();
		expect(ids(items)).toEqual(idsOf(rows));
		// About 100 rows fit 4 KB: some 20 full pages, not one request per row after the large one.
		expect(reportRequests()).toBeLessThan(100);
	});
});
