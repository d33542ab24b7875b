/**
 * The Authorization header is read before authentication, from anyone who knows the URL: its cost
 * must grow with its length, not faster.
 */
import * as fc from 'fast-check';

import {
	BASIC_CREDENTIAL_TYPE,
	BEARER_CREDENTIAL_TYPE,
	checkCaller,
	credentialProblem,
	offeredCredentials,
} from '../../../../../nodes/RecordsTrigger/helpers/callerAuth';
import { bestTime, timeBoundMs } from '../linearTime';

const bearer = { type: 'bearerToken', credential: { token: 'abc.DEF-123_~+/=' } } as const;
const basic = { type: 'basicAuth', credential: { user: 'records', password: 'tajné heslo' } } as const;

describe('reading the Authorization header', () => {
	it('a 64 KB Authorization header of spaces between two words is refused in time linear in its length', () => {
		for (const header of [`Bearer a${' '.repeat(64 * 1024)}b`, `Basic a${'\t '.repeat(32 * 1024)}b`, `${' '.repeat(64 * 1024)}x`]) {
			const bound = timeBoundMs(header.length);
			const { ms, result } = bestTime(() => checkCaller(header, bearer), bound);
			expect(result).toEqual({ ok: false, reason: 'invalid' });
			expect(ms).toBeLessThanOrEqual(bound);
		}
	});

	it('takes the scheme case-insensitively and the credentials without the spaces around them', () => {
		expect(checkCaller('  bEaReR   abc.DEF-123_~+/=  ', bearer)).toEqual({ ok: true });
		expect(checkCaller(`Basic\t${Buffer.from('records:tajné heslo').toString('base64')} `, basic)).toEqual({ ok: true });
		expect(checkCaller('Bearer', bearer)).toEqual({ ok: false, reason: 'invalid' });
		expect(checkCaller('Bearer abc.DEF-123_~+/= extra', bearer)).toEqual({ ok: false, reason: 'invalid' });
		expect(checkCaller('   ', bearer)).toEqual({ ok: false, reason: 'missing' });
	});
});

describe('refusing before the credential is read never refuses the right credentials', () => {
	const b64char = fc.constantFrom(...'ABCxyz019-._~+/'.split(''));
	const token = fc
		.tuple(fc.array(b64char, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 2 }))
		.map(([chars, padding]) => chars.join('') + '='.repeat(padding))
		.filter((value) => credentialProblem(BEARER_CREDENTIAL_TYPE, { token: value }) === undefined);
	const text = fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' });
	const user = text.filter((value) => credentialProblem(BASIC_CREDENTIAL_TYPE, { user: value, password: 'x' }) === undefined);
	const password = text.filter((value) => credentialProblem(BASIC_CREDENTIAL_TYPE, { user: 'x', password: value }) === undefined);
	const scheme = (name: string) => fc.constantFrom(name, name.toUpperCase(), name.toLowerCase());
	const spaces = fc.constantFrom(' ', '  ', '\t');

	it('any usable bearer token or Basic pair, sent in any spelling of its scheme: offered and accepted; any other: refused', () => {
		fc.assert(
			fc.property(token, token, scheme('Bearer'), spaces, (expected, other, name, gap) => {
				const credential = { type: 'bearerToken', credential: { token: expected } } as const;
				expect(offeredCredentials(`${name}${gap}${expected}`, 'bearerToken')).toEqual({ offered: { type: 'bearerToken', token: expected } });
				expect(checkCaller(`${name}${gap}${expected}`, credential)).toEqual({ ok: true });
				expect(checkCaller(`${name}${gap}${other}`, credential).ok).toBe(other === expected);
			}),
			{ seed: 46, numRuns: 300 },
		);
		fc.assert(
			fc.property(user, password, password, scheme('Basic'), spaces, (name, secret, other, spelling, gap) => {
				const credential = { type: 'basicAuth', credential: { user: name, password: secret } } as const;
				const header = (pass: string) => `${spelling}${gap}${Buffer.from(`${name}:${pass}`).toString('base64')}`;
				expect(offeredCredentials(header(secret), 'basicAuth')).toEqual({ offered: { type: 'basicAuth', user: name, password: secret } });
				expect(checkCaller(header(secret), credential)).toEqual({ ok: true });
				expect(checkCaller(header(other), credential).ok).toBe(other === secret);
			}),
			{ seed: 46, numRuns: 300 },
		);
	});
});
