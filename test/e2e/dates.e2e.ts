/**
 * Dates as users write them, in a real n8n: in *Define Fields Below*, in *JSON* mode and from a Code
 * node, n8n turns a Luxon DateTime (`{{ $now }}`, `{{ $today }}`, `DateTime.fromISO(...)`) into ISO
 * text before the node sees it. The Records node sends those as the service's dates without *Date
 * Fields*, and text that only looks like a date as typed. Invoice → Create gives a date-time the calendar day it has in the workflow's time zone,
 * as Import does. One workflow holds every case, so each release boots n8n once to run it.
 */
import { DateTime } from 'luxon';

import { N8nInstance, nodeOutput, type WorkflowJson } from '../../tooling/n8n/n8nInstance';
import { RECORD_TYPES, startSandbox, TOKENS, type Sandbox } from '../../tooling/sandbox/server';
import { storedFields } from '../../tooling/sandbox/control';
import { manualTrigger, readSetup, runtimesUnderTest, workflow, type NodeSpec } from './harness';

const { packed } = readSetup();

const INVOICES = RECORD_TYPES.receivedInvoices;
const ZONE = 'Europe/Prague';
const credential = { id: 'e2eDatesRecords1', name: 'Records (dates)' };

/** The values of one record, as a user would write them in the node (expressions start with `=`). */
const FIELDS_AS_WRITTEN = {
	'Datum splatnosti': "={{ DateTime.fromISO('2026-03-05T10:00:00', { zone: 'Europe/Prague' }) }}",
	DUZP: '={{ $today }}',
	'Datum přijetí': '={{ $now }}',
	'Datum vystavení': "={{ new Date('2026-03-05T09:00:00Z') }}",
	// Half an hour before midnight in Prague: still 31 March in the workflow's time zone.
	'Datum uhrazení': "={{ DateTime.fromISO('2026-03-31T23:30:00', { zone: 'Europe/Prague' }) }}",
	// Text that only looks like a date or a number stays as typed.
	'Variabilní symbol': '0012345',
	Popis: '1.2.2026',
	'Číslo objednávky': '2026-03-05',
};

const importNode = (name: string, parameters: Record<string, unknown>): NodeSpec => ({
	name,
	type: 'n8n-nodes-records.records',
	parameters: { resource: 'record', operation: 'import', recordTypeId: INVOICES, ...parameters },
	credentials: { recordsApi: credential },
});

const defineBelow = (key: string) =>
	importNode(`Define below ${key}`, {
		dataMode: 'defineBelow',
		fields: {
			field: Object.entries({ 'Interní číslo': key, ...FIELDS_AS_WRITTEN }).map(([name, value]) => ({ name, value })),
		},
	});

/** JSON mode written as one expression that returns the records (the values are DateTimes). */
const jsonExpression = importNode('JSON expression', {
	dataMode: 'json',
	jsonRecords: `={{ [{ 'Interní číslo': 'DATES-JSON-EXPR', 'Datum splatnosti': DateTime.fromISO('2026-03-05T10:00:00', { zone: 'Europe/Prague' }), DUZP: $today, 'Variabilní symbol': '0012345' }] }}`,
});

/**
 * JSON mode written as JSON text with expressions in its string values. A JavaScript Date in such
 * text would become JavaScript's long form ("Thu Mar 05 2026 …"), which the README tells users to
 * write as `.toISOString()`.
 */
const jsonTemplate = importNode('JSON text', {
	dataMode: 'json',
	jsonRecords: `=[{ "Interní číslo": "DATES-JSON-TEXT", "Datum splatnosti": "{{ DateTime.fromISO('2026-03-05T10:00:00', { zone: 'Europe/Prague' }) }}", "DUZP": "{{ $today }}", "Datum vystavení": "{{ new Date('2026-03-05T09:00:00Z').toISOString() }}", "Variabilní symbol": "0012345" }]`,
});

