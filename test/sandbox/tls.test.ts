/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * The sandbox's HTTPS: the certificates it makes at start, seen by Node's own TLS client.
 */
import * as https from 'node:https';
import type { TLSSocket } from 'node:tls';

import { createCertificateAuthority } from '../../tooling/sandbox/tls';
import { startSandbox, type Sandbox } from '../../tooling/sandbox/server';

/** The TLS protocol of a GET / to the sandbox, or the error code of a refused handshake. */
function handshake(sandbox: Sandbox, options: https.RequestOptions = {}): Promise<string> {
	return new Promise((resolve) => {
		https
			.get(`${sandbox.baseUrl}/`, { agent: false, ...options }, (response) => {
				response.resume();
				resolve(String((response.socket as TLSSocket).getProtocol()));
			})
			.on('error', (error: NodeJS.ErrnoException) => resolve(String(error.code)));
	});
}

const started: Sandbox[] = [];
const start = async (...args: Parameters<typeof startSandbox>) => {
	const sandbox = await startSandbox(...args);
	started.push(sandbox);
	return sandbox;
};
afterAll(async () => await Promise.all(started.map(async (sandbox) => await sandbox.close())));

it('serves HTTPS for 127.0.0.1 and localhost, trusted through its CA only', async () => {
	const sandbox = await start({ quiet: true, bankRows: 10, tls: true });
	const ca = sandbox.ca!.certificatePem;

	expect(sandbox.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
	expect(await handshake(sandbox, { ca })).toBe('TLSv1.3');
	expect(await handshake(sandbox, { ca, servername: 'localhost' })).toBe('TLSv1.3');
	expect(await handshake(sandbox)).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
});

it('can present an expired certificate or one for another host, signed by a shared CA', async () => {
	const ca = await createCertificateAuthority();
	const expired = await start({ quiet: true, bankRows: 10, tls: { ca, certificate: 'expired' } });
	const wrongHost = await start({ quiet: true, bankRows: 10, tls: { ca, certificate: 'wrongHost' } });

	expect(await handshake(expired, { ca: ca.certificatePem })).toBe('CERT_HAS_EXPIRED');
	expect(await handshake(wrongHost, { ca: ca.certificatePem })).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
});

it('can offer only TLS 1.0/1.1, which a default client refuses and a legacy client accepts', async () => {
	const legacy = await start({ quiet: true, bankRows: 10, tls: { legacyProtocolsOnly: true } });
	const ca = legacy.ca!.certificatePem;

	expect(await handshake(legacy, { ca })).toBe('EPROTO');
	expect(await handshake(legacy, { ca, minVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' })).toBe('TLSv1.1');
});
