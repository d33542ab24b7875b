import { ok, request, type ClientResponse } from './http-client';
import {
	BANK_ACCOUNTS,
	COSTS_ROW_COUNT,
	INVOICE_FIELDS,
	RECORD_TYPES,
	REPORTS,
	TOKENS,
} from '../../tooling/sandbox/server';
import { useSandbox } from '../integration/fixture';

const sandbox = useSandbox();

const get = async (path: string, token?: string): Promise<ClientResponse> =>
	ok(await request(sandbox.baseUrl, 'GET', path, { token }));

const post = async (path: string, body: unknown, token?: string, headers?: Record<string, string>): Promise<ClientResponse> =>
	ok(await request(sandbox.baseUrl, 'POST', path, { token, body, headers }));

const reportPath = (id: string, query = ''): string => `/api/analysis/reports/${id}/data/table${query}`;

const importPath = (id: string): string => `/api/3p/import/${encodeURIComponent(id)}`;

interface Table {
	columns: Array<{ id: string; name: string }>;
	rows: Array<Record<string, string>>;
}

describe('authentication (spec §5)', () => {
	const cases: Array<[string, string | undefined, number, number]> = [
		// token name, token, import status, report status
		['missing', undefined, 401, 401],
		['invalid', 'rk_not_a_real_token', 401, 401],
		['expired', TOKENS.expired, 401, 401],
		['no permission', TOKENS.noPermission, 401, 401],
		['import only', TOKENS.import, 200, 401],
		['analysis only', TOKENS.analysisAdmin, 401, 200],
		['analysis, limited user', TOKENS.analysisLimited, 401, 200],
		['import and analysis', TOKENS.full, 200, 200],
	];

	it.each(cases)('%s token: import %d, report %d', async (_name, token, importStatus, reportStatus) => {
		const imported = await post(importPath(RECORD_TYPES.tasks), { data: [{ Název: 'A' }] }, token);
		expect(imported.status).toBe(importStatus);
		const report = await get(reportPath(REPORTS.costs), token);
		expect(report.status).toBe(reportStatus);
		for (const response of [imported, report]) {
			if (response.status === 401) {
				expect(response.json).toMatchObject({ error: 'unauthorized' });
				if (token !== undefined) expect(response.text).not.toContain(token);
			}
		}
	});

	it('checks the token before telling whether a report exists (so a 404 proves the token was accepted)', async () => {
		expect((await get(reportPath('no-such-report'), 'rk_wrong')).status).toBe(401);
		expect((await get(reportPath('no-such-report'), TOKENS.analysisAdmin)).status).toBe(404);
	});

	it('refuses a non-bearer authorization scheme', async () => {
		const response = ok(
			await request(sandbox.baseUrl, 'GET', reportPath(REPORTS.costs), {
				headers: { authorization: `Basic ${Buffer.from(`x:${TOKENS.full}`).toString('base64')}` },
			}),
		);
		expect(response.status).toBe(401);
	});

	it('needs a valid token on the illustrative endpoints too', async () => {
		expect((await get('/api/v1/clients')).status).toBe(401);
		expect((await get('/clients', TOKENS.expired)).status).toBe(401);
		expect((await get('/clients', TOKENS.import)).status).toBe(200);
	});
});

