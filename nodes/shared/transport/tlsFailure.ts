/**
 * TLS failures: recognising them on the HTTP client's error and telling the user what to do.
 * Pure helpers, no n8n. A TLS failure happens during the handshake, before a byte of the request
 * (the API token included) is written, so it is never retried and never "may have been processed".
 */

export type TlsFailureKind = 'unknownCa' | 'expired' | 'notYetValid' | 'wrongHost' | 'oldProtocol';

/** Every certificate and TLS code the nodes explain, by kind (docs/credentials.md lists each). */
export const TLS_FAILURE_KIND_BY_CODE: Readonly<Record<string, TlsFailureKind>> = {
	UNABLE_TO_GET_ISSUER_CERT: 'unknownCa',
	UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unknownCa',
	UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unknownCa',
	SELF_SIGNED_CERT_IN_CHAIN: 'unknownCa',
	DEPTH_ZERO_SELF_SIGNED_CERT: 'unknownCa',
	CERT_UNTRUSTED: 'unknownCa',
	CERT_HAS_EXPIRED: 'expired',
	CERT_NOT_YET_VALID: 'notYetValid',
	ERR_TLS_CERT_ALTNAME_INVALID: 'wrongHost',
	ERR_SSL_UNSUPPORTED_PROTOCOL: 'oldProtocol',
	ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION: 'oldProtocol',
};

/** OpenSSL reports a protocol version mismatch as EPROTO; only its text says which mismatch. */
const OLD_PROTOCOL_TEXT = /protocol version|unsupported protocol/i;

export interface TlsFailure {
	kind: TlsFailureKind;
	code: string;
}

/**
 * The TLS failure on an error n8n wrapped once or more, or undefined for any other failure. n8n 2.x
 * keeps the HTTP client's error as `cause`; n8n 1.x drops it and keeps only its code, as `httpCode`.
 */
export function findTlsFailure(error: unknown): TlsFailure | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const { message, ...rest } = current as { code?: unknown; httpCode?: unknown; message?: unknown };
		const code = typeof rest.code === 'string' ? rest.code : rest.httpCode;
		if (typeof code === 'string') {
			const kind = TLS_FAILURE_KIND_BY_CODE[code];
			if (kind) return { kind, code };
			if (code === 'EPROTO' && typeof message === 'string' && OLD_PROTOCOL_TEXT.test(message)) {
				return { kind: 'oldProtocol', code };
			}
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

const TRUST_YOUR_CA =
	'If your installation uses an internal certificate authority or a self-signed certificate, give n8n its CA certificate: start n8n with the environment variable NODE_EXTRA_CA_CERTS set to the path of that certificate (a PEM file; with Docker, mount the file into the container and set the variable there), then restart n8n.';
const OR_INSECURE =
	'Only on a network you control, you can instead turn on "Ignore SSL Issues (Insecure)" in the Records API credential.';
const NOTHING_SENT = 'The connection was closed before anything was sent: the API token did not leave n8n.';

/** The message and description of an error for a TLS failure talking to `host`. */
export function describeTlsFailure(failure: TlsFailure, host: string): { message: string; description: string } {
	switch (failure.kind) {
		case 'unknownCa':
			return {
				message: `The certificate of ${host} is not signed by a certificate authority n8n trusts (${failure.code})`,
				description: `${TRUST_YOUR_CA} ${OR_INSECURE} ${NOTHING_SENT}`,
			};
		case 'expired':
		case 'notYetValid':
			return {
				message: `The certificate of ${host} ${failure.kind === 'expired' ? 'has expired' : 'is not valid yet'} (${failure.code})`,
				description: `Ask the administrator of the installation to renew the certificate, and check that the clock of the machine running n8n is right. ${OR_INSECURE} ${NOTHING_SENT}`,
			};
		case 'wrongHost':
			return {
				message: `The certificate of ${host} is issued for another host name (${failure.code})`,
				description: `Enter the Base URL with the host name the certificate names (the one you use in a browser), not an IP address or an alias. ${OR_INSECURE} ${NOTHING_SENT}`,
			};
		case 'oldProtocol':
			return {
				message: `${host} offers only TLS versions older than 1.2, which are refused (${failure.code})`,
				description: `The service must support TLS 1.2 or newer; ask the administrator of the installation to enable it. No credential option turns this check off. ${NOTHING_SENT}`,
			};
	}
}
