/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

import { N8nInstance, type WorkflowJson } from '../../tooling/n8n/n8nInstance';
import { waitFor } from '../../tooling/lib/proc';
import { TOKENS } from '../../tooling/sandbox/server';
import { openSignedInBrowser, type SignedInBrowser } from './browser';
import { e2eDir, readSetup, runtimesUnderTest } from './harness';

/**
 * What a new user sees of the package in n8n's editor, in Debian's headless Chromium (driven by
 * playwright-core): the canvas subtitles, the Resource list, the Import panel, the option lists, and
 * the Records Trigger's Webhook URLs. Screenshots of each step are kept under
 * .cache/e2e/editor/ for a person to look at. Needs /usr/bin/chromium, like screenshot.e2e.ts.
 */

const SHOTS = join(e2eDir, 'editor');

const { packed } = readSetup();
const credential = { id: 'e2eEditorRecords1', name: 'Records (editor)' };

const recordsNode = (name: string, x: number, parameters: Record<string, unknown>) => ({
	id: `editor-${x}`,
	name,
	type: 'n8n-nodes-records.records',
	typeVersion: 1,
	position: [x, 0] as [number, number],
	parameters,
	credentials: { recordsApi: credential },
});

/** A workflow as a user builds it: a call from the service, an import, a report read, the answer. */
const editorWorkflow: WorkflowJson = {
	id: 'e2eEditorTour',
	name: 'Editor tour',
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
		{
			id: 'editor-trigger',
			name: 'Records call',
			type: 'n8n-nodes-records.recordsTrigger',
			typeVersion: 1.1,
			webhookId: '3f1d2c4b-5a69-4e7f-8a1b-2c3d4e5f6a7b',
			position: [0, 0],
			parameters: { path: 'records/editor', responseMode: 'responseNode' },
		},
		recordsNode('Import invoices', 260, { resource: 'record', operation: 'import', recordTypeId: 'faktury-prijate' }),
		recordsNode('Read bank report', 520, {
			resource: 'report',
			operation: 'getRows',
			report: { __rl: true, mode: 'id', value: 'bank-transactions' },
		}),
		{ ...recordsNode('Answer the call', 780, { resource: 'workflowCall', operation: 'respond' }), credentials: undefined },
		{
			id: 'editor-report-trigger',
			name: 'New bank rows',
			type: 'n8n-nodes-records.recordsReportTrigger',
			typeVersion: 1,
			position: [0, 300],
			parameters: { report: { __rl: true, mode: 'id', value: 'bank-transactions' } },
			credentials: { recordsApi: credential },
		},
	],
	connections: {
		'Records call': { main: [[{ node: 'Import invoices', type: 'main', index: 0 }]] },
		'Import invoices': { main: [[{ node: 'Read bank report', type: 'main', index: 0 }]] },
		'Read bank report': { main: [[{ node: 'Answer the call', type: 'main', index: 0 }]] },
	},
};

const n8n2 = runtimesUnderTest().filter(([, runtime]) => runtime.spec.name === 'v2');

if (n8n2.length === 0) {
	test.skip('the editor is checked in n8n 2.x, which E2E_RUNTIMES leaves out', () => undefined);
}

