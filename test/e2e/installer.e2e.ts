/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * The package installed and updated the way operators do it: by n8n's own community-package
 * installer (Settings → Community Nodes → Install, and Update, i.e. its REST calls), fetching from a
 * registry. The registry is a tiny one on loopback (tooling/n8n/registry.ts) that n8n is pointed at
 * with N8N_COMMUNITY_PACKAGES_REGISTRY. n8n allows another registry than npmjs.org only under a
 * license with its custom-registry feature; the instance runs in n8n's test mode (E2E_TESTS=true),
 * whose license stand-in turns that one feature on, and nothing else of the license.
 *
 * One n8n per release: the package is installed without a restart, a workflow with each node runs,
 * then the same tree under the next version is published and installed as an update while a Report
 * Trigger is active. Every row added before, during and after the update reaches the workflow's next
 * node exactly once (a collector on loopback counts them), and the saved workflows are unchanged.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { N8nInstance, type WorkflowJson } from '../../tooling/n8n/n8nInstance';
import { LoopbackRegistry, repackTarball } from '../../tooling/n8n/registry';
import { waitFor } from '../../tooling/lib/proc';
import { bankTransactionIds, REPORTS, startSandbox, TOKENS, type Sandbox } from '../../tooling/sandbox/server';
import { control, sendWebhook } from '../../tooling/sandbox/control';
import { e2eDir, readSetup, runtimesUnderTest, workflow } from './harness';
import { pollEvery15Seconds, reportRequests, requestsPerPoll, waitForReportRequests } from './polling';

const { packed } = readSetup();
const NEXT_VERSION = '0.1.1';
const FEED_REPORT = 'installer-feed';
const FEED_ROWS = 240;
const BEARER = 'installer-call-token.4f2a';
const PATHS = { rows: 'installer/rows', call: 'installer/call' };
const CUSTOM_REGISTRY_FEATURE = 'feat:communityNodes:customRegistry';

/** What n8n's installer answers and lists: the package and the node types it registered. */
interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	installedNodes: Array<{ type: string; latestVersion: number }>;
}

