/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (`@n8n/backend-common`, `@n8n/di`) */
/**
 * Column lists picked from the report (the column dropdowns of Key Columns and of Get Rows' number
 * and date conversion), through n8n-core's LoadOptionsContext and PollContext against the sandbox;
 * and saved workflows whose column lists are typed text.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { RecordsReportTrigger } from '../../nodes/RecordsReportTrigger/RecordsReportTrigger.node';
import { runLoadOptions, runNode, runPoll } from '../../tooling/harness/n8nCoreHarness';
import { control } from '../../tooling/sandbox/control';
import { bankTransactionIds, REPORTS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

jest.setTimeout(120_000);

const sandbox = useSandbox();

const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const credentials = () => sandbox.credentials();
const reportRequests = () => sandbox.state.stats.requests.report?.total ?? 0;

const columnsOf = async (nodeType: Records | RecordsReportTrigger, reportId: string) =>
	await runLoadOptions({
		nodeType,
		method: 'getReportColumns',
		parameters: { ...(nodeType instanceof Records ? { resource: 'report', operation: 'getRows' } : {}), report: byId(reportId) },
		credentials: credentials(),
	});

describe('column dropdowns', () => {
	it("list the report's columns by their output keys, chosen by ID, from a one-row read", async () => {
		const before = reportRequests();
		const options = await columnsOf(new RecordsReportTrigger(), REPORTS.costs);
		expect(reportRequests() - before).toBe(1);
		expect(options.map(({ name, value }) => [name, value])).toEqual([
			['Interní číslo', 'c1'],
			['Partner', 'c2'],
			['Částka', 'c3'],
			['Částka (2)', 'c4'],
			['Datum splatnosti', 'c5'],
			['Pracovník', 'c6'],
			['Stav', 'c7'],
			['Kategorie nákladu', 'c8'],
		]);
		expect(await columnsOf(new Records(), REPORTS.costs)).toEqual(options);
	});

	it('show names written in decomposed Unicode as Get Rows keys them, also for an empty report', async () => {
		const nfd = 'Částka'.normalize('NFD');
		await control(sandbox, '/reports', { id: 'nfd', columns: [{ id: 'a', name: nfd }, { id: 'b', name: 'Částka' }], rows: [] });
		const options = await columnsOf(new Records(), 'nfd');
		expect(options.map(({ name, value }) => [name, value])).toEqual([
			['Částka', 'a'],
			['Částka (2)', 'b'],
		]);
	});

	it('name a report that cannot be read', async () => {
		await expect(columnsOf(new Records(), REPORTS.notShared)).rejects.toThrow('"not-shared" does not exist');
	});

	it('keep the columns already chosen in view, with the reason, when the report cannot be read', async () => {
		const options = await runLoadOptions({
			nodeType: new RecordsReportTrigger(),
			method: 'getReportColumns',
			parameters: { report: byId(REPORTS.notShared), rowIdentity: 'columns', keyColumns: ['c1', 'c3'] },
			credentials: credentials(),
		});
		expect(options.map(({ name, value }) => [name, value])).toEqual([
			['c1', 'c1'],
			['c3', 'c3'],
		]);
		expect(options[0].description).toMatch(/^Not checked: the report's columns could not be read \(The report "not-shared" does not exist/);
	});
});

describe('column lists picked from the dropdown', () => {
	const pollTrigger = async (parameters: IDataObject, staticData?: IDataObject) =>
		await runPoll({
			nodeType: new RecordsReportTrigger(),
			parameters: { report: byId(REPORTS.bankTransactions), rowIdentity: 'columns', ...parameters },
			credentials: credentials(),
			staticData,
		});

	it('identify rows as names given by an expression do, so the memory carries over from one to the other', async () => {
		const picked = await pollTrigger({ keyColumns: ['c1'] });
		await control(sandbox, `/reports/${REPORTS.bankTransactions}/rows`, { generate: 2 });
		const named = await pollTrigger({ keyColumns: '={{ "ID transakce" }}' }, picked.staticData);
		expect(named.items?.map((item) => item.json['ID transakce'])).toEqual(bankTransactionIds(10_001, 2));
	});

	it('an expression may name several columns, separated by commas', async () => {
		const first = await pollTrigger({ keyColumns: '={{ "ID transakce, Datum" }}', firstRun: 'emit' });
		expect(first.items).toHaveLength(10_000);
	});

	it('a column the report does not have is an error naming the columns it has', async () => {
		const failure = pollTrigger({ keyColumns: ['c1', 'c99'] });
		await expect(failure).rejects.toThrow('Key Columns: report "bank-transactions" has no column "c99"');
		await failure.catch((error: { description?: string }) =>
			expect(error.description).toContain("The report's columns: ID transakce (c1), Datum (c2), Částka (c3)"),
		);
	});

	it('convert the picked number and date columns in Get Rows', async () => {
		const result = await runNode({
			nodeType: new Records(),
			parameters: {
				resource: 'report',
				operation: 'getRows',
				report: byId(REPORTS.costs),
				limit: 1,
				options: { conversion: 'columns', numberColumns: ['c4'], dateColumns: ['c5'] },
			},
			credentials: credentials(),
		});
		const row = result.items[0].json;
		expect(typeof row['Částka (2)']).toBe('number');
		expect(typeof row['Částka']).toBe('string');
		expect(row['Datum splatnosti']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
	});

	it('warn, naming the key, when two rows share one', async () => {
		const warnings: string[] = [];
		jest.spyOn(Container.get(Logger), 'warn').mockImplementation((message: string) => void warnings.push(message));
		try {
			await pollTrigger({ keyColumns: ['c4'] });
		} finally {
			jest.restoreAllMocks();
		}
		expect(warnings.join('\n')).toContain('several rows share the key "CZK"');
	});
});
