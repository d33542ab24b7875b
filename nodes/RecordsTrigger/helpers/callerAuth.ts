import { createHash, timingSafeEqual } from 'crypto';

/**
 * How the service authenticates its calls to the trigger (spec §4.3 "auth": empty, BASIC, OAUTH2).
 * An OAUTH2-configured action sends `Authorization: Bearer <access token>`; the trigger checks that
 * token against the one stored in its credential.
 */
export type CallerAuthentication = 'none' | 'basicAuth' | 'bearerToken';

/** The node's Authentication options, each with the name the panel shows. */
export const CALLER_AUTHENTICATIONS: ReadonlyArray<{ value: CallerAuthentication; name: string }> = [
	{ value: 'basicAuth', name: 'Basic Auth' },
	{ value: 'bearerToken', name: 'Bearer Token' },
	{ value: 'none', name: 'None' },
];

/**
 * The Authentication parameter as one of its options, or what is wrong with it. An imported or
 * hand-edited workflow can hold any value ("bearer", "headerAuth"): only the exact value "none"
 * lets callers in unchecked, anything unknown is refused.
 */
export function callerAuthenticationOf(value: unknown): { value: CallerAuthentication } | { problem: string } {
	const known = CALLER_AUTHENTICATIONS.find((option) => option.value === value);
	if (known !== undefined) return { value: known.value };
	const shown = JSON.stringify(value) ?? String(value);
	const allowed = CALLER_AUTHENTICATIONS.map((option) => `"${option.value}" (${option.name})`).join(', ');
	return {
		problem: `The Records Trigger's Authentication is ${shown.length > 60 ? `${shown.slice(0, 60)}…` : shown}, which it does not know, so it refuses every call. Choose one of ${allowed} in the node.`,
	};
}

export const BASIC_CREDENTIAL_TYPE = 'recordsTriggerBasicAuthApi';
export const BEARER_CREDENTIAL_TYPE = 'recordsTriggerBearerAuthApi';

export interface BasicCredentialData {
	user: string;
	password: string;
}

export interface BearerCredentialData {
	token: string;
}

export type ExpectedCaller =
	| { type: 'none' }
	| { type: 'basicAuth'; credential: BasicCredentialData }
	| { type: 'bearerToken'; credential: BearerCredentialData };

/** The credential type a checked authentication reads. */
export function credentialTypeFor(authentication: 'basicAuth' | 'bearerToken'): string {
	return authentication === 'basicAuth' ? BASIC_CREDENTIAL_TYPE : BEARER_CREDENTIAL_TYPE;
}

// RFC 6750 b64token: what a bearer token may consist of to travel in an Authorization header.
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

function hasControlCharacters(text: string): boolean {
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code < 0x20 || code === 0x7f) return true;
	}
	return false;
}

/**
 * Why stored credential data cannot authenticate the service's calls, or undefined when it can.
 * Never quotes the secret itself. Used by the credential test, on activation and on every call.
 */
export function credentialProblem(type: string, data: Record<string, unknown> | undefined): string | undefined {
	if (type === BASIC_CREDENTIAL_TYPE) {
		const user = typeof data?.user === 'string' ? data.user : '';
		const password = typeof data?.password === 'string' ? data.password : '';
		if (user === '') return 'The user name is empty. Enter the user name set in the service\'s call API action (auth BASIC).';
		if (user.includes(':')) return 'The user name contains ":", which Basic authentication cannot carry (it separates user name and password). Choose a user name without ":".';
		if (hasControlCharacters(user)) return 'The user name contains a line break or another control character, often from copy and paste. Remove it.';
		if (password === '') return 'The password is empty. Enter the password set in the service\'s call API action (auth BASIC).';
		if (hasControlCharacters(password)) return 'The password contains a line break or another control character, often from copy and paste. Remove it.';
		return undefined;
	}
	if (type === BEARER_CREDENTIAL_TYPE) {
		const token = typeof data?.token === 'string' ? data.token : '';
		if (token === '') return 'The token is empty. Enter the access token the service sends (call API action with auth OAUTH2).';
		if (token.trim() !== token) return 'The token starts or ends with spaces or a line break, often from copy and paste. Remove them: the service sends the token without them.';
		if (!BEARER_TOKEN.test(token)) return 'The token contains characters a bearer token cannot carry in an Authorization header (allowed: letters, digits and - . _ ~ + / with trailing =). Check that the whole token was copied, and nothing else.';
		return undefined;
	}
	return `Unknown credential type "${type}".`;
}

