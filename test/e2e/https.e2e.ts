/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * The production path: a real n8n talking to the Records service over HTTPS only (every credential
 * has "Allow Plain HTTP" off), the service's certificate signed by an internal CA that n8n is given
 * the way n8n documents it, NODE_EXTRA_CA_CERTS. One n8n per release for the whole file.
 * Certificates n8n must refuse (an unknown CA, an expired one, one for another host name) fail with
 * what to do, and the sandboxes presenting them see no request: the token never left n8n.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from '../../tooling/lib/paths';
import { N8nInstance, newInstanceFolder, nodeOutput, type CredentialJson } from '../../tooling/n8n/n8nInstance';
import { createCertificateAuthority } from '../../tooling/sandbox/tls';
import {
	COSTS_ID_COLUMN,
	generateBankRows,
	generateCostRows,
	RECORD_TYPES,
	REPORTS,
	startSandbox,
	TOKENS,
	type Sandbox,
} from '../../tooling/sandbox/server';
import { manualTrigger, readSetup, runtimesUnderTest, workflow, type NodeSpec } from './harness';
import { pollEvery15Seconds } from './polling';

const { packed } = readSetup();

/** Not a multiple of any page size, so the last page is a short one. */
const BANK_ROWS = 5_432;

const credentials = {
	records: { id: 'e2eHttpsRecords01', name: 'Records over HTTPS' },
	unknownCa: { id: 'e2eHttpsUnknownCa', name: 'Records, unknown CA' },
	expired: { id: 'e2eHttpsExpired01', name: 'Records, expired certificate' },
	wrongHost: { id: 'e2eHttpsWrongHost', name: 'Records, wrong host name' },
};
type CredentialRef = { id: string; name: string };

const tasks = [
	{ Název: 'Obnovit certifikát', Zadal: 'Jana Nováková' },
	{ Název: 'Zkontrolovat zálohy', Zadal: 'Petr Svoboda' },
];

