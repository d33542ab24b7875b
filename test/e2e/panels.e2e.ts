/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside n8n (Node.js's
	modules, `__dirname`) */
import { join } from 'node:path';
import type { Page } from 'playwright-core';

import { N8nInstance, type WorkflowJson } from '../../tooling/n8n/n8nInstance';
import { waitFor } from '../../tooling/lib/proc';
import { startSandbox, TOKENS, type Sandbox } from '../../tooling/sandbox/server';
import { markPinTipSeen, openSignedInBrowser, type SignedInBrowser } from './browser';
import { readSetup, runtimesUnderTest } from './harness';

/**
 * Each node's panel as a new user first sees it, in n8n 2.x in Debian's headless Chromium at
 * 1440×900: at its defaults no notice shows but the one the user must act on (the Records Trigger's
 * "paste the Production URL into the service"), and the Report Trigger set up as the README's quick
 * start shows its key column by name. The pictures are saved for the docs under docs/images/.
 */

const { packed } = readSetup();
const images = join(__dirname, '..', '..', 'docs', 'images');
const credential = { id: 'e2ePanelsRecords1', name: 'Records' };

const node = (id: string, name: string, type: string, x: number, parameters: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
	id,
	name,
	type: `n8n-nodes-records.${type}`,
	typeVersion: type === 'recordsTrigger' ? 1.1 : 1,
	position: [x, 0] as [number, number],
	parameters,
	...extra,
});

const panelsWorkflow: WorkflowJson = {
	id: 'e2ePanels',
	name: 'Panels',
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
		node('panel-records', 'Records', 'records', 0, {}, { credentials: { recordsApi: credential } }),
		node('panel-report-trigger', 'Records Report Trigger', 'recordsReportTrigger', 300, {}, { credentials: { recordsApi: credential } }),
		node('panel-records-trigger', 'Records Trigger', 'recordsTrigger', 600, {}, { webhookId: '0b7f1c2e-6a4d-4d1f-9f3e-5c2b8a7d6e10' }),
		node(
			'panel-bank',
			'New bank transactions',
			'recordsReportTrigger',
			900,
			{
				pollTimes: { item: [{ mode: 'everyX', value: 10, unit: 'minutes' }] },
				report: { __rl: true, mode: 'id', value: 'bank-transactions' },
				rowIdentity: 'columns',
				keyColumns: ['c1'],
				newRowPosition: 'end',
			},
			{ credentials: { recordsApi: credential } },
		),
	],
	connections: {},
};

const n8n2 = runtimesUnderTest().filter(([, runtime]) => runtime.spec.name === 'v2');

if (n8n2.length === 0) {
	test.skip('the panels are checked in n8n 2.x, which E2E_RUNTIMES leaves out', () => undefined);
}