function digest(text: string): Buffer {
	return createHash('sha256').update(text, 'utf8').digest();
}

/** Compares in time independent of where the strings differ and of the expected length. */
function secretEquals(received: string, expected: string): boolean {
	return timingSafeEqual(digest(received), digest(expected));
}

const AUTH_SCHEME = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*$/;

/**
 * "<scheme> <credentials>", read without a regular expression over the whole header: it comes
 * from anyone who knows the URL, before authentication, so its cost must stay linear in its length
 * (a backtracking pattern took a quarter of a second for 15 KB of spaces).
 */
function authorizationParts(header: string | undefined): { scheme: string; value: string } | undefined {
	if (header === undefined) return undefined;
	const trimmed = header.trim();
	const space = trimmed.search(/\s/);
	if (space < 0) return undefined;
	const scheme = trimmed.slice(0, space);
	const value = trimmed.slice(space + 1).trimStart();
	if (!AUTH_SCHEME.test(scheme) || value === '') return undefined;
	return { scheme: scheme.toLowerCase(), value };
}

export type CallerCheck = { ok: true } | { ok: false; reason: 'missing' | 'invalid' };

/** What an Authorization header offers, read without any credential. */
export type OfferedCredentials =
	| { type: 'basicAuth'; user: string; password: string }
	| { type: 'bearerToken'; token: string };

/** Basic credentials: "user:password" in base64, as Node.js decodes it. */
function basicCredentials(value: string): { user: string; password: string } | undefined {
	const decoded = Buffer.from(value, 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	if (colon < 0) return undefined;
	return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * The credentials an Authorization header offers for `type`, or why no usable credential can
 * match them: no header, another scheme, a token a bearer credential cannot hold (see
 * credentialProblem), Basic credentials without user name or password. Needs no credential, so
 * refusing such a call costs no loading and decrypting of one.
 */
export function offeredCredentials(
	authorization: string | undefined,
	type: 'basicAuth' | 'bearerToken',
): { offered: OfferedCredentials } | { refused: 'missing' | 'invalid' } {
	const parts = authorizationParts(authorization);
	if (parts === undefined || parts.scheme !== (type === 'basicAuth' ? 'basic' : 'bearer')) {
		return { refused: authorization === undefined || authorization.trim() === '' ? 'missing' : 'invalid' };
	}
	if (type === 'bearerToken') return BEARER_TOKEN.test(parts.value) ? { offered: { type, token: parts.value } } : { refused: 'invalid' };
	const basic = basicCredentials(parts.value);
	if (basic === undefined || basic.user === '' || basic.password === '') return { refused: 'invalid' };
	return { offered: { type, ...basic } };
}

/** Whether offered credentials are the expected ones. */
export function credentialsMatch(offered: OfferedCredentials, expected: ExpectedCaller): boolean {
	if (offered.type === 'bearerToken') return expected.type === 'bearerToken' && secretEquals(offered.token, expected.credential.token);
	if (expected.type !== 'basicAuth') return false;
	// Both comparisons always run, so the timing does not tell which part was wrong.
	const userMatches = secretEquals(offered.user, expected.credential.user);
	const passwordMatches = secretEquals(offered.password, expected.credential.password);
	return userMatches && passwordMatches;
}

/** Checks the request's Authorization header against what the trigger expects. */
export function checkCaller(authorization: string | undefined, expected: ExpectedCaller): CallerCheck {
	if (expected.type === 'none') return { ok: true };
	const offered = offeredCredentials(authorization, expected.type);
	if ('refused' in offered) return { ok: false, reason: offered.refused };
	return credentialsMatch(offered.offered, expected) ? { ok: true } : { ok: false, reason: 'invalid' };
}

/** The WWW-Authenticate challenge of a 401 answer (RFC 7617, RFC 6750). */
export function challengeFor(expected: Pick<ExpectedCaller, 'type'>, reason: 'missing' | 'invalid'): string | undefined {
	if (expected.type === 'basicAuth') return 'Basic realm="Records Trigger", charset="UTF-8"';
	if (expected.type === 'bearerToken') {
		return reason === 'invalid' ? 'Bearer realm="Records Trigger", error="invalid_token"' : 'Bearer realm="Records Trigger"';
	}
	return undefined;
}
