/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-hardcoded-secrets -- a test: runs in Node.js, not inside n8n (Node.js's
	modules); its tokens and keys are fixed test values, not secrets */
/**
 * The Records tools as AI agents meet them, in a real n8n. The MCP example (examples/06-…) is served
 * by n8n's MCP Server Trigger with Bearer authentication and driven by a real MCP client built on
 * `@modelcontextprotocol/sdk`: it lists the tools, reads report rows page by page, imports records
 * and sends bad arguments. The same tool nodes also run the way an AI Agent runs them, without a
 * model: n8n's Tool Executor (what the editor uses to run a tool node on its own) invokes them with
 * the `$fromAI()` values supplied. One n8n per release serves the whole file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

import { exampleImports, prepareSandboxForExamples, readExamples } from '../../tooling/examples/examples';
import { executionError, N8nInstance, type ExecutionRunJson, type WorkflowJson } from '../../tooling/n8n/n8nInstance';
import { waitFor } from '../../tooling/lib/proc';
import {
	BANK_COLUMNS,
	COSTS_ROW_COUNT,
	generateBankRows,
	RECORD_TYPES,
	REPORTS,
	startSandbox,
	TOKENS,
	type Sandbox,
} from '../../tooling/sandbox/server';
import { readSetup, runtimesUnderTest } from './harness';
import { connectMcp, expectAgentReadableError as agentReadableError, MCP_EXAMPLE_FILE, mcpUrl, toolJson } from './mcpClient';

const { packed } = readSetup();

const MCP_TOKEN = 'records-mcp-e2e-token-7f3a91c2d85e4b06';
/** Where the tools' texts must never show a credential. */
const SECRETS = [MCP_TOKEN, TOKENS.full];

/** What Get Rows answers as a tool: one page of rows and where the next page starts. */
interface RowsPage {
	reportId: string;
	offset: number;
	rowCount: number;
	rows: Array<Record<string, string>>;
	hasMore: boolean;
	nextOffset?: number;
}

/** A bank report row as the tool's Simplified output gives it: keyed by column names, without empty cells. */
function bankRowByName(row: Record<string, string>): Record<string, string> {
	return Object.fromEntries(BANK_COLUMNS.filter((column) => row[column.id] !== '').map((column) => [column.name, row[column.id]]));
}

/** A tool error as an agent reads it: short, naming what to correct, with no stack trace or secret. */
const expectAgentReadableError = (result: unknown, ...mentions: RegExp[]) => agentReadableError(result, SECRETS, ...mentions);

/**
 * A workflow that runs tool nodes the way an AI Agent does, without a model: one Tool Executor per
 * call, given the tool's arguments (what a model fills into `$fromAI()`), with the tool node
 * connected to it as its tool. n8n 2.x reads the arguments under the tool's name, 1.x as they are.
 */
function toolExecutorWorkflow(
	id: string,
	tools: WorkflowJson['nodes'],
	calls: Array<{ tool: string; args: Record<string, unknown> }>,
	n8nMajor: number,
): WorkflowJson {
	const start = { id: `${id}-start`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };
	const nodes: WorkflowJson['nodes'] = [start];
	const connections: Record<string, unknown> = {};
	const starts: unknown[] = [];
	calls.forEach(({ tool, args }, index) => {
		const node = tools.find((candidate) => candidate.name === tool);
		if (!node) throw new Error(`The MCP example has no tool node "${tool}"`);
		const executor = `Run ${tool}`;
		nodes.push({
			id: `${id}-run-${index}`,
			name: executor,
			type: '@n8n/n8n-nodes-langchain.toolExecutor',
			typeVersion: 1,
			position: [300, index * 300],
			parameters: { query: JSON.stringify(n8nMajor >= 2 ? { [tool]: args } : args), toolName: tool, node: tool },
		});
		nodes.push({ ...node, id: `${id}-tool-${index}`, position: [300, index * 300 + 200] });
		starts.push({ node: executor, type: 'main', index: 0 });
		connections[tool] = { ai_tool: [[{ node: executor, type: 'ai_tool', index: 0 }]] };
	});
	connections[start.name] = { main: [starts] };
	return { id, name: 'Records tools run as an agent runs them', nodes, connections, settings: { executionOrder: 'v1' }, active: false };
}

