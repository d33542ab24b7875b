import { getGlobalState, setGlobalState } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { runNode } from '../../tooling/harness/n8nCoreHarness';
import { addFaults } from '../../tooling/sandbox/control';
import { TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const sandbox = useSandbox({ bankRows: 10 });
const credentials = sandbox.credentials(TOKENS.full);

const invoiceRequests = () => sandbox.state.stats.requests.invoices?.total ?? 0;

const VALID = { clientId: 3, amount: 1234.5, currency: 'CZK', dueDate: '2026-12-31' };

function create(parameters: Record<string, unknown>, extra: Partial<Parameters<typeof runNode>[0]> = {}) {
	return runNode({
		nodeType: new Records(),
		parameters: { resource: 'api', operation: 'createInvoice', ...VALID, ...parameters },
		credentials,
		...extra,
	});
}

const addFault = (rule: Record<string, unknown>) => addFaults(sandbox, rule);

describe('Invoice → Create against the sandbox', () => {
	it('creates the invoice and outputs what the service created', async () => {
		const { items, error } = await create({ currency: 'eur' });

		expect(error).toBeUndefined();
		expect(sandbox.state.invoices).toEqual([
			expect.objectContaining({ id: 1, client_id: 3, amount: 1234.5, currency: 'EUR', due_date: '2026-12-31' }),
		]);
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual(JSON.parse(JSON.stringify(sandbox.state.invoices[0])));
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	describe('in the workflow time zone Europe/Prague', () => {
		const originalTimezone = getGlobalState().defaultTimezone;
		beforeAll(() => setGlobalState({ defaultTimezone: 'Europe/Prague' }));
		afterAll(() => setGlobalState({ defaultTimezone: originalTimezone }));

	it.each([
		['a date-time with an offset, by its day in the workflow time zone', '2026-12-31T23:30:00-05:00', '2027-01-01'],
		['a date as n8n writes a DateTime, late in the evening UTC', '2027-03-31T22:30:00.000Z', '2027-04-01'],
		['a d.m.yyyy date', '5.1.2027', '2027-01-05'],
		['a date from an expression string', "={{ '2027-02-28' }}", '2027-02-28'],
		['a Luxon date in a far time zone, by its day in the workflow time zone', "={{ DateTime.fromObject({ year: 2027, month: 1, day: 15 }, { zone: 'Pacific/Kiritimati' }) }}", '2027-01-14'],
		['a date-time without an offset, as written', '2027-03-31T23:30:00', '2027-03-31'],
		['a date, as written', '2027-03-31', '2027-03-31'],
	])('sends %s (the rule Import follows)', async (_label, dueDate, expected) => {
		const { error } = await create({ dueDate });

		expect(error).toBeUndefined();
		expect(sandbox.state.invoices.map((invoice) => invoice.due_date)).toEqual([expected]);
	});
	});

	it('takes the fields of each input item from expressions, one invoice per item', async () => {
		const { items } = await create(
			{ clientId: '={{ $json.client }}', amount: '={{ $json.amount }}', currency: '={{ $json.currency }}' },
			{ input: [{ client: 1, amount: 10, currency: 'CZK' }, { client: '2', amount: '20.5', currency: 'USD' }] },
		);

		expect(sandbox.state.invoices.map(({ client_id, amount, currency }) => [client_id, amount, currency])).toEqual([
			[1, 10, 'CZK'],
			[2, 20.5, 'USD'],
		]);
		expect(items.map((item) => [item.pairedItem, item.json.id])).toEqual([
			[{ item: 0 }, 1],
			[{ item: 1 }, 2],
		]);
	});

	it.each([
		[
			'a currency that is not 3 letters',
			{ currency: 'EURO' },
			'Invalid "Currency": "EURO" is not a three-letter ISO 4217 currency code; enter e.g. CZK, EUR or USD [item 0]',
		],
		[
			'a currency with a digit',
			{ currency: 'CZ1' },
			'Invalid "Currency": "CZ1" is not a three-letter ISO 4217 currency code; enter e.g. CZK, EUR or USD [item 0]',
		],
		['a currency missing from the input', { currency: '={{ $json.currency }}' }, 'Invalid "Currency": it is required; enter a three-letter ISO 4217 code such as CZK or EUR [item 0]'],
		[
			'a client ID with a fraction',
			{ clientId: 2.5 },
			'Invalid "Client ID": 2.5 is not a client ID; enter a whole number of at least 1, e.g. 12 [item 0]',
		],
		[
			'a client ID that is text',
			{ clientId: "={{ 'ACME' }}" },
			'Invalid "Client ID": "ACME" is not a client ID; enter a whole number of at least 1, e.g. 12 [item 0]',
		],
		[
			'the unset client ID',
			{ clientId: 0 },
			'Invalid "Client ID": 0 is not a client ID; enter a whole number of at least 1, e.g. 12 [item 0]',
		],
		[
			'an amount with a decimal comma',
			{ amount: "={{ '1234,50' }}" },
			'Invalid "Amount": "1234,50" is not a number; enter digits with a dot as the decimal separator and no thousands separators, e.g. 1234.5 [item 0]',
		],
		['a due date missing from the input', { dueDate: '={{ $json.dueDate }}' }, 'Invalid "Due Date": it is required; enter the date the invoice is due, e.g. 2026-12-31 [item 0]'],
		[
			'a due date that is not a date',
			{ dueDate: '31/12/2026' },
			'Invalid "Due Date": "31/12/2026" is not a date; enter yyyy-mm-dd (e.g. 2026-12-31), an ISO 8601 date-time, or d.m.yyyy [item 0]',
		],
		[
			'an impossible calendar date',
			{ dueDate: '2026-02-30' },
			'Invalid "Due Date": "2026-02-30" is not a date; enter yyyy-mm-dd (e.g. 2026-12-31), an ISO 8601 date-time, or d.m.yyyy [item 0]',
		],
	])('refuses %s before sending anything', async (_label, parameters, message) => {
		const { items, error } = await create(parameters);

		expect(items).toEqual([]);
		expect(error?.message).toBe(message);
		expect(invoiceRequests()).toBe(0);
		expect(sandbox.state.invoices).toEqual([]);
	});

	it("passes on the service's reason when it rejects the invoice", async () => {
		const { error } = await create({ clientId: 999 });

		expect(error?.message).toBe('The service rejected the request for the new invoice (400)');
		expect(error?.description).toBe('"client_id" 999 is not a known client');
		expect(sandbox.state.invoices).toEqual([]);
	});

	it('with Continue On Fail, creates the valid items and pairs an error item to the invalid one', async () => {
		const { items, error } = await create(
			{ currency: '={{ $json.currency }}' },
			{ input: [{ currency: 'CZK' }, { currency: 'Kč' }, { currency: 'EUR' }], continueOnFail: true },
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => [item.pairedItem, item.json.currency ?? item.json.error])).toEqual([
			[{ item: 0 }, 'CZK'],
			[{ item: 1 }, 'Invalid "Currency": "Kč" is not a three-letter ISO 4217 currency code; enter e.g. CZK, EUR or USD [item 1]'],
			[{ item: 2 }, 'EUR'],
		]);
		expect(sandbox.state.invoices.map((invoice) => invoice.currency)).toEqual(['CZK', 'EUR']);
	});

	it('retries a POST the service refused (503), creating the invoice once', async () => {
		await addFault({ route: 'invoices', status: 503, retryAfter: 0, times: 1 });
		const { error } = await create({});

		expect(error).toBeUndefined();
		expect(invoiceRequests()).toBe(2);
		expect(sandbox.state.invoices).toHaveLength(1);
	});

	it('does not repeat a POST the service may have processed (500), and says so', async () => {
		await addFault({ route: 'invoices', status: 500, afterProcessing: true, times: 1 });
		const { error } = await create({});

		expect(error?.message).toBe('The service failed while processing the request for the new invoice (500)');
		expect(error?.description).toContain('may already have processed this request, so it was not sent again');
		expect(invoiceRequests()).toBe(1);
		expect(sandbox.state.invoices).toHaveLength(1);
	});

	it('reports a refused token without revealing it', async () => {
		const { error } = await create({}, { credentials: { ...credentials, token: TOKENS.noPermission } });

		expect(error?.message).toBe('The service refused the API token (401)');
		expect(JSON.stringify([error, error?.message, error?.description])).not.toContain(TOKENS.noPermission);
	});
});
