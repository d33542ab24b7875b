/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a test: its token and password are fixed test values */
import { excerpt, redact } from '../../../../../nodes/shared/transport/redaction';
import { credentialSecrets } from '../../../../../nodes/shared/transport';

const TOKEN = 'rk_5f0c9a7e3b8d41c6a2e97f4d1b6c08a3e5d27f91';
const PIECE = 6;

/** Every piece of `secret` of PIECE characters that occurs in `text`. */
function piecesIn(text: string, secret: string): string[] {
	const found: string[] = [];
	for (let start = 0; start + PIECE <= secret.length; start++) {
		const piece = secret.slice(start, start + PIECE);
		if (text.includes(piece)) found.push(piece);
	}
	return found;
}

describe('excerpt: redact before the cut', () => {
	it.each([160, 500])('leaves no piece of the token at any position across a %s-character cut', (cut) => {
		const leaks: Array<{ at: number; pieces: string[] }> = [];
		for (let at = Math.max(0, cut - TOKEN.length - 10); at <= cut + 2; at++) {
			const text = `${'x'.repeat(at)}Bearer ${TOKEN} and more text after it`;
			// The token itself starts at `at + 7`: every start from before the cut's reach to past it.
			const shown = excerpt(text, [TOKEN], cut);
			expect(shown.length).toBeLessThanOrEqual(cut);
			const pieces = piecesIn(shown, TOKEN);
			if (pieces.length > 0) leaks.push({ at, pieces });
		}
		expect(leaks).toEqual([]);
	});

	it('keeps the text around the token, collapsing whitespace', () => {
		expect(excerpt(`<p>\n  Bearer ${TOKEN}\n is not signed in</p>`, [TOKEN], 160)).toBe('<p> Bearer *** is not signed in</p>');
	});
});

describe('redact', () => {
	it('takes out every occurrence, also escaped as JSON writes a slash, or percent-encoded', () => {
		const secret = 'tok/en+with=chars';
		const text = `a ${secret} b ${secret.replace('/', '\\/')} c ${encodeURIComponent(secret)} d`;
		expect(redact(text, [secret])).toBe('a *** b *** c *** d');
	});

	it('takes out a piece of the token that the service cut itself (8 characters or more)', () => {
		expect(redact(`Authorization: Bearer ${TOKEN.slice(0, 12)}…`, [TOKEN])).toBe('Authorization: Bearer ***…');
		expect(redact(`…${TOKEN.slice(-10)} was refused`, [TOKEN])).toBe('…*** was refused');
		expect(redact(`header=Bearer_${TOKEN.slice(0, 20)}`, [TOKEN])).toBe('header=Bearer_***');
	});

	it('leaves ordinary words and short secrets alone', () => {
		expect(redact('The record was refused', [TOKEN])).toBe('The record was refused');
		expect(redact('abc is not a secret worth hiding', ['abc'])).toBe('abc is not a secret worth hiding');
	});
});

describe('credentialSecrets', () => {
	it('adds the password of a Base URL written with user information', () => {
		expect(credentialSecrets(TOKEN, 'https://gate:pa%24%24word-42@records.example.com')).toEqual([TOKEN, 'pa%24%24word-42', 'pa$$word-42']);
		expect(credentialSecrets(TOKEN, 'https://records.example.com')).toEqual([TOKEN]);
	});
});
