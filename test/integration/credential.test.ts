/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * The Records API credential's connection test, run the way n8n's credentials tester runs it,
 * against the Records sandbox over real HTTP.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { RecordsApi } from '../../credentials/RecordsApi.credentials';
import { testCredential } from '../../tooling/harness/n8nCoreHarness';
import { repoRoot } from '../../tooling/lib/paths';
import { addFaults } from '../../tooling/sandbox/control';
import { RECORD_TYPES, REPORTS, startSandbox, TOKENS, type Sandbox } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const REFUSED =
	'The service refused the token (401): it is invalid, expired, or lacks the permission the test uses ("Test With": analysis for a report read, import for an empty import). Create or renew it under Settings → Import → API keys for import.';

const NOT_FOUND =
	'Not found (404): the service has no report or record type with the ID given for the connection test, or the Base URL is not the address of your installation. Check both (a report must be made available through the API). This answer does not show whether the token is valid.';

const NOT_THE_API =
	'The answer is not the Records API\'s: it is not JSON (a web page, text or nothing), as a login page, a proxy or another service answers. Check that the Base URL is the address of your installation.';

const sandbox = useSandbox({ bankRows: 200 });

function allRequests(): number {
	return Object.values(sandbox.state.stats.requests).reduce((sum, entry) => sum + entry.total, 0);
}

