/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';

import { exampleCallerCredential, exampleCredential, exampleWorkflows, readExamples } from '../../tooling/examples/examples';
import { N8nInstance } from '../../tooling/n8n/n8nInstance';
import { repoRoot } from '../../tooling/lib/paths';
import { waitFor } from '../../tooling/lib/proc';
import { TOKENS } from '../../tooling/sandbox/server';
import { openSignedInBrowser, skipBrowserTests, type SignedInBrowser } from './browser';
import { readSetup, runtimesUnderTest } from './harness';

/**
 * The README's picture of the nodes on the n8n canvas: n8n 2.x with the packed package and the
 * examples as a user imports them, signed in, one example opened in Debian's headless Chromium
 * (test/e2e/browser.ts), saved as docs/images/canvas.png once n8n has drawn every node with its icon.
 */

const SCREENSHOT = join(repoRoot, 'docs', 'images', 'canvas.png');
const SHOWN_EXAMPLE = '05-company-registry-lookup.json';
const PACKAGE_NODE_TYPE = /^n8n-nodes-records\./;

const { packed } = readSetup();
const n8n2 = runtimesUnderTest().filter(([, runtime]) => runtime.spec.name === 'v2');

/** An <img> as the page sees it: 0 wide until its picture has loaded. */
interface LoadedImage {
	naturalWidth: number;
}

/** Waits until the canvas stops moving (n8n fits the view to the nodes with an animation). */
async function waitForSteadyCanvas(page: Page): Promise<void> {
	let last = '';
	await waitFor(
		'the canvas to stop moving',
		async () => {
			const transform = await page.locator('.vue-flow__transformationpane').getAttribute('style');
			const steady = transform !== null && transform === last;
			last = transform ?? '';
			return steady ? true : undefined;
		},
		{ timeoutMs: 30_000, intervalMs: 500 },
	);
}

if (n8n2.length === 0) {
	test.skip('the README screenshot is taken with n8n 2.x, which E2E_RUNTIMES leaves out', () => undefined);
}

(skipBrowserTests ? describe.skip : describe).each(n8n2)('the README screenshot of the canvas in %s', (_title, runtime) => {
	let n8n: N8nInstance;
	let browser: SignedInBrowser | undefined;

	beforeAll(async () => {
		n8n = await N8nInstance.create({ runtime, package: packed });
		// No sandbox is needed to draw the canvas: the credentials only have to exist.
		await n8n.importCredentials([exampleCredential('https://records.example.com', TOKENS.full), exampleCallerCredential()]);
		await n8n.importWorkflows(exampleWorkflows());
		await n8n.start();
		await n8n.setupOwner();
	});

	afterAll(async () => {
		await browser?.close();
		await n8n?.stop();
	});

	test('n8n draws the example with the package nodes and their icons; the picture is saved for the README', async () => {
		const example = readExamples().find((candidate) => candidate.file === SHOWN_EXAMPLE);
		if (!example) throw new Error(`examples/${SHOWN_EXAMPLE} is missing`);
		const nodes = example.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote');

		browser = await openSignedInBrowser(n8n);
		const { page } = browser;
		await page.goto(`${n8n.baseUrl}/workflow/${example.id}`);
		const canvasNodes = page.locator('[data-test-id="canvas-node"]');
		await waitFor('n8n to draw every node of the example', async () =>
			(await canvasNodes.count()) === nodes.length ? true : undefined,
		);
		const drawn = await canvasNodes.evaluateAll((elements) =>
			elements.map((element) => ({
				name: element.getAttribute('data-node-name'),
				type: element.getAttribute('data-node-type'),
			})),
		);
		expect(drawn.map((node) => node.name).sort()).toEqual(nodes.map((node) => node.name).sort());
		const ours = drawn.filter((node) => PACKAGE_NODE_TYPE.test(node.type ?? ''));
		expect(ours.map((node) => node.type).sort()).toEqual(
			nodes.filter((node) => PACKAGE_NODE_TYPE.test(node.type)).map((node) => node.type).sort(),
		);
		// Each package node shows the package's icon (an unknown or broken node shows a placeholder).
		await waitFor('the package icons to load', async () => {
			const widths = await page
				.locator('[data-test-id="canvas-node"][data-node-type^="n8n-nodes-records."] img')
				.evaluateAll((icons) => icons.map((icon) => (icon as unknown as LoadedImage).naturalWidth));
			return widths.length === ours.length && widths.every((width) => width > 0) ? true : undefined;
		});
		expect(await page.getByText('Install this node to use it').count()).toBe(0);

		// n8n fits the view to the nodes when it opens a workflow.
		await waitForSteadyCanvas(page);
		mkdirSync(dirname(SCREENSHOT), { recursive: true });
		await page.screenshot({ path: SCREENSHOT });
		expect(existsSync(SCREENSHOT)).toBe(true);
	});
});
