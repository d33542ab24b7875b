/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a test: its tokens and keys are fixed
	test values, not secrets */
import { EXAMPLE_CREDENTIAL, EXAMPLE_MCP_CREDENTIAL, readExamples } from '../../tooling/examples/examples';
import { waitFor } from '../../tooling/lib/proc';
import { N8nInstance, nodeOutput, type ExecutionSummary, type WorkflowJson } from '../../tooling/n8n/n8nInstance';
import { bankTransactionIds, COSTS_ROW_COUNT, RECORD_TYPES, REPORTS, startSandbox, TOKENS, type Sandbox } from '../../tooling/sandbox/server';
import { callApi, control, storedFields } from '../../tooling/sandbox/control';
import { readSetup, runtimesUnderTest, workflow } from './harness';
import { connectMcp, expectAgentReadableError, MCP_EXAMPLE_FILE, toolJson } from './mcpClient';
import {
	createReportsCredential,
	pollEvery15Seconds,
	reportReadsSince,
	reportRequests,
	requestsPerPoll,
	waitForReportRequests,
} from './polling';
import { slowPollScenario } from './slowPoll';

const { packed } = readSetup();

describe.each(runtimesUnderTest())('queue mode (Redis and one worker) in %s', (_title, runtime) => {
	/**
	 * The connection test of an import token, as n8n's public API takes it: 2.x requires the record
	 * type with testWith 'import'; 1.x refuses it there (its schema ties every field behind display
	 * options to the first value shown, 'report').
	 */
	const importTestedWith = () =>
		runtime.spec.name === 'v1' ? { testWith: 'import' } : { testWith: 'import', testRecordTypeId: RECORD_TYPES.tasks };
	let sandbox: Sandbox;
	let n8n: N8nInstance;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true });
		n8n = await N8nInstance.create({ runtime, package: packed, queue: true });
		await n8n.start();
	});

	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.close();
	});

	test('the worker runs a webhook-started Records import and every record is stored once', async () => {
		const credentialId = await n8n.createCredential({
			name: 'Records sandbox',
			type: 'recordsApi',
			// n8n 1.x's public API rejects the credential unless testWith and allowedHttpRequestDomains are
			// explicit; the connection test's record type: see importTestedWith.
			data: {
				baseUrl: sandbox.baseUrl,
				token: TOKENS.import,
				allowHttp: true,
				...importTestedWith(),
				allowedHttpRequestDomains: 'all',
			},
		});
		const path = `queue-import-${runtime.spec.name}`;
		const workflowId = await n8n.createWorkflow(
			workflow('queueImport', 'Import tasks posted to a webhook', [
				{
					name: 'Tasks posted',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					webhookId: `7e0c1a52-0000-4000-8000-00000000000${runtime.spec.name === 'v1' ? 1 : 2}`,
					parameters: { path, httpMethod: 'POST', responseMode: 'lastNode' },
				},
				{
					name: 'Import tasks',
					type: 'n8n-nodes-records.records',
					parameters: {
						resource: 'record',
						operation: 'import',
						recordTypeId: RECORD_TYPES.tasks,
						dataMode: 'json',
						jsonEvaluation: 'eachItem',
						jsonRecords: '={{ JSON.stringify($json.body.tasks) }}',
					},
					credentials: { recordsApi: { id: credentialId, name: 'Records sandbox' } },
				},
			]),
			{ activate: true },
		);
		await n8n.waitForWebhook(path);
		const tasks = [
			{ Název: 'Fronta: schválit objednávku', Zadal: 'Jana Nováková', Zpracovatel: 'Petr Dvořák' },
			{ Název: 'Fronta: zaplatit zálohu', Zadal: 'Jana Nováková', Zpracovatel: 'Šárka Černá' },
		];

		const response = await fetch(`${n8n.baseUrl}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ tasks }),
		});

		expect(response.status).toBe(200);
		const [execution] = await n8n.waitForExecutions(workflowId, 1);
		expect(execution.status).toBe('success');
		expect(n8n.ranOnWorker(execution)).toBe(true);
		expect(nodeOutput(execution, 'Import tasks')).toHaveLength(tasks.length);
		const stored = sandbox.state.getRecords(RECORD_TYPES.tasks).map((record) => record.fields);
		for (const task of tasks) {
			expect(stored.filter((fields) => fields.Název === task.Název)).toEqual([expect.objectContaining(task)]);
		}
	});

	const ranOnWorker = (execution: ExecutionSummary) => n8n.ranOnWorker(execution);

	test('the worker runs a Records Trigger call: Respond to Call answers the waiting service, which maps the answer; a refused call starts nothing', async () => {
		const basic = { user: 'records-service', password: 'Fronta-heslo-2026' };
		const credentialId = await n8n.createCredential({ name: 'Records service', type: 'recordsTriggerBasicAuthApi', data: basic });
		const path = 'queue-records-call';
		const workflowId = await n8n.createWorkflow(
			workflow('queueCall', 'Confirm an invoice', [
				{
					name: 'Records call',
					type: 'n8n-nodes-records.recordsTrigger',
					typeVersion: 1.1,
					webhookId: `7e0c1a52-0000-4000-8000-00000000010${runtime.spec.name === 'v1' ? 1 : 2}`,
					parameters: { authentication: 'basicAuth', path, responseMode: 'responseNode' },
					credentials: { recordsTriggerBasicAuthApi: { id: credentialId, name: 'Records service' } },
				},
				{
					name: 'Respond to Call',
					type: 'n8n-nodes-records.records',
					parameters: {
						resource: 'workflowCall',
						operation: 'respond',
						respondWith: 'json',
						responseBody: '={ "stav": "Potvrzeno workerem", "faktura": "{{ $json.body.faktura }}" }',
					},
				},
			]),
			{ activate: true },
		);
		await n8n.waitForWebhook(path, { method: 'POST' });
		const key = 'FP-2026-0003';
		const before = storedFields(sandbox, RECORD_TYPES.receivedInvoices, key);
		const action = {
			url: `${n8n.baseUrl}/webhook/${path}`,
			method: 'POST',
			body: { faktura: '#(Interní číslo)' },
			recordTypeId: RECORD_TYPES.receivedInvoices,
			recordKey: key,
			mapping: [
				{ from: 'stav', to: 'Stav' },
				{ from: 'faktura', to: 'Popis' },
			],
		};

		const refused = await callApi(sandbox, { ...action, auth: { type: 'basic', username: basic.user, password: 'wrong' } });
		const accepted = await callApi(sandbox, { ...action, auth: { type: 'basic', username: basic.user, password: basic.password } });

		expect(refused.status).toBe(401);
		expect(accepted).toMatchObject({ ok: true, status: 200, unmapped: [] });
		expect(storedFields(sandbox, RECORD_TYPES.receivedInvoices, key)).toEqual({ ...before, Stav: 'Potvrzeno workerem', Popis: key });
		const [execution] = await n8n.waitForExecutions(workflowId, 1);
		expect(execution.status).toBe('success');
		expect(ranOnWorker(execution)).toBe(true);
		expect(await n8n.executions(workflowId)).toHaveLength(1);
	});

	test('the main instance polls a report, the worker runs each poll\'s new rows, and no row is emitted twice', async () => {
		const report = 'queue-feed';
		const rows = 130;
		await control(sandbox, '/reports', { id: report, generate: 'bank', rows });
		const reportsCredential = await createReportsCredential(n8n, sandbox, report);
		const readsBefore = reportRequests(sandbox);
		const workflowId = await n8n.createWorkflow(
			workflow('queueFeed', 'New bank transactions', [
				{
					name: 'New bank rows',
					type: 'n8n-nodes-records.recordsReportTrigger',
					parameters: {
						pollTimes: pollEvery15Seconds,
						report: { __rl: true, mode: 'id', value: report },
						rowIdentity: 'columns',
						keyColumns: 'ID transakce',
						firstRun: 'emit',
					},
					credentials: { recordsApi: reportsCredential },
				},
			]),
			{ activate: true },
		);
		const emitted = async () =>
			(await n8n.executions(workflowId)).map((execution) =>
				nodeOutput(execution, 'New bank rows').map((item) => item.json['ID transakce']),
			);

		// Activating polls once and emits the rows already there (On First Run: Emit All Current Rows).
		await waitForReportRequests(sandbox, readsBefore, requestsPerPoll(rows));
		await control(sandbox, `/reports/${report}/rows`, { generate: 2 });
		const executions = await n8n.waitForExecutions(workflowId, 2, { explain: reportReadsSince(sandbox, reportRequests(sandbox)) });
		// The worker finishing an execution must not undo what the main instance remembers: later polls emit nothing again.
		await waitForReportRequests(sandbox, reportRequests(sandbox), 2 * requestsPerPoll(rows + 2));

		expect(await emitted()).toEqual([bankTransactionIds(1, rows), bankTransactionIds(rows + 1, 2)]);
		expect(executions.map((execution) => [execution.status, ranOnWorker(execution)])).toEqual([
			['success', true],
			['success', true],
		]);
	});

	test('the MCP example: the worker runs the tools an MCP client calls; rows, an import and a refused call come back to the client', async () => {
		const mcpToken = 'records-mcp-queue-token-5d21c0a9e7';
		const credentialIds: Record<string, string> = {
			[EXAMPLE_CREDENTIAL.id]: await n8n.createCredential({
				name: EXAMPLE_CREDENTIAL.name,
				type: 'recordsApi',
				data: {
					baseUrl: sandbox.baseUrl,
					token: TOKENS.full,
					allowHttp: true,
					...importTestedWith(),
					allowedHttpRequestDomains: 'all',
				},
			}),
			[EXAMPLE_MCP_CREDENTIAL.id]: await n8n.createCredential({
				name: EXAMPLE_MCP_CREDENTIAL.name,
				type: 'httpBearerAuth',
				// n8n 2.x's public API takes the domain restriction every credential has; 1.x refuses it here.
				data: { token: mcpToken, ...(runtime.spec.n8nVersion.startsWith('1.') ? {} : { allowedHttpRequestDomains: 'all' }) },
			}),
		};
		const example = readExamples().find((candidate) => candidate.file === MCP_EXAMPLE_FILE) as WorkflowJson;
		// The example refers to its credentials by the ids `npm start` gives them; here n8n chose them.
		const nodes = example.nodes.map((node) => ({
			...node,
			...(node.credentials && {
				credentials: Object.fromEntries(
					Object.entries(node.credentials).map(([type, { id, name }]) => [type, { id: credentialIds[id] ?? id, name }]),
				),
			}),
		}));
		const workflowId = await n8n.createWorkflow({ ...example, nodes }, { activate: true });
		const client = await waitFor('the MCP endpoint to accept a client', async () => await connectMcp(n8n.baseUrl, mcpToken).catch(() => undefined));
		const task = { Název: 'Fronta: úkol od agenta', Zadal: 'Jana Nováková' };
		try {
			const page = toolJson<Array<Record<string, unknown>>>(
				await client.callTool({ name: 'get_report_rows', arguments: { report: REPORTS.costs, offset: COSTS_ROW_COUNT - 1, limit: 5 } }),
			);
			expect(page).toEqual([expect.objectContaining({ reportId: REPORTS.costs, offset: COSTS_ROW_COUNT - 1, rowCount: 1, hasMore: false })]);

			const imported = toolJson<Array<Record<string, unknown>>>(
				await client.callTool({ name: 'import_records', arguments: { recordType: RECORD_TYPES.tasks, records: JSON.stringify([task]) } }),
			);
			expect(imported).toEqual([expect.objectContaining({ status: 'created', record: task })]);

			const refused = await client.callTool({ name: 'import_records', arguments: { recordType: 'neexistuje', records: JSON.stringify([task]) } });
			expectAgentReadableError(refused, [mcpToken, TOKENS.full], /recordType/, /"neexistuje" does not exist/);
		} finally {
			await client.close();
		}
		expect(sandbox.state.getRecords(RECORD_TYPES.tasks).filter((record) => record.fields.Název === task.Název)).toHaveLength(1);
		// The two calls that succeeded ran on the worker (n8n 2.x also keeps an execution of the refused
		// call, run there too; 1.x keeps none of it).
		const executions = await n8n.waitForExecutions(workflowId, 2);
		expect(executions.map(ranOnWorker)).toEqual(executions.map(() => true));
	});

	test('polls of a slow report that outlast the poll interval emit every new row exactly once, run by the worker', async () => {
		const executions = await slowPollScenario(n8n, sandbox);
		expect(executions.map(ranOnWorker)).toEqual(executions.map(() => true));
	});
});
