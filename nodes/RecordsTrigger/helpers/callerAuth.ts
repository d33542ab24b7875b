import { createHash, timingSafeEqual } from 'crypto';

/**
 * How the service authenticates its calls to the trigger (spec §4.3 "auth": empty, BASIC, OAUTH2).
 * An OAUTH2-configured action sends `Authorization: Bearer <access token>`; the trigger checks that
 * token against the one stored in its credential.
 */
export type CallerAuthentication = 'none' | 'basicAuth' | 'bearerToken';

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

export function credentialTypeFor(authentication: CallerAuthentication): string | undefined {
	if (authentication === 'basicAuth') return BASIC_CREDENTIAL_TYPE;
	if (authentication === 'bearerToken') return BEARER_CREDENTIAL_TYPE;
	return undefined;
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

/** Checks the request's Authorization header against what the trigger expects. */
export function checkCaller(authorization: string | undefined, expected: ExpectedCaller): CallerCheck {
	if (expected.type === 'none') return { ok: true };
	const parts = authorizationParts(authorization);
	const scheme = expected.type === 'basicAuth' ? 'basic' : 'bearer';
	if (parts === undefined || parts.scheme !== scheme) {
		return { ok: false, reason: authorization === undefined || authorization.trim() === '' ? 'missing' : 'invalid' };
	}
	if (expected.type === 'bearerToken') {
		return secretEquals(parts.value, expected.credential.token) ? { ok: true } : { ok: false, reason: 'invalid' };
	}
	const decoded = Buffer.from(parts.value, 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	const user = colon < 0 ? decoded : decoded.slice(0, colon);
	const password = colon < 0 ? '' : decoded.slice(colon + 1);
	// Both comparisons always run, so the timing does not tell which part was wrong.
	const userMatches = secretEquals(user, expected.credential.user);
	const passwordMatches = secretEquals(password, expected.credential.password);
	return userMatches && passwordMatches && colon >= 0 ? { ok: true } : { ok: false, reason: 'invalid' };
}

/** The WWW-Authenticate challenge of a 401 answer (RFC 7617, RFC 6750). */
export function challengeFor(expected: ExpectedCaller, reason: 'missing' | 'invalid'): string | undefined {
	if (expected.type === 'basicAuth') return 'Basic realm="Records Trigger", charset="UTF-8"';
	if (expected.type === 'bearerToken') {
		return reason === 'invalid' ? 'Bearer realm="Records Trigger", error="invalid_token"' : 'Bearer realm="Records Trigger"';
	}
	return undefined;
}
