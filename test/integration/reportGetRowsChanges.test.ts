/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * Report → Get Rows on a report that changes while it is read, through n8n's execution engine over
 * real HTTP. The service is a small report server of this test, whose rows change between two
 * given requests, so that every case is exact: offset paging then reads a row twice (a row added
 * above the page being read) or skips one (a row removed). With "Output the Rows Read" the same
 * cases show the row read twice or skipped.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { runNode, type RunNodeResult } from '../../tooling/harness/n8nCoreHarness';

jest.setTimeout(60_000);

interface ChangingReport {
	rows: Array<{ c1: string }>;
	/** Called before each request is answered, with its number (1-based): may change the rows. */
	beforeRequest: (request: number) => void;
	requests: Array<{ offset: number; limit: number }>;
	/** A hard maximum of `limit`, refused with 400 above it. */
	maxLimit?: number;
	/** Answer an offset past the last row (not 0) with 404 instead of an empty page. */
	pastEnd404?: boolean;
}

let server: http.Server;
let report: ChangingReport;

beforeAll(async () => {
	server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://localhost');
		const offset = Number(url.searchParams.get('offset') ?? 0);
		const limit = Number(url.searchParams.get('limit') ?? 100);
		report.requests.push({ offset, limit });
		if (report.maxLimit !== undefined && limit > report.maxLimit) {
			res.writeHead(400, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: 'invalid_limit', message: `limit must be at most ${report.maxLimit}` }));
			return;
		}
		report.beforeRequest(report.requests.length);
		if (report.pastEnd404 === true && offset > 0 && offset >= report.rows.length) {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: 'offset_out_of_range', message: `offset ${offset} is past the last row` }));
			return;
		}
		const body = JSON.stringify({ columns: [{ id: 'c1', name: 'ID' }], rows: report.rows.slice(offset, offset + limit) });
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));

let added = 0;
/** A report of `count` rows R1…Rcount that changes by `change` before the requests `when` picks. */
function useReport(count: number, when: (request: number) => boolean, change: (rows: ChangingReport['rows']) => void) {
	report = {
		rows: Array.from({ length: count }, (_, i) => ({ c1: `R${i + 1}` })),
		beforeRequest: (request) => {
			if (when(request)) change(report.rows);
		},
		requests: [],
	};
}
const addAtTop = (rows: ChangingReport['rows']) => rows.unshift({ c1: `N${++added}` });
const removeFirst = (rows: ChangingReport['rows']) => void rows.shift();

function getRows(options: IDataObject = {}, parameters: IDataObject = {}): Promise<RunNodeResult> {
	return runNode({
		nodeType: new Records(),
		parameters: {
			resource: 'report',
			operation: 'getRows',
			report: { __rl: true, mode: 'id', value: 'zmeny' },
			returnAll: true,
			options: { pageSize: 10, ...options },
			...parameters,
		},
		credentials: { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 'rk_test_token_changes', allowHttp: true },
	});
}

const ids = (result: RunNodeResult) => result.items.map((item) => item.json.ID);
const currentIds = () => report.rows.map((row) => row.c1);

describe('Get Rows on a report that changes while it is read', () => {
	it('reads a report that stands still once: each page after the first from two rows earlier, never above the page size', async () => {
		useReport(35, () => false, addAtTop);
		report.maxLimit = 10;
		const result = await getRows();

		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual(currentIds());
		// 10 rows, then 8 new ones a page (each page repeats the two rows before it), then the short
		// page, and its end in two steps: nothing after row 35, then rows 34–35 still in place.
		expect(report.requests).toEqual([
			{ offset: 0, limit: 10 },
			{ offset: 8, limit: 10 },
			{ offset: 16, limit: 10 },
			{ offset: 24, limit: 10 },
			{ offset: 32, limit: 10 },
			{ offset: 35, limit: 3 },
			{ offset: 33, limit: 2 },
		]);
	});

	it.each([
		['added at the top', 35, 3, addAtTop],
		['removed at the top', 35, 3, removeFirst],
		['added after row 120, below the first 100, above the rows not read yet', 250, 14, (rows: ChangingReport['rows']) => rows.splice(120, 0, { c1: 'N-middle' })],
		['removed at row 120', 250, 14, (rows: ChangingReport['rows']) => void rows.splice(119, 1)],
		['removed just before the end is confirmed', 35, 5, removeFirst],
	])('a row %s between two requests: reads again, and outputs every row once', async (_label, count, request, change) => {
		useReport(count, (n) => n === request, change);
		const result = await getRows();

		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual(currentIds());
		expect(new Set(ids(result)).size).toBe(ids(result).length);
	});

	it('a transaction and its fee added at the top, every fee the same row: reads again, never a read shifted by two rows (finding 3.1)', async () => {
		const fee = '4.3.2026 -2,00 Poplatek za transakci';
		// Newest first: each transaction followed by its fee, and a day's fees are identical rows.
		report = {
			rows: Array.from({ length: 40 }, (_, i) => [{ c1: `T${40 - i}` }, { c1: fee }]).flat(),
			beforeRequest: (request) => {
				if (request === 2) report.rows.unshift({ c1: 'T41' }, { c1: fee });
			},
			requests: [],
		};
		const result = await getRows();

		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual(currentIds());
		expect(ids(result).filter((id) => id !== fee)).toEqual(Array.from({ length: 41 }, (_, i) => `T${41 - i}`));
	});

	it('rows removed at the end while read, on a service answering past the end with 404: reads again (finding 2.3)', async () => {
		useReport(35, (request) => request === 3, (rows) => void rows.splice(15));
		report.pastEnd404 = true;
		const result = await getRows();

		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual(currentIds());
	});

	it('a row added after the last full page is simply read: nothing was skipped', async () => {
		useReport(35, (request) => request === 5, (rows) => rows.push({ c1: 'R36' }));
		const result = await getRows();

		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual(currentIds());
		expect(ids(result)).toHaveLength(36);
	});

	it('with a Limit, reads again too', async () => {
		useReport(35, (request) => request === 2, removeFirst);
		const result = await getRows({}, { returnAll: false, limit: 15 });

		expect(result.error).toBeUndefined();
		expect(ids(result)).toEqual(currentIds().slice(0, 15));
	});

	it('a report that changes during every read fails after 3 reads, saying what changed and what to do', async () => {
		useReport(35, (request) => request % 3 === 0, addAtTop);
		const result = await getRows();

		expect(result.items).toEqual([]);
		expect(result.error?.message).toBe(
			'Report "zmeny" changed during each of 3 reads: the rows read would not be one state of the report',
		);
		expect(result.error?.description).toMatch(/^In the last read, row \d+ was no longer the one read last: rows were added or removed/);
		expect(result.error?.description).toContain('"Output the Rows Read"');
	});

	it('"Output the Rows Read" accepts such a read, unchecked: here a row comes twice', async () => {
		useReport(35, (request) => request === 3, addAtTop);
		const result = await getRows({ changedReport: 'accept' });

		expect(result.error).toBeUndefined();
		expect(ids(result).filter((id) => id === 'R20')).toHaveLength(2);
		expect(report.requests).toHaveLength(5);
	});
});
