/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
import * as http from 'node:http';
import { ok, request, type ClientFailure, type ClientResponse } from './http-client';
import { waitFor } from '../../tooling/lib/proc';
import { RECORD_TYPES, REPORTS, TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from '../integration/fixture';

const sandbox = useSandbox();

const control = async (method: string, path: string, body?: unknown): Promise<ClientResponse> =>
	ok(await request(sandbox.baseUrl, method, `/__sandbox${path}`, { body }));

const addFaults = async (...rules: Array<Record<string, unknown>>): Promise<void> => {
	const response = await control('POST', '/faults', rules);
	expect(response.status).toBe(200);
};

const readReport = (query = '', options: { timeoutMs?: number; agent?: http.Agent } = {}): Promise<ClientResponse | ClientFailure> =>
	request(sandbox.baseUrl, 'GET', `/api/analysis/reports/${REPORTS.bankTransactions}/data/table${query}`, {
		token: TOKENS.full,
		...options,
	});

const importTasks = (names: string[], timeoutMs?: number): Promise<ClientResponse | ClientFailure> =>
	request(sandbox.baseUrl, 'POST', `/api/3p/import/${RECORD_TYPES.tasks}`, {
		token: TOKENS.full,
		body: { data: names.map((name) => ({ Název: name })) },
		timeoutMs,
	});

const taskNames = (): string[] => sandbox.state.getRecords(RECORD_TYPES.tasks).map((record) => String(record.fields['Název']));

const rows = (response: ClientResponse | ClientFailure): Array<Record<string, string>> =>
	(ok(response).json as { rows: Array<Record<string, string>> }).rows;

interface Stats {
	requests: Record<string, { total: number; byStatus: Record<string, number> }>;
	faults: { total: number; byKind: Record<string, number> };
	imports: { requests: number; processedRequests: number; recordsReceived: number; recordsStored: number };
}

const stats = async (): Promise<Stats> => (await control('GET', '/stats')).json as Stats;

describe('fault injection', () => {
	it('limits each token to n requests per window, answering 429 with the seconds left of the window', async () => {
		await addFaults({ route: 'report', rateLimit: { requests: 2, windowSeconds: 3600 } });
		const statuses = [];
		for (let i = 0; i < 3; i++) statuses.push(ok(await readReport()));
		expect(statuses.map((response) => response.status)).toEqual([200, 200, 429]);
		const retryAfter = Number(statuses[2].headers['retry-after']);
		expect(retryAfter).toBeGreaterThanOrEqual(1);
		expect(retryAfter).toBeLessThanOrEqual(3600);
		expect(statuses[2].json).toMatchObject({ error: 'rate_limited' });
		// Another token has its own count.
		const other = ok(
			await request(sandbox.baseUrl, 'GET', `/api/analysis/reports/${REPORTS.bankTransactions}/data/table`, {
				token: TOKENS.analysisAdmin,
			}),
		);
		expect(other.status).toBe(200);
		const [rule] = (await control('GET', '/faults')).json as Array<{ arrivals: Array<{ limited: boolean }> }>;
		expect(rule.arrivals.map((arrival) => arrival.limited)).toEqual([false, false, true, false]);
	});

	it('answers 429 with Retry-After for the next n requests, then recovers', async () => {
		await addFaults({ route: 'report', status: 429, retryAfter: 2, times: 2 });
		const first = ok(await readReport());
		expect(first.status).toBe(429);
		expect(first.headers['retry-after']).toBe('2');
		expect(first.json).toMatchObject({ error: 'rate_limited' });
		expect(ok(await readReport()).status).toBe(429);
		expect(ok(await readReport()).status).toBe(200);
		const counted = await stats();
		expect(counted.requests.report.byStatus).toEqual({ '429': 2, '200': 1 });
		expect(counted.faults.byKind).toEqual({ status_429: 2 });
	});

	it.each([500, 502, 503, 504])('rejects an import with %d before processing: nothing stored', async (status) => {
		await addFaults({ route: 'import', status, times: 1 });
		expect(ok(await importTasks(['X'])).status).toBe(status);
		expect(taskNames()).not.toContain('X');
		expect((await stats()).imports).toMatchObject({ requests: 1, processedRequests: 0, recordsReceived: 1, recordsStored: 0 });
	});

	it('stores an import and still answers 500 with afterProcessing (the service may have processed it)', async () => {
		await addFaults({ route: 'import', status: 500, afterProcessing: true, times: 1 });
		expect(ok(await importTasks(['Uloženo'])).status).toBe(500);
		expect(taskNames()).toContain('Uloženo');
		expect((await stats()).imports).toMatchObject({ processedRequests: 1, recordsStored: 1 });
	});

	it('resets the connection before reading an import: nothing stored', async () => {
		await addFaults({ route: 'import', reset: true, times: 1 });
		const result = await importTasks(['Ztraceno']);
		expect('error' in result).toBe(true);
		expect(taskNames()).not.toContain('Ztraceno');
		expect((await stats()).requests.import.byStatus).toEqual({ reset: 1 });
		expect(ok(await importTasks(['Potom'])).status).toBe(200);
	});

	it('resets the connection after storing an import (the dangerous case)', async () => {
		await addFaults({ route: 'import', reset: true, afterProcessing: true, times: 1 });
		const result = await importTasks(['Uloženo, ale bez odpovědi']);
		expect('error' in result).toBe(true);
		expect(taskNames()).toContain('Uloženo, ale bez odpovědi');
		const log = (await control('GET', '/imports')).json as Array<{ processed: boolean; status: unknown }>;
		expect(log).toEqual([expect.objectContaining({ processed: true, status: 'reset' })]);
	});

	it('adds latency to every matching request', async () => {
		await addFaults({ route: 'report', latencyMs: 150 });
		const started = Date.now();
		expect(ok(await readReport()).status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
		expect(sandbox.state.faults[0].applied).toBe(1);
	});

	it('holds a response longer than the client timeout (slowMs), and an import is still stored', async () => {
		await addFaults({ route: 'report', slowMs: 400, times: 1 }, { route: 'import', slowMs: 400, times: 1 });
		expect(await readReport('', { timeoutMs: 100 })).toMatchObject({ error: 'timeout' });
		expect(ok(await readReport('', { timeoutMs: 1000 })).status).toBe(200);
		expect(await importTasks(['Pomalý'], 100)).toMatchObject({ error: 'timeout' });
		expect(taskNames()).toContain('Pomalý');
		// The held answers go out after the client left: the import is logged then, as reset. Waiting for
		// it keeps it out of the statistics of the tests that follow.
		await waitFor('the held import to be logged', () => (sandbox.state.stats.importLog.length > 0 ? true : undefined), {
			timeoutMs: 5000,
			intervalMs: 10,
		});
		expect(sandbox.state.stats.importLog).toEqual([expect.objectContaining({ keys: ['Pomalý'], status: 'reset' })]);
	});

	it('truncates the JSON body: a complete response whose JSON is cut in half', async () => {
		const whole = ok(await readReport('?limit=10')).text;
		await addFaults({ route: 'report', truncate: true, times: 1 });
		const cut = ok(await readReport('?limit=10'));
		expect(cut.status).toBe(200);
		expect(cut.json).toBeUndefined();
		expect(cut.text).toBe(whole.slice(0, cut.text.length));
		expect(cut.text.length).toBeLessThan(whole.length);
	});

	it('truncates on the connection: full length announced, half sent, connection closed', async () => {
		await addFaults({ route: 'report', truncate: 'connection', times: 1 });
		const result = await readReport('?limit=10');
		expect('error' in result).toBe(true);
		expect(ok(await readReport('?limit=10')).status).toBe(200);
	});

	it('silently caps limit', async () => {
		await addFaults({ route: 'report', limitCap: 30 });
		const page = rows(await readReport('?offset=0&limit=100'));
		expect(page).toHaveLength(30);
		expect(page[0].c1).toBe('TX00000001');
		expect(rows(await readReport('?offset=30&limit=100'))[0].c1).toBe('TX00000031');
	});

	it('refuses a limit above its maximum with 400, and serves one within it', async () => {
		await addFaults({ route: 'report', maxLimit: 100 });
		const refused = ok(await readReport('?offset=0&limit=101'));
		expect(refused.status).toBe(400);
		expect(refused.json).toMatchObject({ error: 'invalid_limit' });
		expect(rows(await readReport('?offset=0&limit=100'))).toHaveLength(100);
	});

	it('caps a page by its size in bytes, serving at least one row however large', async () => {
		const whole = ok(await readReport('?offset=0&limit=20'));
		await addFaults({ route: 'report', pageBytes: 1_000 });
		const capped = ok(await readReport('?offset=0&limit=20'));
		expect(Buffer.byteLength(capped.text)).toBeLessThanOrEqual(1_000);
		expect(rows(capped).length).toBeGreaterThan(1);
		expect(rows(capped)).toEqual(rows(whole).slice(0, rows(capped).length));
		expect(Buffer.byteLength(JSON.stringify({ ...(capped.json as object), rows: rows(whole).slice(0, rows(capped).length + 1) }))).toBeGreaterThan(1_000);

		await addFaults({ route: 'report', pageBytes: 10 });
		expect(rows(await readReport('?offset=3&limit=20')).map((row) => row.c1)).toEqual(['TX00000004']);
	});

	it.each([
		[404, { error: 'offset_out_of_range' }],
		[400, { error: 'invalid_offset' }],
	])('answers an offset past the last row with %i, never offset 0 or a page with rows', async (status, body) => {
		await addFaults({ route: 'report', pastEnd: status });
		const past = ok(await readReport('?offset=10000&limit=5'));
		expect(past.status).toBe(status);
		expect(past.json).toMatchObject({ ...body, message: 'offset 10000 is past the last row' });
		expect(rows(await readReport('?offset=9998&limit=5'))).toHaveLength(2);
	});

	it('answers an offset past the last row with an error object in a 200', async () => {
		await addFaults({ route: 'report', pastEnd: 'errorObject' });
		const past = ok(await readReport('?offset=20000'));
		expect(past.status).toBe(200);
		expect(past.json).toEqual({ error: 'offset_out_of_range', message: 'offset 20000 is past the last row' });
		await control('POST', '/reports', { id: 'empty-report', columns: [{ id: 'c1', name: 'A' }], rows: [] });
		const empty = ok(await request(sandbox.baseUrl, 'GET', '/api/analysis/reports/empty-report/data/table?offset=0', { token: TOKENS.full }));
		expect(empty.json).toEqual({ columns: [{ id: 'c1', name: 'A' }], rows: [] });
	});

	it('refuses rules with a bad pageBytes or pastEnd', async () => {
		for (const rule of [{ route: 'report', pageBytes: 0 }, { route: 'report', pastEnd: 500 }, { route: 'report', pastEnd: 'empty' }]) {
			const response = await request(sandbox.baseUrl, 'POST', '/__sandbox/faults', { body: [rule] });
			expect(ok(response).status).toBe(400);
		}
	});

	it('ignores offset, serving the first page again', async () => {
		await addFaults({ route: 'report', ignoreOffset: true });
		expect(rows(await readReport('?offset=200&limit=5')).map((row) => row.c1)).toEqual(
			rows(await readReport('?offset=0&limit=5')).map((row) => row.c1),
		);
	});

	it('applies a probability deterministically from its seed', async () => {
		const run = async (): Promise<number[]> => {
			sandbox.reset();
			await addFaults({ route: 'report', status: 503, probability: 0.3, seed: 42 });
			const statuses: number[] = [];
			for (let i = 0; i < 60; i++) statuses.push(ok(await readReport('?limit=1')).status);
			return statuses;
		};
		const first = await run();
		expect(await run()).toEqual(first);
		const failures = first.filter((status) => status === 503).length;
		expect(failures).toBeGreaterThan(5);
		expect(failures).toBeLessThan(40);
	});

	it('matches rules by report id, record type id and method; "*" matches every API route', async () => {
		await addFaults({ route: 'report', reportId: REPORTS.costs, status: 503 });
		expect(ok(await readReport()).status).toBe(200);
		expect(
			ok(await request(sandbox.baseUrl, 'GET', `/api/analysis/reports/${REPORTS.costs}/data/table`, { token: TOKENS.full })).status,
		).toBe(503);
		await control('DELETE', '/faults');
		await addFaults({ route: 'import', recordTypeId: RECORD_TYPES.receivedInvoices, status: 500 });
		expect(ok(await importTasks(['Jiný typ'])).status).toBe(200);
		await control('DELETE', '/faults');
		await addFaults({ route: '*', status: 502, times: 2 });
		expect(ok(await readReport()).status).toBe(502);
		expect(ok(await request(sandbox.baseUrl, 'GET', '/clients', { token: TOKENS.full })).status).toBe(502);
		expect(ok(await request(sandbox.baseUrl, 'GET', '/clients', { token: TOKENS.full })).status).toBe(200);
	});

	it('lists and clears rules, and control endpoints are never faulted', async () => {
		await addFaults({ route: '*', status: 500 });
		const listed = (await control('GET', '/faults')).json as Array<{ id: string; route: string }>;
		expect(listed).toEqual([expect.objectContaining({ route: '*', status: 500, applied: 0 })]);
		expect((await control('GET', '/stats')).status).toBe(200);
		await control('DELETE', '/faults');
		expect(ok(await readReport()).status).toBe(200);
	});

	it('keeps a keep-alive client working across injected resets', async () => {
		const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
		try {
			await addFaults({ route: 'report', reset: true, times: 1 });
			expect('error' in (await readReport('', { agent }))).toBe(true);
			for (let i = 0; i < 5; i++) expect(ok(await readReport('?limit=1', { agent })).status).toBe(200);
		} finally {
			agent.destroy();
		}
	});
});

describe('rows inserted while a client pages (insertRows)', () => {
	const FEED = 'feed';
	type Row = Record<string, string>;

	const page = async (offset: number, limit: number, report = FEED): Promise<string[]> => {
		const response = ok(
			await request(sandbox.baseUrl, 'GET', `/api/analysis/reports/${report}/data/table?offset=${offset}&limit=${limit}`, { token: TOKENS.full }),
		);
		expect(response.status).toBe(200);
		return (response.json as { rows: Row[] }).rows.map((row) => row.c1);
	};
	const insertedBy = async (index = 0): Promise<string[]> => {
		const rules = (await control('GET', '/faults')).json as Array<{ inserted?: Row[] }>;
		return (rules[index].inserted ?? []).map((row) => row.c1);
	};
	const ids = (from: number, to: number): string[] =>
		Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => `TX${String(from + (to >= from ? i : -i)).padStart(8, '0')}`);

	beforeEach(async () => {
		await control('POST', '/reports', { id: FEED, generate: 'bank', rows: 20 });
	});

	it('after the first page of a read, puts new bank rows at the top: the next page repeats the rows pushed across its boundary', async () => {
		await addFaults({ route: 'report', reportId: FEED, pageOffset: 0, times: 1, insertRows: { at: 'top', count: 3 } });

		expect(await page(0, 10)).toEqual(ids(1, 10));
		expect(await page(10, 10)).toEqual(ids(8, 17));
		// The new rows are distinct transactions, newest first, and the test can ask which they are.
		expect(await insertedBy()).toEqual(ids(23, 21));
		expect(await page(0, 100)).toEqual([...ids(23, 21), ...ids(1, 20)]);
		expect((await stats()).faults.byKind).toEqual({ insert_rows: 1 });
	});

	it('inserts at the end or before a given row, on the n-th matching request (skip)', async () => {
		await addFaults(
			{ route: 'report', reportId: FEED, skip: 1, times: 1, insertRows: { at: 'end', count: 2 } },
			{ route: 'report', reportId: FEED, pageOffset: 10, times: 1, insertRows: { at: 5, count: 1 } },
		);

		expect(await page(0, 10)).toEqual(ids(1, 10));
		expect(await page(10, 10)).toEqual(ids(11, 20));
		expect(await insertedBy(0)).toEqual(ids(21, 22));
		expect(await insertedBy(1)).toEqual(['TX00000023']);
		expect(await page(0, 100)).toEqual([...ids(1, 5), 'TX00000023', ...ids(6, 22)]);
		// Both rules are used up: further reads change nothing.
		expect(await page(0, 100)).toHaveLength(23);
	});

	it('refuses an insertRows rule that is not for report reads or is malformed', async () => {
		for (const rule of [
			{ route: '*', insertRows: { at: 'top', count: 1 } },
			{ route: 'report', insertRows: { at: 'middle', count: 1 } },
			{ route: 'report', insertRows: { at: 'top', count: 0 } },
			{ route: 'report', insertRows: { at: 'top' } },
			{ route: 'report', skip: -1 },
		]) {
			const response = ok(await request(sandbox.baseUrl, 'POST', '/__sandbox/faults', { body: [rule] }));
			expect([response.status, (response.json as { message: string }).message]).toEqual([400, expect.stringMatching(/insertRows|skip/)]);
		}
	});

	it('fails the read, naming the rule, when it cannot insert (a report of explicit rows, a row index past the end)', async () => {
		await addFaults(
			{ route: 'report', reportId: REPORTS.costs, times: 1, insertRows: { at: 'top', count: 1 } },
			{ route: 'report', reportId: FEED, times: 1, insertRows: { at: 99, count: 1 } },
		);
		const costs = ok(await request(sandbox.baseUrl, 'GET', `/api/analysis/reports/${REPORTS.costs}/data/table`, { token: TOKENS.full }));
		const feed = ok(await request(sandbox.baseUrl, 'GET', `/api/analysis/reports/${FEED}/data/table`, { token: TOKENS.full }));

		expect([costs.status, costs.json]).toEqual([500, expect.objectContaining({ error: 'fault_rule_failed', message: expect.stringMatching(/^Fault rule f\d+ could not insert rows: Report "costs" was not generated/) })]);
		expect([feed.status, feed.json]).toEqual([500, expect.objectContaining({ message: expect.stringContaining('an index from 0 to 20; got 99') })]);
		expect(await page(0, 100)).toEqual(ids(1, 20));
	});
});

describe('import outcomes: a gateway\'s answers and refused records (importOutcomeFaults.ts)', () => {
	it('htmlPage answers 200 with a sign-in page: before processing nothing is stored, after it the records are', async () => {
		await addFaults({ route: 'import', htmlPage: true, times: 1 }, { route: 'import', htmlPage: true, afterProcessing: true, skip: 1, times: 1 });
		const before = ok(await importTasks(['Před']));
		const after = ok(await importTasks(['Po']));

		for (const response of [before, after]) {
			expect(response.status).toBe(200);
			expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
			expect(response.text).toMatch(/^<!DOCTYPE html>/);
		}
		expect(taskNames()).not.toContain('Před');
		expect(taskNames()).toContain('Po');
		expect((await stats()).faults.byKind).toEqual({ html_page: 1, html_page_after_processing: 1 });
	});

	it('refuseRecords refuses the listed records of a request and stores the others; skip lets requests through first', async () => {
		await addFaults({ route: 'import', refuseRecords: [1], skip: 1, times: 1 });
		ok(await importTasks(['A0', 'A1']));
		const response = ok(await importTasks(['B0', 'B1', 'B2']));

		expect(response.json).toEqual({
			status: 'partial',
			created: 2,
			edited: 0,
			results: [
				{ index: 0, status: 'created', id: expect.any(String) },
				{ index: 1, status: 'error', message: 'Record 1 was refused (fault injected by the sandbox)' },
				{ index: 2, status: 'created', id: expect.any(String) },
			],
		});
		expect(taskNames()).toEqual(expect.arrayContaining(['A0', 'A1', 'B0', 'B2']));
		expect(taskNames()).not.toContain('B1');
	});

	it('answerShape answers in the shape of another back end, telling what it stored', async () => {
		await addFaults({ route: 'import', answerShape: 'errorsFromOne', refuseRecords: [2], times: 1 }, { route: 'import', answerShape: 'jsonAsHtml', skip: 1, times: 1 });
		const numberedFromOne = ok(await importTasks(['C0', 'C1', 'C2']));
		const labelledHtml = ok(await importTasks(['D0']));

		expect(numberedFromOne.json).toEqual({
			status: 'partial',
			imported: 2,
			failed: 1,
			errors: [{ index: 3, message: 'Record 2 was refused (fault injected by the sandbox)' }],
		});
		expect(labelledHtml.headers['content-type']).toBe('text/html; charset=UTF-8');
		expect(JSON.parse(labelledHtml.text)).toMatchObject({ status: 'ok', created: 1 });
		expect(taskNames()).toEqual(expect.arrayContaining(['C0', 'C1', 'D0']));
		expect(taskNames()).not.toContain('C2');
		expect(sandbox.state.stats.importLog[0]).toMatchObject({ keys: ['C0', 'C1'], sent: ['C0', 'C1', 'C2'] });
	});

	it('refuseBatch stores nothing and says at the top of a 200 that the import failed', async () => {
		await addFaults({ route: 'import', refuseBatch: 'statusError', times: 1 });
		const response = ok(await importTasks(['E0', 'E1']));

		expect(response.status).toBe(200);
		expect(response.json).toEqual({ status: 'error', message: `Record type "${RECORD_TYPES.tasks}" is locked for import (fault injected by the sandbox)` });
		expect(taskNames()).not.toContain('E0');
		expect((await stats()).faults.byKind).toEqual({ refuse_batch_statusError: 1 });
	});

	it('refuses unknown or malformed options', async () => {
		for (const rule of [
			{ htmlPage: 'yes' },
			{ htmlPage: true, status: 500 },
			{ refuseRecords: [-1] },
			{ refuseProbability: 2 },
			{ skip: 1.5 },
			{ answerShape: 'xml' },
			{ refuseBatch: true },
		]) {
			const response = await request(sandbox.baseUrl, 'POST', '/__sandbox/faults', { body: { route: 'import', ...rule } });
			expect(ok(response).status).toBe(400);
		}
	});
});

describe('guesses: behaviours the guide does not define (guesses.ts)', () => {
	it('answers an import with its results by guess, with an empty 200 under the guide alone', async () => {
		expect(ok(await importTasks(['G1'])).json).toMatchObject({ status: 'ok', created: 1 });
		expect((await control('POST', '/guesses', '"guide"')).json).toEqual({ tooLargeLimitStatus: 500, importAnswer: 'empty', rateLimitHeaders: 'none' });
		const response = ok(await importTasks(['G2']));
		expect([response.status, response.text]).toEqual([200, '']);
		expect(taskNames()).toContain('G2');
	});

	it('refuses a too-large limit with 400 by guess, 500 under the guide alone', async () => {
		await addFaults({ route: 'report', maxLimit: 100 });
		expect(ok(await readReport('?limit=101')).status).toBe(400);
		await control('POST', '/guesses', { tooLargeLimitStatus: 500 });
		expect(ok(await readReport('?limit=101')).status).toBe(500);
	});

	it('sends Retry-After with a rate limit\'s 429 by guess, none under the guide alone', async () => {
		await addFaults({ route: 'report', rateLimit: { requests: 1, windowSeconds: 3600 } });
		ok(await readReport());
		expect(ok(await readReport()).headers['retry-after']).toBeDefined();
		await control('POST', '/guesses', { rateLimitHeaders: 'none' });
		const refused = ok(await readReport());
		expect(refused.status).toBe(429);
		expect(refused.headers['retry-after']).toBeUndefined();
	});

	it('goes back to the guesses on reset, and refuses unknown settings', async () => {
		await control('POST', '/guesses', '"guide"');
		sandbox.reset();
		expect((await control('GET', '/guesses')).json).toEqual({ tooLargeLimitStatus: 400, importAnswer: 'results', rateLimitHeaders: 'retryAfter' });
		const response = await request(sandbox.baseUrl, 'POST', '/__sandbox/guesses', { body: { importAnswer: 'xml' } });
		expect(ok(response).status).toBe(400);
	});
});
