import { readFileSync } from 'node:fs';

import { N8nInstance, nodeOutput } from '../../scripts/lib/n8n';
import { RECORD_TYPES, startSandbox, TOKENS, type Sandbox } from '../sandbox/server';
import { readSetup, runtimesUnderTest, workflow } from './harness';

const { packed } = readSetup();

describe.each(runtimesUnderTest())('queue mode (Redis and one worker) in %s', (_title, runtime) => {
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
			// n8n 1.x's public API rejects the credential unless testWith and allowedHttpRequestDomains are explicit.
			data: {
				baseUrl: sandbox.baseUrl,
				token: TOKENS.import,
				allowHttp: true,
				testWith: 'import',
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
		expect(readFileSync(n8n.workerLog, 'utf8')).toContain(`Worker started execution ${execution.id} `);
		expect(nodeOutput(execution, 'Import tasks')).toHaveLength(tasks.length);
		const stored = sandbox.state.getRecords(RECORD_TYPES.tasks).map((record) => record.fields);
		for (const task of tasks) {
			expect(stored.filter((fields) => fields.Název === task.Název)).toEqual([expect.objectContaining(task)]);
		}
	});
});
