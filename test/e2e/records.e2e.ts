/**
 * The Records node in a real n8n, run from the CLI (`n8n execute`) as a manual run: records
 * imported through a Code node's items, and reports read page by page. Every workflow and
 * credential is imported in one CLI call each, since each call boots n8n.
 */
import { N8nInstance, nodeOutput, type CredentialJson } from '../../tooling/n8n/n8nInstance';
import {
	BANK_COLUMNS,
	generateBankRows,
	RECORD_TYPES,
	REPORTS,
	SEED_RECORD_TYPES,
	startSandbox,
	TOKENS,
	type Sandbox,
} from '../../tooling/sandbox/server';
import { control, storedFields } from '../../tooling/sandbox/control';
import { startConcurrencyProbe, type ConcurrencyProbe } from './concurrencyProbe';
import { manualTrigger, readSetup, runtimesUnderTest, workflow, type NodeSpec } from './harness';

const { packed } = readSetup();

const INVOICES = RECORD_TYPES.receivedInvoices;
/** Not a multiple of any page size used, so the last page is a short one. */
const BANK_ROWS = 12_345;

const credentials = {
	import: { id: 'e2eRecordsImport1', name: 'Records import' },
	analysis: { id: 'e2eRecordsReport1', name: 'Records reports (admin)' },
	limited: { id: 'e2eRecordsLimited', name: 'Records reports (Jana)' },
};

/**
 * The invoices as another system hands them over: ISO dates, a date-time, JS numbers, a null and
 * a field name typed in NFD (as on a Mac). The third item edits a seeded invoice.
 */
const invoiceItemsCode = `
const nfd = (name) => name.normalize('NFD');
return [
	{ json: {
		'Interní číslo': 'FP-2026-0101',
		'Číslo dokladu': '2026040017',
		Partner: 'Účetní kancelář Šťastná s.r.o.',
		Pracovník: 'Jana Nováková',
		Vystavil: 'Květoslava Šťastná',
		Stav: 'Nová',
		Popis: 'Vedení účetnictví – březen 2026',
		[nfd('Způsob platby')]: 'Převodem',
		'Kategorie nákladu': 'Služby',
		Typ: 'Faktura',
		'Datum splatnosti': '2026-04-15',
		DUZP: '2026-03-31',
		'Datum přijetí': '02.04.2026',
		'Datum vystavení': '2026-03-31T22:30:00Z',
		'Variabilní symbol': '2026040017',
		'Konstantní symbol': '0308',
		'Kolik to stálo': 12345.6,
		'Sazba DPH': '21',
	} },
	{ json: {
		'Interní číslo': 'FP-2026-0102',
		Partner: 'Alza.cz a.s.',
		Popis: 'Licence „Kancelář" & podpora',
		'Datum splatnosti': '2026-05-04',
		'Kolik to stálo': 1234567.891,
		Projekt: null,
	} },
	{ json: {
		'Interní číslo': 'FP-2026-0002',
		Stav: 'Uhrazeno',
		'Datum uhrazení': '2026-02-14',
		'Kolik to stálo': 12850.4,
	} },
];
`;

const importInvoices = workflow('e2eImportInvoices', 'Import received invoices', [
	manualTrigger,
	{
		name: 'Invoices',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { jsCode: invoiceItemsCode },
	},
	{
		name: 'Import invoices',
		type: 'n8n-nodes-records.records',
		parameters: {
			resource: 'record',
			operation: 'import',
			recordTypeId: INVOICES,
			dataMode: 'autoMapInputData',
			options: {
				dateFields: 'Datum splatnosti, DUZP, Datum přijetí, Datum vystavení, Datum uhrazení',
				decimalPlaces: 2,
				timezone: 'Europe/Prague',
			},
		},
		credentials: { recordsApi: credentials.import },
	},
]);

const getRows = (name: string, credential: { id: string; name: string }, options: Record<string, unknown>): NodeSpec => ({
	name,
	type: 'n8n-nodes-records.records',
	parameters: {
		resource: 'report',
		operation: 'getRows',
		report: { __rl: true, mode: 'id', value: REPORTS.bankTransactions },
		returnAll: true,
		options,
	},
	credentials: { recordsApi: credential },
});

/** Two reads started by the same manual trigger: one run of `n8n execute` covers both. */
const readReports = (() => {
	const branches = [
		getRows('All rows in parallel', credentials.analysis, { concurrency: 4, pageSize: 250 }),
		getRows('Rows Jana may see', credentials.limited, {}),
	];
	const built = workflow('e2eReadBankReport', 'Read the bank transactions report', [manualTrigger, ...branches]);
	built.connections = {
		[manualTrigger.name]: { main: [branches.map((node) => ({ node: node.name, type: 'main', index: 0 }))] },
	};
	return built;
})();

const transactionIds = (items: Array<{ json: Record<string, unknown> }>) => items.map((item) => item.json['ID transakce']);