describe('import (spec §4.1)', () => {
	it('creates records with unknown keys and edits records with existing keys, deciding per record', async () => {
		const response = await post(
			importPath(RECORD_TYPES.receivedInvoices),
			{
				data: [
					{ 'Interní číslo': 'FP-2026-0001', Stav: 'Zaplaceno', 'Kolik to stálo': '4400,00' },
					{ 'Interní číslo': 'FP-2026-0100', Partner: 'Nový dodavatel s.r.o.', 'Datum splatnosti': '31.12.2026' },
					{ Partner: 'Bez interního čísla' },
				],
			},
			TOKENS.import,
		);
		expect(response.status).toBe(200);
		expect(response.json).toMatchObject({
			status: 'ok',
			created: 2,
			edited: 1,
			results: [
				{ index: 0, status: 'edited', id: '1' },
				{ index: 1, status: 'created' },
				{ index: 2, status: 'created' },
			],
		});
		const edited = sandbox.state.findRecordByKey(RECORD_TYPES.receivedInvoices, 'FP-2026-0001');
		expect(edited?.fields).toMatchObject({ Stav: 'Zaplaceno', 'Kolik to stálo': '4400,00', Partner: 'Kancelářské potřeby Novák s.r.o.' });
		expect(edited?.edits).toBe(1);
		const control = (await get(`/__sandbox/records/${RECORD_TYPES.receivedInvoices}`)).json as {
			created: number;
			edited: number;
			records: Array<{ id: string; fields: Record<string, string> }>;
		};
		expect(control.created).toBe(2);
		expect(control.edited).toBe(1);
		expect(control.records).toHaveLength(5);
		expect(control.records.find((r) => r.fields['Interní číslo'] === 'FP-2026-0100')?.fields).toEqual({
			'Interní číslo': 'FP-2026-0100',
			Partner: 'Nový dodavatel s.r.o.',
			'Datum splatnosti': '31.12.2026',
		});
	});

	it('edits the record created earlier in the same request when a key repeats', async () => {
		const response = await post(
			importPath(RECORD_TYPES.tasks),
			{ data: [{ Název: 'Dvakrát', Zadal: 'A' }, { Název: 'Dvakrát', Zadal: 'B' }] },
			TOKENS.import,
		);
		expect(response.json).toMatchObject({ created: 1, edited: 1 });
		expect(sandbox.state.findRecordByKey(RECORD_TYPES.tasks, 'Dvakrát')?.fields.Zadal).toBe('B');
	});

	it('accepts every one of the 22 received-invoice fields and stores values exactly as sent', async () => {
		const record = Object.fromEntries(INVOICE_FIELDS.map((field, i) => [field, i === 0 ? 'FP-ALL' : `hodnota ${i}`]));
		const response = await post(importPath(RECORD_TYPES.receivedInvoices), { data: [record] }, TOKENS.full);
		expect(response.status).toBe(200);
		expect(sandbox.state.findRecordByKey(RECORD_TYPES.receivedInvoices, 'FP-ALL')?.fields).toEqual(record);
	});

	it('accepts an empty data array as a no-op', async () => {
		const response = await post(importPath(RECORD_TYPES.tasks), { data: [] }, TOKENS.import);
		expect(response.json).toEqual({ status: 'ok', created: 0, edited: 0, results: [] });
	});

	it('answers 404 for an unknown record type', async () => {
		const response = await post(importPath('neexistuje'), { data: [] }, TOKENS.import);
		expect(response.status).toBe(404);
		expect(response.json).toMatchObject({ error: 'record_type_not_found' });
	});

	const invalid: Array<[string, unknown, string, Record<string, unknown>]> = [
		['malformed JSON', '{"data": [', 'invalid_json', {}],
		['an empty body', '', 'invalid_json', {}],
		['a JSON array body', '[]', 'invalid_body', {}],
		['no data property', { records: [] }, 'missing_data', {}],
		['data not an array', { data: { Název: 'x' } }, 'invalid_data', {}],
		['a record that is not an object', { data: [{ Název: 'ok' }, 'text'] }, 'invalid_record', { index: 1 }],
		['a null record', { data: [null] }, 'invalid_record', { index: 0 }],
		['an unknown field', { data: [{ Název: 'ok' }, { Nazev: 'bez diakritiky' }] }, 'unknown_field', { index: 1, field: 'Nazev' }],
		['a null value', { data: [{ Název: 'x', Zadal: null }] }, 'invalid_value', { index: 0, field: 'Zadal' }],
		['a boolean value', { data: [{ Název: 'x', Zadal: true }] }, 'invalid_value', { field: 'Zadal' }],
		['an object value', { data: [{ Název: { a: 1 } }] }, 'invalid_value', { field: 'Název' }],
		['an array value', { data: [{ Název: ['a'] }] }, 'invalid_value', { field: 'Název' }],
	];

	it.each(invalid)('rejects %s with 400 and changes nothing', async (_name, body, code, extra) => {
		const before = JSON.stringify(sandbox.state.getRecords(RECORD_TYPES.tasks));
		const response = await post(importPath(RECORD_TYPES.tasks), body, TOKENS.import);
		expect(response.status).toBe(400);
		expect(response.json).toMatchObject({ error: code, ...extra });
		expect(typeof (response.json as { message: unknown }).message).toBe('string');
		expect(JSON.stringify(sandbox.state.getRecords(RECORD_TYPES.tasks))).toBe(before);
	});

	it('names the record, the field and the known fields for an unknown field', async () => {
		const response = await post(importPath(RECORD_TYPES.tasks), { data: [{ Název: 'a' }, { Zadal: 'b', Priorita: 'vysoká' }] }, TOKENS.import);
		const message = (response.json as { message: string }).message;
		expect(message).toContain('Record 1');
		expect(message).toContain('"Priorita"');
		expect(message).toContain('Název, Zadal, Zpracovatel');
	});

	it('matches field names exactly: a decomposed (NFD) name is unknown, with a hint to send NFC', async () => {
		const nfd = 'Název'.normalize('NFD');
		const response = await post(importPath(RECORD_TYPES.tasks), { data: [{ [nfd]: 'x' }] }, TOKENS.import);
		expect(response.status).toBe(400);
		expect((response.json as { message: string }).message).toMatch(/Unicode normalization/);
	});

	it('requires a JSON content type', async () => {
		const response = await post(importPath(RECORD_TYPES.tasks), '{"data":[]}', TOKENS.import, { 'content-type': 'text/plain' });
		expect(response.status).toBe(415);
	});

	it('stores numbers as numbers, so a client that forgot to format them is visible', async () => {
		await post(importPath(RECORD_TYPES.receivedInvoices), { data: [{ 'Interní číslo': 'N1', 'Kolik to stálo': 1234.5 }] }, TOKENS.import);
		expect(sandbox.state.findRecordByKey(RECORD_TYPES.receivedInvoices, 'N1')?.fields['Kolik to stálo']).toBe(1234.5);
	});

	it('imports into custom record types and custom fields defined through the control endpoints', async () => {
		const defined = await post('/__sandbox/record-types', { id: 'sklad', fields: ['Kód', 'Název'], keyField: 'Kód' });
		expect(defined.status).toBe(200);
		expect((await post(importPath('sklad'), { data: [{ Kód: 'A1', Množství: '3' }] }, TOKENS.import)).status).toBe(400);
		expect((await post('/__sandbox/record-types/sklad/fields', { fields: ['Množství'] })).status).toBe(200);
		const response = await post(importPath('sklad'), { data: [{ Kód: 'A1', Množství: '3' }] }, TOKENS.import);
		expect(response.json).toMatchObject({ created: 1 });
		expect(sandbox.state.findRecordByKey('sklad', 'A1')?.fields).toEqual({ Kód: 'A1', Množství: '3' });
		const custom = await post('/__sandbox/record-types/faktury-prijate/fields', { fields: ['Středisko'] });
		expect(custom.status).toBe(200);
		expect(
			(await post(importPath(RECORD_TYPES.receivedInvoices), { data: [{ 'Interní číslo': 'FP-2026-0002', Středisko: '100' }] }, TOKENS.import))
				.json,
		).toMatchObject({ edited: 1 });
	});

	it('logs every import request with its record keys, so duplicates are detectable', async () => {
		await post(importPath(RECORD_TYPES.tasks), { data: [{ Název: 'A' }, { Název: 'B' }] }, TOKENS.import);
		await post(importPath(RECORD_TYPES.tasks), { data: [{ Název: 'B' }] }, TOKENS.import);
		const log = (await get('/__sandbox/imports')).json as Array<{ seq: number; arrival: number; keys: string[]; processed: boolean }>;
		expect(log.map((entry) => entry.keys)).toEqual([['A', 'B'], ['B']]);
		expect(log.map((entry) => [entry.seq, entry.arrival, entry.processed])).toEqual([
			[1, 1, true],
			[2, 2, true],
		]);
		const stats = (await get('/__sandbox/stats')).json as { imports: Record<string, unknown> };
		expect(stats.imports).toMatchObject({
			requests: 2,
			recordsReceived: 3,
			recordsStored: 3,
			batchSizes: [2, 1],
			duplicateKeyCount: 1,
			duplicateKeys: [{ recordTypeId: RECORD_TYPES.tasks, key: 'B', times: 2 }],
		});
	});
});

