/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * n8n's community-package installer in queue mode: Install and Update on the main instance, a
 * workflow whose Records node runs on a worker that has a user folder of its own, as on another
 * machine (it shares only the database and Redis with the main instance). Set-up:
 * communityInstaller.ts.
 *
 * What n8n does (its code, 2.41.1 and 1.123.81 alike): the main instance installs from its registry,
 * records the version in the database and publishes a command on Redis; each worker, on that
 * command, installs the version the database records from the registry its own settings name and
 * loads it. On an update n8n 1.x's worker downloads the new version but its loader refuses a package
 * it has already loaded: it runs the old version until it restarts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { waitFor } from '../../tooling/lib/proc';
import type { N8nInstance } from '../../tooling/n8n/n8nInstance';
import { communityNodesDir } from '../../tooling/n8n/package';
import type { LoopbackRegistry } from '../../tooling/n8n/registry';
import { REPORTS, startSandbox, type Sandbox } from '../../tooling/sandbox/server';
import {
	activateWorkflow,
	createRecordsCredential,
	finishedExecutions,
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
	updatePackage,
} from './communityInstaller';
import { readSetup, runtimesUnderTest } from './harness';

const { packed } = readSetup();
const PATH = 'queue-installer/rows';
/** What a worker's log says when it has handled an install or update command. */
const WORKER_HANDLED = /Community package installed|Failed to install community package|Skipped installing community package/;

describe.each(runtimesUnderTest())('installed and updated by the community-package installer in queue mode in %s', (_title, runtime) => {
	// n8n 1.x's worker fails an update with "nodes package … is already loaded" and keeps the old code.
	const workerLoadsUpdates = !runtime.spec.n8nVersion.startsWith('1.');
	let sandbox: Sandbox;
	let registry: LoopbackRegistry;
	let n8n: N8nInstance;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true, bankRows: 10 });
		registry = await startRegistry(packed);
		n8n = await startInstallerN8n(runtime, registry, { queue: true });
	});

	afterAll(async () => {
		await stopInstallerN8n(n8n);
		await registry?.close();
		await sandbox?.close();
	});

	const workerLog = () => readFileSync(n8n.workerLog, 'utf8');
	/** Waits for the worker to handle the command published after its log had `offset` characters. */
	const workerHandled = async (offset: number) =>
		await waitFor('the worker to handle the package command', () => WORKER_HANDLED.exec(workerLog().slice(offset))?.[0], {
			timeoutMs: 120_000,
		});
	const onWorkerDisk = () =>
		(JSON.parse(readFileSync(join(communityNodesDir(n8n.workerUserFolder), 'node_modules', packed.name, 'package.json'), 'utf8')) as { version: string })
			.version;
	/** Calls the rows webhook for the `run`th time: the rows answered, and whether the worker ran it. */
	const readRowsRun = async (workflowId: string, run: number) => {
		const rows = await readRows(n8n, PATH);
		const execution = (await finishedExecutions(n8n, workflowId, run)).at(-1);
		return { rows, status: execution?.status, onWorker: execution ? n8n.ranOnWorker(execution) : false };
	};

	test('Install and Update on the main instance make the worker fetch the version from the registry itself; the worker runs the new version at once on 2.x, after a restart on 1.x', async () => {
		let offset = workerLog().length;
		expect((await installPackage(n8n, packed)).installedVersion).toBe(packed.version);
		expect(await workerHandled(offset)).toBe('Community package installed');
		// Downloaded twice: by the main instance and by the worker, into its own nodes folder.
		expect(tarballDownloads(registry, packed, packed.version)).toBe(2);
		expect(onWorkerDisk()).toBe(packed.version);

		const credentials = await createRecordsCredential(n8n, sandbox, REPORTS.bankTransactions);
		const workflowId = await activateWorkflow(n8n, readRowsWorkflow(PATH, '3c7d9e21-4b6a-4f0e-9a18-5e2b7c0d0001', credentials));
		await n8n.waitForWebhook(PATH);
		const before = await readRowsRun(workflowId, 1);
		expect(before).toMatchObject({ status: 'success', onWorker: true });
		expect(before.rows).toHaveLength(3);
		expect(before.rows[0]).not.toHaveProperty('packageVersion');
		const newCode = { rows: before.rows.map((row) => ({ ...row, ...NEXT_VERSION_MARK })), status: 'success', onWorker: true };

		await publishNextVersion(registry, packed);
		offset = workerLog().length;
		expect((await updatePackage(n8n, packed)).installedVersion).toBe(NEXT_VERSION);
		expect(await workerHandled(offset)).toBe(workerLoadsUpdates ? 'Community package installed' : 'Failed to install community package');
		expect(tarballDownloads(registry, packed, NEXT_VERSION)).toBe(2);
		expect(onWorkerDisk()).toBe(NEXT_VERSION);

		const afterUpdate = await readRowsRun(workflowId, 2);
		if (workerLoadsUpdates) {
			expect(afterUpdate).toEqual(newCode);
		} else {
			expect(afterUpdate).toEqual(before);
			await n8n.restartWorker();
			expect(await readRowsRun(workflowId, 3)).toEqual(newCode);
		}
	});
});