describe('credential test', () => {
	it('passes with an analysis token and a report made available through the API', async () => {
		const result = await testCredential({
			...sandbox.credentials(TOKENS.analysisAdmin),
			testReportId: REPORTS.costs,
		});
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		// One page of one row: the test reads, and reads little.
		expect(sandbox.state.stats.requests.report?.total).toBe(1);
		expect(sandbox.state.stats.importLog).toHaveLength(0);
	});

	it('passes with a base URL that ends in slashes', async () => {
		const result = await testCredential({
			baseUrl: `${sandbox.baseUrl}//`,
			token: TOKENS.analysisAdmin,
			allowHttp: true,
			testReportId: REPORTS.costs,
		});
		expect(result.status).toBe('OK');
	});

	it('with a report that does not exist or is not made available through the API, says so, and not that the token was accepted', async () => {
		for (const testReportId of [REPORTS.notShared, 'no-such-report']) {
			const result = await testCredential({ ...sandbox.credentials(TOKENS.analysisAdmin), testReportId });
			expect(result).toEqual({ status: 'Error', message: NOT_FOUND });
		}
	});

	it('without a report ID (the form requires one; only n8n\'s REST API can leave it out), fails rather than passes', async () => {
		const result = await testCredential({ ...sandbox.credentials(TOKENS.analysisAdmin) });
		expect(result).toEqual({ status: 'Error', message: NOT_FOUND });
		expect(sandbox.state.stats.requests.report?.byStatus['404']).toBe(1);
	});

	it.each([
		['an invalid', 'rk_0000000000000000000000000000000000000000'],
		['an expired', TOKENS.expired],
		['a missing', ''],
		['a permissionless', TOKENS.noPermission],
		['an import-only', TOKENS.import],
	])('refuses %s token with the 401 message', async (_kind, token) => {
		const result = await testCredential({
			...sandbox.credentials(token),
			testReportId: REPORTS.costs,
		});
		expect(result).toEqual({ status: 'Error', message: REFUSED });
		expect(sandbox.state.stats.requests.report?.byStatus['401']).toBeGreaterThanOrEqual(1);
	});

	describe('with "Test With" set to an empty import', () => {
		it('passes with an import token and an existing record type, and changes nothing', async () => {
			const before = JSON.stringify(sandbox.state.getRecords(RECORD_TYPES.tasks));
			const result = await testCredential({
				...sandbox.credentials(TOKENS.import),
				testWith: 'import',
				testRecordTypeId: RECORD_TYPES.tasks,
			});
			expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
			expect(sandbox.state.stats.requests.import?.byStatus['200']).toBe(1);
			expect(sandbox.state.stats.requests.report).toBeUndefined();
			expect(JSON.stringify(sandbox.state.getRecords(RECORD_TYPES.tasks))).toBe(before);
			expect(sandbox.state.getRecords(RECORD_TYPES.tasks).length).toBeGreaterThan(0);
		});

		it("fails with what to check behind a sign-in proxy that answers the service's address with a 200 page", async () => {
			await addFaults(sandbox, { route: 'import', htmlPage: true });
			const result = await testCredential({
				...sandbox.credentials(TOKENS.import),
				testWith: 'import',
				testRecordTypeId: RECORD_TYPES.tasks,
			});
			expect(result).toEqual({ status: 'Error', message: NOT_THE_API });
		});

		it.each([['JSON labelled text/html', 'jsonAsHtml'], ['counts', 'counts']])(
			'passes when the service answers with %s',
			async (_case, answerShape) => {
				await addFaults(sandbox, { route: 'import', answerShape });
				const result = await testCredential({
					...sandbox.credentials(TOKENS.import),
					testWith: 'import',
					testRecordTypeId: RECORD_TYPES.tasks,
				});
				expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
			},
		);

		it('with a record type that does not exist, says so, and not that the token was accepted', async () => {
			const result = await testCredential({
				...sandbox.credentials(TOKENS.import),
				testWith: 'import',
				testRecordTypeId: 'no-such-record-type',
			});
			expect(result).toEqual({ status: 'Error', message: NOT_FOUND });
			expect(sandbox.state.stats.requests.import?.byStatus['404']).toBe(1);
		});

		it.each([
			['an analysis-only', TOKENS.analysisAdmin],
			['an expired', TOKENS.expired],
			['an invalid', 'rk_0000000000000000000000000000000000000000'],
		])('refuses %s token with the 401 message', async (_kind, token) => {
			const result = await testCredential({
				...sandbox.credentials(token),
				testWith: 'import',
				testRecordTypeId: RECORD_TYPES.tasks,
			});
			expect(result).toEqual({ status: 'Error', message: REFUSED });
			expect(sandbox.state.stats.requests.import?.byStatus['401']).toBeGreaterThanOrEqual(1);
		});
	});

	it('refuses an http:// base URL without "Allow Plain HTTP", and sends nothing', async () => {
		const result = await testCredential({
			baseUrl: sandbox.baseUrl,
			token: TOKENS.analysisAdmin,
			testReportId: REPORTS.costs,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toBe(
			'The base URL uses plain http://, which would send the API token unencrypted. Use the https:// address of your installation, or turn on "Allow Plain HTTP (Local Testing Only)" in the credential for a local test server.',
		);
		expect(allRequests()).toBe(0);
	});

	it('refuses an upper-case HTTP:// base URL too', async () => {
		const result = await testCredential({
			baseUrl: sandbox.baseUrl.replace(/^http/, 'HTTP'),
			token: TOKENS.analysisAdmin,
			testReportId: REPORTS.costs,
		});
		expect(result.message).toMatch(/^The base URL uses plain http:\/\//);
		expect(allRequests()).toBe(0);
	});

	// Issue 48: a Base URL with a path made every endpoint unknown, and the 404 the service gives an
	// unknown endpoint before it looks at the token was shown as "The token was accepted".
	it.each([
		['a wrong', 'rk_0000000000000000000000000000000000000000'],
		['a valid', TOKENS.analysisAdmin],
	])('refuses a Base URL with a path (…/api/v1) with %s token, naming the address to enter, and sends nothing', async (_kind, token) => {
		const result = await testCredential({
			...sandbox.credentials(token),
			baseUrl: `${sandbox.baseUrl}/api/v1`,
			testReportId: REPORTS.costs,
		});
		expect(result).toEqual({
			status: 'Error',
			message: `The Base URL has a path (/api/v1). Enter only the address of your installation, here ${sandbox.baseUrl}: the nodes add the API's paths themselves.`,
		});
		expect(allRequests()).toBe(0);
	});

	it('never says the token was accepted unless the test passed', async () => {
		const results = [
			await testCredential({ ...sandbox.credentials('rk_0000000000000000000000000000000000000000'), testReportId: 'no-such-report' }),
			await testCredential({ ...sandbox.credentials(TOKENS.import), testWith: 'import', testRecordTypeId: 'no-such-record-type' }),
			await testCredential({ ...sandbox.credentials(TOKENS.analysisAdmin), testReportId: REPORTS.notShared }),
		];
		for (const result of results) {
			expect(result.status).toBe('Error');
			expect(result.message).not.toMatch(/accepted/i);
		}
	});

	it.each([
		[403, /Forbidden \(403\).*Check the token's permission.*IP allow-list/],
		[500, /internal error \(500\)\. Try again later/],
	])('answers %d with what to check', async (status, advice) => {
		await addFaults(sandbox, { route: 'report', status });
		const result = await testCredential({ ...sandbox.credentials(TOKENS.analysisAdmin), testReportId: REPORTS.costs });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(advice);
	});

	it('reports a service that cannot be reached by its connection error', async () => {
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		await new Promise((resolve) => server.close(resolve));

		const result = await testCredential({
			baseUrl: `http://127.0.0.1:${port}`,
			token: TOKENS.analysisAdmin,
			allowHttp: true,
		});
		expect(result).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});

	it("shows a refused connection's and an unknown host's code, and the hint under Base URL says what to check for each", async () => {
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		await new Promise((resolve) => server.close(resolve));
		const hint = String(new RecordsApi().properties.find((property) => property.name === 'baseUrl')?.hint);

		const refused = await testCredential({ baseUrl: `https://127.0.0.1:${port}`, token: TOKENS.full, testReportId: REPORTS.costs });
		// ".invalid" never resolves (RFC 6761).
		const unknownHost = await testCredential({ baseUrl: 'https://records.invalid', token: TOKENS.full, testReportId: REPORTS.costs });
		expect([refused, unknownHost]).toEqual([
			{ status: 'Error', message: 'ECONNREFUSED' },
			{ status: 'Error', message: 'ENOTFOUND' },
		]);
		expect(hint).toMatch(/ECONNREFUSED\? Check host, port and that the service runs/);
		expect(hint).toMatch(/ENOTFOUND\? The host name/);
	});

	it('never puts the token into a message', async () => {
		const token = TOKENS.full;
		const outcomes = [
			await testCredential({ baseUrl: sandbox.baseUrl, token, allowHttp: true }),
			await testCredential({ baseUrl: sandbox.baseUrl, token }),
			await testCredential({ baseUrl: sandbox.baseUrl, token: TOKENS.expired, allowHttp: true }),
		];
		await addFaults(sandbox, { route: 'report', status: 500 });
		outcomes.push(await testCredential({ baseUrl: sandbox.baseUrl, token, allowHttp: true }));

		expect(outcomes.map((outcome) => outcome.status)).toEqual(['Error', 'Error', 'Error', 'Error']);
		for (const outcome of outcomes) {
			expect(outcome.message).not.toContain(token);
			expect(outcome.message).not.toContain(TOKENS.expired);
		}
	});
});

// Issue 48: a 200 proved nothing. A login page behind a redirect, a proxy's page or another service at
// the Base URL answered 200 and the test said "Connection successful!".
describe('credential test against an address that answers 200 with something other than JSON', () => {
	let server: ReturnType<typeof createServer>;
	let baseUrl: string;
	let answer: { type: string; body: string } = { type: 'text/html', body: '' };
	let requests = 0;

	beforeAll(async () => {
		server = createServer((_request, response) => {
			requests += 1;
			response.writeHead(200, { 'content-type': answer.type });
			response.end(answer.body);
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise((resolve) => server.close(resolve)));

	it.each([
		['a login page', 'text/html', '<!DOCTYPE html><html><body><form>Sign in</form></body></html>'],
		['a page without a doctype', 'text/html; charset=utf-8', '<html><body>Proxy</body></html>'],
		['plain text', 'text/plain', 'OK'],
		['an empty body', 'text/plain', ''],
		['XML', 'application/xml', '<?xml version="1.0"?><ok/>'],
	])('fails for %s with what to check, with either kind of test', async (_case, type, body) => {
		answer = { type, body };
		for (const kind of [{ testReportId: REPORTS.costs }, { testWith: 'import' as const, testRecordTypeId: RECORD_TYPES.tasks }]) {
			const before = requests;
			const result = await testCredential({ baseUrl, token: TOKENS.full, allowHttp: true, ...kind });
			expect(requests).toBe(before + 1);
			expect(result).toEqual({ status: 'Error', message: NOT_THE_API });
		}
	});
});

describe('credential test against a certificate n8n does not accept', () => {
	// n8n shows the test's TLS failure as the bare code (2.x); the hint under Base URL, in view right
	// under it, names the commonest code and the fix, and docs/credentials.md (the form's link to the
	// docs) explains every code.
	const hint = String(new RecordsApi().properties.find((property) => property.name === 'baseUrl')?.hint);
	const docs = readFileSync(join(repoRoot, 'docs', 'credentials.md'), 'utf8');
	let untrusted: Sandbox;
	let expired: Sandbox;

	beforeAll(async () => {
		[untrusted, expired] = await Promise.all([
			startSandbox({ quiet: true, tls: true }),
			startSandbox({ quiet: true, tls: { certificate: 'expired' } }),
		]);
	});
	afterAll(async () => await Promise.all([untrusted, expired].map(async (server) => await server?.close())));

	it("fails for an unknown CA with a code the form's hint names, with the fix beside it", async () => {
		const result = await testCredential({ baseUrl: untrusted.baseUrl, token: TOKENS.full, testReportId: REPORTS.costs });
		expect(result).toEqual({ status: 'Error', message: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
		expect(hint).toContain(`certificate code (${result.message}`);
		expect(hint).toContain('NODE_EXTRA_CA_CERTS');
	});

	it.each([
		['an unknown CA', () => untrusted, /NODE_EXTRA_CA_CERTS/],
		['an expired certificate', () => expired, /[Rr]enew/],
	])('fails for %s with a code the docs explain, with what to do', async (_case, server, advice) => {
		const result = await testCredential({ baseUrl: server().baseUrl, token: TOKENS.full, testReportId: REPORTS.costs });
		expect(result.status).toBe('Error');
		const row = docs.split('\n').find((line) => line.startsWith(`| \`${result.message}\``));
		expect(row).toMatch(advice);
		expect(server().state.stats.requests).toEqual({});
	});
});