describe('report table (spec §4.2)', () => {
	it('serves columns and rows with defaults offset 0 and limit 100', async () => {
		const response = await get(reportPath(REPORTS.bankTransactions), TOKENS.analysisAdmin);
		expect(response.status).toBe(200);
		const table = response.json as Table;
		expect(table.columns.map((c) => c.name)).toEqual([
			'ID transakce',
			'Datum',
			'Částka',
			'Měna',
			'Protiúčet',
			'Variabilní symbol',
			'Zpráva',
			'Účet',
		]);
		expect(table.rows).toHaveLength(100);
		expect(table.rows[0].c1).toBe('TX00000001');
		expect(table.rows[99].c1).toBe('TX00000100');
		expect(table.rows[0].c2).toMatch(/^\d{1,2}\.\d{1,2}\.\d{4}$/);
		expect(table.rows[0].c3).toMatch(/^-?\d+,\d{2}$/);
	});

	it('pages through all 10,000 bank rows in order, ending with a short page, no row twice', async () => {
		const ids: string[] = [];
		for (let offset = 0; ; offset += 1000) {
			const table = (await get(reportPath(REPORTS.bankTransactions, `?offset=${offset}&limit=1000`), TOKENS.analysisAdmin)).json as Table;
			ids.push(...table.rows.map((row) => row.c1));
			if (table.rows.length < 1000) break;
		}
		expect(ids).toHaveLength(10_000);
		expect(new Set(ids).size).toBe(10_000);
		expect([...ids].sort()).toEqual(ids);
	});

	it('serves the same rows on every read (deterministic seeds)', async () => {
		const first = (await get(reportPath(REPORTS.bankTransactions, '?offset=5000&limit=3'), TOKENS.analysisAdmin)).text;
		sandbox.reset();
		expect((await get(reportPath(REPORTS.bankTransactions, '?offset=5000&limit=3'), TOKENS.analysisAdmin)).text).toBe(first);
	});

	it('filters rows by the data rights of the token user before paging', async () => {
		const all = (await get(reportPath(REPORTS.bankTransactions, '?limit=20000'), TOKENS.analysisAdmin)).json as Table;
		const limited = (await get(reportPath(REPORTS.bankTransactions, '?limit=20000'), TOKENS.analysisLimited)).json as Table;
		const expected = all.rows.filter((row) => row.c8 === 'CZ-PROVOZ');
		expect(new Set(all.rows.map((row) => row.c8))).toEqual(new Set(BANK_ACCOUNTS));
		expect(limited.rows).toEqual(expected);
		const page = (await get(reportPath(REPORTS.bankTransactions, '?offset=10&limit=5'), TOKENS.analysisLimited)).json as Table;
		expect(page.rows).toEqual(expected.slice(10, 15));
	});

	it('limits jana to her own costs, and keeps the two columns named Částka apart by id', async () => {
		const table = (await get(reportPath(REPORTS.costs, '?limit=1000'), TOKENS.analysisLimited)).json as Table;
		expect(table.columns.filter((c) => c.name === 'Částka').map((c) => c.id)).toEqual(['c3', 'c4']);
		expect(table.rows.length).toBeGreaterThan(0);
		expect(table.rows.every((row) => row.c6 === 'Jana Nováková')).toBe(true);
		const all = (await get(reportPath(REPORTS.costs, '?limit=1000'), TOKENS.analysisAdmin)).json as Table;
		expect(all.rows).toHaveLength(COSTS_ROW_COUNT);
		expect(all.rows[0].c3).not.toBe(all.rows[0].c4);
	});

	it('answers 404 for a report not made available through the API, and for an unknown one', async () => {
		for (const id of [REPORTS.notShared, 'neexistuje']) {
			const response = await get(reportPath(id), TOKENS.analysisAdmin);
			expect(response.status).toBe(404);
			expect(response.json).toMatchObject({ error: 'report_not_found' });
		}
	});

	it.each(['offset=-1', 'offset=abc', 'limit=0', 'limit=1.5', 'limit=', 'offset=1e3'])('rejects %s with 400', async (query) => {
		const response = await get(reportPath(REPORTS.costs, `?${query}`), TOKENS.analysisAdmin);
		expect(response.status).toBe(400);
		expect(response.json).toMatchObject({ error: 'invalid_parameter' });
	});

	it('returns an empty page past the end', async () => {
		const table = (await get(reportPath(REPORTS.costs, '?offset=5000'), TOKENS.analysisAdmin)).json as Table;
		expect(table.rows).toEqual([]);
		expect(table.columns).toHaveLength(8);
	});

	it('shows appended rows to the next read (for polling tests), continuing generated ids', async () => {
		await post(`/__sandbox/reports/${REPORTS.bankTransactions}/rows`, { generate: 2 });
		await post(`/__sandbox/reports/${REPORTS.bankTransactions}/rows`, {
			rows: [{ c1: 'TX-MANUAL', c2: '1.1.2026', c3: '1,00', c4: 'CZK', c5: '', c6: '', c7: 'Ruční', c8: 'CZ-PROVOZ' }],
		});
		const table = (await get(reportPath(REPORTS.bankTransactions, '?offset=10000'), TOKENS.analysisAdmin)).json as Table;
		expect(table.rows.map((row) => row.c1)).toEqual(['TX00010001', 'TX00010002', 'TX-MANUAL']);
		const limited = (await get(reportPath(REPORTS.bankTransactions, '?limit=100000'), TOKENS.analysisLimited)).json as Table;
		expect(limited.rows.at(-1)?.c1).toBe('TX-MANUAL');
	});

	it('adds rows at the top on request, newest first, as a report sorted newest first shows them', async () => {
		await post(`/__sandbox/reports/${REPORTS.bankTransactions}/rows`, { generate: 2, at: 'top' });
		const table = (await get(reportPath(REPORTS.bankTransactions, '?limit=3'), TOKENS.analysisAdmin)).json as Table;
		expect(table.rows.map((row) => row.c1)).toEqual(['TX00010002', 'TX00010001', 'TX00000001']);
		expect((await post(`/__sandbox/reports/${REPORTS.bankTransactions}/rows`, { generate: 1, at: 'middle' })).status).toBe(400);
	});

	it('adds generated rows before a given row, and explicit rows at the top, newest first', async () => {
		await post('/__sandbox/reports', { id: 'feed', generate: 'bank', rows: 3 });
		await post('/__sandbox/reports/feed/rows', { generate: 2, at: 1 });
		await post('/__sandbox/reports/feed/rows', { rows: [{ c1: 'A' }, { c1: 'B' }], at: 'top' });
		const table = (await get(reportPath('feed'), TOKENS.analysisAdmin)).json as Table;
		expect(table.rows.map((row) => row.c1)).toEqual(['B', 'A', 'TX00000001', 'TX00000004', 'TX00000005', 'TX00000002', 'TX00000003']);
		const refused = await post('/__sandbox/reports/feed/rows', { generate: 1, at: 9 });
		expect([refused.status, (refused.json as { message: string }).message]).toEqual([400, 'Rows can go at "top", "end" or an index from 0 to 7; got 9']);
	});

	it('defines reports through the control endpoint: explicit rows, generated rows, API availability', async () => {
		await post('/__sandbox/reports', {
			id: 'maly',
			columns: [
				{ id: 'a', name: 'Kód' },
				{ id: 'b', name: 'Kód' },
			],
			rows: [{ a: '1', b: 'x' }],
		});
		expect(((await get(reportPath('maly'), TOKENS.analysisAdmin)).json as Table).rows).toEqual([{ a: '1', b: 'x' }]);
		const generated = await post('/__sandbox/reports', { id: 'bank-100k', generate: 'bank', rows: 100_000 });
		expect(generated.json).toMatchObject({ rowCount: 100_000 });
		const last = (await get(reportPath('bank-100k', '?offset=99999'), TOKENS.analysisAdmin)).json as Table;
		expect(last.rows.map((row) => row.c1)).toEqual(['TX00100000']);
		await post('/__sandbox/reports', { id: 'skryty', apiEnabled: false, columns: [{ id: 'a', name: 'A' }], rows: [] });
		expect((await get(reportPath('skryty'), TOKENS.analysisAdmin)).status).toBe(404);
	});
});

