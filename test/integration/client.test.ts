/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import { Records } from '../../nodes/Records/Records.node';
import { runNode } from '../../tooling/harness/n8nCoreHarness';
import { addFaults } from '../../tooling/sandbox/control';
import { SEED_CLIENTS, TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const sandbox = useSandbox({ bankRows: 10 });
const credentials = sandbox.credentials(TOKENS.full);

const clientRequests = () => sandbox.state.stats.requests.clients?.total ?? 0;

function getMany(parameters: Record<string, unknown>, extra: Partial<Parameters<typeof runNode>[0]> = {}) {
	return runNode({
		nodeType: new Records(),
		parameters: { resource: 'api', operation: 'listClients', ...parameters },
		credentials,
		...extra,
	});
}

function expectNoToken(value: unknown, token = credentials.token) {
	expect(JSON.stringify(value)).not.toContain(token);
}

describe('Client → Get Many against the sandbox', () => {
	it('filters by status and returns every matching client with its fields', async () => {
		const { items, error } = await getMany({ status: 'active', returnAll: true });

		expect(error).toBeUndefined();
		const active = SEED_CLIENTS.filter((client) => client.status === 'active');
		expect(active.length).toBeGreaterThan(5);
		expect(items.map((item) => item.json)).toEqual(
			active.map(({ id, name, revenue }) => ({ id, name, revenue })),
		);
		expect(items.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
	});

	it('pages through all clients with offset/limit until total, each client once', async () => {
		const { items } = await getMany({ returnAll: true, options: { pageSize: 10 } });

		expect(items.map((item) => item.json.id)).toEqual(SEED_CLIENTS.map((client) => client.id));
		// 25 clients in pages of 10: the third page reaches `total`, no fourth request.
		expect(clientRequests()).toBe(3);
	});

	it('stops at Limit, asking only for what it needs', async () => {
		const { items } = await getMany({ returnAll: false, limit: 7, options: { pageSize: 5 } });

		expect(items.map((item) => item.json.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
		expect(clientRequests()).toBe(2);
	});

	it('returns what there is when Limit exceeds the total', async () => {
		const { items } = await getMany({ status: 'prospect', returnAll: false, limit: 50 });

		const prospects = SEED_CLIENTS.filter((client) => client.status === 'prospect');
		expect(items.map((item) => item.json.id)).toEqual(prospects.map((client) => client.id));
		expect(clientRequests()).toBe(1);
	});

	it('returns nothing for a status no client has', async () => {
		const { items, error } = await getMany({ status: 'archived', returnAll: true });
		expect(error).toBeUndefined();
		expect(items).toEqual([]);
	});

	it('lists once per input item, pairing each client to the item it was listed for', async () => {
		const { items } = await getMany(
			{ status: '={{ $json.status }}', returnAll: true },
			{ input: [{ status: 'inactive' }, { status: 'prospect' }] },
		);

		const byItem = (index: number) =>
			items.filter((item) => (item.pairedItem as { item: number }).item === index).map((item) => item.json.id);
		expect(byItem(0)).toEqual(SEED_CLIENTS.filter((c) => c.status === 'inactive').map((c) => c.id));
		expect(byItem(1)).toEqual(SEED_CLIENTS.filter((c) => c.status === 'prospect').map((c) => c.id));
	});

	it('reports a refused token without revealing it', async () => {
		const expired = { ...credentials, token: TOKENS.expired };
		const { items, error } = await getMany({ returnAll: true }, { credentials: expired });

		expect(items).toEqual([]);
		expect(error?.message).toBe('The service refused the API token (401)');
		expect(error?.description).toContain('Settings → Import → API keys for import');
		expectNoToken([error?.message, error?.description, error], TOKENS.expired);
	});

	it('with Continue On Fail, pairs an error item to the input whose Limit is invalid', async () => {
		const { items, error } = await getMany(
			{ returnAll: false, limit: '={{ $json.limit }}' },
			{ input: [{ limit: 2 }, { limit: 0 }, { limit: 1 }], continueOnFail: true },
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => [item.pairedItem, item.json.id ?? item.json.error])).toEqual([
			[{ item: 0 }, 1],
			[{ item: 0 }, 2],
			[{ item: 1 }, '"Limit" must be a whole number from 1 up (got 0) [item 1]'],
			[{ item: 2 }, 1],
		]);
	});

	it('fails the run on a service error when Continue On Fail is off', async () => {
		await addFaults(sandbox, { route: 'clients', status: 500 });
		const { items, error } = await getMany({ returnAll: true, options: { retryAttempts: 1 } });

		expect(items).toEqual([]);
		expect(error?.message).toBe(
			'The service failed while processing the request for the client list (500) (after 2 attempts)',
		);
		// A GET is safe to repeat: exactly the one retry asked for.
		expect(clientRequests()).toBe(2);
	});
});

/** A service that answers the client list its own way, for paging behaviour the sandbox does not have. */
async function withClientService(
	answer: (offset: number, limit: number) => unknown,
	run: (baseUrl: string) => Promise<void>,
): Promise<string[]> {
	const urls: string[] = [];
	const server = http.createServer((req, res) => {
		urls.push(req.url ?? '');
		const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
		const body = JSON.stringify(answer(Number(query.get('offset')), Number(query.get('limit'))));
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	try {
		await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
	} finally {
		await new Promise<void>((resolve) => server.close(() => resolve()));
	}
	return urls;
}

const CLIENTS = SEED_CLIENTS.map(({ id, name, revenue }) => ({ id, name, revenue }));

describe('Client → Get Many against services that page differently', () => {
	it('ends Return All after one request when the service ignores paging and sends everything', async () => {
		const urls = await withClientService(
			() => ({ data: CLIENTS, total: CLIENTS.length }),
			async (baseUrl) => {
				const { items } = await getMany(
					{ returnAll: true, options: { pageSize: 10 } },
					{ credentials: { ...credentials, baseUrl } },
				);
				expect(items.map((item) => item.json.id)).toEqual(CLIENTS.map((client) => client.id));
			},
		);
		expect(urls).toEqual(['/api/v1/clients?offset=0&limit=10']);
	});

	it('cuts to Limit when the service ignores the limit parameter', async () => {
		await withClientService(
			() => ({ data: CLIENTS, total: CLIENTS.length }),
			async (baseUrl) => {
				const { items } = await getMany({ returnAll: false, limit: 4 }, { credentials: { ...credentials, baseUrl } });
				expect(items.map((item) => item.json.id)).toEqual([1, 2, 3, 4]);
			},
		);
	});

	it('stops on an empty page when the service sends no total', async () => {
		const urls = await withClientService(
			(offset, limit) => ({ data: CLIENTS.slice(offset, offset + limit) }),
			async (baseUrl) => {
				const { items } = await getMany(
					{ returnAll: true, options: { pageSize: 5 } },
					{ credentials: { ...credentials, baseUrl } },
				);
				expect(items.map((item) => item.json.id)).toEqual(CLIENTS.map((client) => client.id));
			},
		);
		// Five full pages, then the empty sixth one ends it.
		expect(urls).toHaveLength(6);
	});

	it('refuses to loop when the service ignores offset but honours limit', async () => {
		await withClientService(
			(_offset, limit) => ({ data: CLIENTS.slice(0, limit), total: CLIENTS.length }),
			async (baseUrl) => {
				const { items, error } = await getMany(
					{ returnAll: true, options: { pageSize: 10 } },
					{ credentials: { ...credentials, baseUrl } },
				);
				expect(items).toEqual([]);
				expect(error?.message).toBe(
					'The service sent clients again that it had already sent (at offset 10): it seems to ignore the offset query parameter',
				);
				expect(error?.description).toBe(
					'Set Options → Page Size to at least the number of clients (25), so that they all arrive in one response.',
				);
			},
		);
	});

	it('says so when the answer has no list of clients', async () => {
		await withClientService(
			() => ({ clients: CLIENTS }),
			async (baseUrl) => {
				const { error } = await getMany({ returnAll: true }, { credentials: { ...credentials, baseUrl } });
				expect(error?.message).toBe('The service answered the client list without a "data" array of clients');
			},
		);
	});
});