describe.each(runtimesUnderTest())('the Records node in %s', (_title, runtime) => {
	let sandbox: Sandbox;
	let probe: ConcurrencyProbe;
	let n8n: N8nInstance;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true, bankRows: BANK_ROWS });
		probe = await startConcurrencyProbe(sandbox.baseUrl);
		n8n = await N8nInstance.create({ runtime, package: packed });
		const recordsApi = (credential: { id: string; name: string }, baseUrl: string, token: string): CredentialJson => ({
			...credential,
			type: 'recordsApi',
			data: { baseUrl, token, allowHttp: true },
		});
		await n8n.importCredentials([
			recordsApi(credentials.import, sandbox.baseUrl, TOKENS.import),
			// Through the probe, which sees how many pages are requested at the same time.
			recordsApi(credentials.analysis, probe.baseUrl, TOKENS.analysisAdmin),
			recordsApi(credentials.limited, sandbox.baseUrl, TOKENS.analysisLimited),
		]);
		await n8n.importWorkflows([importInvoices, readReports]);
	});

	afterAll(async () => {
		await n8n?.stop();
		await probe?.close();
		await sandbox?.close();
	});

	test('Import creates and edits records with exactly the values the service expects', async () => {
		const seeded = SEED_RECORD_TYPES.find((type) => type.id === INVOICES)?.records.find(
			(record) => record['Interní číslo'] === 'FP-2026-0002',
		);
		expect(seeded).toBeDefined();

		const run = await n8n.executeSuccessfully(importInvoices.id);

		expect(storedFields(sandbox, INVOICES, 'FP-2026-0101')).toEqual({
			'Interní číslo': 'FP-2026-0101',
			'Číslo dokladu': '2026040017',
			Partner: 'Účetní kancelář Šťastná s.r.o.',
			Pracovník: 'Jana Nováková',
			Vystavil: 'Květoslava Šťastná',
			Stav: 'Nová',
			Popis: 'Vedení účetnictví – březen 2026',
			'Způsob platby': 'Převodem',
			'Kategorie nákladu': 'Služby',
			Typ: 'Faktura',
			'Datum splatnosti': '15.4.2026',
			DUZP: '31.3.2026',
			'Datum přijetí': '2.4.2026',
			// 22:30 UTC on 31 March is half past midnight on 1 April in Prague (summer time).
			'Datum vystavení': '1.4.2026',
			'Variabilní symbol': '2026040017',
			'Konstantní symbol': '0308',
			'Kolik to stálo': '12345,60',
			'Sazba DPH': '21',
		});
		expect(storedFields(sandbox, INVOICES, 'FP-2026-0102')).toEqual({
			'Interní číslo': 'FP-2026-0102',
			Partner: 'Alza.cz a.s.',
			Popis: 'Licence „Kancelář" & podpora',
			'Datum splatnosti': '4.5.2026',
			'Kolik to stálo': '1234567,89',
			Projekt: '',
		});
		expect(storedFields(sandbox, INVOICES, 'FP-2026-0002')).toEqual({
			...seeded,
			Stav: 'Uhrazeno',
			'Datum uhrazení': '14.2.2026',
			'Kolik to stálo': '12850,40',
		});
		const type = sandbox.state.recordTypes.get(INVOICES);
		expect([type?.created, type?.edited]).toEqual([2, 1]);
		expect(sandbox.state.findRecordByKey(INVOICES, 'FP-2026-0002')?.edits).toBe(1);

		const output = nodeOutput(run, 'Import invoices');
		expect(output.map((item) => [item.json.status, (item.json.record as Record<string, unknown>)['Interní číslo']])).toEqual([
			['created', 'FP-2026-0101'],
			['created', 'FP-2026-0102'],
			['edited', 'FP-2026-0002'],
		]);
		expect(JSON.stringify(run)).not.toContain(TOKENS.import);
	});

	test('Get Rows reads every row once and in order with parallel pages, and only the rows the token may see', async () => {
		const allRows = generateBankRows(BANK_ROWS);
		const visibleRows = allRows.filter((row) => row.c8 === 'CZ-PROVOZ');
		// Slow pages a little, so that requests sent in parallel are sure to overlap.
		await control(sandbox, '/faults', { route: 'report', latencyMs: 30 });
		probe.reset();

		const run = await n8n.executeSuccessfully(readReports.id);

		const all = nodeOutput(run, 'All rows in parallel');
		expect(all).toHaveLength(BANK_ROWS);
		expect(transactionIds(all)).toEqual(allRows.map((row) => row.c1));
		expect(new Set(transactionIds(all)).size).toBe(BANK_ROWS);
		// Rows keyed by the report's column names, every cell as the service sent it.
		const byName = (row: Record<string, string>) =>
			Object.fromEntries(BANK_COLUMNS.map((column) => [column.name, row[column.id]]));
		expect(all[0].json).toEqual(byName(allRows[0]));
		expect(all[BANK_ROWS - 1].json).toEqual(byName(allRows[BANK_ROWS - 1]));
		expect(probe.maxInFlight()).toBeGreaterThan(1);
		expect(probe.maxInFlight()).toBeLessThanOrEqual(4);

		const limited = nodeOutput(run, 'Rows Jana may see');
		expect(visibleRows.length).toBeGreaterThan(1000);
		expect(visibleRows.length).toBeLessThan(BANK_ROWS);
		expect(transactionIds(limited)).toEqual(visibleRows.map((row) => row.c1));
		expect(limited.every((item) => item.json['Účet'] === 'CZ-PROVOZ')).toBe(true);
		const serialized = JSON.stringify(run);
		expect(serialized).not.toContain(TOKENS.analysisAdmin);
		expect(serialized).not.toContain(TOKENS.analysisLimited);
	});
});
