/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * TLS for the sandbox: a certificate authority and a server certificate made in memory when a sandbox
 * starts (no network, no files, no system tools), and the HTTPS server options built from them.
 *
 * Why a library (@peculiar/x509, a dev dependency) and not the system's openssl: the tests need
 * certificates that openssl 3.0's one-line commands cannot make (one that expired in the past needs
 * `openssl ca` with a config file and a database), and the tests and `npm start` must run the same on
 * machines without openssl on the PATH. The library builds certificates with Node's own WebCrypto.
 */
import { webcrypto } from 'node:crypto';
import type { ServerOptions } from 'node:https';
// The library resolves its parts through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

// Node's WebCrypto is the standard one; the DOM type the library names is not in this project's lib.
x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A CA that signs server certificates; its certificate is what a client is told to trust. */
export interface CertificateAuthority {
	/** PEM; give it to n8n with NODE_EXTRA_CA_CERTS (a file) or to a client's `ca` option. */
	certificatePem: string;
	/** Signs a server certificate for these names (DNS names and IP addresses). */
	issue(names: string[], validity?: { notBefore: Date; notAfter: Date }): Promise<KeyAndCertificate>;
}

export interface KeyAndCertificate {
	keyPem: string;
	certificatePem: string;
}

/**
 * What the sandbox's HTTPS server presents. `valid` (default): a certificate for localhost,
 * 127.0.0.1 and ::1. `expired`: the same names, valid until a year ago. `wrongHost`: valid, but
 * only for records.example.com.
 */
export type ServerCertificateKind = 'valid' | 'expired' | 'wrongHost';

export interface SandboxTlsOptions {
	/** The CA that signs the server certificate; a new one when not given (share one between sandboxes). */
	ca?: CertificateAuthority;
	certificate?: ServerCertificateKind;
	/** Offer only TLS 1.0 and 1.1, which clients must refuse. */
	legacyProtocolsOnly?: boolean;
}

export const WRONG_HOST_NAME = 'records.example.com';
const LOCAL_NAMES = ['localhost', '127.0.0.1', '::1'];

export async function createCertificateAuthority(
	commonName = 'Records Sandbox Test CA',
): Promise<CertificateAuthority> {
	const keys = await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
	const now = Date.now();
	const caCertificate = await x509.X509CertificateGenerator.createSelfSigned({
		name: `CN=${commonName}`,
		// Backdated so that it also covers the expired server certificate's validity.
		notBefore: new Date(now - 3 * 365 * DAY_MS),
		notAfter: new Date(now + 365 * DAY_MS),
		keys,
		signingAlgorithm: SIGNING_ALGORITHM,
		extensions: [
			new x509.BasicConstraintsExtension(true, 0, true),
			new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
			await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
		],
	});

	return {
		certificatePem: caCertificate.toString('pem'),
		async issue(names, validity) {
			const serverKeys = await webcrypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
			const certificate = await x509.X509CertificateGenerator.create({
				subject: `CN=${names[0]}`,
				issuer: caCertificate.subject,
				notBefore: validity?.notBefore ?? new Date(Date.now() - DAY_MS),
				notAfter: validity?.notAfter ?? new Date(Date.now() + 30 * DAY_MS),
				publicKey: serverKeys.publicKey,
				signingKey: keys.privateKey,
				signingAlgorithm: SIGNING_ALGORITHM,
				extensions: [
					new x509.BasicConstraintsExtension(false, undefined, true),
					new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
					new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
					new x509.SubjectAlternativeNameExtension(
						names.map((name) => (/^[\d.]+$|:/.test(name) ? { type: 'ip', value: name } : { type: 'dns', value: name })),
					),
					await x509.AuthorityKeyIdentifierExtension.create(keys.publicKey),
				],
			});
			const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', serverKeys.privateKey);
			return { keyPem: toPem(pkcs8, 'PRIVATE KEY'), certificatePem: certificate.toString('pem') };
		},
	};
}

/** The HTTPS server options for a sandbox, and the CA a client must trust to accept it. */
export async function sandboxTlsServerOptions(
	tls: SandboxTlsOptions,
): Promise<{ serverOptions: ServerOptions; ca: CertificateAuthority }> {
	const ca = tls.ca ?? (await createCertificateAuthority());
	const kind = tls.certificate ?? 'valid';
	const now = Date.now();
	const issued = await ca.issue(
		kind === 'wrongHost' ? [WRONG_HOST_NAME] : LOCAL_NAMES,
		kind === 'expired' ? { notBefore: new Date(now - 2 * 365 * DAY_MS), notAfter: new Date(now - 365 * DAY_MS) } : undefined,
	);
	const serverOptions: ServerOptions = { key: issued.keyPem, cert: issued.certificatePem };
	if (tls.legacyProtocolsOnly) {
		// OpenSSL 3 allows TLS 1.0/1.1 only at security level 0.
		Object.assign(serverOptions, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' });
	}
	return { serverOptions, ca };
}

function toPem(der: ArrayBuffer, label: string): string {
	const base64 = Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
	return `-----BEGIN ${label}-----\n${base64}\n-----END ${label}-----\n`;
}
