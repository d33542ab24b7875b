/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { RecordsApi } from '../../credentials/RecordsApi.credentials';
import { exampleCredential } from '../../tooling/examples/examples';
import { repoRoot } from '../../tooling/lib/paths';
import { waitFor } from '../../tooling/lib/proc';
import type { CredentialJson } from '../../tooling/n8n/n8nInstance';
import { N8nInstance, newInstanceFolder } from '../../tooling/n8n/n8nInstance';
import { addFaults } from '../../tooling/sandbox/control';
import { RECORD_TYPES, REPORTS, startSandbox, TOKENS, type Sandbox } from '../../tooling/sandbox/server';
import { createCertificateAuthority } from '../../tooling/sandbox/tls';
import { openSignedInBrowser, skipBrowserTests, type SignedInBrowser } from './browser';
import { e2eDir, readSetup, runtimesUnderTest } from './harness';

/**
 * What a user sees of a Records API credential in the n8n editor, over HTTPS as in production: the
 * sandbox's certificate is signed by a CA n8n is given through NODE_EXTRA_CA_CERTS, so no optional
 * field of the credential is needed.
 *
 * - A token typed in before the report ID: n8n runs no test (the report ID is required) and shows
 *   nothing red; with the report ID saved, the test passes.
 * - A service whose certificate comes from a CA n8n was not given: the test fails; n8n shows the bare
 *   code (2.x) or Node.js's text (1.x) under "More details", and the hint under Base URL, right under
 *   it, names the code and the fix.
 *
 * With n8n 2.x the pictures are saved for the docs: docs/images/credential-valid.png and
 * credential-tls.png (1440×900); with 1.x under .cache/e2e.
 */

const { packed } = readSetup();

const TOKEN_FIRST: CredentialJson = { id: 'RecordsTokenFirst', name: 'Records', type: 'recordsApi', data: {} };
const UNKNOWN_CA: CredentialJson = { id: 'RecordsUnknownCa1', name: 'Records, unknown CA', type: 'recordsApi', data: {} };

const passedBanner = (page: Page) => page.getByText('Connection tested successfully', { exact: true });
const failedBanner = (page: Page) => page.getByText(/^\s*Couldn.t connect with these settings\s*$/);

/** Opens a credential's dialog and waits until its form is drawn. */
async function openCredential(page: Page, baseUrl: string, id: string): Promise<void> {
	await page.goto(`${baseUrl}/home/credentials/${id}`);
	await page.locator('[data-test-id="credential-edit-dialog"] [data-test-id="baseUrl"]').waitFor();
}

/** Waits for the outcome of the test n8n runs on opening or saving a credential. */
async function testOutcome(page: Page, what: string): Promise<'passed' | 'failed'> {
	return await waitFor(`the test of ${what} to finish`, async () => {
		if (await passedBanner(page).isVisible()) return 'passed';
		if (await failedBanner(page).isVisible()) return 'failed';
		return undefined;
	});
}

