/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- a test: runs in Node.js,
	not inside n8n (Node.js's modules); it prints what the walk recorded */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { exampleCredential } from '../../tooling/examples/examples';
import { startStandIns, type StandIns } from '../../tooling/examples/stand-ins';
import { N8nInstance, nodeOutput } from '../../tooling/n8n/n8nInstance';
import { repoRoot } from '../../tooling/lib/paths';
import { waitFor } from '../../tooling/lib/proc';
import { bankTransactionIds, REPORTS } from '../../tooling/sandbox/seeds';
import { startSandbox, TOKENS, type Sandbox } from '../../tooling/sandbox/server';
import { openSignedInBrowser, skipBrowserTests, type SignedInBrowser } from './browser';
import { e2eDir, readSetup, runtimesUnderTest } from './harness';
import { estimateStep } from './keystrokeModel';
import { betweenPolls, reportRequests } from './polling';
import { TRANSACTION_ID_COLUMN, walkQuickStart } from './quickStartWalk';
import { quickStartSteps } from './readmeQuickStart';

/**
 * The README's quick start followed literally in n8n 2.x's editor (Debian's headless Chromium, as
 * browser.ts starts it), on the sandbox `npm start` sets up: from "Create workflow" on the Overview to
 * a published bank pull (quickStartWalk.ts). Every label the walk clicks or types comes from the
 * README's steps (readmeQuickStart.ts), so the walk fails when the README stops matching the editor. It records
 * what a user does and meets in each step (clicks, choices, fields, keys, dialogs and notices, the
 * machine's time) into .cache/e2e/quick-start-walk.json, with the keystroke-level estimate
 * (keystrokeModel.ts) that docs/quick-start.md reports. Then rows are added to the report, and
 * exactly those rows must reach the next node once.
 */

const { packed } = readSetup();
const n8n2 = runtimesUnderTest().filter(([, runtime]) => runtime.spec.name === 'v2');
const HISTORY_ROWS = 120;
const RECORD_FILE = join(e2eDir, 'quick-start-walk.json');

if (n8n2.length === 0) {
	test.skip('the quick start is walked in n8n 2.x, which E2E_RUNTIMES leaves out', () => undefined);
}

(skipBrowserTests ? describe.skip : describe).each(n8n2)("the README's quick start, walked in %s", (_title, runtime) => {
	let sandbox: Sandbox;
	let standIns: StandIns;
	let n8n: N8nInstance;
	let browser: SignedInBrowser | undefined;
	const steps = quickStartSteps(readFileSync(join(repoRoot, 'README.md'), 'utf8'));

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true, bankRows: HISTORY_ROWS });
		standIns = await startStandIns();
		// A loaded machine takes minutes to start n8n.
		n8n = await N8nInstance.create({ runtime, package: packed, startTimeoutMs: 300_000 });
		// What `npm start` creates: the one Records API credential, reading the sandbox.
		await n8n.importCredentials([exampleCredential(sandbox.baseUrl, TOKENS.full)]);
		await n8n.start();
		await n8n.setupOwner();
	});

	afterAll(async () => {
		await browser?.close();
		await n8n?.stop();
		await standIns?.close();
		await sandbox?.close();
	});

	test('from Create workflow to a published bank pull; rows added later reach the next node once', async () => {
		browser = await openSignedInBrowser(n8n, { width: 1440, height: 900 });
		const shots = join(e2eDir, 'quick-start');
		const { records, workflowId, triggerName } = await walkQuickStart({
			page: browser.page,
			n8nUrl: n8n.baseUrl,
			receiverUrl: `${standIns.baseUrl}/accounting/transactions`,
			steps,
			shots,
		});
		const estimates = records.map(estimateStep);
		const total = estimates.reduce((sum, estimate) => sum + estimate.totalSeconds, 0);
		writeFileSync(RECORD_FILE, JSON.stringify({ records, estimates, totalSeconds: total }, null, '\t'));
		console.log(
			[
				"The README's quick start, walked (keystroke-level estimate; machine time measured):",
				...records.map((record, index) => {
					const estimate = estimates[index];
					return `  step ${record.step} ${record.title}: ${record.clicks} clicks, ${record.choices} choices, ${record.fields} fields (${record.keystrokes} keys), ${record.words} words read, met [${record.met.join(' | ')}], machine ${estimate.machineSeconds.toFixed(1)} s, person ${estimate.totalSeconds.toFixed(0)} s`;
				}),
				`  total: ${total.toFixed(0)} s`,
			].join('\n'),
		);

		// The published pull: the activation poll remembers the report; rows added later go on once.
		expect(workflowId).not.toBe('');
		await waitFor('the published trigger to remember the report', async () =>
			(await n8n.api<{ staticData?: unknown }>('GET', `/workflows/${workflowId}`)).staticData ? true : undefined,
		{ timeoutMs: 120_000 });
		// Fetch Test Event's run is listed too (manual): the published trigger's are the others.
		const published = async () => (await n8n.executions(workflowId)).filter((execution) => execution.mode !== 'manual');
		expect(await published()).toEqual([]);
		const response = await fetch(`${sandbox.baseUrl}/__sandbox/reports/${REPORTS.bankTransactions}/rows`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ generate: 3 }),
		});
		expect(response.status).toBe(200);
		// The next poll comes within 10 minutes; n8n also polls when the workflow is published again.
		const reactivate = async () => {
			await n8n.api('POST', `/workflows/${workflowId}/deactivate`);
			const reads = reportRequests(sandbox);
			await n8n.api('POST', `/workflows/${workflowId}/activate`);
			await betweenPolls(sandbox, { after: reads + 1 });
		};
		await reactivate();
		const [run] = await waitFor('the published trigger to emit', async () => ((await published()).length > 0 ? await published() : undefined), {
			timeoutMs: 120_000,
		});
		expect(run.status).toBe('success');
		const added = bankTransactionIds(HISTORY_ROWS + 1, 3);
		const emitted = nodeOutput(run, triggerName).map((item) => item.json[TRANSACTION_ID_COLUMN]);
		expect(emitted).toEqual(added);
		expect(standIns.receivedAt('/accounting/')).toHaveLength(3);

		await reactivate();
		expect(await published()).toHaveLength(1);
		expect(standIns.receivedAt('/accounting/')).toHaveLength(3);
	});
});