/** Row ids the feed workflow's HTTP Request node delivered, in the order they came. */
async function startCollector(): Promise<{ url: string; ids: string[]; close: () => Promise<void> }> {
	const ids: string[] = [];
	const server: Server = createServer((request, response) => {
		let body = '';
		request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
		request.on('end', () => {
			ids.push(String((JSON.parse(body) as { id: unknown }).id));
			response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${port}/rows`, ids, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe.each(runtimesUnderTest())('installed and updated by the community-package installer of %s', (_title, runtime) => {
	let sandbox: Sandbox;
	let registry: LoopbackRegistry;
	let collector: Awaited<ReturnType<typeof startCollector>>;
	let n8n: N8nInstance;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true, bankRows: 10 });
		await control(sandbox, '/reports', { id: FEED_REPORT, generate: 'bank', rows: FEED_ROWS });
		registry = await LoopbackRegistry.start();
		await registry.publish(packed.tarball);
		collector = await startCollector();
		const folder = join(e2eDir, 'installer');
		mkdirSync(folder, { recursive: true });
		n8n = await N8nInstance.create({
			runtime,
			env: {
				E2E_TESTS: 'true',
				N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url,
				// The installer's npm keeps its cache in the instance, not in the user's.
				npm_config_cache: join(folder, `npm-cache-${runtime.spec.name}`),
			},
		});
		await n8n.start();
		const enabled = await fetch(`${n8n.baseUrl}/rest/e2e/feature`, {
			method: 'PATCH',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ feature: CUSTOM_REGISTRY_FEATURE, enabled: true }),
		});
		expect(enabled.status).toBe(200);
	});

	afterAll(async () => {
		await n8n?.stop();
		// n8n's installer names its nodes folder's manifest "installed-nodes": two instance folders
		// left under .cache would make jest's other runs warn of a module naming collision.
		const manifest = n8n ? join(n8n.userFolder, '.n8n', 'nodes', 'package.json') : '';
		if (manifest && existsSync(manifest)) {
			const nodesPackage = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
			delete nodesPackage.name;
			writeFileSync(manifest, JSON.stringify(nodesPackage, null, 2));
		}
		await collector?.close();
		await registry?.close();
		await sandbox?.close();
	});

	const activate = async (definition: WorkflowJson): Promise<string> => {
		const { name, nodes, connections, settings } = definition;
		// n8n 1.x stores no workflow without `active`.
		const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', {
			name,
			nodes,
			connections,
			settings,
			active: false,
		});
		await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
		return created.id;
	};
	const savedWorkflow = async (id: string) => {
		const { name, nodes, connections, settings } = await n8n.rest<WorkflowJson>('GET', `/workflows/${id}`);
		return { name, nodes, connections, settings };
	};
	const readRows = async (): Promise<unknown> => {
		const response = await fetch(`${n8n.baseUrl}/webhook/${PATHS.rows}`, { method: 'POST' });
		expect(response.status).toBe(200);
		return await response.json();
	};
	const call = async (invoice: number) => {
		const outcome = await sendWebhook(sandbox, {
			url: `${n8n.baseUrl}/webhook/${PATHS.call}`,
			payload: { invoice_id: invoice },
			auth: { type: 'oauth2', accessToken: BEARER },
		});
		expect(outcome.status).toBe(200);
		return JSON.parse(outcome.body ?? '{}') as unknown;
	};
	const appendFeedRows = (count: number) => control(sandbox, `/reports/${FEED_REPORT}/rows`, { generate: count });
	const collected = async (count: number) =>
		await waitFor(`${count} rows delivered by the feed workflow (so far: ${collector.ids.length})`, () =>
			collector.ids.length >= count ? [...collector.ids] : undefined, { timeoutMs: 90_000, intervalMs: 250 });

	test('installs from the registry without a restart, runs each node, and updates to the next version while a Report Trigger is active: every row once, saved workflows unchanged', async () => {
		// Install, as Settings → Community Nodes → Install does.
		const installed = await n8n.rest<InstalledPackage>('POST', '/community-packages', { name: packed.name });
		expect(installed).toMatchObject({ packageName: packed.name, installedVersion: packed.version });
		expect(installed.installedNodes.map((node) => node.type).sort()).toEqual([
			'n8n-nodes-records.records',
			'n8n-nodes-records.recordsReportTrigger',
			'n8n-nodes-records.recordsTrigger',
		]);
		expect(registry.requests).toContain(`GET /${packed.name}/-/${packed.name}-${packed.version}.tgz 200`);

		// A workflow with each node, created and activated on the running server.
		const recordsCredential = await n8n.rest<{ id: string; name: string }>('POST', '/credentials', {
			name: 'Records',
			type: 'recordsApi',
			data: {
				baseUrl: sandbox.baseUrl,
				token: TOKENS.analysisAdmin,
				allowHttp: true,
				testWith: 'report',
				testReportId: FEED_REPORT,
				testRecordTypeId: '',
				allowedHttpRequestDomains: 'all',
			},
		});
		const callCredential = await n8n.rest<{ id: string; name: string }>('POST', '/credentials', {
			name: 'Records service',
			type: 'recordsTriggerBearerAuthApi',
			data: { token: BEARER },
		});
		const recordsApi = { recordsApi: { id: recordsCredential.id, name: recordsCredential.name } };
		const ids = {
			rows: await activate(
				workflow('rows', 'Read bank rows', [
					{
						name: 'Webhook',
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						webhookId: '9b3f2c1e-5a7d-4e08-8c61-2f4a0d7e0001',
						parameters: { httpMethod: 'POST', path: PATHS.rows, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
					},
					{
						name: 'Get Rows',
						type: 'n8n-nodes-records.records',
						parameters: {
							resource: 'report',
							operation: 'getRows',
							report: { __rl: true, mode: 'id', value: REPORTS.bankTransactions },
							returnAll: false,
							limit: 3,
							options: {},
						},
						credentials: recordsApi,
					},
				]),
			),
			call: await activate(
				workflow('call', 'Invoice paid', [
					{
						name: 'Records call',
						type: 'n8n-nodes-records.recordsTrigger',
						webhookId: '9b3f2c1e-5a7d-4e08-8c61-2f4a0d7e0002',
						parameters: {
							authentication: 'bearerToken',
							path: PATHS.call,
							responseMode: 'lastNode',
							responseData: 'firstEntryJson',
						},
						credentials: { recordsTriggerBearerAuthApi: { id: callCredential.id, name: callCredential.name } },
					},
				]),
			),
			feed: await activate(
				workflow('feed', 'New bank rows', [
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
						credentials: recordsApi,
					},
					{
						name: 'Deliver',
						type: 'n8n-nodes-base.httpRequest',
						typeVersion: 4.2,
						parameters: {
							method: 'POST',
							url: collector.url,
							sendBody: true,
							specifyBody: 'json',
							jsonBody: '={{ JSON.stringify({ id: $json["ID transakce"] }) }}',
							options: {},
						},
					},
				]),
			),
		};
		const saved = { rows: await savedWorkflow(ids.rows), call: await savedWorkflow(ids.call), feed: await savedWorkflow(ids.feed) };
		const packageNodes = Object.values(saved)
			.flatMap((entry) => entry.nodes)
			.filter((node) => node.type.startsWith(`${packed.name}.`))
			.map((node) => ({ name: node.type, version: node.typeVersion }));
		// What the editor loads to draw and open these nodes.
		const descriptions = async () =>
			await n8n.rest<Array<{ name: string; version: number | number[]; communityNodePackageVersion?: string }>>('POST', '/node-types', {
				nodeInfos: packageNodes,
			});
		const descriptionsBefore = await descriptions();
		// n8n 1.x names them without the package's prefix.
		const shortName = (type: string) => type.replace(`${packed.name}.`, '');
		expect(descriptionsBefore.map((description) => shortName(description.name))).toEqual(packageNodes.map((node) => shortName(node.name)));

		await n8n.waitForWebhook(PATHS.rows);
		await n8n.waitForWebhook(PATHS.call);
		const rowsBefore = await readRows();
		expect(rowsBefore).toHaveLength(3);
		expect(await call(4711)).toMatchObject({ event: 'invoice.paid', body: { invoice_id: 4711 } });
		// Activation polled the report once and remembered its rows; the next polls emit only new ones.
		await waitForReportRequests(sandbox, 0, requestsPerPoll(FEED_ROWS));
		await appendFeedRows(3);
		expect(await collected(3)).toEqual(bankTransactionIds(FEED_ROWS + 1, 3));

		// The next version, published while the trigger polls; rows come before and after the update.
		const next = await repackTarball(packed.tarball, NEXT_VERSION, join(e2eDir, 'package'));
		await registry.publish(next);
		await appendFeedRows(2);
		// Update, as the Update button does: no version given, the registry's latest.
		const updated = await n8n.rest<InstalledPackage>('PATCH', '/community-packages', { name: packed.name });
		expect(updated.installedVersion).toBe(NEXT_VERSION);
		expect(registry.requests).toContain(`GET /${packed.name}/-/${packed.name}-${NEXT_VERSION}.tgz 200`);
		await appendFeedRows(1);

		const readsAfterUpdate = reportRequests(sandbox);
		expect(await collected(6)).toEqual(bankTransactionIds(FEED_ROWS + 1, 6));
		// Two more whole polls: nothing emitted again.
		await waitForReportRequests(sandbox, readsAfterUpdate, 2 * requestsPerPoll(FEED_ROWS + 6) + 1);
		expect(collector.ids).toEqual(bankTransactionIds(FEED_ROWS + 1, 6));

		// The other nodes run the new version without a restart; the saved workflows are as they were,
		// and the editor gets the same descriptions for their nodes.
		expect(await readRows()).toEqual(rowsBefore);
		expect(await call(4712)).toMatchObject({ event: 'invoice.paid', body: { invoice_id: 4712 } });
		expect({ rows: await savedWorkflow(ids.rows), call: await savedWorkflow(ids.call), feed: await savedWorkflow(ids.feed) }).toEqual(saved);
		// The node types n8n now serves (and looks up for every poll and call) are the new version's.
		const descriptionsAfter = await descriptions();
		expect(descriptionsBefore.map((description) => description.communityNodePackageVersion)).toEqual(packageNodes.map(() => packed.version));
		expect(descriptionsAfter.map((description) => description.communityNodePackageVersion)).toEqual(packageNodes.map(() => NEXT_VERSION));
		expect(descriptionsAfter).toEqual(descriptionsBefore.map((description) => ({ ...description, communityNodePackageVersion: NEXT_VERSION })));
		const [listed] = await n8n.rest<InstalledPackage[]>('GET', '/community-packages');
		expect(listed).toMatchObject({ packageName: packed.name, installedVersion: NEXT_VERSION });
	});
});