/** A Code node's dates reach the next node as ISO text (JSON). */
const codeDates: NodeSpec = {
	name: 'Code dates',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: {
		jsCode: `return [{ json: {
	'Interní číslo': 'DATES-CODE',
	'Datum splatnosti': DateTime.fromISO('2026-03-05T10:00:00', { zone: 'Europe/Prague' }),
	// 22:30 UTC on 31 March is half past midnight on 1 April in Prague.
	'Datum vystavení': new Date('2026-03-31T22:30:00Z'),
	'Variabilní symbol': '0012345',
	Popis: '2026-03-05',
} }];`,
	},
};

const invoiceNode = (name: string, dueDate: string): NodeSpec => ({
	name,
	type: 'n8n-nodes-records.records',
	parameters: { resource: 'api', operation: 'createInvoice', clientId: 3, amount: 100, currency: 'CZK', dueDate },
	credentials: { recordsApi: credential },
});
/** 22:30 UTC on 31 March: 1 April in the workflow's time zone. */
const LATE_UTC = "={{ DateTime.fromISO('2026-03-31T22:30:00Z', { setZone: true }) }}";

/** Every case hangs off the manual trigger; the Code node feeds its own import. */
const datesWorkflow: WorkflowJson = (() => {
	const branches = [
		defineBelow('DATES-BELOW'),
		jsonExpression,
		jsonTemplate,
		codeDates,
		invoiceNode('Invoice', LATE_UTC),
	];
	const fromCode = importNode('Import from Code', { dataMode: 'autoMapInputData' });
	const built = workflow('e2eDatesAsWritten', 'Dates as users write them', [manualTrigger, ...branches, fromCode]);
	built.settings = { ...built.settings, timezone: ZONE };
	built.connections = {
		[manualTrigger.name]: { main: [branches.map((node) => ({ node: node.name, type: 'main', index: 0 }))] },
		[codeDates.name]: { main: [[{ node: fromCode.name, type: 'main', index: 0 }]] },
	};
	return built;
})();

describe.each(runtimesUnderTest())('dates written in a real %s', (_title, runtime) => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true, bankRows: 10 });
		n8n = await N8nInstance.create({ runtime, package: packed });
		await n8n.importCredentials([
			{ ...credential, type: 'recordsApi', data: { baseUrl: sandbox.baseUrl, token: TOKENS.full, allowHttp: true } },
		]);
		await n8n.importWorkflows([datesWorkflow]);
	});

	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.close();
	});

	test('sends dates from expressions and Code nodes as d.m.yyyy, and typed text as typed', async () => {
		const run = await n8n.executeSuccessfully(datesWorkflow.id);
		const today = DateTime.now().setZone(ZONE);
		const todayText = `${today.day}.${today.month}.${today.year}`;

		expect(storedFields(sandbox, INVOICES, 'DATES-BELOW')).toMatchObject({
			'Datum splatnosti': '5.3.2026',
			DUZP: todayText,
			'Datum přijetí': todayText,
			'Datum vystavení': '5.3.2026',
			'Datum uhrazení': '31.3.2026',
			'Variabilní symbol': '0012345',
			Popis: '1.2.2026',
			'Číslo objednávky': '2026-03-05',
		});
		expect(storedFields(sandbox, INVOICES, 'DATES-JSON-EXPR')).toMatchObject({
			'Datum splatnosti': '5.3.2026',
			DUZP: todayText,
			'Variabilní symbol': '0012345',
		});
		expect(storedFields(sandbox, INVOICES, 'DATES-JSON-TEXT')).toMatchObject({
			'Datum splatnosti': '5.3.2026',
			DUZP: todayText,
			'Datum vystavení': '5.3.2026',
			'Variabilní symbol': '0012345',
		});
		expect(storedFields(sandbox, INVOICES, 'DATES-CODE')).toMatchObject({
			'Datum splatnosti': '5.3.2026',
			'Datum vystavení': '1.4.2026',
			'Variabilní symbol': '0012345',
			Popis: '2026-03-05',
		});
		expect(nodeOutput(run, 'Invoice')[0].json.due_date).toBe('2026-04-01');
	});
});
