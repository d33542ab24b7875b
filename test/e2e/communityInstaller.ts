/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * What the tests of n8n's community-package installer share: a registry on loopback serving the
 * packed package (tooling/n8n/registry.ts), an n8n whose installer fetches from it, the installer's
 * calls as Settings → Community Nodes makes them, and the next version to update to.
 *
 * n8n lets only an instance licensed for its custom-registry feature use another registry than
 * npmjs.org. The main instance runs in n8n's test mode (E2E_TESTS=true), whose license stand-in
 * turns on that one feature and nothing else of the license. A queue-mode worker has no test mode
 * of its own; a real deployment's workers share the main instance's license, so the worker gets the
 * same one feature from a file it preloads (writeWorkerLicenseStandIn).
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { waitFor } from '../../tooling/lib/proc';
import { N8nInstance, newInstanceFolder, type WorkflowJson } from '../../tooling/n8n/n8nInstance';
import { communityNodesDir, type PackedPackage } from '../../tooling/n8n/package';
import { LoopbackRegistry, repackTarball } from '../../tooling/n8n/registry';
import type { Runtime } from '../../tooling/n8n/runtime';
import { REPORTS, type Sandbox } from '../../tooling/sandbox/server';
import { e2eDir, workflow } from './harness';
import { reportsCredential } from './polling';

export const NEXT_VERSION = '0.1.1';
/**
 * What the next version's Records node adds to every item it outputs, so that a run shows which
 * version's code ran (the version number alone shows only what n8n read from package.json).
 */
export const NEXT_VERSION_MARK = { packageVersion: NEXT_VERSION };
const RECORDS_NODE_FILE = 'dist/nodes/Records/Records.node.js';
const CUSTOM_REGISTRY_FEATURE = 'feat:communityNodes:customRegistry';

/** What n8n's installer answers and lists: the package and the node types it registered. */
export interface InstalledPackage {
	packageName: string;
	installedVersion: string;
	installedNodes: Array<{ type: string; latestVersion: number }>;
}

/** A registry on loopback with the packed package published. */
export async function startRegistry(packed: PackedPackage): Promise<LoopbackRegistry> {
	const registry = await LoopbackRegistry.start();
	await registry.publish(packed.tarball);
	return registry;
}

/** Publishes the same tree as NEXT_VERSION, its Records node adding NEXT_VERSION_MARK to what it outputs. */
export async function publishNextVersion(registry: LoopbackRegistry, packed: PackedPackage): Promise<void> {
	const markOutput = `
// The next version of the installer tests only: every item the node outputs says which version ran.
{
	const execute = exports.Records.prototype.execute;
	exports.Records.prototype.execute = async function (...args) {
		const output = await execute.apply(this, args);
		return output.map((items) => items.map((item) => ({ ...item, json: { ...item.json, ...${JSON.stringify(NEXT_VERSION_MARK)} } })));
	};
}
`;
	const next = await repackTarball(packed.tarball, NEXT_VERSION, join(e2eDir, 'package'), (packageDir) =>
		appendFileSync(join(packageDir, RECORDS_NODE_FILE), markOutput),
	);
	await registry.publish(next);
}

/**
 * A file for a worker's `--require`: n8n's License class answers that the custom-registry feature
 * is on, as soon as n8n loads it. Nothing else of the license changes.
 */
function writeWorkerLicenseStandIn(folder: string): string {
	const file = join(folder, 'worker-license-stand-in.cjs');
	writeFileSync(
		file,
		`// The license a queue-mode worker shares with its main instance, in the installer tests: the custom-registry feature only.
const Module = require('node:module');
const load = Module._load;
Module._load = function (...args) {
	const exported = load.apply(this, args);
	const License = exported !== null && typeof exported === 'object' ? exported.License : undefined;
	if (typeof License === 'function' && typeof License.prototype.isCustomNpmRegistryEnabled === 'function') {
		License.prototype.isCustomNpmRegistryEnabled = () => true;
		Module._load = load;
	}
	return exported;
};
`,
	);
	return file;
}

/**
 * A started n8n whose community-package installer fetches from `registry`. Each process's npm keeps
 * its cache in its own user folder, not in the user's: a queue-mode worker, in a user folder of its
 * own as on another machine, fetches what it installs from the registry itself.
 */
