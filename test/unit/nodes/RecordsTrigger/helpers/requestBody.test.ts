/**
 * Form bodies (application/x-www-form-urlencoded): percent-encoded bytes are text in the body's
 * encoding, the "Body Encoding" option's when the request declares none. Property-based, with an
 * encoder as the oracle: any form a caller encodes in UTF-8 or windows-1250 parses back to its
 * fields (seeded, shrinking). Then hostile and unusual bodies: repeated names, deep nesting, byte
 * order marks, bytes that are no text.
 */
import fc from 'fast-check';

import { decodeBody } from '../../../../../nodes/RecordsTrigger/helpers/bodyText';
import { parseContentType } from '../../../../../nodes/RecordsTrigger/helpers/contentType';
import { parseBodyText } from '../../../../../nodes/RecordsTrigger/helpers/requestBody';
import { bestTime, timeBoundMs } from '../linearTime';

/** Every character windows-1250 has, with its byte (TextDecoder knows the table; Node's Buffer does not). */
const CP1250 = new Map<string, number>();
const cp1250Decoder = new TextDecoder('windows-1250');
for (let byte = 0x20; byte < 0x100; byte++) {
	if (byte !== 0x7f) CP1250.set(cp1250Decoder.decode(Uint8Array.of(byte)), byte);
}

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
const plain = /^[A-Za-z0-9*._-]$/;

/** Encodes like a windows-1250 caller: its bytes, escaped unless plain ASCII; a space as "+" or "%20". */
function cp1250Component(text: string, escapeAll: boolean): string {
	return Array.from(text, (char) => {
		if (char === ' ') return escapeAll ? '%20' : '+';
		if (plain.test(char) && !escapeAll) return char;
		return hex(CP1250.get(char) as number);
	}).join('');
}

const utf8Component = (text: string, spaceAsPlus: boolean) =>
	spaceAsPlus ? encodeURIComponent(text).replace(/%20/g, '+') : encodeURIComponent(text);

const SEEDED = { seed: 1250, numRuns: 300 };

function form(pairs: Array<[string, string]>, encode: (text: string) => string): string {
	return pairs.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&');
}

describe('form bodies', () => {
	it('named case: a windows-1250 caller\'s percent-encoded Czech, with Body Encoding windows-1250', () => {
		// "Název=Škoda Octavia&Zadal=Jiří Čermák" as a windows-1250 form.
		const body = 'N%E1zev=%8Akoda+Octavia&Zadal=Ji%F8%ED+%C8erm%E1k';
		expect(parseBodyText(body, 'form', undefined, 'windows-1250')).toEqual({
			value: { Název: 'Škoda Octavia', Zadal: 'Jiří Čermák' },
		});
	});

	it('named case: the same bytes in a UTF-8 body are refused with what to set, not decoded to "�"', () => {
		const parsed = parseBodyText('N%E1zev=%8Akoda', 'form', undefined, 'utf-8');
		expect(parsed).toMatchObject({ rejection: { status: 400, code: 'invalid_encoding' } });
		expect('rejection' in parsed && parsed.rejection.message).toMatch(/not valid UTF-8.*"Body Encoding"/);
	});

	it('named case: a "%" without two hex digits stays as it is, as URLSearchParams keeps it', () => {
		expect(parseBodyText('a=100%&b=%zz&c=%4', 'form', undefined, 'utf-8')).toEqual({ value: { a: '100%', b: '%zz', c: '%4' } });
	});

	it('any windows-1250 form parses back to its fields', () => {
		const text = fc.string({ unit: fc.constantFrom(...CP1250.keys()), maxLength: 12 });
		fc.assert(
			fc.property(fc.uniqueArray(fc.tuple(text, text), { selector: ([name]) => name, maxLength: 6 }), fc.boolean(), (pairs, escapeAll) => {
				const named = pairs.filter(([name]) => name !== '');
				const body = form(named, (part) => cp1250Component(part, escapeAll));
				expect(parseBodyText(body, 'form', undefined, 'windows-1250')).toEqual({ value: Object.fromEntries(named) });
			}),
			SEEDED,
		);
	});

	it('any UTF-8 form parses back to its fields, as URLSearchParams reads it', () => {
		const text = fc.string({ unit: 'grapheme', maxLength: 12 });
		fc.assert(
			fc.property(fc.uniqueArray(fc.tuple(text, text), { selector: ([name]) => name, maxLength: 6 }), fc.boolean(), (pairs, spaceAsPlus) => {
				const named = pairs.filter(([name]) => name !== '');
				const body = form(named, (part) => utf8Component(part, spaceAsPlus));
				const expected = Object.fromEntries(named);
				expect(parseBodyText(body, 'form', undefined, 'utf-8')).toEqual({ value: expected });
				expect(Object.fromEntries(new URLSearchParams(body))).toEqual(expected);
			}),
			SEEDED,
		);
	});
});

