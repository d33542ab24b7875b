/**
 * The transport over HTTPS through n8n's execution engine, against Records sandboxes serving TLS:
 * certificates this process does not trust (it cannot be given a CA after it started; the trusted
 * path, expired and wrong-host certificates included, runs in a real n8n in test/e2e/https.e2e.ts),
 * the "Ignore SSL Issues (Insecure)" option both ways, and protocols older than TLS 1.2.
 */
import { Records } from '../../nodes/Records/Records.node';
import { runNode, testCredential, type RecordsCredentialData } from '../../tooling/harness/n8nCoreHarness';
import { REPORTS, startSandbox, TOKENS, type Sandbox } from '../../tooling/sandbox/server';

jest.setTimeout(60_000);

let untrusted: Sandbox;
let expired: Sandbox;
let legacy: Sandbox;

beforeAll(async () => {
	[untrusted, expired, legacy] = await Promise.all([
		startSandbox({ quiet: true, bankRows: 1_000, tls: true }),
		startSandbox({ quiet: true, bankRows: 10, tls: { certificate: 'expired' } }),
		startSandbox({ quiet: true, bankRows: 10, tls: { legacyProtocolsOnly: true } }),
	]);
});
afterAll(async () => await Promise.all([untrusted, expired, legacy].map(async (sandbox) => await sandbox?.close())));
beforeEach(() => [untrusted, expired, legacy].forEach((sandbox) => sandbox.reset()));

/** Requests that reached the sandbox's HTTP layer, on any route. */
const requestsSeen = (sandbox: Sandbox) =>
	Object.values(sandbox.state.stats.requests).reduce((sum, entry) => sum + entry.total, 0);

function credentials(sandbox: Sandbox, extra: Partial<RecordsCredentialData> = {}): RecordsCredentialData {
	return { baseUrl: sandbox.baseUrl, token: TOKENS.full, ...extra };
}

const getRows = async (credential: RecordsCredentialData) =>
	await runNode({
		nodeType: new Records(),
		parameters: {
			resource: 'report',
			operation: 'getRows',
			report: { __rl: true, mode: 'id', value: REPORTS.bankTransactions },
			returnAll: true,
		},
		credentials: credential,
	});

const errorText = (error: { message: string; description?: string | null } | undefined) =>
	`${error?.message ?? ''} ${error?.description ?? ''}`;

describe('a certificate n8n does not trust', () => {
	it('fails Get Rows with what to do, and never sends the token', async () => {
		const { error } = await getRows(credentials(untrusted));

		expect(error?.message).toBe(
			`The certificate of ${new URL(untrusted.baseUrl).host} is not signed by a certificate authority n8n trusts (UNABLE_TO_VERIFY_LEAF_SIGNATURE)`,
		);
		expect(error?.description).toContain('NODE_EXTRA_CA_CERTS');
		expect(error?.description).toContain('"Ignore SSL Issues (Insecure)"');
		expect(errorText(error)).not.toContain(TOKENS.full);
		// The handshake failed before the request was written: the service saw nothing, no retry either.
		expect(requestsSeen(untrusted)).toBe(0);
	});

	it('fails an import once, without retrying and without "may have been processed"', async () => {
		const { error } = await runNode({
			nodeType: new Records(),
			parameters: { resource: 'record', operation: 'import', recordTypeId: 'ukoly' },
			input: [{ Název: 'Přes TLS', Zadal: 'Jana Nováková' }],
			credentials: credentials(untrusted),
		});

		expect(error?.message).toContain('is not signed by a certificate authority n8n trusts');
		expect(error?.description).not.toContain('may already have processed');
		expect(requestsSeen(untrusted)).toBe(0);
		expect(untrusted.state.getRecords('ukoly')).toHaveLength(2);
	});

	it('reads every row with "Ignore SSL Issues (Insecure)" on', async () => {
		const { items, error } = await getRows(credentials(untrusted, { ignoreSSLIssues: true }));

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1_000);
		expect(new Set(items.map((item) => item.json['ID transakce'])).size).toBe(1_000);
		// What the tests above count as "nothing sent" does count requests that were sent.
		expect(requestsSeen(untrusted)).toBeGreaterThan(0);
	});

	it('fails the credential test unless "Ignore SSL Issues (Insecure)" is on', async () => {
		const refused = await testCredential({ ...credentials(untrusted), testReportId: REPORTS.costs });
		expect(refused.status).toBe('Error');
		expect(requestsSeen(untrusted)).toBe(0);

		const accepted = await testCredential({
			...credentials(untrusted, { ignoreSSLIssues: true }),
			testReportId: REPORTS.costs,
		});
		expect(accepted).toEqual({ status: 'OK', message: 'Connection successful!' });
	});
});

describe('an expired certificate', () => {
	it('is refused with what to do, before anything is sent', async () => {
		const { error } = await getRows(credentials(expired));

		expect(error?.message).toBe(
			`The certificate of ${new URL(expired.baseUrl).host} has expired (CERT_HAS_EXPIRED)`,
		);
		expect(error?.description).toContain('renew the certificate');
		expect(requestsSeen(expired)).toBe(0);
	});
});

describe('a service offering only TLS 1.0 and 1.1', () => {
	it('is refused, even with "Ignore SSL Issues (Insecure)" on', async () => {
		for (const ignoreSSLIssues of [false, true]) {
			const { error } = await getRows(credentials(legacy, { ignoreSSLIssues }));

			expect(error?.message).toMatch(/offers only TLS versions older than 1\.2, which are refused/);
			expect(error?.description).toContain('No credential option turns this check off');
		}
		expect(requestsSeen(legacy)).toBe(0);
	});
});
