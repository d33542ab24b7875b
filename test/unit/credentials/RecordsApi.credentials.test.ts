/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a test: its tokens and keys are fixed
	test values, not secrets */
/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside
	n8n (`process` for the property tests' seed) */
import fc from 'fast-check';
import { NodeHelpers, type IHttpRequestOptions } from 'n8n-workflow';

import { baseUrlProblem, plainHttpRefusal, RecordsApi } from '../../../credentials/RecordsApi.credentials';

const seeded = { seed: Number(process.env.FC_SEED ?? 48), path: process.env.FC_PATH };

describe('baseUrlProblem', () => {
	const origins = fc.webUrl({ withQueryParameters: false, withFragments: false }).map((url) => new URL(url).origin);
	// "." and ".." are no path: URL resolves them away.
	const segment = fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/).filter((text) => text !== '.' && text !== '..');

	it('has nothing against an http(s) origin, with or without trailing slashes', () => {
		fc.assert(
			fc.property(origins, fc.nat({ max: 3 }), (origin, slashes) => baseUrlProblem(origin + '/'.repeat(slashes)) === undefined),
			seeded,
		);
	});

	it('refuses any path, naming it and the address to enter instead', () => {
		fc.assert(
			fc.property(origins, fc.array(segment, { minLength: 1, maxLength: 4 }), (origin, segments) => {
				const path = `/${segments.join('/')}`;
				const problem = baseUrlProblem(`${origin}${path}`);
				expect(problem).toContain(`has a path (${new URL(origin + path).pathname})`);
				expect(problem).toContain(`here ${origin}:`);
			}),
			seeded,
		);
	});

	it('refuses the address of an API endpoint, e.g. https://127.0.0.1:4010/api/v1', () => {
		expect(baseUrlProblem('https://127.0.0.1:4010/api/v1')).toBe(
			"The Base URL has a path (/api/v1). Enter only the address of your installation, here https://127.0.0.1:4010: the nodes add the API's paths themselves.",
		);
	});

	it.each(['records.example.com', 'ftp://records.example.com', '', 'https//records.example.com'])(
		'says %j is not a web address, with an example of one',
		(text) => {
			expect(baseUrlProblem(text)).toMatch(/^The Base URL is not a web address\. .*https:\/\/records\.example\.com/);
		},
	);

	it('never repeats a password written into the address', () => {
		expect(baseUrlProblem('https://user:s3cret-pass@records.example.com/api')).not.toContain('s3cret-pass');
	});
});

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

	it("refuses the connection test's Base URL with a path before the token is added", async () => {
		await expect(
			credential.authenticate({ token, allowHttp: false }, { baseURL: 'https://127.0.0.1:4010/api/v1', url: '/api/analysis/reports/r/data/table' }),
		).rejects.toThrow('The Base URL has a path (/api/v1)');
	});

	it("leaves the nodes' whole URLs, which have paths, alone", async () => {
		const authenticated = await credential.authenticate({ token }, { url: 'https://records.example.com/api/3p/import/tasks' });
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

	it('names the codes of a failed connection and what to check, in view under Base URL', () => {
		const hint = property('baseUrl')?.hint;
		expect(hint).toMatch(/ECONNREFUSED\? Check host, port and that the service runs/);
		expect(hint).toMatch(/ENOTFOUND\? The host name/);
		expect(hint).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
		expect(hint).toContain('NODE_EXTRA_CA_CERTS');
	});
});
