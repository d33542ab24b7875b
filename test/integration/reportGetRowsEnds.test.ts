/**
 * Where a read of a report ends (issue 45, section 1): an error, or an answer that is not a page, is
 * the end of a report only where the end is proven; otherwise the read asks again with a smaller page,
 * and only then fails with an error that names the cause. Report → Get Rows and the Records Report
 * Trigger through n8n's execution engine over real HTTP, against the sandbox's named faults: a service
 * that limits how deep a read may go (`maxDepth`: 400 to any request with offset + limit past 10,000,
 * every row up to there served), and one that answers a `limit` above its maximum with 400, 413, 422
 * or a 200 whose body is an error object (`maxLimit` with `overLimit`).
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { RecordsReportTrigger } from '../../nodes/RecordsReportTrigger/RecordsReportTrigger.node';
import { runNode, runPoll } from '../../tooling/harness/n8nCoreHarness';
import { addFaults, control } from '../../tooling/sandbox/control';
import { bankTransactionIds } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

jest.setTimeout(120_000);

const sandbox = useSandbox();

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const addFault = async (rule: IDataObject) => await addFaults(sandbox, { route: 'report', ...rule });
const ids = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => item.json['ID transakce']);

async function bankReport(id: string, rows: number): Promise<void> {
	await control(sandbox, '/reports', { id, generate: 'bank', rows });
}

function getRows(report: string, options: INodeParameters = {}) {
	return runNode({
		nodeType: new Records(),
		parameters: { resource: 'report', operation: 'getRows', report: byId(report), returnAll: true, options },
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

const DEPTH_ERROR = /^Report "deep" cannot be read past row 10000: the service refuses to serve rows beyond it/;

describe('a service that limits how deep a read may go (offset + limit at most 10,000)', () => {
	it('Get Rows with "Output the Rows Read" on 15,000 rows fails naming the limit, not 7,000 rows and no error', async () => {
		await bankReport('deep', 15_000);
		await addFault({ maxDepth: 10_000 });

		const { items, error } = await getRows('deep', { changedReport: 'accept' });

		expect(error?.message).toMatch(DEPTH_ERROR);
		expect(items).toEqual([]);
	});

	it('Get Rows with the default consistency fails naming the limit, not "changed during each of 3 reads", and advises no mode', async () => {
		await bankReport('deep', 15_000);
		await addFault({ maxDepth: 10_000 });

		const { error } = await getRows('deep');

		expect(error?.message).toMatch(DEPTH_ERROR);
		expect(error?.description).not.toMatch(/Output the Rows Read|If the Report Changes/);
	});

	it.each([
		['Output the Rows Read', { changedReport: 'accept' }],
		['the default consistency', {}],
	] as Array<[string, INodeParameters]>)('Get Rows (%s) reads every row of a 9,999-row report, asking smaller pages near the limit', async (_label, options) => {
		await bankReport('deep', 9_999);
		await addFault({ maxDepth: 10_000 });

		const { items, error } = await getRows('deep', options);

		expect(error).toBeUndefined();
		expect(ids(items)).toEqual(bankTransactionIds(1, 9_999));
	});

	it('Get Rows reads a report of 7,000 rows that ends at a page boundary, offsets past its end answered with 400 like the limit', async () => {
		await bankReport('deep', 7_000);
		await addFault({ maxDepth: 10_000, pastEnd: 400 });

		const { items, error } = await getRows('deep', { changedReport: 'accept' });

		expect(error).toBeUndefined();
		expect(ids(items)).toEqual(bankTransactionIds(1, 7_000));
	});

	it('a report of exactly 10,000 rows, offsets past its end answered with 400: its end cannot be told from the limit, a clear error', async () => {
		await bankReport('deep', 10_000);
		await addFault({ maxDepth: 10_000, pastEnd: 400 });

		const { error } = await getRows('deep', { changedReport: 'accept' });

		expect(error?.message).toMatch(DEPTH_ERROR);
	});

	it.each([
		['Anywhere', {}],
		['Appended at the End', { newRowPosition: 'end' }],
	] as Array<[string, IDataObject]>)('the Report Trigger (%s) on 15,000 rows fails naming the limit, not "changed while it was being read"', async (_label, parameters) => {
		await bankReport('deep', 15_000);
		await addFault({ maxDepth: 10_000 });

		await expect(poll('deep', parameters)).rejects.toThrow(DEPTH_ERROR);
	});

	it.each([
		['Anywhere', {}],
		['Appended at the End', { newRowPosition: 'end' }],
	] as Array<[string, IDataObject]>)('the Report Trigger (%s) on 9,990 rows emits the rows appended', async (_label, parameters) => {
		await bankReport('deep', 9_990);
		await addFault({ maxDepth: 10_000 });

		const first = await poll('deep', parameters);
		await control(sandbox, '/reports/deep/rows', { generate: 3 });
		const next = await poll('deep', parameters, first.staticData);

		expect(ids(next.items)).toEqual(bankTransactionIds(9_991, 3));
	});
});

describe('a service that answers a `limit` above its maximum without serving the page', () => {
	const answers: Array<[number, string | number]> = [
		[500, 'errorObject'],
		[1_500, 'errorObject'],
		[500, 413],
		[1_500, 422],
		[1_500, 400],
	];

	it.each(answers)('maximum %i, answered with %s: Get Rows reads every row with the default consistency', async (maxLimit, overLimit) => {
		await bankReport('capped', 6_000);
		await addFault({ maxLimit, overLimit });

		const { items, error } = await getRows('capped');

		expect(error).toBeUndefined();
		expect(ids(items)).toEqual(bankTransactionIds(1, 6_000));
	});

	it.each(answers)('maximum %i, answered with %s: the Report Trigger (Anywhere) emits a row appended', async (maxLimit, overLimit) => {
		await bankReport('capped', 6_000);
		await addFault({ maxLimit, overLimit });

		const first = await poll('capped', {});
		await control(sandbox, '/reports/capped/rows', { generate: 1 });
		const next = await poll('capped', {}, first.staticData);

		expect(ids(next.items)).toEqual(bankTransactionIds(6_001, 1));
	});

	it('a Page Size above the maximum fails naming Page Size', async () => {
		await bankReport('capped', 600);
		await addFault({ maxLimit: 500, overLimit: 'errorObject' });

		const { error } = await getRows('capped', { pageSize: 1_000 });

		expect(error?.message).toMatch(/refused a page of 1000 rows/);
		expect(error?.description).toMatch(/Page Size/);
	});
});

describe('quiet polls on a service that caps every page at 37 rows (Appended at the End)', () => {
	const reportRequests = () => sandbox.state.stats.requests.report?.total ?? 0;

	it.each([
		['the page size chosen by the node', {}],
		['Page Size 100', { pageSize: 100 }],
	] as Array<[string, IDataObject]>)('a quiet poll costs at most 4 report requests (%s; 6 before the end was shown in the check)', async (_label, options) => {
		await bankReport('capped', 2_000);
		await addFault({ limitCap: 37 });
		const parameters = { newRowPosition: 'end', options };

		let { staticData } = await poll('capped', parameters);
		await control(sandbox, '/reports/capped/rows', { generate: 2 });
		const busy = await poll('capped', parameters, staticData);
		expect(ids(busy.items)).toEqual(bankTransactionIds(2_001, 2));
		staticData = busy.staticData;

		const counts: number[] = [];
		for (let quiet = 0; quiet < 3; quiet++) {
			const before = reportRequests();
			const result = await poll('capped', parameters, staticData);
			expect(result.items).toBeNull();
			staticData = result.staticData;
			counts.push(reportRequests() - before);
		}
		expect(Math.max(...counts)).toBeLessThanOrEqual(4);
	});
});