export async function startInstallerN8n(runtime: Runtime, registry: LoopbackRegistry, { queue = false } = {}): Promise<N8nInstance> {
	const userFolder = newInstanceFolder(`installer-${runtime.spec.name}`);
	const n8n = await N8nInstance.create({
		runtime,
		userFolder,
		queue,
		env: { E2E_TESTS: 'true', N8N_COMMUNITY_PACKAGES_REGISTRY: registry.url, npm_config_cache: join(userFolder, 'npm-cache') },
		...(queue && {
			worker: {
				ownFolder: true,
				env: { npm_config_cache: join(userFolder, 'worker', 'npm-cache') },
				nodeOptions: ['--require', writeWorkerLicenseStandIn(userFolder)],
			},
		}),
	});
	await n8n.start();
	const enabled = await fetch(`${n8n.baseUrl}/rest/e2e/feature`, {
		method: 'PATCH',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ feature: CUSTOM_REGISTRY_FEATURE, enabled: true }),
	});
	if (enabled.status !== 200) throw new Error(`n8n's test mode refused the custom-registry feature: HTTP ${enabled.status}`);
	return n8n;
}

/**
 * Stops n8n and takes the name "installed-nodes" out of the manifests n8n's installer wrote in its
 * nodes folders: equally named manifests left under .cache make jest's other runs warn of a module
 * naming collision.
 */
export async function stopInstallerN8n(n8n: N8nInstance | undefined): Promise<void> {
	if (!n8n) return;
	await n8n.stop();
	for (const folder of new Set([n8n.userFolder, n8n.workerUserFolder])) {
		const manifest = join(communityNodesDir(folder), 'package.json');
		if (!existsSync(manifest)) continue;
		const nodesPackage = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
		delete nodesPackage.name;
		writeFileSync(manifest, JSON.stringify(nodesPackage, null, 2));
	}
}

/** Install, as Settings → Community Nodes → Install does. */
export const installPackage = (n8n: N8nInstance, packed: PackedPackage) =>
	n8n.rest<InstalledPackage>('POST', '/community-packages', { name: packed.name });

/** Update, as the Update button does: no version given, the registry's latest. */
export const updatePackage = (n8n: N8nInstance, packed: PackedPackage) =>
	n8n.rest<InstalledPackage>('PATCH', '/community-packages', { name: packed.name });

/**
 * Creates and activates a workflow through the editor's REST API (in n8n's test mode, n8n 1.x's
 * public API is off); returns its id.
 */
export async function activateWorkflow(n8n: N8nInstance, { name, nodes, connections, settings }: WorkflowJson): Promise<string> {
	// n8n 1.x stores no workflow without `active`.
	const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', { name, nodes, connections, settings, active: false });
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	return created.id;
}

/**
 * A workflow's finished executions, oldest first, through the editor's REST API (in n8n's test
 * mode, n8n 1.x's public API is off); waits until there are at least `count`.
 */
export async function finishedExecutions(n8n: N8nInstance, workflowId: string, count: number): Promise<Array<{ id: string; status: string }>> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	return await waitFor(`${count} finished execution(s) of workflow ${workflowId}`, async () => {
		const { results } = await n8n.rest<{ results: Array<{ id: string; status: string }> }>('GET', `/executions?filter=${filter}&limit=100`);
		const finished = results.filter((execution) => !['new', 'running', 'waiting'].includes(execution.status));
		return finished.length >= count ? finished.sort((a, b) => Number(a.id) - Number(b.id)) : undefined;
	}, { intervalMs: 500 });
}

/** Creates the Records credential reading the sandbox's reports through the editor's REST API. */
export async function createRecordsCredential(n8n: N8nInstance, sandbox: Sandbox, reportId: string): Promise<{ recordsApi: { id: string; name: string } }> {
	const created = await n8n.rest<{ id: string; name: string }>('POST', '/credentials', reportsCredential(sandbox, reportId));
	return { recordsApi: { id: created.id, name: created.name } };
}

/** A workflow whose webhook at `path` answers with three rows of the bank report, read by Records → Get Rows. */
export const readRowsWorkflow = (path: string, webhookId: string, credentials: { recordsApi: { id: string; name: string } }): WorkflowJson =>
	workflow('rows', 'Read bank rows', [
		{
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId,
			parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
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
			credentials,
		},
	]);

/** Calls a readRowsWorkflow's webhook; returns the rows it answered with. */
export async function readRows(n8n: N8nInstance, path: string): Promise<Array<Record<string, unknown>>> {
	const response = await fetch(`${n8n.baseUrl}/webhook/${path}`, { method: 'POST' });
	const body = await response.text();
	if (response.status !== 200) throw new Error(`The rows webhook answered HTTP ${response.status}: ${body.slice(0, 500)}`);
	return JSON.parse(body) as Array<Record<string, unknown>>;
}

/** How many times the registry served one version's tarball (once to each instance that installed it). */
export const tarballDownloads = (registry: LoopbackRegistry, packed: PackedPackage, version: string) =>
	registry.requests.filter((request) => request === `GET /${packed.name}/-/${packed.name}-${version}.tgz 200`).length;
