import { describeTlsFailure, findTlsFailure } from '../../../../../nodes/shared/transport/tlsFailure';

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
