import { exampleImports, outdatedExampleNodes, prepareSandboxForExamples, readExamples, readServiceCall } from '../../tooling/examples/examples';
import { N8nInstance, nodeOutput } from '../../tooling/n8n/n8nInstance';
import { packageNodeVersions } from '../../tooling/n8n/nodeVersions';
import { waitFor } from '../../tooling/lib/proc';
import { REGISTRY_COMPANIES, startStandIns, type StandIns } from '../../tooling/examples/stand-ins';
import { generateBankRows, REPORTS, startSandbox, TOKENS, type Sandbox } from '../../tooling/sandbox/server';
import { readSetup, runtimesUnderTest } from './harness';

/**
 * Every workflow of examples/ runs in a real n8n against the Records sandbox, with the outside
 * systems answered by the local stand-ins, as `npm start` sets them up. The scheduled example runs
 * from the CLI: `n8n execute` starts at its *Run now* trigger, which feeds the same nodes as the
 * schedule (a 30-minute schedule cannot be waited for). The others are activated and started by
 * their own triggers: the report trigger by the poll n8n makes whenever it activates a workflow
 * (on reactivation, and at start after a restart) instead of waiting 10 minutes, the Records
 * Trigger examples by the sandbox's call API actions of examples/sandbox.
 */

const { packed } = readSetup();
const examples = readExamples();

function exampleId(file: string): string {
	const example = examples.find((candidate) => candidate.file === file);
	if (!example) throw new Error(`examples/${file} is missing; the examples are: ${examples.map((e) => e.file).join(', ')}`);
	return example.id;
}

const BANK = exampleId('01-bank-transactions-to-accounting.json');
const PRICE_LIST = exampleId('02-price-list-to-products.json');
const ALERTS = exampleId('03-overdue-invoice-and-budget-alerts.json');
const ORDERS = exampleId('04-route-orders-by-decision.json');
const COMPANY_LOOKUP = exampleId('05-company-registry-lookup.json');

interface CallOutcome {
	ok: boolean;
	status: number | null;
	parsed: unknown;
	mapped: Record<string, string>;
	record: { fields: Record<string, string> } | null;
	error?: string;
}