/** What a tool node answered to its caller in an execution (its ai_tool output). */
function toolResponse(run: ExecutionRunJson, toolNode: string): unknown {
	const runs = run.data.resultData.runData[toolNode] as unknown as Array<{ data?: { ai_tool?: Array<Array<{ json: { response?: unknown } }>> } }>;
	if (!runs) throw new Error(`The tool node "${toolNode}" did not run`);
	return runs[0]?.data?.ai_tool?.[0]?.[0]?.json.response;
}

describe.each(runtimesUnderTest())('the Records tools in %s', (_title, runtime) => {
	const n8nMajor = Number(runtime.spec.n8nVersion.split('.')[0]);
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let mcpExample: WorkflowJson;

	const storedTasks = (name: string) =>
		sandbox.state.getRecords(RECORD_TYPES.tasks).filter((record) => record.fields['Název'] === name);
	const storedImports = () => sandbox.state.stats.importLog.filter((entry) => entry.processed).length;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true });
		await prepareSandboxForExamples(sandbox.baseUrl, TOKENS.import);
		n8n = await N8nInstance.create({ runtime, package: packed });
		// The MCP example talks to no outside system: the stand-ins are not needed.
		const { credentials, workflows } = exampleImports(sandbox.baseUrl, TOKENS.full, 'http://127.0.0.1:9', MCP_TOKEN);
		const id = readExamples().find((example) => example.file === MCP_EXAMPLE_FILE)?.id;
		const found = workflows.find((workflow) => workflow.id === id);
		if (!found) throw new Error(`examples/${MCP_EXAMPLE_FILE} is missing`);
		mcpExample = found;
		const asAgent = toolExecutorWorkflow(
			'e2eToolsAsAgent',
			mcpExample.nodes,
			[
				{ tool: 'get_report_rows', args: { report: REPORTS.costs, limit: 2, offset: COSTS_ROW_COUNT - 1 } },
				{
					tool: 'import_records',
					args: { recordType: RECORD_TYPES.tasks, records: JSON.stringify([{ Název: 'Úkol od agenta', Zadal: 'Jana Nováková' }]) },
				},
			],
			n8nMajor,
		);
		const badCallAsAgent = toolExecutorWorkflow(
			'e2eBadToolCallAsAgent',
			mcpExample.nodes,
			[{ tool: 'import_records', args: { recordType: RECORD_TYPES.tasks, records: JSON.stringify([{ Název: 'Úkol s objektem', Zadal: { jméno: 'Jana' } }]) } }],
			n8nMajor,
		);
		await n8n.importCredentials(credentials);
		await n8n.importWorkflows([mcpExample, asAgent, badCallAsAgent]);
	});

	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.close();
	});

	test('as an AI Agent calls them (no model): the tool nodes read rows and import with the $fromAI values given', async () => {
		const run = await n8n.executeSuccessfully('e2eToolsAsAgent');

		expect(toolResponse(run, 'get_report_rows')).toEqual([
			expect.objectContaining({ reportId: REPORTS.costs, offset: COSTS_ROW_COUNT - 1, rowCount: 1, hasMore: false }),
		]);
		expect(toolResponse(run, 'import_records')).toEqual([
			expect.objectContaining({ status: 'created', recordTypeId: RECORD_TYPES.tasks, record: { Název: 'Úkol od agenta', Zadal: 'Jana Nováková' } }),
		]);
		expect(storedTasks('Úkol od agenta')).toHaveLength(1);
	});

	test('as an AI Agent calls them (no model): a bad argument fails the call with the text the agent reads, and imports nothing', async () => {
		const importsBefore = storedImports();

		const { exitCode, run } = await n8n.execute('e2eBadToolCallAsAgent');

		expect(exitCode).not.toBe(0);
		expect(executionError(run)).toMatch(/Argument "records": Field "Zadal" is an object, but a field holds one value/);
		expect(storedTasks('Úkol s objektem')).toEqual([]);
		expect(storedImports()).toBe(importsBefore);
	});

	describe('served by the MCP Server Trigger', () => {
		let client: Client;
		const connect = (transport: 'http' | 'sse' = 'http') => connectMcp(n8n.baseUrl, MCP_TOKEN, transport);
		const call = async (name: string, args: Record<string, unknown>) => await client.callTool({ name, arguments: args });

		beforeAll(async () => {
			// As `npm start` does: activated through the public API once n8n runs.
			await n8n.start();
			await n8n.setupOwner();
			await n8n.api('POST', `/workflows/${mcpExample.id}/activate`);
			// The trigger's paths may register a moment after the activation returns.
			client = await waitFor('the MCP endpoint to accept a client', async () => await connect().catch(() => undefined));
		});

		afterAll(async () => {
			await client?.close();
		});

		test('a client without the token, or with another one, is refused', async () => {
			const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
			for (const authorization of [undefined, 'Bearer not-the-token']) {
				const response = await fetch(mcpUrl(n8n.baseUrl), {
					method: 'POST',
					headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) },
					body: JSON.stringify(initialize),
				});
				expect(response.status).toBe(403);
				expect(await response.text()).not.toContain(MCP_TOKEN);
			}
		});

		test('lists the tools with descriptions that say what each needs and returns, and typed input schemas', async () => {
			const { tools } = await client.listTools();
			// Kept beside the instance's logs: the tools exactly as an MCP client sees them.
			writeFileSync(join(n8n.userFolder, 'mcp-tools.json'), JSON.stringify(tools, null, '\t'));
			const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
			expect(Object.keys(byName).sort()).toEqual(['create_invoice', 'get_report_rows', 'import_records', 'list_clients', 'list_records']);

			expect(byName.get_report_rows.inputSchema).toMatchObject({
				type: 'object',
				properties: {
					report: { type: 'string', description: expect.stringContaining('report') },
					limit: { type: 'number', default: 20, description: expect.any(String) },
					offset: { type: 'number', default: 0, description: expect.stringContaining('nextOffset') },
				},
				required: ['report'],
			});
			expect(byName.import_records.inputSchema).toMatchObject({
				type: 'object',
				properties: {
					recordType: { type: 'string', description: expect.any(String) },
					records: { type: 'string', description: expect.stringContaining('JSON') },
				},
				required: ['recordType', 'records'],
			});
			expect(byName.list_clients.inputSchema).toMatchObject({
				properties: { status: { type: 'string', default: '' }, limit: { type: 'number', default: 20 } },
			});
			expect(byName.create_invoice.inputSchema).toMatchObject({
				properties: { clientId: { type: 'number' }, amount: { type: 'number' }, currency: { type: 'string', default: 'CZK' }, dueDate: { type: 'string' } },
				required: ['clientId', 'amount', 'dueDate'],
			});

			expect(byName.list_records.inputSchema).toMatchObject({
				properties: { recordType: { type: 'string' }, limit: { type: 'number', default: 20 }, offset: { type: 'number', default: 0 } },
				required: ['recordType'],
			});

			// Data-changing tools say so; the reading ones say they change nothing.
			expect(byName.import_records.description).toMatch(/changes data/i);
			expect(byName.create_invoice.description).toMatch(/changes data/i);
			for (const reading of ['get_report_rows', 'list_clients', 'list_records']) {
				expect(byName[reading].description).toMatch(/read-only/i);
				expect(byName[reading].description).not.toMatch(/changes data/i);
			}
			for (const tool of tools) {
				expect(tool.description).toMatch(/Returns/);
				for (const secret of SECRETS) expect(JSON.stringify(tool)).not.toContain(secret);
			}

			// The same tools over the older SSE transport.
			const sseClient = await connect('sse');
			try {
				expect((await sseClient.listTools()).tools).toEqual(tools);
			} finally {
				await sseClient.close();
			}
		});

		test('get_report_rows returns the sandbox rows a page at a time, with the offset of the next page', async () => {
			const first = toolJson<RowsPage[]>(await call('get_report_rows', { report: REPORTS.bankTransactions, limit: 3 }));
			expect(first).toEqual([
				{ reportId: REPORTS.bankTransactions, offset: 0, rowCount: 3, rows: generateBankRows(3).map(bankRowByName), hasMore: true, nextOffset: 3 },
			]);

			const second = toolJson<RowsPage[]>(await call('get_report_rows', { report: REPORTS.bankTransactions, offset: 3, limit: 2 }));
			expect(second[0].rows).toEqual(generateBankRows(2, 3).map(bankRowByName));
			expect(second[0]).toMatchObject({ offset: 3, rowCount: 2, hasMore: true, nextOffset: 5 });

			// Without a limit the tool's default bounds the answer.
			const bounded = toolJson<RowsPage[]>(await call('get_report_rows', { report: REPORTS.bankTransactions }));
			expect(bounded[0]).toMatchObject({ rowCount: 20, hasMore: true, nextOffset: 20 });

			const last = toolJson<RowsPage[]>(await call('get_report_rows', { report: REPORTS.costs, offset: COSTS_ROW_COUNT - 2, limit: 5 }));
			expect(last[0]).toMatchObject({ reportId: REPORTS.costs, offset: COSTS_ROW_COUNT - 2, rowCount: 2, hasMore: false });
			expect(last[0]).not.toHaveProperty('nextOffset');
		});

		test('import_records stores each record once and says what became of it', async () => {
			const before = storedImports();
			const records = [
				{ Název: 'Zavolat panu Novákovi', Zadal: 'Jana Nováková', Zpracovatel: 'Petr Svoboda' },
				{ Název: 'Poslat nabídku Alfa Trade', Zadal: 'Jana Nováková' },
			];

			const result = toolJson<Array<Record<string, unknown>>>(
				await call('import_records', { recordType: RECORD_TYPES.tasks, records: JSON.stringify(records) }),
			);

			expect(result.map((record) => [record.status, record.record])).toEqual(records.map((record) => ['created', record]));
			for (const record of records) {
				expect(storedTasks(record.Název).map((stored) => stored.fields)).toEqual([expect.objectContaining(record)]);
			}
			expect(storedImports()).toBe(before + 1);
		});

		test('list_clients, create_invoice and list_records answer from the sandbox; an invoice is created once per call', async () => {
			const clients = toolJson<Array<{ id: number; name: string }>>(await call('list_clients', { status: 'active', limit: 3 }));
			const active = sandbox.state.clients.filter((client) => client.status === 'active');
			expect(clients.map((client) => client.name)).toEqual(active.slice(0, 3).map((client) => client.name));

			const invoicesBefore = sandbox.state.invoices.length;
			const invoice = toolJson<Array<Record<string, unknown>>>(
				await call('create_invoice', { clientId: active[0].id, amount: 1250.5, dueDate: '2026-12-31' }),
			);
			expect(invoice).toEqual([expect.objectContaining({ client_id: active[0].id, amount: 1250.5, currency: 'CZK', due_date: '2026-12-31' })]);
			expect(sandbox.state.invoices).toHaveLength(invoicesBefore + 1);

			const tasks = toolJson<Array<{ data: Array<{ fields: Record<string, string> }>; total: number }>>(
				await call('list_records', { recordType: RECORD_TYPES.tasks, limit: 2 }),
			);
			expect(tasks[0].data).toHaveLength(2);
			expect(tasks[0].total).toBe(sandbox.state.getRecords(RECORD_TYPES.tasks).length);
		});

		test('bad arguments come back as a short tool error naming what to correct, and nothing is imported', async () => {
			const before = { imports: storedImports(), tasks: sandbox.state.getRecords(RECORD_TYPES.tasks).length };

			// Checked against the input schema before the node runs.
			expectAgentReadableError(await call('get_report_rows', { limit: 3 }), /report/, /Required/i);
			expectAgentReadableError(await call('get_report_rows', { report: REPORTS.costs, limit: 'ten' }), /limit/, /number/i);
			// Checked by the node: the argument, the record and the field, and what is allowed.
			expectAgentReadableError(
				await call('import_records', { recordType: RECORD_TYPES.tasks, records: JSON.stringify([{ Název: 'Úkol s objektem', Zadal: { jméno: 'Jana' } }]) }),
				/records/,
				/Zadal/,
			);
			expectAgentReadableError(
				await call('import_records', { recordType: RECORD_TYPES.tasks, records: '[{"Název": "Nedokončený JSON"' }),
				/records/,
				/JSON/,
			);
			expectAgentReadableError(
				await call('import_records', { recordType: 'neexistuje', records: JSON.stringify([{ Název: 'Úkol v neexistující evidenci' }]) }),
				/recordType/,
				/"neexistuje" does not exist/,
			);
			expectAgentReadableError(await call('get_report_rows', { report: 'no-such-report' }), /report/, /no-such-report/);
			expectAgentReadableError(await call('get_report_rows', { report: REPORTS.costs, limit: 0 }), /limit/, /1/);

			expect(storedImports()).toBe(before.imports);
			expect(sandbox.state.getRecords(RECORD_TYPES.tasks)).toHaveLength(before.tasks);
		});
	});
});
