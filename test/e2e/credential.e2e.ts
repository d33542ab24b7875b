/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
import { join } from 'node:path';
import type { Page } from 'playwright-core';

import { exampleCredential } from '../../tooling/examples/examples';
import type { CredentialJson } from '../../tooling/n8n/n8nInstance';
import { N8nInstance } from '../../tooling/n8n/n8nInstance';
import { waitFor } from '../../tooling/lib/proc';
import { startSandbox, TOKENS, type Sandbox } from '../../tooling/sandbox/server';
import { openSignedInBrowser, skipBrowserTests, type SignedInBrowser } from './browser';
import { e2eDir, readSetup, runtimesUnderTest } from './harness';

/**
 * What a user sees on opening a Records API credential in the n8n editor (n8n tests a credential
 * when its dialog opens): the one `npm start` creates tests green; one that names no test report,
 * with a token the service accepts, tells why the test cannot pass without "More details".
 *
 * n8n's editor shows a passing test as "Connection tested successfully" and drops its message; a
 * failing one as "Couldn't connect with these settings", its message behind "More details". A
 * credential test declared on the credential (as n8n's lint requires: no deprecated request helper)
 * cannot pass on a 404, so the credential carries a notice that is always in view.
 */

const { packed } = readSetup();

const NO_TEST_REPORT: CredentialJson = {
	id: 'RecordsNoReport1',
	name: 'Records without a test report',
	type: 'recordsApi',
	data: {},
};

/** Opens a credential's dialog and waits for the outcome of the test n8n runs on opening it. */
async function openCredential(page: Page, baseUrl: string, id: string): Promise<'passed' | 'failed'> {
	await page.goto(`${baseUrl}/home/credentials/${id}`);
	// Whole texts: the credential's notice quotes the failure banner.
	const passed = page.getByText('Connection tested successfully', { exact: true });
	const failed = page.getByText(/^\s*Couldn.t connect with these settings\s*$/);
	const outcome = await waitFor(`the test of credential ${id} to finish`, async () => {
		if (await passed.isVisible()) return 'passed';
		if (await failed.isVisible()) return 'failed';
		return undefined;
	});
	await picture(page, id);
	return outcome;
}

/** What the dialog looked like, for a person to check: .cache/e2e/credential-<id>.png. */
async function picture(page: Page, name: string): Promise<void> {
	await page.screenshot({ path: join(e2eDir, `credential-${name}.png`) });
}

(skipBrowserTests ? describe.skip : describe).each(runtimesUnderTest())('a Records API credential opened in the editor of %s', (_title, runtime) => {
	let sandbox: Sandbox;
	let n8n: N8nInstance;
	let browser: SignedInBrowser | undefined;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true });
		n8n = await N8nInstance.create({ runtime, package: packed });
		await n8n.importCredentials([
			exampleCredential(sandbox.baseUrl, TOKENS.full),
			{ ...NO_TEST_REPORT, data: { baseUrl: sandbox.baseUrl, token: TOKENS.full, allowHttp: true } },
		]);
		await n8n.start();
		await n8n.setupOwner();
		browser = await openSignedInBrowser(n8n, { width: 1400, height: 1000 });
	});

	afterAll(async () => {
		await browser?.close();
		await n8n?.stop();
		await sandbox?.close();
	});

	test('the credential npm start creates tests green', async () => {
		const page = browser!.page;
		const { id } = exampleCredential(sandbox.baseUrl, TOKENS.full);
		expect(await openCredential(page, n8n.baseUrl, id)).toBe('passed');
	});

	test('without a test report, the reason is in view before anything is expanded; More details says the token was accepted', async () => {
		const page = browser!.page;
		expect(await openCredential(page, n8n.baseUrl, NO_TEST_REPORT.id)).toBe('failed');
		// In view without a click: the notice saying what the test can check with no report named.
		await expect(page.getByText(/^Without a report ID .* can only check that the service accepts the token/).isVisible()).resolves.toBe(true);
		await expect(page.getByText(/^\s*(The token was accepted \(|The resource you are requesting could not be found)/).isVisible()).resolves.toBe(false);
		await page.getByText('More details', { exact: true }).click();
		await picture(page, `${NO_TEST_REPORT.id}-details`);
		// n8n 1.x replaces the credential's message for a 404 with its own; the notice names both.
		const accepted = runtime.spec.name === 'v1' ? /^\s*The resource you are requesting could not be found/ : /^\s*The token was accepted \(/;
		await expect(page.getByText(accepted).isVisible()).resolves.toBe(true);
	});
});
