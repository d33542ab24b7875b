/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a test: its tokens and keys are fixed
	test values, not secrets */
import type { IHttpRequestOptions } from 'n8n-workflow';

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