(skipBrowserTests ? describe.skip : describe).each(runtimesUnderTest())('a Records API credential in the editor of %s', (_title, runtime) => {
	const forDocs = runtime.spec.name === 'v2';
	/** What the dialog looked like, for a person to check (and, with n8n 2.x, for the docs). */
	const picture = async (page: Page, name: string) =>
		await page.screenshot({ path: forDocs ? join(repoRoot, 'docs', 'images', `${name}.png`) : join(e2eDir, `${name}-${runtime.spec.name}.png`) });

	let trusted: Sandbox;
	let unknownCa: Sandbox;
	let n8n: N8nInstance;
	let browser: SignedInBrowser | undefined;

	beforeAll(async () => {
		const ca = await createCertificateAuthority('Records Internal CA');
		[trusted, unknownCa] = await Promise.all([
			startSandbox({ port: 0, quiet: true, tls: { ca } }),
			// Signed by a CA of its own, which n8n is not given.
			startSandbox({ port: 0, quiet: true, tls: true }),
		]);
		const userFolder = newInstanceFolder(`n8n-credential-${runtime.spec.name}`);
		const caFile = join(userFolder, 'records-internal-ca.pem');
		writeFileSync(caFile, ca.certificatePem);
		n8n = await N8nInstance.create({ runtime, package: packed, userFolder, env: { NODE_EXTRA_CA_CERTS: caFile } });
		await n8n.importCredentials([
			exampleCredential(trusted.baseUrl, TOKENS.full),
			{ ...TOKEN_FIRST, data: { baseUrl: trusted.baseUrl, token: TOKENS.analysisAdmin } },
			{ ...UNKNOWN_CA, data: { baseUrl: unknownCa.baseUrl, token: TOKENS.full, testReportId: REPORTS.costs } },
		]);
		await n8n.start();
		await n8n.setupOwner();
		browser = await openSignedInBrowser(n8n, { width: 1440, height: 900 });
	});

	afterAll(async () => {
		await browser?.close();
		await n8n?.stop();
		await Promise.all([trusted, unknownCa].map(async (sandbox) => await sandbox?.close()));
	});

	test('the credential npm start creates tests green', async () => {
		const page = browser!.page;
		const { id, data } = exampleCredential(trusted.baseUrl, TOKENS.full);
		expect(data.allowHttp).toBe(false);
		await openCredential(page, n8n.baseUrl, id);
		expect(await testOutcome(page, id)).toBe('passed');
	});

	test('a token typed in first shows nothing red; saved with the report ID and nothing optional, it tests green', async () => {
		const page = browser!.page;
		const reads = () => trusted.state.stats.requests.report?.total ?? 0;
		const readsBefore = reads();
		await openCredential(page, n8n.baseUrl, TOKEN_FIRST.id);
		// Until the required report ID is filled in, n8n runs no test: no request, no red banner.
		await page.waitForTimeout(3000);
		expect(reads()).toBe(readsBefore);
		await expect(failedBanner(page).isVisible()).resolves.toBe(false);

		await page.locator('[data-test-id="testReportId"] input').fill(REPORTS.costs);
		await page.locator('[data-test-id="credential-save-button"]').click();
		expect(await testOutcome(page, TOKEN_FIRST.id)).toBe('passed');
		expect(reads()).toBe(readsBefore + 1);
		await page.mouse.move(0, 0);
		await picture(page, 'credential-valid');
	});

	test('an unknown CA fails with the code, and the fix is in view beside it', async () => {
		const page = browser!.page;
		await openCredential(page, n8n.baseUrl, UNKNOWN_CA.id);
		expect(await testOutcome(page, UNKNOWN_CA.id)).toBe('failed');
		await page.getByText('More details', { exact: true }).click();
		// n8n 2.x shows the code, 1.x Node.js's text for it.
		const shown = runtime.spec.name === 'v1' ? /^\s*unable to verify the first certificate/ : /^\s*UNABLE_TO_VERIFY_LEAF_SIGNATURE\s*$/;
		await expect(page.getByText(shown).isVisible()).resolves.toBe(true);
		// Right under the result, without scrolling: the hint under Base URL.
		const hint = page.getByText(/^Test fails with ECONNREFUSED\?.*certificate code \(UNABLE_TO_VERIFY_LEAF_SIGNATURE…\)\? Start n8n with NODE_EXTRA_CA_CERTS/);
		await expect(hint.isVisible()).resolves.toBe(true);
		const box = await hint.boundingBox();
		expect(box && box.y + box.height).toBeLessThan(900);
		await page.mouse.move(0, 0);
		await picture(page, 'credential-tls');
		// The handshake failed before a request was written: the token never left n8n.
		expect(unknownCa.state.stats.requests).toEqual({});
	});
});


/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return port;
}

/**
 * What the connection test answers in a real n8n, case by case (issue 48): never "accepted" for an
 * answer that does not prove it, and for each failure either a message that says what to check, or
 * a bare code (n8n's, with no room for the package's words) that the hint under Base URL explains.
 */