/** Czech decimal text (-1234,50) as a number, as the report trigger's conversion reads it. */
const czechNumber = (text: string) => Number(text.replace(',', '.'));
/** d.m.yyyy as yyyy-mm-dd. */
const isoDate = (text: string) => {
	const [day, month, year] = text.split('.');
	return `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
};

test('every node of this package in examples/ is at its version', () => {
	expect(Object.keys(packageNodeVersions())).toHaveLength(4);
	expect(outdatedExampleNodes(packageNodeVersions())).toEqual([]);
});

describe.each(runtimesUnderTest())('the examples in %s', (_title, runtime) => {
	let sandbox: Sandbox;
	let standIns: StandIns;
	let n8n: N8nInstance;

	const products = () =>
		Object.fromEntries(sandbox.state.getRecords('produkty').map((record) => [record.fields['Kód'], record.fields]));

	/** The sandbox performs a call API action of examples/sandbox against this n8n. */
	const serviceCall = async (name: string, changes: Record<string, unknown> = {}): Promise<CallOutcome> => {
		const response = await fetch(`${sandbox.baseUrl}/__sandbox/outbound/call`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ ...readServiceCall(name, n8n.baseUrl), ...changes }),
		});
		expect(response.status).toBe(200);
		return (await response.json()) as CallOutcome;
	};

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true });
		standIns = await startStandIns();
		await prepareSandboxForExamples(sandbox.baseUrl, TOKENS.import);
		n8n = await N8nInstance.create({ runtime, package: packed });
		const { credentials, workflows } = exampleImports(sandbox.baseUrl, TOKENS.full, standIns.baseUrl);
		await n8n.importCredentials(credentials);
		await n8n.importWorkflows(workflows);
	});

	afterAll(async () => {
		await n8n?.stop();
		await standIns?.close();
		await sandbox?.close();
	});

	test('price list: each run imports the spreadsheet into produkty, editing known codes and creating new ones', async () => {
		const first = await n8n.executeSuccessfully(PRICE_LIST);

		expect(standIns.receivedAt('/sheets/')).toHaveLength(1);
		expect(products()).toEqual({
			'KAV-001': { Kód: 'KAV-001', Název: 'Káva zrnková Brazílie 1 kg', Kategorie: 'Káva', Cena: '419,00', Skladem: '36' },
			'KAV-002': { Kód: 'KAV-002', Název: 'Káva mletá Kolumbie 250 g', Kategorie: 'Káva', Cena: '129,00', Skladem: '120' },
			'CAJ-010': { Kód: 'CAJ-010', Název: 'Čaj zelený Sencha 100 g', Kategorie: 'Čaj', Cena: '95,00', Skladem: '28' },
			'CAJ-011': { Kód: 'CAJ-011', Název: 'Čaj černý Assam, sypaný 100 g', Kategorie: 'Čaj', Cena: '89,90', Skladem: '50' },
			'PRI-100': { Kód: 'PRI-100', Název: 'Ruční mlýnek na kávu', Kategorie: 'Příslušenství', Cena: '1249,00', Skladem: '8' },
		});
		expect(nodeOutput(first, 'Import into Produkty').map((item) => item.json.status)).toEqual([
			'edited',
			'edited',
			'edited',
			'created',
			'created',
		]);

		// Someone edits the sheet; the next tick imports what changed and adds the new row.
		standIns.priceList = [
			'Kód produktu,Název,Kategorie,Cena bez DPH,Skladem (ks)',
			'KAV-001,Káva zrnková Brazílie 1 kg,Káva,"419,00",30',
			'KAV-002,Káva mletá Kolumbie 250 g,Káva,135.5,118',
			'CAJ-010,Čaj zelený Sencha 100 g,Čaj,"95,00",28',
			'CAJ-011,"Čaj černý Assam, sypaný 100 g",Čaj,"89,90",50',
			'PRI-100,Ruční mlýnek na kávu,Příslušenství,"1 249,00",8',
			'PRI-101,"Konvice na čaj, litina 0,8 l",Příslušenství,"2 390",3',
		].join('\n');
		const second = await n8n.executeSuccessfully(PRICE_LIST);

		// What the README says each later run shows: the five known codes edited, the new one created.
		expect(nodeOutput(second, 'Import into Produkty').map((item) => item.json.status)).toEqual([
			...Array(5).fill('edited'),
			'created',
		]);
		const after = products();
		expect(Object.keys(after).sort()).toEqual(['CAJ-010', 'CAJ-011', 'KAV-001', 'KAV-002', 'PRI-100', 'PRI-101']);
		expect(after['KAV-001']).toMatchObject({ Cena: '419,00', Skladem: '30' });
		expect(after['KAV-002']).toMatchObject({ Cena: '135,50', Skladem: '118' });
		expect(after['PRI-101']).toEqual({
			Kód: 'PRI-101',
			Název: 'Konvice na čaj, litina 0,8 l',
			Kategorie: 'Příslušenství',
			Cena: '2390,00',
			Skladem: '3',
		});
		expect(sandbox.state.getRecords('produkty')).toHaveLength(6);
	});

	describe('activated', () => {
		beforeAll(async () => {
			await n8n.start();
			await n8n.setupOwner();
			for (const id of [PRICE_LIST, ALERTS, ORDERS, COMPANY_LOOKUP]) await n8n.api('POST', `/workflows/${id}/activate`);
			// Activation can return before every webhook is registered (n8n 2.41.1 once offered DELETE, GET
			// and HEAD on records/alerts but not yet POST): wait for each path and method the tests call.
			await n8n.waitForWebhook('records/alerts', { method: 'POST' });
			await n8n.waitForWebhook('records/order-decided', { method: 'POST' });
			await n8n.waitForWebhook('records/company-lookup', { method: 'GET' });
		});

		test('alerts: an overdue invoice and a task over budget each post their message to the chat', async () => {
			const invoice = await serviceCall('invoice-overdue');
			const task = await serviceCall('task-budget-exceeded');

			expect(invoice).toMatchObject({ ok: true, status: 200, parsed: { received: true } });
			expect(task).toMatchObject({ ok: true, status: 200, parsed: { received: true } });
			const posted = await waitFor('two chat messages', () => {
				const requests = standIns.receivedAt('/chat/');
				return requests.length >= 2 ? requests : undefined;
			});
			expect(posted.map((request) => request.body)).toEqual(
				expect.arrayContaining([
					{
						channel: 'finance',
						text: 'Invoice FP-2026-0002 (F-77120) from ČEZ Prodej, a.s. for 12850,40 CZK was due on 15.2.2026 and is not paid. Owner: Petr Svoboda.',
					},
					{
						channel: 'projects',
						text: 'Task "Spustit nový e-shop" has 134,5 h logged against a budget of 120 h. Assignee: Petr Svoboda.',
					},
				]),
			);
			await n8n.waitForExecutions(ALERTS, 2);
			expect(standIns.receivedAt('/chat/')).toHaveLength(2);
		});

		test('orders: an approved order becomes an ERP sales order, a rejected one a follow-up task in Records', async () => {
			const approved = await serviceCall('order-decided', { recordKey: 'OBJ-2026-0101' });
			expect(approved).toMatchObject({ ok: true, status: 200 });
			const [erpOrder] = await waitFor('the ERP order', () => {
				const requests = standIns.receivedAt('/erp/');
				return requests.length > 0 ? requests : undefined;
			});
			expect(erpOrder.path).toBe('/erp/api/sales-orders');
			expect(erpOrder.headers['idempotency-key']).toBe('OBJ-2026-0101');
			expect(erpOrder.body).toEqual({
				externalOrderId: 'OBJ-2026-0101',
				customerName: 'Alfa Trade s.r.o.',
				totalAmount: 48500,
				currency: 'CZK',
				salesperson: 'Petr Svoboda',
			});

			const rejected = await serviceCall('order-decided', { recordKey: 'OBJ-2026-0102' });
			expect(rejected).toMatchObject({ ok: true, status: 200 });
			const taskName = 'Informovat zákazníka Gama Logistika s.r.o. o zamítnutí objednávky OBJ-2026-0102';
			const task = await waitFor('the follow-up task', () => sandbox.state.findRecordByKey('ukoly', taskName));
			expect(task.fields).toEqual({ Název: taskName, Zadal: 'Schvalování objednávek', Zpracovatel: 'Jana Nováková' });

			const executions = await n8n.waitForExecutions(ORDERS, 2);
			expect(executions.map((execution) => execution.status)).toEqual(['success', 'success']);
			expect(standIns.receivedAt('/erp/')).toHaveLength(1);
			const tasks = sandbox.state.getRecords('ukoly').map((record) => String(record.fields['Název']));
			expect(tasks.filter((name) => name.includes('OBJ-2026-0101'))).toEqual([]);
		});

		test('registry lookup: the answer is mapped into the customer record; an IČO the registry does not know maps nothing', async () => {
			const found = await serviceCall('company-lookup', { recordKey: '27182819' });
			expect(found).toMatchObject({ ok: true, status: 200 });
			const bakery = REGISTRY_COMPANIES.find((company) => company.ico === '27182819');
			expect(sandbox.state.findRecordByKey('odberatele', '27182819')?.fields).toEqual({
				IČO: '27182819',
				Název: bakery?.obchodniJmeno,
				DIČ: 'CZ27182819',
				Sídlo: 'Mlýnská 1250/12, Holešovice, 17000 Praha 7',
				'Datum vzniku': '15.3.2011',
			});

			// A sole trader without a VAT ID: DIČ stays empty.
			const soleTrader = await serviceCall('company-lookup', { recordKey: '17320500' });
			expect(soleTrader).toMatchObject({ ok: true, status: 200, mapped: { Název: 'Ing. Jana Svobodová', DIČ: '' } });

			const unknown = await serviceCall('company-lookup', { recordKey: '31415920' });
			expect(unknown).toMatchObject({
				ok: false,
				status: 404,
				parsed: { found: false, ico: '31415920', reason: 'Ekonomický subjekt s IČO 31415920 nebyl nalezen.' },
				mapped: {},
			});
			expect(sandbox.state.findRecordByKey('odberatele', '31415920')?.fields).toMatchObject({ Název: '', Sídlo: '' });

			expect(standIns.receivedAt('/ares/').map((request) => request.path)).toEqual([
				'/ares/ekonomicke-subjekty/27182819',
				'/ares/ekonomicke-subjekty/17320500',
				'/ares/ekonomicke-subjekty/31415920',
			]);
		});

		test('bank transactions: rows added to the report reach accounting once, across restarts; the history is not sent', async () => {
			const addRows = async (count: number) => {
				const response = await fetch(`${sandbox.baseUrl}/__sandbox/reports/${REPORTS.bankTransactions}/rows`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ generate: count }),
				});
				expect(response.status).toBe(200);
			};
			const asSent = (row: Record<string, string>) => ({
				externalId: row.c1,
				bookingDate: isoDate(row.c2),
				amount: czechNumber(row.c3),
				currency: row.c4,
				account: row.c8,
				counterpartyAccount: row.c5,
				variableSymbol: row.c6,
				description: row.c7,
			});
			const sentTransactions = () => standIns.receivedAt('/accounting/');
			const historyRows = sandbox.state.reports.get(REPORTS.bankTransactions)?.rowCount ?? 0;
			expect(historyRows).toBeGreaterThan(1000);
			// Activating polls once (n8n 2.x after answering the request): the trigger remembers the history.
			const activate = async () => {
				await n8n.api('POST', `/workflows/${BANK}/activate`);
				await waitFor('the bank transactions trigger to remember the report', async () =>
					(await n8n.api<{ staticData?: unknown }>('GET', `/workflows/${BANK}`)).staticData ? true : undefined,
				);
			};
			await activate();
			expect(sentTransactions()).toEqual([]);

			// The next poll would come within 10 minutes; n8n also polls whenever it activates the
			// workflow: here when it is activated again, then when n8n starts.
			await addRows(3);
			await n8n.api('POST', `/workflows/${BANK}/deactivate`);
			await activate();
			const [firstRun] = await n8n.waitForExecutions(BANK, 1);
			expect(firstRun.status).toBe('success');
			expect(sentTransactions().map((request) => request.body)).toEqual(
				expect.arrayContaining(generateBankRows(3, historyRows).map(asSent)),
			);
			expect(sentTransactions()).toHaveLength(3);

			await addRows(1);
			await n8n.stop();
			await n8n.start();
			const executions = await n8n.waitForExecutions(BANK, 2);
			expect(executions.map((execution) => execution.status)).toEqual(['success', 'success']);
			const expected = generateBankRows(4, historyRows).map(asSent);
			expect(sentTransactions().map((request) => request.body)).toEqual(expect.arrayContaining(expected));
			expect(sentTransactions().map((request) => request.headers['idempotency-key']).sort()).toEqual(
				expected.map((transaction) => transaction.externalId),
			);
		});
	});
});
