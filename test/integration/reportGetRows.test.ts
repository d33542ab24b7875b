/**
 * Report → Get Rows through n8n's execution engine, over real HTTP against the Records sandbox.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { runNode, toolVariant, type RunNodeOptions } from '../../tooling/harness/n8nCoreHarness';
import { addFaults, control, setGuesses } from '../../tooling/sandbox/control';
import { GUESS_SETS } from '../../tooling/sandbox/guesses';
import {
	bankTransactionIds,
	BANK_COLUMNS,
	COSTS_COLUMNS,
	generateBankRows,
	generateCostRows,
	REPORTS,
	TOKENS,
	USERS,
} from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

jest.setTimeout(120_000);

const sandbox = useSandbox({ token: TOKENS.analysisAdmin });

const BANK_ROWS = generateBankRows(10_000);

const addFault = async (rule: IDataObject) => await addFaults(sandbox, { route: 'report', ...rule });

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** Get Rows with its defaults, but for the parameters given. */
function getRows(parameters: IDataObject, extra: Partial<RunNodeOptions> = {}) {
	return runNode({
		nodeType: new Records(),
		parameters: {
			resource: 'report',
			operation: 'getRows',
			report: byId(REPORTS.bankTransactions),
			returnAll: true,
			...parameters,
		},
		credentials: sandbox.credentials(),
		...extra,
	});
}

const reportRequests = () => sandbox.state.stats.requests.report?.total ?? 0;

const transactionIds = (items: INodeExecutionData[], key = 'ID transakce') => items.map((item) => item.json[key]);

/** A bank row keyed by column name, as the node outputs it by default. */
function byName(row: Record<string, string>): IDataObject {
	return Object.fromEntries(BANK_COLUMNS.map((column) => [column.name, row[column.id]]));
}

function expectNoToken(value: unknown, token: string) {
	expect(JSON.stringify(value)).not.toContain(token);
}