describe.each(runtimesUnderTest())('the Records API connection test in %s', (_title, runtime) => {
	const v1 = runtime.spec.name === 'v1';
	const hint = String(new RecordsApi().properties.find((property) => property.name === 'baseUrl')?.hint);
	const ref = { id: 'RecordsTestCases1', name: 'Records, test cases' };
	let sandbox: Sandbox;
	let n8n: N8nInstance;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true });
		n8n = await N8nInstance.create({ runtime, package: packed, userFolder: newInstanceFolder(`n8n-credential-cases-${runtime.spec.name}`) });
		await n8n.importCredentials([{ ...ref, type: 'recordsApi', data: { baseUrl: sandbox.baseUrl, token: TOKENS.full, allowHttp: true, testReportId: REPORTS.costs } }]);
		await n8n.start();
		await n8n.setupOwner();
	});

	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.close();
	});

	const testConnection = async (data: Record<string, unknown>) =>
		await n8n.rest<{ status: string; message: string }>('POST', '/credentials/test', {
			credentials: { ...ref, type: 'recordsApi', data: { token: TOKENS.full, allowHttp: true, testWith: 'report', testReportId: REPORTS.costs, testRecordTypeId: '', ...data } },
		});

	test('passes with a valid token and a report made available through the API', async () => {
		await expect(testConnection({ baseUrl: sandbox.baseUrl })).resolves.toMatchObject({ status: 'OK' });
	});

	test.each([
		['a wrong', 'rk_0000000000000000000000000000000000000000'],
		['a valid', TOKENS.full],
	])('refuses a Base URL with a path (…/api/v1) and %s token, naming the address to enter, before sending anything', async (_kind, token) => {
		const before = JSON.stringify(sandbox.state.stats.requests);
		await expect(testConnection({ baseUrl: `${sandbox.baseUrl}/api/v1`, token })).resolves.toEqual({
			status: 'Error',
			message: `The Base URL has a path (/api/v1). Enter only the address of your installation, here ${sandbox.baseUrl}: the nodes add the API's paths themselves.`,
		});
		expect(JSON.stringify(sandbox.state.stats.requests)).toBe(before);
	});

	test('never says "accepted" for a 404, and says to check the ID and the Base URL (n8n 1.x: its own words)', async () => {
		for (const data of [{ testReportId: 'no-such-report' }, { testReportId: REPORTS.notShared }]) {
			const { status, message } = await testConnection({ baseUrl: sandbox.baseUrl, ...data });
			expect(status).toBe('Error');
			expect(message).not.toMatch(/accepted/i);
			if (v1) expect(message).toBe('The resource you are requesting could not be found');
			else expect(message).toMatch(/^Not found \(404\).*Check both.*does not show whether the token is valid\.$/);
		}
	});

	test('refuses a wrong token with what to do (n8n 1.x: its own words)', async () => {
		const { status, message } = await testConnection({ baseUrl: sandbox.baseUrl, token: TOKENS.expired });
		expect(status).toBe('Error');
		if (v1) expect(message).toBe('Authorization failed - please check your credentials');
		else expect(message).toMatch(/^The service refused the token \(401\).*renew it/);
	});

	test.each([
		[403, /^Forbidden \(403\).*IP allow-list/, 'Forbidden - perhaps check your credentials?'],
		[500, /^The service failed with an internal error \(500\)\. Try again later/, 'The service was not able to process your request'],
	])('answers %d with what to check (n8n 1.x: its own words)', async (status, advice, v1Words) => {
		await addFaults(sandbox, { route: 'report', status, times: 1 });
		const result = await testConnection({ baseUrl: sandbox.baseUrl });
		expect(result.status).toBe('Error');
		if (v1) expect(result.message).toBe(v1Words);
		else expect(result.message).toMatch(advice);
	});

	test.each([
		['a sign-in page', 'text/html', '<!DOCTYPE html><html><body><form>Sign in</form></body></html>'],
		['plain text', 'text/plain', 'OK'],
		['an empty body', 'text/plain', ''],
	])('fails for a 200 with %s (not the API\'s JSON), saying to check the Base URL, with either kind of test', async (_case, type, body) => {
		const server = createServer((_request, response) => {
			response.writeHead(200, { 'content-type': type });
			response.end(body);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
			for (const kind of [{ testWith: 'report' }, { testWith: 'import', testRecordTypeId: 'tasks' }]) {
				await expect(testConnection({ baseUrl, ...kind })).resolves.toEqual({
					status: 'Error',
					message: expect.stringMatching(/^The answer is not the Records API's: it is not JSON .*Check that the Base URL is the address of your installation\.$/) as unknown,
				});
			}
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});

	test('passes with the empty import answered as JSON', async () => {
		await expect(testConnection({ baseUrl: sandbox.baseUrl, testWith: 'import', testRecordTypeId: RECORD_TYPES.tasks })).resolves.toMatchObject({ status: 'OK' });
	});

	test('shows a refused connection and an unknown host by a code or words the hint under Base URL explains', async () => {
		const refused = await testConnection({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
		// ".invalid" never resolves (RFC 6761).
		const unknownHost = await testConnection({ baseUrl: 'https://records.invalid' });
		if (v1) {
			expect(refused).toEqual({ status: 'Error', message: 'The service refused the connection - perhaps it is offline' });
			expect(unknownHost).toEqual({ status: 'Error', message: 'The connection cannot be established, this usually occurs due to an incorrect host (domain) value' });
		} else {
			expect([refused, unknownHost]).toEqual([{ status: 'Error', message: 'ECONNREFUSED' }, { status: 'Error', message: 'ENOTFOUND' }]);
			expect(hint).toContain(`${refused.message}? Check host, port and that the service runs`);
			expect(hint).toContain(`${unknownHost.message}? The host name`);
		}
	});
});
