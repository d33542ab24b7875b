/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside
	n8n (`process`) */
import fc from 'fast-check';

import { ok, request } from './http-client';
import { ReportState, VirtualBankReport, type RowPosition } from '../../tooling/sandbox/reportState';
import { BANK_COLUMNS, generateBankRows, TOKENS, USERS } from '../../tooling/sandbox/server';
import { useSandbox } from '../integration/fixture';

const sandbox = useSandbox();

type Row = Record<string, string>;

const control = async (path: string, body: unknown) => ok(await request(sandbox.baseUrl, 'POST', `/__sandbox${path}`, { body }));

const read = async (report: string, offset: number, limit: number, token: string = TOKENS.analysisAdmin) =>
	ok(await request(sandbox.baseUrl, 'GET', `/api/analysis/reports/${report}/data/table?offset=${offset}&limit=${limit}`, { token }));

const ids = async (report: string, offset: number, limit: number): Promise<string[]> =>
	((await read(report, offset, limit)).json as { rows: Row[] }).rows.map((row) => row.c1);

describe('a virtual bank report (rows computed from their numbers on demand)', () => {
	it('serves a 10,000,000-row report without holding its rows, and adds a million rows at the top as cheaply', async () => {
		const heapBefore = process.memoryUsage().heapUsed;
		const defined = await control('/reports', { id: 'bank-10m', generate: 'bank', rows: 10_000_000, virtual: true });
		await control('/reports/bank-10m/rows', { generate: 1_000_000, at: 'top' });
		await control('/reports/bank-10m/rows', { generate: 2 });

		expect(defined.json).toMatchObject({ id: 'bank-10m', rowCount: 10_000_000, virtual: true });
		expect(await ids('bank-10m', 0, 2)).toEqual(['TX11000000', 'TX10999999']);
		expect(await ids('bank-10m', 999_999, 2)).toEqual(['TX10000001', 'TX00000001']);
		expect(await ids('bank-10m', 10_999_999, 5)).toEqual(['TX10000000', 'TX11000001', 'TX11000002']);
		expect(await ids('bank-10m', 11_000_002, 5)).toEqual([]);
		// The same rows a generated report of stored rows holds: row n depends only on n.
		const page = ((await read('bank-10m', 1_000_000, 3)).json as { columns: unknown; rows: Row[] });
		expect(page).toEqual({ columns: BANK_COLUMNS, rows: generateBankRows(3) });
		// 11 million row objects would take gigabytes; the virtual report takes a few counters.
		expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(100 * 1024 * 1024);
	});

	it('takes rows inserted while a client pages (the insertRows fault), as a stored report does', async () => {
		await control('/reports', { id: 'big', generate: 'bank', rows: 1000, virtual: true });
		await control('/faults', [{ route: 'report', reportId: 'big', pageOffset: 0, times: 1, insertRows: { at: 'top', count: 2 } }]);

		expect(await ids('big', 0, 3)).toEqual(['TX00000001', 'TX00000002', 'TX00000003']);
		expect(await ids('big', 3, 3)).toEqual(['TX00000002', 'TX00000003', 'TX00000004']);
		expect(await ids('big', 0, 3)).toEqual(['TX00001002', 'TX00001001', 'TX00000001']);
	});

	it('refuses what it cannot serve: explicit rows, and a user whose data rights filter its rows', async () => {
		await control('/reports', { id: 'big', generate: 'bank', rows: 10, virtual: true });
		const explicit = await control('/reports/big/rows', { rows: [{ c1: 'X' }] });
		const limited = await read('big', 0, 10, TOKENS.analysisLimited);
		const notGenerated = await control('/reports', { id: 'x', virtual: true, columns: [{ id: 'a', name: 'A' }], rows: [] });

		expect([explicit.status, explicit.json]).toEqual([400, expect.objectContaining({ message: 'Report "big" is virtual: add rows with {"generate": n}' })]);
		expect([limited.status, limited.json]).toEqual([501, expect.objectContaining({ message: expect.stringContaining('serves only users who may see every row') })]);
		expect(notGenerated.status).toBe(400);
	});
});

describe('VirtualBankReport against a report of stored rows (model test)', () => {
	const admin = USERS.admin;
	const position = fc.oneof(fc.constant<RowPosition>('top'), fc.constant<RowPosition>('end'), fc.nat({ max: 60 }));
	const addition = fc.record({ count: fc.nat({ max: 6 }), at: position });

	it('pages through the same rows after any sequence of additions at the top, the end or in between', () => {
		fc.assert(
			fc.property(fc.nat({ max: 30 }), fc.array(addition, { maxLength: 12 }), fc.nat({ max: 12 }), (initial, additions, pageSize) => {
				const stored = new ReportState('r', 'r', [...BANK_COLUMNS], generateBankRows(initial), true);
				stored.generator = 'bank';
				stored.generated = initial;
				const virtual = new VirtualBankReport('r', 'r', [...BANK_COLUMNS], initial, true);
				for (const { count, at } of additions) {
					// An index past the end is refused by both alike.
					const index = typeof at === 'number' ? Math.min(at, stored.rowCount) : at;
					stored.addGenerated(count, index);
					virtual.addGenerated(count, index);
				}
				expect(virtual.rowCount).toBe(stored.rowCount);
				const limit = pageSize + 1;
				for (let offset = 0; offset <= stored.rowCount; offset += limit) {
					expect(virtual.page(admin, offset, limit)).toEqual(stored.page(admin, offset, limit));
				}
			}),
			{ seed: 25, numRuns: 300 },
		);
	});
});
