/**
 * The Records Trigger and the Records Report Trigger in a real, running n8n: active workflows
 * called by the sandbox's outbound side (call API actions and webhooks, spec §4.3 and §6), and a
 * report polled on n8n's own schedule, across a restart of n8n on the same database. One n8n per
 * runtime serves every test of this file.
 */
import { N8nInstance, nodeOutput, type WorkflowJson } from '../../tooling/n8n/n8nInstance';
import { BANK_COLUMNS, bankTransactionIds, generateBankRows, RECORD_TYPES, startSandbox, type Sandbox } from '../../tooling/sandbox/server';
import { callApi, control, sendWebhook, storedFields, type ServiceAuth } from '../../tooling/sandbox/control';
import { readSetup, runtimesUnderTest, workflow } from './harness';
import {
	createReportsCredential,
	pollEvery15Seconds,
	reportReadsSince,
	reportRequests,
	requestsPerPoll,
	waitForReportRequests,
} from './polling';

const { packed } = readSetup();

const INVOICES = RECORD_TYPES.receivedInvoices;
const BASIC = { user: 'records-service', password: 'S3cret heslo čšž' };
const BEARER = 'oauth2-access-token.7c1e9a2f54';
const basicAuth: ServiceAuth = { type: 'basic', username: BASIC.user, password: BASIC.password };
const bearerAuth: ServiceAuth = { type: 'oauth2', accessToken: BEARER };

const PATHS = { approval: 'records/approval', registry: 'records/registry', events: 'records/events' };

