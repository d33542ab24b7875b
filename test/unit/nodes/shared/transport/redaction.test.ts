/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals -- a test: its
	token and password are fixed test values; it runs in Node.js, not inside n8n (`process`) */
import fc from 'fast-check';
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

	it('takes a short secret out of a short text too', () => {
		expect(redact('id abcd', ['abcd'])).toBe('id ***');
		expect(redact('created', [TOKEN])).toBe('created');
	});
});

describe('credentialSecrets', () => {
	it('adds the password of a Base URL written with user information', () => {
		expect(credentialSecrets(TOKEN, 'https://gate:pa%24%24word-42@records.example.com')).toEqual([TOKEN, 'pa%24%24word-42', 'pa$$word-42']);
		expect(credentialSecrets(TOKEN, 'https://records.example.com')).toEqual([TOKEN]);
	});
});

describe('redact: pieces of a secret, property-based', () => {
	/**
	 * The rule written out as plainly as possible, as the oracle: every form whole, then in each run
	 * of token characters a piece of 8 characters or more of a form at the run's start (an end of
	 * the form) or at its end (a beginning of the form), trying every length.
	 */
	function plainRedact(text: string, secret: string): string {
		const forms = [secret, JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'), encodeURIComponent(secret)]
			.filter((form, index, all) => all.indexOf(form) === index)
			.sort((a, b) => b.length - a.length);
		let redacted = text;
		for (const form of forms) redacted = redacted.split(form).join('***');
		return redacted.replace(/[A-Za-z0-9._~+/=%\\-]{8,}/g, (run) => {
			let start = 0;
			let end = run.length;
			for (const form of forms) {
				if (form.includes(run)) return '***';
				for (let length = Math.min(form.length - 1, end - start); length >= 8; length--) {
					if (run.startsWith(form.slice(-length), start)) {
						start += length;
						break;
					}
				}
				for (let length = Math.min(form.length - 1, end - start); length >= 8; length--) {
					if (run.slice(start, end).endsWith(form.slice(0, length))) {
						end -= length;
						break;
					}
				}
			}
			if (start === 0 && end === run.length) return run;
			return `${start > 0 ? '***' : ''}${run.slice(start, end)}${end < run.length ? '***' : ''}`;
		});
	}

	const tokenChars = fc.constantFrom(...'abcdef0123456789_/+=.-'.split(''));
	const secret = fc.string({ unit: tokenChars, minLength: 8, maxLength: 48 });

	it('leaves exactly what the plain rule leaves, for texts made of pieces of the secret and other runs', () => {
		fc.assert(
			fc.property(
				secret,
				fc.array(
					fc.oneof(
						fc.tuple(fc.nat(), fc.nat()).map(([a, b]) => ({ slice: [a, b] as const })),
						fc.string({ unit: tokenChars, maxLength: 20 }),
						fc.constantFrom(' ', '"', ': ', 'Bearer ', 'rec-000123456'),
					),
					{ maxLength: 8 },
				),
				(token, parts) => {
					const text = parts
						.map((part) => (typeof part === 'string' ? part : token.slice(part.slice[0] % token.length, (part.slice[0] % token.length) + (part.slice[1] % (token.length + 1)))))
						.join('');
					expect(redact(text, [token])).toBe(plainRedact(text, token));
				},
			),
			{ numRuns: 3_000, seed: Number(process.env.FC_SEED ?? 36), path: process.env.FC_PATH },
		);
	});
});
