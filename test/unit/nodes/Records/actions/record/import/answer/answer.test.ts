/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a test: its token is a fixed test value */
import { EXCERPT_LENGTH, readImportAnswer } from '../../../../../../../../nodes/Records/actions/record/import/answer/answer';

const TOKEN = 'rk_review2_8f3a61c04e9b27d5a1c6e08f93b4d27a';
const RECORDS = [{ Název: 'a' }, { Název: 'b' }];

const answer = (body: unknown, contentType?: string, statusCode = 200) => ({
	statusCode,
	headers: contentType === undefined ? {} : { 'Content-Type': contentType },
	body,
});
const read = (body: unknown, contentType?: string) => readImportAnswer(answer(body, contentType), RECORDS, [TOKEN]);

describe('readImportAnswer: whose answer it is, by its content', () => {
	it.each([
		['JSON n8n parsed', { status: 'ok' }, 'application/json'],
		['an empty body', '', 'application/json'],
		['no body at all', undefined, undefined],
		['JSON under a vendor type', { ok: 1 }, 'application/problem+json'],
		['JSON n8n parsed although labelled text/html (a PHP default)', { status: 'ok', imported: 2 }, 'text/html; charset=UTF-8'],
		['JSON text labelled text/plain', '{"status":"ok"}', 'text/plain'],
		['a JSON list as text', ' [{"id": 1}, {"id": 2}] ', undefined],
	])('takes %s for the service\'s answer', (_label, body, contentType) => {
		expect(read(body, contentType)).toMatchObject({ kind: 'service', verdicts: [{ outcome: 'imported' }, { outcome: 'imported' }] });
	});

	it('takes an HTML page for a foreign answer, whatever its label', () => {
		expect(read('<!DOCTYPE html><p>Sign in', 'text/html; charset=utf-8')).toEqual({
			kind: 'foreign',
			statusCode: 200,
			contentType: 'text/html; charset=utf-8',
			excerpt: '<!DOCTYPE html><p>Sign in',
		});
		expect(read('\n  <html>\n<body>', 'application/json')).toMatchObject({ kind: 'foreign', excerpt: '<html> <body>' });
		expect(read('<html/>', undefined)).toMatchObject({ kind: 'foreign', contentType: 'no content type' });
	});

	it('takes other text that is not JSON for a foreign answer', () => {
		expect(read('OK', 'text/plain')).toMatchObject({ kind: 'foreign', excerpt: 'OK' });
		expect(read('{"status": "ok"', 'text/plain')).toMatchObject({ kind: 'foreign' });
	});

	it(`shows at most ${EXCERPT_LENGTH} characters of what came`, () => {
		const result = read(`<html>${'x'.repeat(500)}`, 'text/html');
		expect(result.kind === 'foreign' && result.excerpt.length).toBe(EXCERPT_LENGTH);
	});

	it('leaves no piece of the token in the excerpt wherever the 160-character cut falls across it', () => {
		for (let tokenAt = EXCERPT_LENGTH - TOKEN.length - 2; tokenAt <= EXCERPT_LENGTH + 1; tokenAt++) {
			const page = `<html>${'x'.repeat(tokenAt - 6)}${TOKEN} is not signed in</html>`;
			const result = read(page, 'text/html');
			const shown = result.kind === 'foreign' ? result.excerpt : '';
			expect({ tokenAt, leaked: shown.includes(TOKEN.slice(0, 4)) || shown.includes(TOKEN.slice(-4)) }).toEqual({ tokenAt, leaked: false });
		}
	});
});
