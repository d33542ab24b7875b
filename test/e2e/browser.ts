/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error -- a
	test: runs in Node.js, not inside n8n (Node.js's modules, `process`); its errors are not a
	node's */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { defaultOwner, type N8nInstance } from '../../tooling/n8n/n8nInstance';

/**
 * The n8n editor in Debian's headless Chromium (driven by playwright-core), signed in as the
 * instance's owner, for the tests that check what a user sees. Needs /usr/bin/chromium, which
 * `npm test` installs (tooling/provision.ts). Outside CI, E2E_SKIP_BROWSER=1 skips those tests on a
 * machine without it.
 */

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	// The machine's network is closed: without these, Chromium keeps trying to reach Google's hosts.
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

const chromiumMissing = !existsSync(CHROMIUM);

/** Whether the browser tests are skipped: only on request, outside CI, on a machine without Chromium. */
export const skipBrowserTests =
	chromiumMissing && (process.env.E2E_SKIP_BROWSER === '1' || process.env.E2E_SKIP_SCREENSHOT === '1') && process.env.CI !== 'true';

export interface SignedInBrowser {
	page: Page;
	context: BrowserContext;
	close(): Promise<void>;
}

/** A fresh browser profile, signed in to `n8n` as its owner (the session cookie lands in the profile). */
export async function openSignedInBrowser(
	n8n: N8nInstance,
	viewport: { width: number; height: number } = { width: 1600, height: 900 },
): Promise<SignedInBrowser> {
	if (chromiumMissing) {
		throw new Error(
			`Chromium is not installed at ${CHROMIUM}: npm test installs Debian's package (or run apt-get install chromium). ` +
				'To skip the browser tests on a machine without Chromium, set E2E_SKIP_BROWSER=1 (not honoured in CI).',
		);
	}
	const profile = mkdtempSync(join(tmpdir(), 'records-chromium-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_ARGS,
		viewport,
	});
	const close = async () => {
		await context.close();
		rmSync(profile, { recursive: true, force: true });
	};
	try {
		const login = await context.request.post(`${n8n.baseUrl}/rest/login`, {
			data: { emailOrLdapLoginId: defaultOwner.email, email: defaultOwner.email, password: defaultOwner.password },
		});
		if (login.status() !== 200) throw new Error(`signing in to n8n answered ${login.status()}: ${await login.text()}`);
		const page = context.pages()[0] ?? (await context.newPage());
		return { page, context, close };
	} catch (error) {
		await close();
		throw error;
	}
}

/**
 * Marks n8n's one-time tip "You can pin this output instead of waiting for a test event" as seen,
 * under the keys n8n itself sets once it has shown it, so that it covers nothing in a picture.
 */
export async function markPinTipSeen(browser: SignedInBrowser): Promise<void> {
	await browser.context.addInitScript(
		"for (const seen of ['N8N_PIN_DATA_DISCOVERY_NDV', 'N8N_PIN_DATA_DISCOVERY_CANVAS']) localStorage.setItem(seen, 'true');",
	);
}