describe.each(n8n2)('the panels of the package in %s', (_title, runtime) => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let browser: SignedInBrowser | undefined;
	let page: Page;

	/** Opens a node's panel by its address, as a link to a node does, and waits for its parameters. */
	const openNode = async (id: string) => {
		await page.goto(`${n8n.baseUrl}/workflow/${panelsWorkflow.id}/${id}`);
		// A loaded machine takes longer than the default 30 s to draw the first panel.
		await page.locator('[data-test-id="ndv"] [data-test-id^="parameter-input-"]').first().waitFor({ state: 'visible', timeout: 120_000 });
		await page.waitForTimeout(1000);
	};

	/** The texts of the notices and callouts shown in the open panel (an element and the ones inside it, once). */
	const notices = async () => {
		const texts = (await page.locator('[data-test-id="ndv"] [class*="notice" i]:visible, [data-test-id="ndv"] [class*="callout" i]:visible').allInnerTexts())
			.map((text) => text.trim())
			.filter((text) => text !== '');
		return [...new Set(texts)].filter((text, _index, all) => !all.some((other) => other !== text && other.includes(text)));
	};

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true, bankRows: 50 });
		n8n = await N8nInstance.create({ runtime, package: packed });
		await n8n.importCredentials([
			{ ...credential, type: 'recordsApi', data: { baseUrl: sandbox.baseUrl, token: TOKENS.full, allowHttp: true, testReportId: 'costs' } },
		]);
		await n8n.importWorkflows([panelsWorkflow]);
		await n8n.start();
		await n8n.setupOwner();
		browser = await openSignedInBrowser(n8n, { width: 1440, height: 900 });
		// n8n's one-time tip "You can pin this output…" would cover the sample's hint.
		await markPinTipSeen(browser);
		page = browser.page;
	});

	afterAll(async () => {
		await browser?.close();
		await n8n?.stop();
		await sandbox?.close();
	});

	test.each([
		['panel-records', 'panel-records-import', []],
		['panel-report-trigger', 'panel-report-trigger-defaults', []],
		['panel-records-trigger', 'panel-records-trigger', ['Paste the Production URL above into the Records service']],
	] as const)('%s at its defaults shows only the notices the user must act on', async (id, picture, expected) => {
		await openNode(id);
		await page.screenshot({ path: join(images, `${picture}.png`) });
		const shown = await notices();
		expect(shown.length).toBe(expected.length);
		expected.forEach((start, index) => expect(shown[index]).toContain(start));
	});

	test('the Report Trigger set up as the quick start says shows its key column by name', async () => {
		await openNode('panel-bank');
		const ndv = page.locator('[data-test-id="ndv"]').first();
		await waitFor('the key column to load from the report', async () => ((await ndv.innerText()).includes('ID transakce') ? true : undefined));
		await page.screenshot({ path: join(images, 'panel-report-trigger.png') });
		expect(await notices()).toEqual([]);
	});

	// Issue 48: the picker showed the trigger's description under the Records action node.
	test('the node picker shows each node of the package with its own description', async () => {
		await page.goto(`${n8n.baseUrl}/workflow/${panelsWorkflow.id}`);
		await page.locator('[data-test-id="node-creator-plus-button"]').click({ timeout: 120_000 });
		await page.locator('[data-test-id="node-creator-search-bar"]').first().waitFor({ state: 'visible' });
		await page.keyboard.type('Records');
		// A node with several actions is an action item (n8n merges the Records node and the Records Trigger into one).
		const names = page.locator('[data-test-id="node-creator-node-item"], [data-test-id="node-creator-action-item"]');
		try {
			await waitFor('the package nodes in the picker', async () => ((await names.count()) >= 2 ? true : undefined), { timeoutMs: 120_000 });
		} finally {
			await page.waitForTimeout(1000);
			await page.screenshot({ path: join(images, 'node-picker.png') });
		}
		const texts = (await names.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
		const records = texts.find((text) => /^Records(?! (Report )?Trigger)/.test(text));
		expect(records).toBeDefined();
		expect(records).toMatch(/Import records/);
		expect(records).not.toMatch(/Starts the workflow/);
	});

	// Issue 48: Fetch Test Event showed existing rows with nothing saying they are a sample.
	test('Fetch Test Event on the quick-start trigger shows the sample with the hint that it is one', async () => {
		await openNode('panel-bank');
		await page.locator('[data-test-id="ndv"] [data-test-id="node-execute-button"]').first().click();
		const hint = page.locator('[data-test-id="ndv"] [data-test-id="node-hint"]').filter({ hasText: 'A sample' });
		await hint.first().waitFor({ state: 'visible', timeout: 120_000 });
		await page.mouse.move(0, 0);
		expect(await page.getByText('You can pin this output').count()).toBe(0);
		await page.screenshot({ path: join(images, 'report-trigger-sample.png') });
		expect((await hint.first().innerText()).trim()).toMatch(/^A sample: the rows a poll would emit now.*IDs or dates rising row by row mean the report lists oldest first\.$/s);
	});
});