describe('illustrative endpoints (spec §4.4) and sandbox CRUD', () => {
	it('lists clients with a status filter, paging and a total of the matching clients', async () => {
		const all = (await get('/api/v1/clients', TOKENS.full)).json as { data: unknown[]; total: number };
		expect(all.total).toBe(25);
		const active = (await get('/api/v1/clients?status=active&limit=5&offset=0', TOKENS.full)).json as {
			data: Array<{ id: number; name: string; revenue: number }>;
			total: number;
		};
		const activeIds = sandbox.state.clients.filter((c) => c.status === 'active').map((c) => c.id);
		expect(active.total).toBe(activeIds.length);
		expect(active.data.map((c) => c.id)).toEqual(activeIds.slice(0, 5));
		expect(Object.keys(active.data[0]).sort()).toEqual(['id', 'name', 'revenue']);
		expect(((await get('/api/v1/clients?status=zruseny', TOKENS.full)).json as { total: number }).total).toBe(0);
	});

	it('lists /clients as id and name', async () => {
		const body = (await get('/clients', TOKENS.full)).json as { clients: Array<Record<string, unknown>> };
		expect(body.clients).toHaveLength(25);
		expect(body.clients[0]).toEqual({ id: 1, name: 'Alfa Trade s.r.o.' });
	});

	it('creates an invoice with 201 and validates each field type', async () => {
		const created = await post('/invoices', { client_id: 3, amount: 1500.5, currency: 'CZK', due_date: '2026-12-31' }, TOKENS.full);
		expect(created.status).toBe(201);
		expect(created.json).toMatchObject({ id: 1, client_id: 3, amount: 1500.5, currency: 'CZK', due_date: '2026-12-31' });
		expect(sandbox.state.invoices).toHaveLength(1);
		const bad: Array<[Record<string, unknown>, string]> = [
			[{ client_id: '3', amount: 1, currency: 'CZK', due_date: '2026-12-31' }, 'client_id'],
			[{ client_id: 3.5, amount: 1, currency: 'CZK', due_date: '2026-12-31' }, 'client_id'],
			[{ client_id: 999, amount: 1, currency: 'CZK', due_date: '2026-12-31' }, 'client_id'],
			[{ client_id: 3, amount: '1', currency: 'CZK', due_date: '2026-12-31' }, 'amount'],
			[{ client_id: 3, amount: 1, currency: '', due_date: '2026-12-31' }, 'currency'],
			[{ client_id: 3, amount: 1, currency: 'CZK', due_date: '31.12.2026' }, 'due_date'],
			[{ client_id: 3, amount: 1, currency: 'CZK' }, 'due_date'],
		];
		for (const [body, field] of bad) {
			const response = await post('/invoices', body, TOKENS.full);
			expect(response.status).toBe(400);
			expect(response.json).toMatchObject({ field });
		}
		expect(sandbox.state.invoices).toHaveLength(1);
	});

	it('offers CRUD over the records of any type under /api/v1/records', async () => {
		const base = `/api/v1/records/${RECORD_TYPES.tasks}`;
		const created = await post(base, { Název: 'CRUD', Zadal: 'Test' }, TOKENS.full);
		expect(created.status).toBe(201);
		const id = (created.json as { id: string }).id;
		expect((await get(`${base}/${id}`, TOKENS.full)).json).toMatchObject({ id, fields: { Název: 'CRUD', Zadal: 'Test' } });
		const updated = ok(await request(sandbox.baseUrl, 'PUT', `${base}/${id}`, { token: TOKENS.full, body: { Zpracovatel: 'Jana' } }));
		expect(updated.json).toMatchObject({ fields: { Název: 'CRUD', Zadal: 'Test', Zpracovatel: 'Jana' } });
		const list = (await get(`${base}?limit=2`, TOKENS.full)).json as { data: unknown[]; total: number };
		expect(list).toMatchObject({ total: 3 });
		expect(list.data).toHaveLength(2);
		expect(ok(await request(sandbox.baseUrl, 'DELETE', `${base}/${id}`, { token: TOKENS.full })).status).toBe(200);
		expect((await get(`${base}/${id}`, TOKENS.full)).status).toBe(404);
		expect((await post(base, { Neznámé: 'x' }, TOKENS.full)).status).toBe(400);
		expect((await post(base, { Název: 'x' }, TOKENS.analysisAdmin)).status).toBe(401);
	});

	it('answers 404 for unknown routes and 405 for a wrong method', async () => {
		expect((await get('/api/unknown', TOKENS.full)).status).toBe(404);
		const wrong = await get(importPath(RECORD_TYPES.tasks), TOKENS.full);
		expect(wrong.status).toBe(405);
		expect(wrong.headers.allow).toBe('POST');
	});
});