const FEED_REPORT = 'bank-feed';
const FEED_ROWS = 240;
describe.each(runtimesUnderTest())('the Records triggers in %s', (_title, runtime) => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	const workflowIds: Record<'approval' | 'registry' | 'events' | 'feed', string> = {
		approval: '',
		registry: '',
		events: '',
		feed: '',
	};

	const url = (path: string) => `${n8n.baseUrl}/webhook/${path}`;
	const feedRowCount = () => sandbox.state.reports.get(FEED_REPORT)?.rowCount ?? 0;
	const appendFeedRows = (count: number) => control(sandbox, `/reports/${FEED_REPORT}/rows`, { generate: count });

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true, bankRows: 10 });
		await control(sandbox, '/reports', { id: FEED_REPORT, generate: 'bank', rows: FEED_ROWS });
		n8n = await N8nInstance.create({ runtime, package: packed });
		await n8n.start();

		const basicId = await n8n.createCredential({
			name: 'Records service (Basic)',
			type: 'recordsTriggerBasicAuthApi',
			data: BASIC,
		});
		const bearerId = await n8n.createCredential({
			name: 'Records service (OAUTH2 token)',
			type: 'recordsTriggerBearerAuthApi',
			data: { token: BEARER },
		});
		const reportsCredential = await createReportsCredential(n8n, sandbox, FEED_REPORT);
		const basicCredential = { recordsTriggerBasicAuthApi: { id: basicId, name: 'Records service (Basic)' } };
		const bearerCredential = { recordsTriggerBearerAuthApi: { id: bearerId, name: 'Records service (OAUTH2 token)' } };

		const workflows: Record<keyof typeof workflowIds, WorkflowJson> = {
			// A JSON call with Basic auth, answered by Respond to Call with a body built by expressions.
			approval: workflow('approval', 'Approve a received invoice', [
				{
					name: 'Records call',
					type: 'n8n-nodes-records.recordsTrigger',
					typeVersion: 1.1,
					webhookId: '5d1c7e0a-3b8f-4e21-9a64-0c2f7b1e0001',
					parameters: { authentication: 'basicAuth', path: PATHS.approval, responseMode: 'responseNode' },
					credentials: basicCredential,
				},
				{
					name: 'Respond to Call',
					type: 'n8n-nodes-records.records',
					parameters: {
						resource: 'workflowCall',
						operation: 'respond',
						respondWith: 'json',
						responseBody:
							'={ "stav": "Schváleno", "poznamka": "Schváleno v n8n: {{ $json.body.partner }}, {{ $json.body.castka }} Kč" }',
					},
				},
			]),
			// An XML call with a bearer token: a Set node builds the answer, Respond to Call writes it as XML.
			registry: workflow('registry', 'Look up a company', [
				{
					name: 'Records call',
					type: 'n8n-nodes-records.recordsTrigger',
					webhookId: '5d1c7e0a-3b8f-4e21-9a64-0c2f7b1e0002',
					parameters: { authentication: 'bearerToken', path: PATHS.registry, responseMode: 'responseNode' },
					credentials: bearerCredential,
				},
				{
					name: 'Company',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					parameters: {
						assignments: {
							assignments: [
								{ id: 'name', name: 'firma.nazev', type: 'string', value: 'Účetní kancelář Šťastná s.r.o.' },
								{ id: 'ico', name: 'firma.ico', type: 'string', value: '={{ $json.body.dotaz.ico }}' },
								{ id: 'state', name: 'stav', type: 'string', value: 'Ověřeno v rejstříku' },
							],
						},
						options: {},
					},
				},
				{
					name: 'Respond to Call',
					type: 'n8n-nodes-records.records',
					parameters: {
						resource: 'workflowCall',
						operation: 'respond',
						respondWith: 'firstIncomingItem',
						options: { xmlRootElement: 'odpoved' },
					},
				},
			]),
			// invoice.paid webhooks and workflow calls, answered with the last node's item.
			events: workflow('events', 'Invoice paid', [
				{
					name: 'Records call',
					type: 'n8n-nodes-records.recordsTrigger',
					typeVersion: 1.1,
					webhookId: '5d1c7e0a-3b8f-4e21-9a64-0c2f7b1e0003',
					parameters: {
						authentication: 'bearerToken',
						path: PATHS.events,
						events: ['invoice.paid', '(no event)'],
						responseMode: 'lastNode',
						responseData: 'firstEntryJson',
					},
					credentials: bearerCredential,
				},
				{
					name: 'Answer',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					parameters: {
						assignments: {
							assignments: [
								{
									id: 'state',
									name: 'stav',
									type: 'string',
									value: '={{ $json.event === "invoice.paid" ? "Uhrazeno" : "Přijato" }}',
								},
								{
									id: 'invoice',
									name: 'faktura',
									type: 'string',
									value: '={{ $json.event === "invoice.paid" ? $json.body.invoice_id : $json.body.faktura }}',
								},
							],
						},
						options: {},
					},
				},
			]),
			feed: workflow('feed', 'New bank transactions', [
				{
					name: 'New bank rows',
					type: 'n8n-nodes-records.recordsReportTrigger',
					parameters: {
						pollTimes: pollEvery15Seconds,
						report: { __rl: true, mode: 'id', value: FEED_REPORT },
						rowIdentity: 'columns',
						keyColumns: 'ID transakce',
						firstRun: 'remember',
					},
					credentials: { recordsApi: reportsCredential },
				},
			]),
		};
		for (const key of Object.keys(workflows) as Array<keyof typeof workflowIds>) {
			workflowIds[key] = await n8n.createWorkflow(workflows[key], { activate: true });
		}
		// Activating polls the report once, which remembers its rows (n8n 2.x activates in the
		// background, after the API has answered). Rows added after that poll are found by a scheduled
		// one while the tests before the report trigger's run; that test comes last.
		await waitForReportRequests(sandbox, 0, requestsPerPoll(FEED_ROWS));
		await appendFeedRows(3);
	});

	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.close();
	});

	test('a JSON workflow call with Basic auth: Respond to Call answers, the service maps the answer into the record; wrong credentials start nothing', async () => {
		await n8n.waitForWebhook(PATHS.approval, { method: 'POST' });
		const key = 'FP-2026-0003';
		const before = storedFields(sandbox, INVOICES, key);
		const action = {
			url: url(PATHS.approval),
			method: 'POST',
			format: 'json',
			body: { faktura: '#(Interní číslo)', partner: '#(Partner)', castka: '#(Kolik to stálo)' },
			recordTypeId: INVOICES,
			recordKey: key,
			mapping: [
				{ from: 'stav', to: 'Stav' },
				{ from: 'poznamka', to: 'Popis' },
			],
		};

		const refused = [
			await callApi(sandbox, { ...action, auth: { ...basicAuth, password: 'S3cret heslo' } }),
			await callApi(sandbox, { ...action, auth: { type: 'none' } }),
			await callApi(sandbox, { ...action, auth: { type: 'oauth2', accessToken: 'S3cret-heslo' } }),
		];
		expect(refused.map((outcome) => outcome.status)).toEqual([401, 401, 401]);
		expect(storedFields(sandbox, INVOICES, key)).toEqual(before);

		const accepted = await callApi(sandbox, { ...action, auth: basicAuth });

		expect(accepted).toMatchObject({ ok: true, status: 200, unmapped: [] });
		expect(accepted.headers['content-type']).toMatch(/^application\/json/);
		expect(storedFields(sandbox, INVOICES, key)).toEqual({
			...before,
			Stav: 'Schváleno',
			Popis: 'Schváleno v n8n: Stavby Dvořák a syn, 50000,00 Kč',
		});
		const [execution] = await n8n.waitForExecutions(workflowIds.approval, 1);
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'Records call').map((item) => item.json)).toEqual([
			{
				event: null,
				method: 'POST',
				format: 'json',
				replyFormat: 'json',
				body: { faktura: key, partner: 'Stavby Dvořák a syn', castka: '50000,00' },
				query: {},
				params: {},
			},
		]);
		// Every execution is listed once it starts: the refused calls would have been before this one.
		expect(await n8n.executions(workflowIds.approval)).toHaveLength(1);
		for (const outcome of [...refused, accepted]) expect(outcome.body ?? '').not.toContain(BASIC.password);
		expect(JSON.stringify(execution)).not.toContain(BASIC.password);
	});

	test('an XML workflow call with a bearer token: the XML answer is mapped into the record; a PING, a wrong token and malformed XML start nothing', async () => {
		await n8n.waitForWebhook(PATHS.registry, { method: 'PUT' });
		await n8n.waitForWebhook(PATHS.registry, { method: 'HEAD' });
		const key = 'FP-2026-0001';
		const before = storedFields(sandbox, INVOICES, key);
		const action = {
			url: url(PATHS.registry),
			method: 'PUT',
			format: 'xml',
			xmlRoot: 'dotaz',
			body: { ico: '#(Variabilní symbol)', partner: '#(Partner)' },
			recordTypeId: INVOICES,
			recordKey: key,
			mapping: [
				{ from: 'firma.nazev', to: 'Partner' },
				{ from: 'odpoved.firma.ico', to: 'Specifický symbol' },
				{ from: 'stav', to: 'Stav' },
			],
		};

		const ping = await callApi(sandbox, { url: url(PATHS.registry), method: 'PING', auth: bearerAuth });
		const wrongToken = await callApi(sandbox, { ...action, auth: { type: 'oauth2', accessToken: `${BEARER}x` } });
		const noToken = await callApi(sandbox, { ...action, auth: { type: 'none' } });
		const malformed = await callApi(sandbox, {
			url: url(PATHS.registry),
			method: 'POST',
			format: 'xml',
			contentType: 'application/xml',
			rawBody: '<dotaz><ico>2026010045</dotaz>',
			auth: bearerAuth,
		});
		expect([ping.status, wrongToken.status, noToken.status]).toEqual([200, 401, 401]);
		expect(wrongToken.headers['www-authenticate']).toMatch(/^Bearer /);
		// n8n parses a body declared as XML itself and refuses a malformed one before the node runs.
		expect(malformed.status).toBe(422);
		expect(storedFields(sandbox, INVOICES, key)).toEqual(before);

		const accepted = await callApi(sandbox, { ...action, auth: bearerAuth });

		expect(accepted).toMatchObject({ ok: true, status: 200, unmapped: [] });
		expect(accepted.headers['content-type']).toMatch(/^application\/xml/);
		expect(accepted.body).toBe(
			'<?xml version="1.0" encoding="UTF-8"?><odpoved><firma><nazev>Účetní kancelář Šťastná s.r.o.</nazev><ico>2026010045</ico></firma><stav>Ověřeno v rejstříku</stav></odpoved>',
		);
		expect(storedFields(sandbox, INVOICES, key)).toEqual({
			...before,
			Partner: 'Účetní kancelář Šťastná s.r.o.',
			'Specifický symbol': '2026010045',
			Stav: 'Ověřeno v rejstříku',
		});
		const [execution] = await n8n.waitForExecutions(workflowIds.registry, 1);
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'Records call')[0].json).toMatchObject({
			method: 'PUT',
			format: 'xml',
			replyFormat: 'xml',
			body: { dotaz: { ico: '2026010045', partner: 'Kancelářské potřeby Novák s.r.o.' } },
		});
		expect(await n8n.executions(workflowIds.registry)).toHaveLength(1);
		expect(JSON.stringify(execution)).not.toContain(BEARER);
	});

	test('invoice.paid webhooks and workflow calls answered by the last node; other events and a wrong token start nothing', async () => {
		await n8n.waitForWebhook(PATHS.events, { method: 'POST' });
		const key = 'FP-2026-0002';
		const before = storedFields(sandbox, INVOICES, key);

		const overdue = await sendWebhook(sandbox, { url: url(PATHS.events), event: 'invoice.overdue', auth: bearerAuth });
		const wrongToken = await sendWebhook(sandbox, {
			url: url(PATHS.events),
			auth: { type: 'oauth2', accessToken: 'not-the-token' },
		});
		expect([overdue.status, wrongToken.status]).toEqual([200, 401]);
		expect(JSON.parse(overdue.body ?? '{}')).toMatchObject({ status: 'ignored' });

		const paid = await sendWebhook(sandbox, {
			url: url(PATHS.events),
			payload: { invoice_id: 4711, amount: 12850.4, paid_at: '2026-02-14T09:30:00Z' },
			auth: bearerAuth,
		});
		expect(paid.status).toBe(200);
		expect(JSON.parse(paid.body ?? '{}')).toEqual({ stav: 'Uhrazeno', faktura: '4711' });

		const call = await callApi(sandbox, {
			url: url(PATHS.events),
			method: 'POST',
			body: { faktura: '#(Interní číslo)' },
			auth: bearerAuth,
			recordTypeId: INVOICES,
			recordKey: key,
			mapping: [{ from: 'stav', to: 'Stav' }],
		});
		expect(call).toMatchObject({ ok: true, status: 200, unmapped: [] });
		expect(storedFields(sandbox, INVOICES, key)).toEqual({ ...before, Stav: 'Přijato' });

		const executions = await n8n.waitForExecutions(workflowIds.events, 2);
		expect(executions).toHaveLength(2);
		expect(executions.map((execution) => execution.status)).toEqual(['success', 'success']);
		expect(nodeOutput(executions[0], 'Records call')[0].json).toMatchObject({
			event: 'invoice.paid',
			body: { event: 'invoice.paid', invoice_id: 4711, amount: 12850.4, paid_at: '2026-02-14T09:30:00Z' },
		});
		expect(nodeOutput(executions[1], 'Records call')[0].json).toMatchObject({
			event: null,
			body: { faktura: key },
		});
	});

	test('the Records Report Trigger emits each new row once, across scheduled polls and a restart of n8n', async () => {
		const emitted = async () =>
			(await n8n.executions(workflowIds.feed)).map((execution) =>
				nodeOutput(execution, 'New bank rows').map((item) => item.json['ID transakce']),
			);
		/**
		 * Waits until the sandbox has answered two polls' worth of requests: at least one whole poll
		 * began and ended after now, and had a quarter of a minute to start an execution.
		 */
		const waitForLaterPolls = async () =>
			await waitForReportRequests(sandbox, reportRequests(sandbox), 2 * requestsPerPoll(feedRowCount()));

		// Rows 241-243 were added in beforeAll, after activation remembered the first 240.
		await n8n.waitForExecutions(workflowIds.feed, 1);
		expect(await emitted()).toEqual([bankTransactionIds(241, 3)]);
		await waitForLaterPolls();
		expect(await emitted()).toEqual([bankTransactionIds(241, 3)]);

		await n8n.stop();
		await appendFeedRows(2);
		const readsBeforeStart = reportRequests(sandbox);
		await n8n.start();
		// Rows 244-245 came while n8n was down: the poll n8n makes when it activates the workflow at
		// start emits them, and not the rows emitted before the restart.
		await n8n.waitForExecutions(workflowIds.feed, 2, { explain: reportReadsSince(sandbox, readsBeforeStart) });
		expect(await emitted()).toEqual([bankTransactionIds(241, 3), bankTransactionIds(244, 2)]);

		// Row 246 alone: what the poll at start emitted is remembered too.
		await appendFeedRows(1);
		await n8n.waitForExecutions(workflowIds.feed, 3, { explain: reportReadsSince(sandbox, reportRequests(sandbox)) });
		expect(await emitted()).toEqual([bankTransactionIds(241, 3), bankTransactionIds(244, 2), bankTransactionIds(246, 1)]);
		const executions = await n8n.executions(workflowIds.feed);
		expect(executions.map((execution) => [execution.mode, execution.status])).toEqual(
			executions.map(() => ['trigger', 'success']),
		);
		// An emitted row is the report's row, keyed by column names, cell for cell.
		const [last] = executions.slice(-1);
		const [row] = generateBankRows(1, 245);
		expect(nodeOutput(last, 'New bank rows')[0].json).toEqual(
			Object.fromEntries(BANK_COLUMNS.map((column) => [column.name, row[column.id]])),
		);
	});
});

