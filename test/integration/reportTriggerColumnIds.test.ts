/**
 * Records Report Trigger on a report whose column ids are numbered by position (c1…c4), as the
 * docs' and the sandbox's reports are: a column added at the front moves every id while the names
 * stay. Through n8n-core's PollContext over real HTTP against the sandbox, in both identities and
 * in Anywhere and Appended at the End: the row added before that poll is emitted once, nothing is
 * emitted again, and n8n's log says the columns were followed by name.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { RecordsReportTrigger } from '../../nodes/RecordsReportTrigger/RecordsReportTrigger.node';
import { runPoll } from '../../tooling/harness/n8nCoreHarness';
import { control } from '../../tooling/sandbox/control';
import { captureWarnings, useSandbox } from './fixture';

jest.setTimeout(120_000);

const sandbox = useSandbox();
const logged = captureWarnings();

const FEED = 'positional-columns';
const NAMES = ['ID transakce', 'Částka', 'Protiúčet'];
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const ids = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => String(item.json['ID transakce']));

const transaction = (n: number): Record<string, string> => ({
	'ID transakce': `TX${String(n).padStart(4, '0')}`,
	Částka: `-${n},50`,
	Protiúčet: `${1000 + n}/0100`,
	Banka: 'Fio',
});

/** The report of `count` transactions with the columns `names`, their ids numbered by position. */
async function define(names: readonly string[], count: number): Promise<void> {
	const columns = names.map((name, i) => ({ id: `c${i + 1}`, name }));
	const rows = Array.from({ length: count }, (_, i) => Object.fromEntries(names.map((name, c) => [`c${c + 1}`, transaction(i + 1)[name]])));
	await control(sandbox, '/reports', { id: FEED, columns, rows });
}

async function poll(parameters: IDataObject, staticData?: IDataObject) {
	return await runPoll({
		nodeType: new RecordsReportTrigger(),
		parameters: { report: byId(FEED), ...parameters, options: { pageSize: 20 } },
		credentials: sandbox.credentials(),
		staticData,
	});
}

describe('a column added at the front of a report whose column ids are positions', () => {
	it.each<[string, IDataObject]>([
		['Key Columns by name, Anywhere', { rowIdentity: 'columns', keyColumns: 'ID transakce' }],
		['Key Columns from the list (by id), Anywhere', { rowIdentity: 'columns', keyColumns: ['c1'] }],
		['Key Columns by name, Appended at the End', { rowIdentity: 'columns', keyColumns: 'ID transakce', newRowPosition: 'end' }],
		['Whole Row, Anywhere', {}],
		['Whole Row, Appended at the End', { newRowPosition: 'end' }],
	])('%s: the transaction added before that poll is emitted once, the other 53 not again', async (_case, parameters) => {
		await define(NAMES, 53);
		const first = await poll(parameters);
		expect(first.items).toBeNull();
		await define(['Banka', ...NAMES], 54);
		const moved = await poll(parameters, first.staticData);
		expect(ids(moved.items)).toEqual(['TX0054']);
		expect(logged.messages.join('\n')).toMatch(/column ids moved.*followed by the columns' names/);
		expect(logged.messages.join('\n')).not.toMatch(/starts over/);
		expect((await poll(parameters, moved.staticData)).items).toBeNull();
	});

	it('Whole Row: a remembered column renamed while the ids moved stops with an error that says what happened', async () => {
		await define(NAMES, 10);
		const first = await poll({});
		await control(sandbox, '/reports', {
			id: FEED,
			columns: ['Banka', 'ID transakce', 'Amount', 'Protiúčet'].map((name, i) => ({ id: `c${i + 1}`, name })),
			rows: [{ c1: 'Fio', c2: 'TX0001', c3: '-1,50', c4: '1001/0100' }],
		});
		await expect(poll({}, first.staticData)).rejects.toThrow(/column ids moved.*"Částka"/);
	});
});
