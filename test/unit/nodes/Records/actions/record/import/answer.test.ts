import { readImportAnswer } from '../../../../../../../nodes/Records/actions/record/import/answer';

const answer = (body: unknown, contentType?: string, statusCode = 200) => ({
	statusCode,
	headers: contentType === undefined ? {} : { 'Content-Type': contentType },
	body,
});

describe('readImportAnswer', () => {
	it('takes JSON, an empty body and 204 for the service', () => {
		expect(readImportAnswer(answer({ status: 'ok' }, 'application/json'), 1).kind).toBe('service');
		expect(readImportAnswer(answer('', 'application/json'), 1).kind).toBe('service');
		expect(readImportAnswer(answer(undefined, undefined, 204), 1).kind).toBe('service');
		expect(readImportAnswer(answer({ ok: 1 }, 'application/problem+json'), 1).kind).toBe('service');
	});

	it('takes an HTML page for a foreign answer, by content type or by its first character', () => {
		expect(readImportAnswer(answer('<!DOCTYPE html><p>Sign in', 'text/html; charset=utf-8'), 1)).toEqual({
			kind: 'foreign',
			statusCode: 200,
			contentType: 'text/html; charset=utf-8',
			excerpt: '<!DOCTYPE html><p>Sign in',
		});
		expect(readImportAnswer(answer('\n  <html>\n<body>', undefined), 1)).toMatchObject({
			kind: 'foreign',
			contentType: 'no content type',
			excerpt: '<html> <body>',
		});
	});

	it('takes other text for a foreign answer', () => {
		expect(readImportAnswer(answer('OK', 'text/plain'), 1)).toMatchObject({ kind: 'foreign', excerpt: 'OK' });
	});

	it('shows at most 160 characters of what came', () => {
		const result = readImportAnswer(answer(`<html>${'x'.repeat(500)}`, 'text/html'), 1);
		expect(result.kind === 'foreign' && result.excerpt.length).toBe(160);
	});

	it('reads the records an answer lists as refused, by status, error or success flag', () => {
		const body = {
			results: [
				{ index: 0, status: 'created', id: 1 },
				{ index: 1, status: 'Error', message: 'Chybí název' },
				{ index: 2, error: { code: 'locked', message: 'Zamčený záznam' } },
				{ index: 3, success: false },
				{ index: 4, status: 'edited', error: null },
			],
		};
		const result = readImportAnswer(answer(body, 'application/json'), 5);
		expect(result.kind === 'service' && result.outcomes?.map((outcome) => [outcome?.refused === true, outcome?.message])).toEqual([
			[false, undefined],
			[true, 'Chybí název'],
			[true, 'Zamčený záznam'],
			[true, undefined],
			[false, undefined],
		]);
	});
});
