/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { Records } from '../../nodes/Records/Records.node';
import { runNode } from '../../tooling/harness/n8nCoreHarness';
import { addFaults, control } from '../../tooling/sandbox/control';
import { RECORD_TYPES, TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const sandbox = useSandbox({ bankRows: 10 });
const credentials = sandbox.credentials(TOKENS.full);

const TASKS = RECORD_TYPES.tasks;
const recordRequests = () => sandbox.state.stats.requests.records?.total ?? 0;
const allRequests = () =>
	Object.values(sandbox.state.stats.requests).reduce((sum, entry) => sum + entry.total, 0);
const taskNames = () => sandbox.state.getRecords(TASKS).map((record) => record.fields['Název']);

function call(parameters: Record<string, unknown>, extra: Partial<Parameters<typeof runNode>[0]> = {}) {
	return runNode({
		nodeType: new Records(),
		parameters: { resource: 'api', operation: 'request', method: 'GET', ...parameters },
		credentials,
		...extra,
	});
}

function expectNoToken(value: unknown, token: string = credentials.token) {
	expect(JSON.stringify(value)).not.toContain(token);
}

const addFault = (rule: Record<string, unknown>) => addFaults(sandbox, rule);

/** A plain HTTP service for answers the sandbox never gives; records what reached it. */
async function startService(
	handle: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ baseUrl: string; seen: http.IncomingHttpHeaders[]; close: () => Promise<void> }> {
	const seen: http.IncomingHttpHeaders[] = [];
	const server = http.createServer((req, res) => {
		seen.push(req.headers);
		handle(req, res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		seen,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

describe('Custom API Call: CRUD over records', () => {
	it('GET lists the records of a register as one item holding the response', async () => {
		const { items, error } = await call({ path: `/api/v1/records/${TASKS}` });

		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.total).toBe(2);
		expect((items[0].json.data as Array<{ fields: Record<string, string> }>).map((r) => r.fields['Název'])).toEqual(
			taskNames(),
		);
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('splits the array in a field of the response into one item per record', async () => {
		const { items } = await call({
			path: `/api/v1/records/${TASKS}`,
			options: { splitIntoItems: true, arrayField: 'data' },
		});

		expect(items.map((item) => (item.json.fields as Record<string, string>)['Název'])).toEqual(taskNames());
		expect(items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
	});

	it('sends the query parameters', async () => {
		const { items } = await call({
			path: `/api/v1/records/${TASKS}`,
			queryParameters: { parameter: [{ name: 'offset', value: '1' }, { name: 'limit', value: '1' }] },
			options: { splitIntoItems: true, arrayField: 'data' },
		});

		expect(items.map((item) => (item.json.fields as Record<string, string>)['Název'])).toEqual([taskNames()[1]]);
	});

	it('POST creates a record in a register from the JSON body, with a path typed with Unicode', async () => {
		await control(sandbox, '/record-types', { id: 'úkoly-vlastní', fields: ['Název', 'Poznámka'], keyField: 'Název' });
		const body = { Název: 'Nový úkol', Poznámka: 'vytvořeno přes API' };
		const { items, error } = await call({
			method: 'POST',
			path: '/api/v1/records/úkoly-vlastní',
			jsonBody: JSON.stringify(body),
			options: { fullResponse: true },
		});

		expect(error).toBeUndefined();
		expect(items[0].json.statusCode).toBe(201);
		expect(String((items[0].json.headers as Record<string, string>)['content-type'])).toContain('application/json');
		expect((items[0].json.body as { fields: unknown }).fields).toEqual(body);
		expect(sandbox.state.getRecords('úkoly-vlastní').map((record) => record.fields)).toEqual([body]);
	});

	it('PUT changes a record and DELETE removes it', async () => {
		const [first, second] = sandbox.state.getRecords(TASKS);
		const changed = { Název: first.fields['Název'], Zadal: 'Petr Svoboda', Zpracovatel: 'Administrátor' };

		const put = await call({ method: 'PUT', path: `/api/v1/records/${TASKS}/${first.id}`, jsonBody: changed });
		expect(put.error).toBeUndefined();
		expect(put.items[0].json.fields).toEqual(changed);
		expect(sandbox.state.getRecords(TASKS)[0].fields).toEqual(changed);

		const del = await call({ method: 'DELETE', path: `/api/v1/records/${TASKS}/${second.id}` });
		expect(del.items[0].json).toEqual({ id: second.id, deleted: true });
		expect(sandbox.state.getRecords(TASKS).map((record) => record.id)).toEqual([first.id]);
	});

});

describe('Custom API Call: errors', () => {
	it('401: says the token was refused, never showing it', async () => {
		const { error } = await call({ path: `/api/v1/records/${TASKS}` }, { credentials: { ...credentials, token: TOKENS.expired } });

		expect(error?.message).toBe('The service refused the API token (401)');
		expectNoToken([error, error?.message, error?.description], TOKENS.expired);
	});

	it("404: names the path and passes on the service's reason", async () => {
		const { error } = await call({ path: '/api/v1/records/neexistuje/5' });

		expect(error?.message).toBe('Not found (404): GET /api/v1/records/neexistuje/5');
		expect(error?.description).toBe('Check the path and the IDs in it. The service said: Record type "neexistuje" does not exist');
	});

	it('500: a GET is retried as asked, then fails with the status', async () => {
		await addFault({ route: 'records', status: 500 });
		const { error } = await call({ path: `/api/v1/records/${TASKS}`, options: { retryAttempts: 2 } });

		expect(error?.message).toBe(
			`The service failed while processing the request for the GET /api/v1/records/${TASKS} (500) (after 3 attempts)`,
		);
		expect(recordRequests()).toBe(3);
	});

	it('500 on POST: not repeated, the record is stored once', async () => {
		await addFault({ route: 'records', method: 'POST', status: 500, afterProcessing: true, times: 1 });
		const { error } = await call({
			method: 'POST',
			path: `/api/v1/records/${TASKS}`,
			jsonBody: { Název: 'Jednou', Zadal: 'A', Zpracovatel: 'B' },
		});

		expect(error?.description).toContain('may already have processed this request, so it was not sent again');
		expect(recordRequests()).toBe(1);
		expect(taskNames().filter((name) => name === 'Jednou')).toHaveLength(1);
	});

	it('405 for a method the path does not support, with what to use instead', async () => {
		const { error } = await call({ method: 'PATCH', path: `/api/v1/records/${TASKS}/1`, jsonBody: {} });

		expect(error?.message).toBe(`The service rejected the request for the PATCH /api/v1/records/${TASKS}/1 (405)`);
		expect(error?.description).toBe('Use GET, PUT, DELETE on this path');
	});

	it.each([
		['an absolute URL to another host', 'https://attacker.example/collect', 'is an absolute URL'],
		['a protocol-relative URL', '//attacker.example/collect', 'which names another host'],
		['a path without a leading slash', 'api/v1/records/ukoly', 'must start with "/"'],
	])('refuses %s without sending anything', async (_label, path, message) => {
		const { error } = await call({ path });

		expect(error?.message).toContain(message);
		expect(error?.message).toMatch(/\[item 0\]$/);
		expect(allRequests()).toBe(0);
	});

	it('never sends the token to a host named in the path', async () => {
		const other = await startService((_req, res) => res.end('{}'));
		try {
			const { error } = await call({ path: `${other.baseUrl}/collect` });
			expect(error?.message).toContain('is an absolute URL');
			expect(other.seen).toEqual([]);
		} finally {
			await other.close();
		}
	});

	it('does not follow a redirect, so the token never reaches the host it points to', async () => {
		const other = await startService((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end('{"reached":"other host"}');
		});
		const service = await startService((_req, res) => {
			res.writeHead(302, { location: `${other.baseUrl}/collect` });
			res.end();
		});
		try {
			const { error } = await call({ path: '/moved' }, { credentials: { ...credentials, baseUrl: service.baseUrl } });

			expect(service.seen[0]?.authorization).toBe(`Bearer ${credentials.token}`);
			expect(other.seen).toEqual([]);
			expect(error?.message).toBe('The service redirected the request for the GET /moved to another address (302)');
			expect(error?.description).toContain(`It points to: ${other.baseUrl}/collect.`);
		} finally {
			await Promise.all([service.close(), other.close()]);
		}
	});

	it('refuses a JSON Body that is not valid JSON, naming the item', async () => {
		const { error } = await call({ method: 'POST', path: `/api/v1/records/${TASKS}`, jsonBody: '{"Název": ' });

		expect(error?.message).toMatch(/^"JSON Body" is not valid JSON: .* \[item 0\]$/);
		expect(allRequests()).toBe(0);
	});

	it('says when Split Into Items finds no array', async () => {
		const { error } = await call({
			path: `/api/v1/records/${TASKS}`,
			options: { splitIntoItems: true, arrayField: 'rows' },
		});

		expect(error?.message).toBe('The response to item 0 has no array in the field "rows", so it cannot be split into items');
	});
});

describe('Custom API Call: responses that are not JSON', () => {
	it('outputs a text answer under "data"', async () => {
		const service = await startService((_req, res) => {
			res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
			res.end('Import přijat: 3 záznamy');
		});
		try {
			const { items, error } = await call({ path: '/status' }, { credentials: { ...credentials, baseUrl: service.baseUrl } });
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json)).toEqual([{ data: 'Import přijat: 3 záznamy' }]);
		} finally {
			await service.close();
		}
	});

	it('HEAD outputs an empty item, or the status and headers with Full Response', async () => {
		const service = await startService((_req, res) => {
			res.writeHead(200, { 'content-type': 'application/json', 'x-total-count': '42' });
			res.end();
		});
		try {
			const parameters = { method: 'HEAD', path: '/api/v1/records/x' };
			const onService = { credentials: { ...credentials, baseUrl: service.baseUrl } };
			const plain = await call(parameters, onService);
			expect(plain.items.map((item) => item.json)).toEqual([{}]);

			const full = await call({ ...parameters, options: { fullResponse: true } }, onService);
			expect(full.items[0].json).toMatchObject({ statusCode: 200, headers: { 'x-total-count': '42' } });
			expect(service.seen.map((headers) => headers.authorization)).toEqual([
				`Bearer ${credentials.token}`,
				`Bearer ${credentials.token}`,
			]);
		} finally {
			await service.close();
		}
	});

	it('outputs an empty item for 204 No Content', async () => {
		const service = await startService((_req, res) => {
			res.writeHead(204);
			res.end();
		});
		try {
			const { items, error } = await call(
				{ method: 'DELETE', path: '/api/v1/records/x/1' },
				{ credentials: { ...credentials, baseUrl: service.baseUrl } },
			);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json)).toEqual([{}]);
		} finally {
			await service.close();
		}
	});
});

describe('Custom API Call: Continue On Fail', () => {
	it('pairs each output, error items included, to its input item', async () => {
		const { items, error } = await call(
			{ path: '={{ $json.path }}' },
			{
				input: [
					{ path: `/api/v1/records/${TASKS}` },
					{ path: '/api/v1/records/neexistuje' },
					{ path: 'https://attacker.example/' },
					{ path: `/api/v1/records/${TASKS}` },
				],
				continueOnFail: true,
			},
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => [item.pairedItem, item.json.total ?? item.json.error])).toEqual([
			[{ item: 0 }, 2],
			[{ item: 1 }, 'Not found (404): GET /api/v1/records/neexistuje'],
			[{ item: 2 }, expect.stringContaining('is an absolute URL')],
			[{ item: 3 }, 2],
		]);
		expect(items[1].json.description).toContain('Record type "neexistuje" does not exist');
		expectNoToken(items);
	});
});
