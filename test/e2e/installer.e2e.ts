/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * The package installed and updated the way operators do it: by n8n's own community-package
 * installer (Settings → Community Nodes → Install, and Update, i.e. its REST calls), fetching from a
 * registry on loopback that n8n is pointed at with N8N_COMMUNITY_PACKAGES_REGISTRY (set-up:
 * communityInstaller.ts).
 *
 * One n8n per release: the package is installed without a restart, a workflow with each node runs,
 * then the same tree under the next version is published and installed as an update while a Report
 * Trigger is active. Every row added before, during and after the update reaches the workflow's next
 * node exactly once (a collector on loopback counts them), the saved workflows are unchanged, and
 * the next run of the Records node runs the new version's code.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { N8nInstance, WorkflowJson } from '../../tooling/n8n/n8nInstance';
import type { LoopbackRegistry } from '../../tooling/n8n/registry';
import { waitFor } from '../../tooling/lib/proc';
import { bankTransactionIds, startSandbox, type Sandbox } from '../../tooling/sandbox/server';
import { control, sendWebhook } from '../../tooling/sandbox/control';
import {
	activateWorkflow,
	createRecordsCredential,
	installPackage,
	NEXT_VERSION,
	NEXT_VERSION_MARK,
	publishNextVersion,
	readRows,
	readRowsWorkflow,
	startInstallerN8n,
	startRegistry,
	stopInstallerN8n,
	tarballDownloads,
	type InstalledPackage,
	updatePackage,
} from './communityInstaller';
import { readSetup, runtimesUnderTest, workflow } from './harness';
import { pollEvery15Seconds, reportRequests, requestsPerPoll, waitForReportRequests } from './polling';

const { packed } = readSetup();
const FEED_REPORT = 'installer-feed';
const FEED_ROWS = 240;
const BEARER = 'installer-call-token.4f2a';
const PATHS = { rows: 'installer/rows', call: 'installer/call' };

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
		registry = await startRegistry(packed);
		collector = await startCollector();
		n8n = await startInstallerN8n(runtime, registry);
	});

	afterAll(async () => {
		await stopInstallerN8n(n8n);
		await collector?.close();
		await registry?.close();
		await sandbox?.close();
	});

	const activate = (definition: WorkflowJson) => activateWorkflow(n8n, definition);
	const savedWorkflow = async (id: string) => {
		const { name, nodes, connections, settings } = await n8n.rest<WorkflowJson>('GET', `/workflows/${id}`);
		return { name, nodes, connections, settings };
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

	test('installs from the registry without a restart, runs each node, and updates to the next version while a Report Trigger is active: every row once, saved workflows unchanged, the Records node runs the new code next', async () => {
		const installed = await installPackage(n8n, packed);
		expect(installed).toMatchObject({ packageName: packed.name, installedVersion: packed.version });
		expect(installed.installedNodes.map((node) => node.type).sort()).toEqual([
			'n8n-nodes-records.records',
			'n8n-nodes-records.recordsReportTrigger',
			'n8n-nodes-records.recordsTrigger',
		]);
		expect(tarballDownloads(registry, packed, packed.version)).toBe(1);

		// A workflow with each node, created and activated on the running server.
		const recordsApi = await createRecordsCredential(n8n, sandbox, FEED_REPORT);
		const callCredential = await n8n.rest<{ id: string; name: string }>('POST', '/credentials', {
			name: 'Records service',
			type: 'recordsTriggerBearerAuthApi',
			data: { token: BEARER },
		});
		const ids = {
			rows: await activate(readRowsWorkflow(PATHS.rows, '9b3f2c1e-5a7d-4e08-8c61-2f4a0d7e0001', recordsApi)),
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
		const rowsBefore = await readRows(n8n, PATHS.rows);
		expect(rowsBefore).toHaveLength(3);
		expect(rowsBefore[0]).not.toHaveProperty('packageVersion');
		expect(await call(4711)).toMatchObject({ event: 'invoice.paid', body: { invoice_id: 4711 } });
		// Activation polled the report once and remembered its rows; the next polls emit only new ones.
		await waitForReportRequests(sandbox, 0, requestsPerPoll(FEED_ROWS));
		await appendFeedRows(3);
		expect(await collected(3)).toEqual(bankTransactionIds(FEED_ROWS + 1, 3));

		// The next version, published while the trigger polls; rows come before and after the update.
		await publishNextVersion(registry, packed);
		await appendFeedRows(2);
		const updated = await updatePackage(n8n, packed);
		expect(updated.installedVersion).toBe(NEXT_VERSION);
		expect(tarballDownloads(registry, packed, NEXT_VERSION)).toBe(1);
		await appendFeedRows(1);

		const readsAfterUpdate = reportRequests(sandbox);
		expect(await collected(6)).toEqual(bankTransactionIds(FEED_ROWS + 1, 6));
		// Two more whole polls: nothing emitted again.
		await waitForReportRequests(sandbox, readsAfterUpdate, 2 * requestsPerPoll(FEED_ROWS + 6) + 1);
		expect(collector.ids).toEqual(bankTransactionIds(FEED_ROWS + 1, 6));

		// The other nodes run the new version's code without a restart; the saved workflows are as
		// they were, and the editor gets the same descriptions for their nodes.
		expect(await readRows(n8n, PATHS.rows)).toEqual(rowsBefore.map((row) => ({ ...row, ...NEXT_VERSION_MARK })));
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