describe('hostile and unusual bodies', () => {
	const json = parseContentType('application/json');

	it('a form repeating one name 39,000 times (78 KB) is refused as too many fields, in time linear in its size', () => {
		const body = 'a&'.repeat(39_000);
		const bound = timeBoundMs(body.length);
		const { ms, result } = bestTime(() => parseBodyText(body, 'form', undefined), bound);
		expect(result).toMatchObject({ rejection: { status: 413, code: 'too_many_fields' } });
		expect('rejection' in result && result.rejection.message).toMatch(/more than 1,000 fields/);
		expect(ms).toBeLessThanOrEqual(bound);
	});

	it('a form of 1,000 fields under one name is read whole, its values in order', () => {
		const values = Array.from({ length: 1000 }, (_, index) => String(index));
		expect(parseBodyText(values.map((value) => `n=${value}`).join('&'), 'form', undefined)).toEqual({ value: { n: values } });
	});

	it('a JSON body nested 100,000 levels deep is refused with 400, as deep XML is', () => {
		const deep = '['.repeat(100_000) + ']'.repeat(100_000);
		const result = parseBodyText(deep, 'json', json);
		expect(result).toMatchObject({ rejection: { status: 400, code: 'invalid_json' } });
		expect('rejection' in result && result.rejection.message).toMatch(/nested more than 256 levels/);
		// Brackets inside strings are text, not nesting.
		const text = JSON.stringify({ a: '['.repeat(1000), b: [[[['x']]]] });
		expect(parseBodyText(text, 'json', json)).toEqual({ value: JSON.parse(text) });
		expect(parseBodyText(`${'['.repeat(256)}${']'.repeat(256)}`, 'json', json)).toHaveProperty('value');
	});

	it.each([
		['UTF-16LE', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"nazev":"Žluťoučký kůň"}', 'utf16le')])],
		['UTF-16BE', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('{"nazev":"Žluťoučký kůň"}', 'utf16le').swap16()])],
		['UTF-8', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"nazev":"Žluťoučký kůň"}')])],
	])('a %s body with a byte order mark is decoded by it, whatever the Body Encoding says', (_encoding, bytes) => {
		expect(decodeBody(bytes, json, 'windows-1250')).toEqual({ value: '{"nazev":"Žluťoučký kůň"}' });
		expect(decodeBody(bytes, undefined)).toEqual({ value: '{"nazev":"Žluťoučký kůň"}' });
	});

	it('a binary body is refused as not text, with advice that fits it (not about Czech encodings)', () => {
		const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff]);
		const result = decodeBody(png, parseContentType('application/octet-stream'));
		expect(result).toMatchObject({ rejection: { status: 415, code: 'not_text' } });
		const message = 'rejection' in result ? result.rejection.message : '';
		expect(message).not.toMatch(/windows-1250|Body Encoding/);
		expect(message).toMatch(/multipart\/form-data/);
	});

	it('named case: a U+FEFF inside a form value is kept; only a byte order mark before the whole body is dropped', () => {
		const formType = parseContentType('application/x-www-form-urlencoded');
		expect(parseBodyText('a=%EF%BB%BFx&%EF%BB%BFb=1', 'form', formType)).toEqual({ value: { a: '\uFEFFx', '\uFEFFb': '1' } });
		const decoded = decodeBody(Buffer.from('\uFEFFa=%EF%BB%BFx'), formType);
		expect('value' in decoded && parseBodyText(decoded.value, 'form', formType)).toEqual({ value: { a: '\uFEFFx' } });
	});

	it.each(['utf-8', 'unicode-1-1-utf-8', 'UTF8', 'unicode20utf8'])('named case: a body with NUL bytes is refused as not text with charset=%s, a label of UTF-8', (charset) => {
		const bytes = Buffer.from('{"a":"\u0000"}');
		expect(decodeBody(bytes, parseContentType(`text/json; charset=${charset}`))).toMatchObject({ rejection: { status: 415, code: 'not_text' } });
	});

	it('a UTF-16 label (unicode, csunicode) still reads UTF-16 text, zero bytes and all', () => {
		for (const charset of ['unicode', 'csunicode', 'utf-16le']) {
			expect(decodeBody(Buffer.from('{"a":1}', 'utf16le'), parseContentType(`text/json; charset=${charset}`))).toEqual({ value: '{"a":1}' });
		}
	});
});