describe('control endpoints', () => {
	it('resets to the seeds', async () => {
		await post(importPath(RECORD_TYPES.tasks), { data: [{ Název: 'Nový' }] }, TOKENS.import);
		await post('/__sandbox/faults', { route: 'report', status: 503 });
		expect((await post('/__sandbox/reset', {})).status).toBe(200);
		expect(sandbox.state.getRecords(RECORD_TYPES.tasks)).toHaveLength(2);
		expect(sandbox.state.faults).toHaveLength(0);
		expect((await get(reportPath(REPORTS.costs), TOKENS.full)).status).toBe(200);
	});

	it('counts requests per route and status, and resets the counters', async () => {
		await get(reportPath(REPORTS.costs), TOKENS.full);
		await get(reportPath(REPORTS.costs));
		const stats = (await get('/__sandbox/stats')).json as { requests: Record<string, { total: number; byStatus: Record<string, number> }> };
		expect(stats.requests.report).toEqual({ total: 2, byStatus: { '200': 1, '401': 1 } });
		await post('/__sandbox/stats/reset', {});
		expect(((await get('/__sandbox/stats')).json as { requests: unknown }).requests).toEqual({});
	});

	it('lists every token with its value on its overview page, where a demo user looks for them', async () => {
		const { tokens } = (await get('/__sandbox/')).json as { tokens: Array<{ name: string; token: string }> };
		expect(tokens.map(({ token }) => token).sort()).toEqual(Object.values(TOKENS).sort());
		expect(tokens.find(({ token }) => token === TOKENS.full)?.name).toBe('Import and analysis');
	});

	it('adds tokens and users with their own data rights', async () => {
		await post('/__sandbox/users', { id: 'eur', name: 'Účetní EUR', rights: [{ columnName: 'Měna', values: ['EUR'] }] });
		await post('/__sandbox/tokens', { token: 'rk_custom', userId: 'eur', permissions: ['analysis'] });
		const table = (await get(reportPath(REPORTS.bankTransactions, '?limit=50'), 'rk_custom')).json as Table;
		expect(table.rows.length).toBe(50);
		expect(table.rows.every((row) => row.c4 === 'EUR')).toBe(true);
		await post('/__sandbox/tokens', { token: 'rk_old', userId: 'eur', permissions: ['analysis'], validUntil: '2020-01-01T00:00:00Z' });
		expect((await get(reportPath(REPORTS.costs), 'rk_old')).status).toBe(401);
	});

	it('explains a bad control request with 400', async () => {
		const response = await post('/__sandbox/faults', { route: 'reports' });
		expect(response.status).toBe(400);
		expect((response.json as { message: string }).message).toMatch(/route must be one of/);
		expect((await get('/__sandbox/nothing')).status).toBe(404);
	});
});