describe.each(n8n2)('the package in the editor of %s', (_title, runtime) => {
	let n8n: N8nInstance;
	let browser: SignedInBrowser | undefined;
	let page: Page;

	const shot = async (name: string) => await page.screenshot({ path: join(SHOTS, `${name}.png`) });

	/** Opens a node's settings (NDV) by its address, as a link to a node does. */
	const openNode = async (name: string) => {
		const node = editorWorkflow.nodes.find((candidate) => candidate.name === name);
		await page.goto(`${n8n.baseUrl}/workflow/${editorWorkflow.id}/${node?.id ?? ''}`);
		await page.getByText(name).first().waitFor({ state: 'visible' });
		await page.locator('[data-test-id="parameter-input-resource"], [data-test-id="parameter-input-path"], [data-test-id="parameter-input-report"]').first().waitFor({ state: 'visible' });
	};

	beforeAll(async () => {
		mkdirSync(SHOTS, { recursive: true });
		n8n = await N8nInstance.create({ runtime, package: packed });
		await n8n.importCredentials([
			{ ...credential, type: 'recordsApi', data: { baseUrl: 'https://records.example.com', token: TOKENS.full } },
		]);
		await n8n.importWorkflows([editorWorkflow]);
		await n8n.start();
		await n8n.setupOwner();

		// A laptop's screen, where the settings panel is narrowest.
		browser = await openSignedInBrowser(n8n, { width: 1280, height: 720 });
		page = browser.page;
		await page.goto(`${n8n.baseUrl}/workflow/${editorWorkflow.id}`);
		const canvasNodes = page.locator('[data-test-id="canvas-node"]');
		await waitFor('n8n to draw every node', async () =>
			(await canvasNodes.count()) === editorWorkflow.nodes.length ? true : undefined,
		);
	});

	afterAll(async () => {
		await browser?.close();
		await n8n?.stop();
	});

	test('the canvas says what each Records node does, in words', async () => {
		const subtitleOf = async (name: string) =>
			(await page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`).innerText()).replace(/\s+/g, ' ');
		await waitFor('the subtitles', async () => ((await subtitleOf('Import invoices')).includes('Import records') ? true : undefined));
		await waitFor('the package icons to load', async () => {
			const widths = await page
				.locator('[data-test-id="canvas-node"][data-node-type^="n8n-nodes-records."] img')
				.evaluateAll((icons) => icons.map((icon) => (icon as unknown as { naturalWidth: number }).naturalWidth));
			return widths.length === editorWorkflow.nodes.length && widths.every((width) => width > 0) ? true : undefined;
		});
		await page.waitForTimeout(1500);
		await shot('canvas');
		expect(await subtitleOf('Import invoices')).toContain('Import records');
		expect(await subtitleOf('Read bank report')).toContain('Read report rows');
		expect(await subtitleOf('Answer the call')).toContain('Respond to call');
		for (const internal of ['import: record', 'getRows: report', 'respond: workflowCall']) {
			expect(await page.getByText(internal).count()).toBe(0);
		}
	});

	test('Resource lists the guide\'s resources first, in the order of use, then any other endpoint', async () => {
		await openNode('Import invoices');
		await page.locator('[data-test-id="parameter-input-resource"]').click();
		const items = page.locator('.el-select-dropdown__item:visible');
		await waitFor('the Resource list', async () => ((await items.count()) >= 4 ? true : undefined));
		await shot('resource-list');
		const names = (await items.allInnerTexts()).map((text) => text.split('\n')[0].trim());
		expect(names.slice(0, 4)).toEqual(['Record', 'Report', 'Workflow Call', 'Other Endpoint']);
		await page.keyboard.press('Escape');
	});

	test("Import opens with its first field, no box above it; its options are called like the others'", async () => {
		await openNode('Import invoices');
		await shot('import');
		const ndv = page.locator('[data-test-id="ndv"]').first();
		await page.locator('[data-test-id="parameter-input-recordTypeId"]').first().waitFor({ state: 'visible' });
		expect(await page.locator('[data-test-id="ndv"] [class*="notice" i]:visible, [data-test-id="ndv"] [class*="callout" i]:visible').count()).toBe(0);
		const html = await ndv.innerHTML();
		expect(html).toContain('Add option');
		expect(html).not.toContain('Add Option');
	});

	test.each(['Read bank report', 'New bank rows'])('%s lists its options without cutting their names off', async (name) => {
		await openNode(name);
		await shot(`options-of-${name}`);
		await page.locator('[data-test-id="ndv"] [placeholder="Add option"], [data-test-id="ndv"] :text-is("Add option")').first().click({ timeout: 5000 });
		const items = page.locator('.el-select-dropdown__item:visible');
		await waitFor('the option list', async () => ((await items.count()) > 0 ? true : undefined));
		await page.waitForTimeout(500);
		await shot(`option-list-of-${name}`);
		const cut = await items.evaluateAll((elements) =>
			elements
				.filter((element) => element.scrollWidth > element.clientWidth + 1 || [...element.querySelectorAll('*')].some((child) => child.scrollWidth > child.clientWidth + 1))
				.map((element) => element.textContent?.trim()),
		);
		expect(cut).toEqual([]);
		// Added, the option's label is shown whole too (n8n shortens a long one to "Convert Czech Numbers and ...").
		await items.filter({ hasText: 'Convert Czech Formats' }).click();
		const options = page.locator('[data-test-id="ndv"]').first();
		await waitFor('the option to be added', async () => ((await options.innerText()).includes('Convert Czech Formats\n') ? true : undefined));
		await shot(`option-added-to-${name}`);
		expect(await options.innerText()).not.toMatch(/Convert Czech[^\n]*\.\.\./);
	});

	test("the Records Trigger's Webhook URLs show the URL without a cut-off method badge", async () => {
		await openNode('Records call');
		await shot('trigger');
		const urls = page.getByText('Webhook URLs').first();
		await urls.click({ timeout: 5000 });
		await page.locator('.webhook-url').filter({ hasText: 'records/editor' }).first().waitFor({ state: 'visible' });
		await shot('trigger-webhook-urls');
		const badges = await page.locator('[data-test-id="ndv"] .http-method').allInnerTexts();
		expect(badges.filter((badge) => badge.trim() !== '' && !['GET', 'POST', 'PUT', 'HEAD', 'DELETE'].includes(badge.trim()))).toEqual([]);
		expect(await page.getByText('DELET', { exact: true }).count()).toBe(0);
	});
});
