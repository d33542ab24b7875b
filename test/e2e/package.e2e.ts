/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { N8nInstance, nodeOutput } from '../../tooling/n8n/n8nInstance';
import { readPackageJson } from '../../tooling/n8n/package';
import { RECORD_TYPES, REPORTS, startSandbox, TOKENS, type Sandbox } from '../../tooling/sandbox/server';
import { manualTrigger, readSetup, runtimesUnderTest, workflow } from './harness';

const { packed } = readSetup();
const pkg = readPackageJson();

/** The type name a file of the n8n block declares, by the naming convention (Records.node.js → records). */
const typeName = (file: string, suffix: string): string => {
	const className = basename(file, suffix);
	return `${className[0].toLowerCase()}${className.slice(1)}`;
};
const declaredNodeTypes = (pkg.n8n?.nodes ?? []).map((file) => `${pkg.name}.${typeName(file, '.node.js')}`);
const declaredCredentialTypes = (pkg.n8n?.credentials ?? []).map((file) => typeName(file, '.credentials.js'));

const credential = { id: 'e2eRecordsCred01', name: 'Records sandbox' };

describe.each(runtimesUnderTest())('the packed package in %s', (_title, runtime) => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true });
		n8n = await N8nInstance.create({ runtime, package: packed });
		await n8n.importCredentials([
			{
				...credential,
				type: 'recordsApi',
				data: { baseUrl: sandbox.baseUrl, token: TOKENS.import, allowHttp: true },
			},
		]);
	});

	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.close();
	});

	test('n8n loads every node of the n8n block from the community-package folder', async () => {
		const nodes = await n8n.exportNodes();
		const ours = nodes.filter((node) => node.name.startsWith(`${pkg.name}.`));

		expect(declaredNodeTypes).toContain('n8n-nodes-records.records');
		expect(ours.map((node) => node.name)).toEqual(expect.arrayContaining(declaredNodeTypes));
		const records = ours.find((node) => node.name === 'n8n-nodes-records.records');
		expect(records?.credentials?.map((credential) => credential.name)).toEqual(['recordsApi']);
	});

	test('a workflow imports records into the sandbox through the Records node, run from the CLI', async () => {
		const tasks = [
			{ Název: `Zkontrolovat fakturu ${runtime.spec.name}`, Zadal: 'Jana Nováková', Zpracovatel: 'Petr Dvořák' },
			{ Název: `Objednat papír ${runtime.spec.name}`, Zadal: 'Jana Nováková', Zpracovatel: 'Šárka Černá' },
		];
		await n8n.importWorkflows([
			workflow('e2eImportTasks01', 'Import tasks', [
				manualTrigger,
				{
					name: 'Import tasks',
					type: 'n8n-nodes-records.records',
					parameters: {
						resource: 'record',
						operation: 'import',
						recordTypeId: RECORD_TYPES.tasks,
						dataMode: 'json',
						jsonEvaluation: 'once',
						jsonRecords: JSON.stringify(tasks),
					},
					credentials: { recordsApi: credential },
				},
			]),
		]);

		const execution = await n8n.executeSuccessfully('e2eImportTasks01');

		const stored = sandbox.state.getRecords(RECORD_TYPES.tasks).map((record) => record.fields);
		for (const task of tasks) expect(stored).toContainEqual(expect.objectContaining(task));
		expect(stored.filter((fields) => fields.Název === tasks[0].Název)).toHaveLength(1);
		const output = nodeOutput(execution, 'Import tasks');
		expect(output).toHaveLength(tasks.length);
		expect(JSON.stringify(execution)).not.toContain(TOKENS.import);
	});

	test('the editor offers every credential of the package, and the connection test reaches the sandbox', async () => {
		await n8n.start();
		await n8n.setupOwner();
		const credentialTypes = await n8n.editorRequest<Array<{ name: string; properties: Array<{ name: string }> }>>(
			'GET',
			'/types/credentials.json',
		);
		expect(declaredCredentialTypes).toContain('recordsApi');
		expect(credentialTypes.map((type) => type.name)).toEqual(expect.arrayContaining(declaredCredentialTypes));
		const recordsApi = credentialTypes.find((type) => type.name === 'recordsApi');
		expect(recordsApi?.properties.map((property) => property.name)).toEqual(
			expect.arrayContaining(['baseUrl', 'token', 'allowHttp']),
		);

		// As the editor's "Test" button does: the stored credential, with the values typed into the form.
		const testConnection = (data: Record<string, unknown>) =>
			n8n.rest<{ status: string; message: string }>('POST', '/credentials/test', {
				credentials: { ...credential, type: 'recordsApi', data },
			});
		const base = { baseUrl: sandbox.baseUrl, allowHttp: true, testReportId: REPORTS.bankTransactions };

		await expect(testConnection({ ...base, token: TOKENS.full })).resolves.toMatchObject({ status: 'OK' });
		const refused = await testConnection({ ...base, token: 'rk_not_a_real_token' });
		expect(refused.status).toBe('Error');
		// n8n 1.x answers a 401 with its own message before the credential's rules apply.
		expect(refused.message).toMatch(/401|authorization failed/i);
		expect(refused.message).not.toContain('rk_not_a_real_token');
		const plainHttp = await testConnection({ ...base, token: TOKENS.full, allowHttp: false });
		expect(plainHttp.status).toBe('Error');
		expect(plainHttp.message).toMatch(/http/i);
		expect(plainHttp.message).not.toContain(TOKENS.full);
	});

	test("n8n calls none of n8n's own services: what the editor asks for on opening leaves no failed lookup in the log", async () => {
		await n8n.start();
		await n8n.setupOwner();
		// The editor's first requests; a canvas asks for the node creator's catalogue of community nodes,
		// which n8n fetches from api(-staging).n8n.io unless told not to.
		for (const path of ['/settings', '/module-settings', '/community-node-types']) {
			await n8n.rest('GET', path).catch(() => undefined);
		}
		const log = readFileSync(n8n.serverLog, 'utf8');
		expect(log).toContain('Editor is now accessible');
		expect(log.match(/.*(ENOTFOUND|EAI_AGAIN|n8n\.io\/api).*/g) ?? []).toEqual([]);
	});

	test("n8n's generated front-end leaves the instance folder when the server stops; the logs stay", async () => {
		await n8n.start();
		expect(existsSync(join(n8n.staticCacheDir, 'index.html'))).toBe(true);

		await n8n.stop();

		expect(existsSync(n8n.staticCacheDir)).toBe(false);
		expect(readFileSync(n8n.serverLog, 'utf8')).toContain('Editor is now accessible');
	});
});