describe('Report → Get Rows: reading whole reports', () => {
	// Pages of 100 rows: each page after the first repeats the two rows before it (the change check),
	// so 98 new rows a page; a read ends in two steps: nothing after the last row, then the rows
	// before it still in place.
	const PAGES_OF_100 = { pageSize: 100 };

	it('reads all 10,000 rows one page after another, in order, each once, keyed by column name', async () => {
		const { items, error } = await getRows({ options: PAGES_OF_100 });

		expect(error).toBeUndefined();
		expect(transactionIds(items)).toEqual(bankTransactionIds(1, 10_000));
		expect(items[0].json).toEqual(byName(BANK_ROWS[0]));
		expect(items[9_999].json).toEqual(byName(BANK_ROWS[9_999]));
		expect(items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
		// 100 rows, 101 pages of 98 new rows, the short page with the last 2, and the end in two steps.
		expect(reportRequests()).toBe(105);
	});

	it('reads the same rows with 8 parallel requests, asking for at most 7 pages past the end', async () => {
		const { items, error } = await getRows({ options: { ...PAGES_OF_100, concurrency: 8 } });

		expect(error).toBeUndefined();
		expect(transactionIds(items)).toEqual(bankTransactionIds(1, 10_000));
		expect(reportRequests()).toBeGreaterThanOrEqual(105);
		expect(reportRequests()).toBeLessThanOrEqual(112);
	});

	it.each([1, 5])('reads a report whose last page is short (concurrency %i)', async (concurrency) => {
		await control(sandbox, '/reports', { id: 'bank-odd', generate: 'bank', rows: 10_050 });

		const { items, error } = await getRows({ report: byId('bank-odd'), options: { ...PAGES_OF_100, concurrency } });

		expect(error).toBeUndefined();
		expect(transactionIds(items)).toEqual(bankTransactionIds(1, 10_050));
		if (concurrency === 1) {
			// 103 pages (the last short), then the end in two steps.
			expect(reportRequests()).toBe(105);
		}
	});

	it('asks for fewer, larger pages with a bigger Page Size', async () => {
		const { items } = await getRows({ options: { pageSize: 1000 } });

		expect(transactionIds(items)).toEqual(bankTransactionIds(1, 10_000));
		// 1,000 rows, 9 pages of 998 new, the short page with the last 18, and the end in two steps.
		expect(reportRequests()).toBe(13);
	});

	it.each([1, 4])('stops at Limit without asking for rows past it (concurrency %i)', async (concurrency) => {
		const { items } = await getRows({ returnAll: false, limit: 250, options: { pageSize: 100, concurrency } });

		expect(transactionIds(items)).toEqual(bankTransactionIds(1, 250));
		expect(reportRequests()).toBe(3);
	});

	it('returns every row when Limit exceeds the report', async () => {
		const { items } = await getRows({ report: byId(REPORTS.costs), returnAll: false, limit: 1000 });

		expect(items).toHaveLength(60);
	});

	it('returns no items for an empty report, or one item with no rows when all rows go in one item', async () => {
		await control(sandbox, '/reports', { id: 'empty', columns: [{ id: 'c1', name: 'A' }], rows: [] });

		const perRow = await getRows({ report: byId('empty') });
		expect(perRow.error).toBeUndefined();
		expect(perRow.items).toEqual([]);

		const allInOne = await getRows({ report: byId('empty'), options: { outputMode: 'all' } });
		expect(allInOne.items.map((item) => item.json)).toEqual([{ reportId: 'empty', rowCount: 0, rows: [] }]);
	});
});

describe('Report → Get Rows: output', () => {
	it('keys rows by column ID on request, exactly as the service sends them', async () => {
		const { items } = await getRows({ returnAll: false, limit: 3, options: { outputKeys: 'id' } });

		expect(items.map((item) => item.json)).toEqual(BANK_ROWS.slice(0, 3));
	});

	it('tells apart columns that share a name: the later one gets " (2)"', async () => {
		const { items } = await getRows({ report: byId(REPORTS.costs) });

		const costs = generateCostRows();
		expect(items).toHaveLength(costs.length);
		expect(Object.keys(items[0].json)).toEqual([
			'Interní číslo',
			'Partner',
			'Částka',
			'Částka (2)',
			'Datum splatnosti',
			'Pracovník',
			'Stav',
			'Kategorie nákladu',
		]);
		items.forEach((item, index) => {
			expect(item.json['Částka']).toBe(costs[index].c3);
			expect(item.json['Částka (2)']).toBe(costs[index].c4);
		});
	});

	it('adds the column metadata to each row on request, without changing the rows read', async () => {
		const { items } = await getRows({
			report: byId(REPORTS.costs),
			returnAll: false,
			limit: 2,
			options: { includeColumns: true },
		});

		const expected = COSTS_COLUMNS.map((column, index) => ({
			id: column.id,
			name: column.name,
			key: index === 3 ? 'Částka (2)' : column.name,
		}));
		expect(items[0].json._columns).toEqual(expected);
		expect(items[1].json['Interní číslo']).toBe('FP-2025-0002');

		const byColumnId = await getRows({
			report: byId(REPORTS.costs),
			returnAll: false,
			limit: 1,
			options: { includeColumns: true, outputKeys: 'id' },
		});
		expect(byColumnId.items[0].json).toEqual({
			...generateCostRows(1)[0],
			_columns: COSTS_COLUMNS.map((column) => ({ ...column, key: column.id })),
		});
	});

	it('puts each page in one item, or every row in one item', async () => {
		const pages = await getRows({ options: { pageSize: 1000, outputMode: 'page', includeColumns: true } });
		// Each page after the first repeats the two rows before it to check the report stood still: 998 new rows.
		expect(pages.items).toHaveLength(11);
		pages.items.forEach((item, index) => {
			expect(item.json.offset).toBe(index === 0 ? 0 : 1000 + (index - 1) * 998);
			expect(item.json.rowCount).toBe(index === 0 ? 1000 : index < 10 ? 998 : 18);
			expect((item.json.columns as IDataObject[]).map((column) => column.id)).toEqual(BANK_COLUMNS.map((c) => c.id));
		});
		const pageRows = pages.items.flatMap((item) => item.json.rows as IDataObject[]);
		expect(pageRows.map((row) => row['ID transakce'])).toEqual(bankTransactionIds(1, 10_000));

		const all = await getRows({ options: { outputMode: 'all', concurrency: 4 } });
		expect(all.items).toHaveLength(1);
		expect(all.items[0].json.rowCount).toBe(10_000);
		expect((all.items[0].json.rows as IDataObject[]).map((row) => row['ID transakce'])).toEqual(bankTransactionIds(1, 10_000));
		expect(all.items[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('Report → Get Rows: Czech number and date conversion', () => {
	it('is off by default: cells stay exactly as sent', async () => {
		const { items } = await getRows({ returnAll: false, limit: 1 });
		expect(items[0].json['Částka']).toBe(BANK_ROWS[0].c3);
	});

	it('in all columns, converts decimal-comma numbers and d.m.yyyy dates, and leaves codes as text', async () => {
		const { items } = await getRows({ returnAll: false, limit: 500, options: { conversion: 'auto' } });

		items.forEach((item, index) => {
			const source = BANK_ROWS[index];
			expect(item.json['Částka']).toBe(Number(source.c3.replace(',', '.')));
			const [day, month, year] = source.c2.split('.').map(Number);
			expect(item.json.Datum).toBe(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
			// Variable symbols are digits only: they must stay text, leading zeros and all.
			expect(item.json['Variabilní symbol']).toBe(source.c6);
			expect(item.json['Protiúčet']).toBe(source.c5);
			expect(item.json['ID transakce']).toBe(source.c1);
		});
	});

	it('in named columns only, by name or ID', async () => {
		await control(sandbox, '/reports', {
			id: 'codes',
			columns: [
				{ id: 'c1', name: 'VS' },
				{ id: 'c2', name: 'Kusy' },
				{ id: 'c3', name: 'Splatnost' },
				{ id: 'c4', name: 'Poznámka' },
			],
			rows: [
				{ c1: '0012345', c2: '1 200', c3: '5.3.2026', c4: '12,5' },
				{ c1: '0000001', c2: '', c3: '', c4: 'x' },
			],
		});

		const { items, error } = await getRows({
			report: byId('codes'),
			options: { conversion: 'columns', numberColumns: 'Kusy', dateColumns: 'c3' },
		});

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([
			{ VS: '0012345', Kusy: 1200, Splatnost: '2026-03-05', Poznámka: '12,5' },
			{ VS: '0000001', Kusy: null, Splatnost: null, Poznámka: 'x' },
		]);
	});

	it('names an unknown column and lists the report\'s columns', async () => {
		const { error } = await getRows({
			report: byId(REPORTS.costs),
			options: { conversion: 'columns', numberColumns: 'Částka (2), Cena' },
		});

		expect(error?.message).toBe('Number Columns: report "costs" has no column "Cena"');
		expect(error?.description).toContain('Částka (2) (c4)');
	});
});

describe('Report → Get Rows: which report', () => {
	it('takes the URL copied from the sharing dialog', async () => {
		const { items, error } = await getRows({
			report: { __rl: true, mode: 'url', value: 'https://records.example.com/analysis/reports/costs?share=api' },
		});

		expect(error).toBeUndefined();
		expect(items).toHaveLength(60);
	});

	it.each([
		['https://records.example.com/analysis/costs', /does not contain "\/reports\/<report ID>"/],
		['bank transactions', /contains white space/],
		['', /No report is given/],
	])('refuses %j from an expression with a clear message, before any request', async (value, message) => {
		const { error } = await getRows(
			{ report: { __rl: true, mode: '={{ $json.mode }}', value: '={{ $json.value }}' } },
			{ input: [{ mode: value.startsWith('http') ? 'url' : 'id', value }] },
		);

		expect(error?.message).toMatch(message);
		expect(reportRequests()).toBe(0);
	});

	it.each([
		[{ __rl: true, mode: 'url', value: 'https://records.example.com/analysis/costs' }, 'The URL must contain /reports/ followed by the report ID'],
		[{ __rl: true, mode: 'id', value: 'bank transactions' }, 'A report ID has no spaces and none of / ? #'],
	])('n8n flags a typed %j as a parameter issue before running', async (report, issue) => {
		await expect(getRows({ report })).rejects.toThrow(issue);
		expect(reportRequests()).toBe(0);
	});

	it('reads once per input item, with the report from an expression, pairing each row to its item', async () => {
		const { items, error } = await getRows(
			{ report: { __rl: true, mode: 'id', value: '={{ $json.report }}' }, returnAll: false, limit: 5 },
			{ input: [{ report: REPORTS.costs }, { report: REPORTS.bankTransactions }] },
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(10);
		expect(items.slice(0, 5).map((item) => [item.json['Interní číslo'], item.pairedItem])).toEqual(
			generateCostRows(5).map((row) => [row.c1, { item: 0 }]),
		);
		expect(items.slice(5).map((item) => [item.json['ID transakce'], item.pairedItem])).toEqual(
			bankTransactionIds(1, 5).map((id) => [id, { item: 1 }]),
		);
	});

	it("returns only the rows the token's user may see", async () => {
		const { items, error } = await getRows({ options: { concurrency: 4 } }, { credentials: sandbox.credentials(TOKENS.analysisLimited) });

		expect(error).toBeUndefined();
		const visible = BANK_ROWS.filter((row) => row.c8 === 'CZ-PROVOZ');
		expect(visible.length).toBeGreaterThan(1000);
		expect(visible.length).toBeLessThan(BANK_ROWS.length);
		expect(sandbox.state.reports.get(REPORTS.bankTransactions)?.page(USERS.jana, 0, BANK_ROWS.length)).toHaveLength(visible.length);
		expect(transactionIds(items)).toEqual(visible.map((row) => row.c1));
		expect(items.every((item) => item.json['Účet'] === 'CZ-PROVOZ')).toBe(true);
	});
});

describe('Report → Get Rows: failures while paging', () => {
	// Spread over the read by a seeded random draw, so that faults hit pages in the middle of it.
	const faults: Array<{ name: string; rules: IDataObject[]; options: IDataObject }> = [
		{ name: '429 with Retry-After', rules: [{ status: 429, retryAfter: 0, probability: 0.15, seed: 3 }], options: {} },
		{ name: '503', rules: [{ status: 503, retryAfter: 0, probability: 0.15, seed: 7 }], options: {} },
		{ name: 'connection resets', rules: [{ reset: true, probability: 0.05, seed: 11 }], options: {} },
		{ name: 'cut-off responses', rules: [{ truncate: true, probability: 0.05, seed: 5 }], options: {} },
		{ name: 'timeouts', rules: [{ slowMs: 1500, probability: 0.03, seed: 2 }], options: { timeout: 1 } },
	];

	it.each(faults.flatMap((fault) => [1, 6].map((concurrency) => ({ ...fault, concurrency }))))(
		'$name: every row once, in order (concurrency $concurrency)',
		async ({ rules, options, concurrency }) => {
			for (const rule of rules) await addFault(rule);

			const { items, error } = await getRows({ options: { ...options, pageSize: 100, concurrency } });

			expect(error).toBeUndefined();
			expect(transactionIds(items)).toEqual(bankTransactionIds(1, 10_000));
			expect(sandbox.state.stats.faults.total).toBeGreaterThanOrEqual(2);
		},
	);

	it.each([1, 6])('a service that silently serves fewer rows than asked loses no row (concurrency %i)', async (concurrency) => {
		await addFault({ limitCap: 60 });

		const { items, error } = await getRows({ options: { pageSize: 100, concurrency } });

		expect(error).toBeUndefined();
		expect(transactionIds(items)).toEqual(bankTransactionIds(1, 10_000));
		// 173 pages of at most 60 rows (58 new), plus what it takes to notice the cap and the end.
		expect(reportRequests()).toBeLessThan(173 + 2 * concurrency + 6);
	});

	it.each([1, 6])('a service that ignores the offset fails clearly after a few requests (concurrency %i)', async (concurrency) => {
		await addFault({ ignoreOffset: true });

		const { items, error } = await getRows({ options: { concurrency } });

		expect(items).toEqual([]);
		expect(error?.message).toMatch(/^The service ignores the offset of report "bank-transactions"/);
		expect(error?.description).toMatch(/instead of looping forever/);
		expect(reportRequests()).toBeLessThanOrEqual(concurrency + 3);
	});

	it('a report whose rows repeat exactly is still read to the end', async () => {
		const fee = { c1: '1.1.2026', c2: '-10,00', c3: 'Poplatek za vedení účtu' };
		await control(sandbox, '/reports', {
			id: 'fees',
			columns: [
				{ id: 'c1', name: 'Datum' },
				{ id: 'c2', name: 'Částka' },
				{ id: 'c3', name: 'Zpráva' },
			],
			rows: Array.from({ length: 250 }, () => fee),
		});

		const { items, error } = await getRows({ report: byId('fees'), options: { concurrency: 3 } });

		expect(error).toBeUndefined();
		expect(items).toHaveLength(250);
	});

	it('a run of more than 1,000 identical rows is read to the end, its page boundaries checked', async () => {
		const fee = { c1: '1.1.2026', c2: '-10,00' };
		await control(sandbox, '/reports', {
			id: 'many-fees',
			columns: [
				{ id: 'c1', name: 'Datum' },
				{ id: 'c2', name: 'Částka' },
			],
			rows: [{ c1: '31.12.2025', c2: '5,00' }, ...Array.from({ length: 2_500 }, () => fee)],
		});

		const { items, error } = await getRows({ report: byId('many-fees'), options: { pageSize: 100 } });

		expect(error).toBeUndefined();
		expect(items).toHaveLength(2_501);
	});

	it('stops at Max Pages with an error instead of returning part of the report', async () => {
		const { items, error } = await getRows({ options: { maxPages: 5, pageSize: 100 } });

		expect(items).toEqual([]);
		expect(error?.message).toBe(
			'Stopped reading report "bank-transactions" after 5 requests (the Max Pages limit) without reaching its end; 492 rows were read',
		);
		expect(error?.description).toMatch(/Raise Max Pages or Page Size/);
		expect(reportRequests()).toBe(5);
	});

	it('a persistent 503 fails the read after the retries, naming the status', async () => {
		await addFault({ status: 503, retryAfter: 0 });

		const { error } = await getRows({ options: { retryAttempts: 2 } });

		expect(error?.message).toBe('The service is unavailable or failed (503) (after 3 attempts)');
		expect(reportRequests()).toBe(3);
	});
});

describe('Report → Get Rows: adaptive page size', () => {
	it('reads every row once, in order, with a handful of growing pages instead of 101', async () => {
		const { items, error } = await getRows({});

		expect(error).toBeUndefined();
		expect(transactionIds(items)).toEqual(bankTransactionIds(1, 10_000));
		// 1,000 + 1,998 + 3,998 new rows, 3,006 of 5,000 asked (short), then the end in two steps.
		expect(reportRequests()).toBe(6);
	});

	it.each([1, 8])('reads every row once, in order, with %i parallel requests and a short last page', async (concurrency) => {
		await control(sandbox, '/reports', { id: 'bank-big', generate: 'bank', rows: 23_456 });

		const { items, error } = await getRows({ report: byId('bank-big'), options: { concurrency } });

		expect(error).toBeUndefined();
		expect(transactionIds(items)).toEqual(bankTransactionIds(1, 23_456));
		// Alone: 1,000 + 1,998 + 3,998 + 3 × 4,998 + 1,468 (short), then the end in two steps: 9. In
		// parallel, at most concurrency - 1 pages past the end and as many discarded after the short page on top.
		expect(reportRequests()).toBeLessThanOrEqual(9 + 2 * (concurrency - 1));
	});

	it('a service capping pages at 100 costs at most one request more than pages of 100', async () => {
		await addFault({ limitCap: 100 });
		await getRows({ options: { pageSize: 100 } });
		const pagesOf100 = reportRequests();
		sandbox.state.stats.clear();

		const { items, error } = await getRows({});

		expect(error).toBeUndefined();
		expect(transactionIds(items)).toEqual(bankTransactionIds(1, 10_000));
		expect(reportRequests()).toBeLessThanOrEqual(pagesOf100 + 1);
	});

	it.each(GUESS_SETS)('falls back to 100 rows per page when the service refuses a larger limit, under %s', async (_label, guesses) => {
		await setGuesses(sandbox, guesses);
		await addFault({ maxLimit: 100 });

		const { items, error } = await getRows({});

		expect(error).toBeUndefined();
		expect(transactionIds(items)).toEqual(bankTransactionIds(1, 10_000));
		// The refused page, asked once, then pages of 100 rows as with Page Size 100 (98 new after the first).
		expect(sandbox.state.stats.requests.report?.byStatus).toEqual({ 200: 105, [guesses.tooLargeLimitStatus]: 1 });
	});

	it.each([400, 413, 422, 500, 502, 504])('falls back at the first %i to a larger page, without asking for it again', async (status) => {
		await addFault({ status, times: 1 });

		const { items, error } = await getRows({});

		expect(error).toBeUndefined();
		expect(transactionIds(items)).toEqual(bankTransactionIds(1, 10_000));
		expect(sandbox.state.stats.requests.report?.byStatus).toEqual({ 200: 105, [status]: 1 });
	});

	it('retries a 503 (the service unavailable, whatever the size) instead of falling back', async () => {
		await addFault({ status: 503, retryAfter: 0, times: 1 });

		const { items, error } = await getRows({});

		expect(error).toBeUndefined();
		expect(items).toHaveLength(10_000);
		expect(sandbox.state.stats.requests.report?.byStatus).toEqual({ 200: 6, 503: 1 });
	});

	it('an explicit Page Size fixes the page size', async () => {
		const { items } = await getRows({ options: { pageSize: 250 } });

		expect(items).toHaveLength(10_000);
		// 250 rows, 39 pages of 248 new, the short page with the last 78, and the end in two steps.
		expect(reportRequests()).toBe(43);
	});

	it('a service that ignores the offset still fails after a few requests, while pages grow', async () => {
		await addFault({ ignoreOffset: true });

		const { items, error } = await getRows({});

		expect(items).toEqual([]);
		expect(error?.message).toMatch(/^The service ignores the offset of report "bank-transactions"/);
		expect(reportRequests()).toBeLessThanOrEqual(3);
	});

	it('stops at Max Pages with an error', async () => {
		const { items, error } = await getRows({ options: { maxPages: 2 } });

		expect(items).toEqual([]);
		expect(error?.message).toBe(
			'Stopped reading report "bank-transactions" after 2 requests (the Max Pages limit) without reaching its end; 2998 rows were read',
		);
	});
});

describe('Report → Get Rows: refused and unknown reports', () => {
	it.each([TOKENS.expired, TOKENS.import, TOKENS.noPermission])('a token the service refuses: 401, token never shown', async (token) => {
		const { items, error } = await getRows({}, { credentials: sandbox.credentials(token) });

		expect(items).toEqual([]);
		expect(error?.message).toBe('The service refused the API token (401)');
		expect(error?.description).toContain('the analysis permission');
		expectNoToken([error?.message, error?.description, error], token);
	});

	it('a report not made available through the API: 404 with what to do', async () => {
		const { error } = await getRows({ report: byId(REPORTS.notShared) });

		expect(error?.message).toBe(
			'The report "not-shared" does not exist or is not made available through the API (404)',
		);
		expect(error?.description).toMatch(/sharing dialog/);
	});

	it('with Continue On Fail, gives an error item for the failed report and the rows of the others', async () => {
		const { items, error } = await getRows(
			{ report: { __rl: true, mode: 'id', value: '={{ $json.report }}' } },
			{ input: [{ report: REPORTS.costs }, { report: REPORTS.notShared }, { report: 'a b' }], continueOnFail: true },
		);

		expect(error).toBeUndefined();
		expect(items).toHaveLength(62);
		expect(items.slice(0, 60).every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(items[60]).toMatchObject({ json: { error: expect.stringContaining('(404)') }, pairedItem: { item: 1 } });
		expect(items[61]).toMatchObject({ json: { error: expect.stringContaining('white space') }, pairedItem: { item: 2 } });
	});
});

describe('Report → Get Rows as a tool', () => {
	/** As an agent calls it: the values it fills in come from the input item. */
	function getRowsAsTool(parameters: IDataObject, args: IDataObject) {
		return runNode({
			nodeType: toolVariant(new Records()),
			parameters: {
				resource: 'report',
				operation: 'getRows',
				report: byId("={{ $fromAI('report') }}"),
				limit: "={{ $fromAI('limit', '', 'number', 20) }}",
				offset: "={{ $fromAI('offset', '', 'number', 0) }}",
				...parameters,
			},
			credentials: sandbox.credentials(),
			input: [args],
		});
	}

	/** A bank row as Simplified gives it: keyed by column name, without empty cells. */
	const simplified = (row: Record<string, string>) =>
		Object.fromEntries(BANK_COLUMNS.filter((column) => row[column.id] !== '').map((column) => [column.name, row[column.id]]));

	it('answers one page with where the next one starts, reading only from the offset on', async () => {
		const { items, error } = await getRowsAsTool({}, { report: REPORTS.bankTransactions, offset: 9_990, limit: 5 });

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([
			{ reportId: REPORTS.bankTransactions, offset: 9_990, rowCount: 5, rows: BANK_ROWS.slice(9_990, 9_995).map(simplified), hasMore: true, nextOffset: 9_995 },
		]);
		expect(reportRequests()).toBe(1);
	});

	it('says when the report ends, and answers an offset past the end with no rows', async () => {
		const last = await getRowsAsTool({}, { report: REPORTS.bankTransactions, offset: 9_998, limit: 5 });
		const past = await getRowsAsTool({}, { report: REPORTS.bankTransactions, offset: 20_000 });

		expect(last.items[0].json).toMatchObject({ offset: 9_998, rowCount: 2, hasMore: false });
		expect(last.items[0].json).not.toHaveProperty('nextOffset');
		expect(past.items[0].json).toEqual({ reportId: REPORTS.bankTransactions, offset: 20_000, rowCount: 0, rows: [], hasMore: false });
	});

	it('pages on correctly from an offset when the service serves fewer rows than asked', async () => {
		await addFault({ limitCap: 7 });

		const { items } = await getRowsAsTool({ options: { pageSize: 10 } }, { report: REPORTS.bankTransactions, offset: 95, limit: 30 });

		expect(items[0].json.rows).toEqual(BANK_ROWS.slice(95, 125).map(simplified));
		expect(items[0].json).toMatchObject({ rowCount: 30, hasMore: true, nextOffset: 125 });
	});

	it('offers Simplified, Raw and Selected Fields output', async () => {
		await control(sandbox, '/reports', {
			id: 'contacts',
			columns: [
				{ id: 'c1', name: 'Jméno' },
				{ id: 'c2', name: 'Telefon' },
				{ id: 'c3', name: 'E-mail' },
			],
			rows: [
				{ c1: 'Jana Nováková', c2: '', c3: 'jana@example.com' },
				{ c1: 'Petr Svoboda', c2: '+420 601 234 567', c3: '' },
			],
		});
		const read = async (parameters: IDataObject) =>
			(await getRowsAsTool(parameters, { report: 'contacts' })).items[0].json.rows;

		expect(await read({})).toEqual([
			{ Jméno: 'Jana Nováková', 'E-mail': 'jana@example.com' },
			{ Jméno: 'Petr Svoboda', Telefon: '+420 601 234 567' },
		]);
		expect(await read({ output: 'raw' })).toEqual([
			{ Jméno: 'Jana Nováková', Telefon: '', 'E-mail': 'jana@example.com' },
			{ Jméno: 'Petr Svoboda', Telefon: '+420 601 234 567', 'E-mail': '' },
		]);
		expect(await read({ output: 'fields', outputColumns: 'E-mail, c1' })).toEqual([
			{ 'E-mail': 'jana@example.com', Jméno: 'Jana Nováková' },
			{ 'E-mail': '', Jméno: 'Petr Svoboda' },
		]);
	});

	it('names the argument to correct when a call goes wrong, and lists the columns there are', async () => {
		const limit = await getRowsAsTool({}, { report: REPORTS.bankTransactions, limit: 0 });
		const column = await getRowsAsTool({ output: 'fields', outputColumns: 'Datum, Kurz' }, { report: REPORTS.costs });

		expect(limit.error?.message).toMatch(/^Argument "limit" must be a whole number from 1 to/);
		expect(limit.error?.description).toBeUndefined();
		expect(column.error?.message).toMatch(/^Columns: report "costs" has no column "Datum", "Kurz"\. .*The report's columns: .*Datum splatnosti/);
	});

	it('leaves the node used in a workflow as it was: one item per row, no paging fields', async () => {
		const { items } = await getRows({ returnAll: false, limit: 2, offset: 5, output: 'raw' });

		expect(items.map((item) => item.json)).toEqual(BANK_ROWS.slice(0, 2).map(byName));
	});
});
