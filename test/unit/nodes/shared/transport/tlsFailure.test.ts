import { describeTlsFailure, findTlsFailure, tlsCodesExplained } from '../../../../../nodes/shared/transport/tlsFailure';

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

describe('tlsCodesExplained', () => {
	const text = tlsCodesExplained();
	const clauses = text
		.replace(/^If the connection test fails with only a code \(n8n 2\.x\) or the certificate check's text \(n8n 1\.x\): /, '')
		.replace(/\. Nothing was sent\.$/, '')
		.split('; ')
		.map((clause) => {
			const [named, meaning] = clause.split(/ means? that /);
			const [, codes, texts] = /^(.*) \((.*)\)$/.exec(named) ?? [];
			return {
				codes: codes.split(/, | or /).map((code) => code.replace(/^usually /, '')),
				texts: [...texts.matchAll(/"([^"]+)"/g)].map((match) => match[1]),
				meaning,
			};
		});
	const codeFailure = (code: string) => findTlsFailure({ code, message: `write ${code} tlsv1 alert protocol version` });

	it('explains each code in the clause of the kind the nodes give it, with what to do', () => {
		const advice = {
			unknownCa: /NODE_EXTRA_CA_CERTS/,
			expired: /has expired/,
			notYetValid: /not valid yet/,
			wrongHost: /another host.*Base URL/,
			oldProtocol: /older than 1\.2/,
		};
		expect(clauses.map(({ codes }) => codeFailure(codes[0])?.kind)).toEqual(Object.keys(advice));
		for (const { codes, meaning } of clauses) {
			const kind = codeFailure(codes[0])?.kind as keyof typeof advice;
			for (const code of codes) expect(codeFailure(code)?.kind).toBe(kind);
			expect(meaning).toMatch(advice[kind]);
		}
	});

	it("names exactly the codes of Node.js's certificate checks that the nodes recognise", () => {
		// Node.js's certificate verification codes (OpenSSL's X509_V_ERR_*) and its TLS errors.
		const nodeCodes = [
			'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_CRL', 'UNABLE_TO_DECRYPT_CERT_SIGNATURE', 'UNABLE_TO_DECRYPT_CRL_SIGNATURE',
			'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY', 'CERT_SIGNATURE_FAILURE', 'CRL_SIGNATURE_FAILURE', 'CERT_NOT_YET_VALID',
			'CERT_HAS_EXPIRED', 'CRL_NOT_YET_VALID', 'CRL_HAS_EXPIRED', 'ERROR_IN_CERT_NOT_BEFORE_FIELD', 'ERROR_IN_CERT_NOT_AFTER_FIELD',
			'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
			'CERT_CHAIN_TOO_LONG', 'CERT_REVOKED', 'INVALID_CA', 'PATH_LENGTH_EXCEEDED', 'INVALID_PURPOSE', 'CERT_UNTRUSTED', 'CERT_REJECTED',
			'HOSTNAME_MISMATCH', 'ERR_TLS_CERT_ALTNAME_INVALID', 'ERR_SSL_UNSUPPORTED_PROTOCOL', 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', 'EPROTO',
		];
		const named = clauses.flatMap(({ codes }) => codes);
		expect(new Set(named).size).toBe(named.length);
		expect([...named].sort()).toEqual(nodeCodes.filter((code) => codeFailure(code) !== undefined).sort());
	});

	it("gives each kind Node.js's text, which n8n 1.x shows instead of the code", () => {
		expect(clauses.map(({ texts }) => texts)).toEqual([
			['unable to verify the first certificate', 'unable to get local issuer certificate', 'self-signed certificate'],
			['certificate has expired'],
			['certificate is not yet valid'],
			["Hostname/IP does not match certificate's altnames"],
			['unsupported protocol'],
		]);
		// An old protocol's text is the one the nodes recognise EPROTO by.
		expect(codeFailure('EPROTO')?.kind).toBe('oldProtocol');
		expect(findTlsFailure({ code: 'EPROTO', message: `write EPROTO ${clauses[4].texts[0]}` })?.kind).toBe('oldProtocol');
	});
});