/** Get Rows as a new node gets it (without a Page Size, the node chooses it). */
const getRows = (name: string, credential: CredentialRef, options: Record<string, unknown> = {}): NodeSpec => ({
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

/** A node whose error becomes its output item ({ error, description }), so one run shows several. */
const continuingOnError = (node: NodeSpec): NodeSpec => ({ ...node, onError: 'continueRegularOutput' }) as NodeSpec;

/** Every node hangs off the manual trigger: one `n8n execute` (one boot of n8n) runs them all. */
const branches: NodeSpec[] = [
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
		credentials: { recordsApi: credentials.records },
	},
	getRows('Rows one page at a time', credentials.records),
	getRows('Rows in parallel', credentials.records, { concurrency: 4, pageSize: 250 }),
	{
		name: 'Custom API Call',
		type: 'n8n-nodes-records.records',
		parameters: { resource: 'api', operation: 'request', method: 'GET', path: `/api/v1/records/${RECORD_TYPES.tasks}` },
		credentials: { recordsApi: credentials.records },
	},
	continuingOnError(getRows('Unknown CA', credentials.unknownCa)),
	continuingOnError(getRows('Expired certificate', credentials.expired)),
	continuingOnError(getRows('Wrong host name', credentials.wrongHost)),
];
const everything = (() => {
	const built = workflow('e2eHttpsEverything', 'Records over HTTPS', [manualTrigger, ...branches]);
	built.connections = {
		[manualTrigger.name]: { main: [branches.map((node) => ({ node: node.name, type: 'main', index: 0 }))] },
	};
	return built;
})();

const requestsSeen = (sandbox: Sandbox) =>
	Object.values(sandbox.state.stats.requests).reduce((sum, entry) => sum + entry.total, 0);

describe.each(runtimesUnderTest())('the package over HTTPS in %s', (_title, runtime) => {
	let sandbox: Sandbox;
	let unknownCa: Sandbox;
	let expired: Sandbox;
	let wrongHost: Sandbox;
	let n8n: N8nInstance;

	const recordsApi = (credential: CredentialRef, on: Sandbox, token = TOKENS.full): CredentialJson => ({
		...credential,
		type: 'recordsApi',
		data: { baseUrl: on.baseUrl, token, allowHttp: false },
	});

	beforeAll(async () => {
		const ca = await createCertificateAuthority('Records Internal CA');
		[sandbox, unknownCa, expired, wrongHost] = await Promise.all([
			startSandbox({ quiet: true, bankRows: BANK_ROWS, tls: { ca } }),
			// Signed by a CA of its own, which n8n is not given.
			startSandbox({ quiet: true, bankRows: 10, tls: true }),
			startSandbox({ quiet: true, bankRows: 10, tls: { ca, certificate: 'expired' } }),
			startSandbox({ quiet: true, bankRows: 10, tls: { ca, certificate: 'wrongHost' } }),
		]);
		const userFolder = newInstanceFolder(`n8n-https-${runtime.spec.name}`);
		const caFile = join(userFolder, 'records-internal-ca.pem');
		writeFileSync(caFile, ca.certificatePem);
		n8n = await N8nInstance.create({ runtime, package: packed, userFolder, env: { NODE_EXTRA_CA_CERTS: caFile } });
		await n8n.importCredentials([
			recordsApi(credentials.records, sandbox),
			recordsApi(credentials.unknownCa, unknownCa),
			recordsApi(credentials.expired, expired),
			recordsApi(credentials.wrongHost, wrongHost),
		]);
		await n8n.importWorkflows([everything]);
	});

	afterAll(async () => {
		await n8n?.stop();
		await Promise.all([sandbox, unknownCa, expired, wrongHost].map(async (each) => await each?.close()));
	});

	test('import, Get Rows (one page at a time and in parallel) and Custom API Call work; bad certificates are refused with what to do', async () => {
		const run = await n8n.executeSuccessfully(everything.id);

		const stored = sandbox.state.getRecords(RECORD_TYPES.tasks).map((record) => record.fields);
		for (const task of tasks) expect(stored.filter((fields) => fields.Název === task.Název)).toEqual([expect.objectContaining(task)]);

		const expectedIds = generateBankRows(BANK_ROWS).map((row) => row.c1);
		for (const name of ['Rows one page at a time', 'Rows in parallel']) {
			expect(nodeOutput(run, name).map((item) => item.json['ID transakce'])).toEqual(expectedIds);
		}
		// The adaptive read: 1,000 + 2,000 + 2,432 of 4,000 (short) + the empty page confirming the end, and
		// the parallel read's 250-row pages (22, up to 3 past the end).
		expect(requestsSeen(sandbox)).toBeLessThanOrEqual(1 + 4 + 22 + 3 + 5);
		const [listed] = nodeOutput(run, 'Custom API Call');
		expect(listed.json.total).toBe(stored.length);

		const refusal = (name: string) => nodeOutput(run, name)[0].json as { error: string; description: string };
		expect(refusal('Unknown CA').error).toBe(
			`The certificate of ${new URL(unknownCa.baseUrl).host} is not signed by a certificate authority n8n trusts (UNABLE_TO_VERIFY_LEAF_SIGNATURE)`,
		);
		expect(refusal('Unknown CA').description).toContain('NODE_EXTRA_CA_CERTS');
		expect(refusal('Expired certificate').error).toBe(
			`The certificate of ${new URL(expired.baseUrl).host} has expired (CERT_HAS_EXPIRED)`,
		);
		expect(refusal('Wrong host name').error).toBe(
			`The certificate of ${new URL(wrongHost.baseUrl).host} is issued for another host name (ERR_TLS_CERT_ALTNAME_INVALID)`,
		);
		expect(refusal('Wrong host name').description).toContain('Base URL');
		// The handshake failed before any request was written: the token never left n8n.
		expect([unknownCa, expired, wrongHost].map(requestsSeen)).toEqual([0, 0, 0]);
		expect(JSON.stringify(run)).not.toContain(TOKENS.full);
	});

	test("the credential test passes over HTTPS with the CA trusted, gives a bad certificate n8n's bare code or text, which the docs explain, and the Records Report Trigger polls", async () => {
		await n8n.start();
		await n8n.setupOwner();
		const testConnection = (data: Record<string, unknown>) =>
			n8n.rest<{ status: string; message: string }>('POST', '/credentials/test', {
				credentials: { ...credentials.records, type: 'recordsApi', data },
			});
		const form = { token: TOKENS.full, allowHttp: false, testReportId: REPORTS.costs };

		await expect(testConnection({ ...form, baseUrl: sandbox.baseUrl })).resolves.toMatchObject({ status: 'OK' });

		// A bad certificate: n8n's tester runs the declarative test itself and no code of the package's on
		// the failure. It answers with the bare code (2.x) or Node.js's text for it (1.x); the form's hint
		// under Base URL names the commonest code and the fix, and docs/credentials.md (the form's link to
		// the docs) has a row for each, with both and what to do.
		const docsRows = readFileSync(join(repoRoot, 'docs', 'credentials.md'), 'utf8').split('\n');
		const refused: Array<{ on: Sandbox; code: string; text: string; advice: RegExp }> = [
			{ on: unknownCa, code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', text: 'unable to verify the first certificate', advice: /NODE_EXTRA_CA_CERTS/ },
			{ on: expired, code: 'CERT_HAS_EXPIRED', text: 'certificate has expired', advice: /renew/ },
			{ on: wrongHost, code: 'ERR_TLS_CERT_ALTNAME_INVALID', text: "Hostname/IP does not match certificate's altnames", advice: /host name the certificate names/ },
		];
		for (const { on, code, text, advice } of refused) {
			const { status, message } = await testConnection({ ...form, baseUrl: on.baseUrl });
			expect(status).toBe('Error');
			if (runtime.spec.n8nVersion.startsWith('1.')) expect(message.startsWith(text)).toBe(true);
			else expect(message).toBe(code);
			const row = docsRows.find((line) => line.startsWith(`| \`${code}\``));
			expect(row).toContain(`| ${text} |`);
			expect(row).toMatch(advice);
		}
		expect([unknownCa, expired, wrongHost].map(requestsSeen)).toEqual([0, 0, 0]);

		const credentialId = await n8n.createCredential({
			name: 'Records reports over HTTPS',
			type: 'recordsApi',
			// n8n 1.x's public API rejects the credential unless the fields behind display options are given too.
			data: {
				baseUrl: sandbox.baseUrl,
				token: TOKENS.analysisAdmin,
				allowHttp: false,
				ignoreSSLIssues: false,
				testWith: 'report',
				testReportId: REPORTS.costs,
				testRecordTypeId: '',
				allowedHttpRequestDomains: 'all',
			},
		});
		const workflowId = await n8n.createWorkflow(
			workflow('e2eHttpsCostsFeed', 'New costs over HTTPS', [
				{
					name: 'New costs',
					type: 'n8n-nodes-records.recordsReportTrigger',
					parameters: { pollTimes: pollEvery15Seconds, report: { __rl: true, mode: 'id', value: REPORTS.costs }, firstRun: 'emit' },
					credentials: { recordsApi: { id: credentialId, name: 'Records reports over HTTPS' } },
				},
			]),
			{ activate: true },
		);

		// Activating polls once and emits the rows already there (On First Run: Emit All Current Rows).
		const [execution] = await n8n.waitForExecutions(workflowId, 1);
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'New costs').map((item) => item.json['Interní číslo'])).toEqual(
			generateCostRows().map((row) => row[COSTS_ID_COLUMN]),
		);
	});
});
