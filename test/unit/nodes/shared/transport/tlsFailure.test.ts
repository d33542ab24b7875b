/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	describeTlsFailure,
	findTlsFailure,
	TLS_FAILURE_KIND_BY_CODE,
	type TlsFailureKind,
} from '../../../../../nodes/shared/transport/tlsFailure';
import { repoRoot } from '../../../../../tooling/lib/paths';

describe('findTlsFailure', () => {
	it('finds the certificate error under the wrappers of n8n 2.x (cause) and n8n 1.x (httpCode)', () => {
		const clientError = Object.assign(new Error('unable to verify the first certificate'), { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
		expect(findTlsFailure({ message: 'wrapped', cause: { message: 'again', cause: clientError } })).toEqual({
			kind: 'unknownCa',
			code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
		});
		expect(findTlsFailure({ message: 'certificate has expired', httpCode: 'CERT_HAS_EXPIRED' })).toEqual({
			kind: 'expired',
			code: 'CERT_HAS_EXPIRED',
		});
	});

	it('takes EPROTO for an old protocol only when the text says so', () => {
		expect(findTlsFailure({ code: 'EPROTO', message: 'write EPROTO ... tlsv1 alert protocol version' })?.kind).toBe('oldProtocol');
		expect(findTlsFailure({ code: 'EPROTO', message: 'write EPROTO ... handshake failure' })).toBeUndefined();
		expect(findTlsFailure({ code: 'ECONNRESET', message: 'socket hang up' })).toBeUndefined();
	});
});

describe('describeTlsFailure', () => {
	it('names the host and the two ways out for an unknown CA, and says nothing was sent', () => {
		const { message, description } = describeTlsFailure({ kind: 'unknownCa', code: 'SELF_SIGNED_CERT_IN_CHAIN' }, 'records.example.com');
		expect(message).toBe(
			'The certificate of records.example.com is not signed by a certificate authority n8n trusts (SELF_SIGNED_CERT_IN_CHAIN)',
		);
		expect(description).toMatch(/NODE_EXTRA_CA_CERTS.*"Ignore SSL Issues \(Insecure\)".*the API token did not leave n8n/s);
	});

	it('offers no option for a protocol older than TLS 1.2', () => {
		const { description } = describeTlsFailure({ kind: 'oldProtocol', code: 'EPROTO' }, 'records.example.com');
		expect(description).not.toContain('Ignore SSL Issues');
	});
});

describe('TLS_FAILURE_KIND_BY_CODE', () => {
	it("names exactly the codes of Node.js's certificate checks that the nodes recognise", () => {
		// Node.js's certificate verification codes (OpenSSL's X509_V_ERR_*) and its TLS errors.
		const nodeCodes = [
			'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_CRL', 'UNABLE_TO_DECRYPT_CERT_SIGNATURE', 'UNABLE_TO_DECRYPT_CRL_SIGNATURE',
			'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY', 'CERT_SIGNATURE_FAILURE', 'CRL_SIGNATURE_FAILURE', 'CERT_NOT_YET_VALID',
			'CERT_HAS_EXPIRED', 'CRL_NOT_YET_VALID', 'CRL_HAS_EXPIRED', 'ERROR_IN_CERT_NOT_BEFORE_FIELD', 'ERROR_IN_CERT_NOT_AFTER_FIELD',
			'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
			'CERT_CHAIN_TOO_LONG', 'CERT_REVOKED', 'INVALID_CA', 'PATH_LENGTH_EXCEEDED', 'INVALID_PURPOSE', 'CERT_UNTRUSTED', 'CERT_REJECTED',
			'HOSTNAME_MISMATCH', 'ERR_TLS_CERT_ALTNAME_INVALID', 'ERR_SSL_UNSUPPORTED_PROTOCOL', 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
		];
		const recognised = nodeCodes.filter((code) => findTlsFailure({ code, message: code }) !== undefined);
		expect(Object.keys(TLS_FAILURE_KIND_BY_CODE).sort()).toEqual(recognised.sort());
	});

	it('is explained code by code in docs/credentials.md, each with what to do', () => {
		const rows = readFileSync(join(repoRoot, 'docs', 'credentials.md'), 'utf8')
			.split('\n')
			.filter((line) => line.startsWith('| `'));
		const advice: Record<TlsFailureKind, RegExp> = {
			unknownCa: /NODE_EXTRA_CA_CERTS/,
			expired: /[Rr]enew/,
			notYetValid: /clock/,
			wrongHost: /Base URL/,
			oldProtocol: /TLS 1\.2/,
		};
		for (const [code, kind] of Object.entries(TLS_FAILURE_KIND_BY_CODE)) {
			const row = rows.find((line) => line.includes(`\`${code}\``));
			expect({ code, row }).toEqual({ code, row: expect.stringMatching(advice[kind]) });
		}
	});
});
