/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a test: its tokens and keys are fixed
	test values, not secrets */
import { NodeHelpers, type IHttpRequestOptions } from 'n8n-workflow';

import { plainHttpRefusal, RecordsApi } from '../../../credentials/RecordsApi.credentials';

describe('plainHttpRefusal', () => {
	it('refuses an http:// URL, naming the option that allows it', () => {
		const refusal = plainHttpRefusal('http://records.example.com', false);
		expect(refusal).toContain('plain http://');
		expect(refusal).toContain('"Allow Plain HTTP (Local Testing Only)"');
		expect(refusal).toContain('https://');
	});

	it.each(['HTTP://records.example.com', '  http://127.0.0.1:4010', 'Http://localhost'])(
		'refuses %j whatever its case and surrounding spaces',
		(url) => {
			expect(plainHttpRefusal(url, false)).toBeDefined();
		},
	);

	it('allows http:// when the user turned plain HTTP on', () => {
		expect(plainHttpRefusal('http://127.0.0.1:4010', true)).toBeUndefined();
	});

	it.each(['https://records.example.com', 'HTTPS://records.example.com', ''])(
		'has nothing against %j',
		(url) => {
			expect(plainHttpRefusal(url, false)).toBeUndefined();
		},
	);
});

describe('RecordsApi.authenticate', () => {
	const credential = new RecordsApi();
	const token = 'rk_unit_test_token_0123456789';

	it('adds the bearer token and keeps the request and its other headers', async () => {
		const request: IHttpRequestOptions = {
			url: 'https://records.example.com/api/analysis/reports/r1/data/table',
			headers: { Accept: 'application/json' },
		};
		const authenticated = await credential.authenticate({ token, allowHttp: false }, request);
		expect(authenticated.headers).toEqual({
			Accept: 'application/json',
			Authorization: `Bearer ${token}`,
		});
		expect(authenticated.url).toBe(request.url);
		expect(request.headers).toEqual({ Accept: 'application/json' });
	});

	it('refuses to send the token over plain HTTP, from url or from baseURL', async () => {
		await expect(
			credential.authenticate({ token, allowHttp: false }, { url: 'http://records.example.com/x' }),
		).rejects.toThrow('plain http://');
		await expect(
			credential.authenticate(
				{ token, allowHttp: false },
				{ baseURL: 'http://records.example.com', url: '/x' },
			),
		).rejects.toThrow('plain http://');
	});

	it('sends over plain HTTP when allowed', async () => {
		const authenticated = await credential.authenticate(
			{ token, allowHttp: true },
			{ url: 'http://127.0.0.1:4010/x' },
		);
		expect(authenticated.headers?.Authorization).toBe(`Bearer ${token}`);
	});

	it('keeps the token out of the refusal', async () => {
		await expect(
			credential.authenticate({ token }, { url: 'http://records.example.com/x' }),
		).rejects.toThrow(expect.objectContaining({ message: expect.not.stringContaining(token) }));
	});
});

describe('the Records API credential form', () => {
	const { properties } = new RecordsApi();
	const property = (name: string) => properties.find((candidate) => candidate.name === name);
	const shownFor = (name: string, testWith: string) =>
		NodeHelpers.displayParameter({ testWith }, property(name)!, null, null);

	it('requires the ID the chosen connection test needs, and only that one', () => {
		expect(property('testReportId')).toMatchObject({ required: true });
		expect(property('testRecordTypeId')).toMatchObject({ required: true });
		expect([shownFor('testReportId', 'report'), shownFor('testReportId', 'import')]).toEqual([true, false]);
		expect([shownFor('testRecordTypeId', 'report'), shownFor('testRecordTypeId', 'import')]).toEqual([false, true]);
		expect(property('testWith')?.default).toBe('report');
	});

	it('has no notice, and descriptions and hints of one or two lines', () => {
		expect(properties.filter((candidate) => candidate.type === 'notice')).toEqual([]);
		const texts = properties.flatMap((candidate) => [candidate.description, candidate.hint]).filter(Boolean) as string[];
		expect(texts.length).toBeGreaterThan(5);
		expect(texts.filter((text) => text.length > 200)).toEqual([]);
	});

	it('names the commonest certificate code and the fix in view, under Base URL', () => {
		const hint = property('baseUrl')?.hint;
		expect(hint).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
		expect(hint).toContain('NODE_EXTRA_CA_CERTS');
	});
});
