/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-hardcoded-secrets -- a test:
	runs in Node.js, not inside n8n (Node.js's modules, `setTimeout`); its tokens and keys are fixed
	test values, not secrets */
/**
 * Record → Import: batching, parallel requests, injected faults, service errors and unknown
 * response shapes, through n8n's execution engine over real HTTP.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { runNode, type RecordsCredentialData, type RunNodeResult } from '../../tooling/harness/n8nCoreHarness';
import { addFaults, control } from '../../tooling/sandbox/control';
import { TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const sandbox = useSandbox({ bankRows: 10 });
const credentials = sandbox.credentials(TOKENS.import);

beforeEach(async () => {
	// A record type without data of its own, to fail the middle batch of a run by its id.
	await control(sandbox, '/record-types', { id: 'poznamky', fields: ['Text', 'Autor'] });
});

const addFault = async (rule: IDataObject) => await addFaults(sandbox, rule);

function importRecords(
	parameters: IDataObject,
	input: IDataObject[],
	extra: { continueOnFail?: boolean; credentials?: RecordsCredentialData } = {},
) {
	return runNode({
		nodeType: new Records(),
		parameters: { resource: 'record', operation: 'import', ...parameters },
		credentials: extra.credentials ?? credentials,
		input,
		continueOnFail: extra.continueOnFail,
	});
}

const tasks = (count: number, prefix = 'Úkol') =>
	Array.from({ length: count }, (_, i) => ({ Název: `${prefix} ${i}`, Zadal: 'Jana Nováková' }));

const importLog = () => sandbox.state.stats.importLog;
const recordsOf = (recordTypeId: string) => sandbox.state.recordTypes.get(recordTypeId)?.list() ?? [];
const storedNames = (recordTypeId: string) => recordsOf(recordTypeId).map((record) => record.fields['Název']);

/** Context of the error the node threw, where n8n keeps the item index. */
const errorItemIndex = (result: RunNodeResult) => (result.error as { context?: { itemIndex?: number } }).context?.itemIndex;

/** No secret in anything the run produced: items, the thrown error, n8n's run data. */
function expectNoToken(result: RunNodeResult, token: string = credentials.token) {
	const error = result.error as unknown as Record<string, unknown> | undefined;
	const seen = JSON.stringify({
		items: result.items,
		run: result.run.data.resultData,
		error: error && { message: error.message, description: error.description, messages: error.messages, context: error.context },
	});
	expect(seen).not.toContain(token);
}

describe('batching', () => {
	it('sends 250 items as 100 + 100 + 50 records, in input order, each record once', async () => {
		const input = tasks(250);
		const result = await importRecords({ recordTypeId: 'ukoly' }, input);

		expect(result.error).toBeUndefined();
		expect(importLog().map((entry) => entry.records)).toEqual([100, 100, 50]);
		expect(importLog().flatMap((entry) => entry.keys)).toEqual(input.map((task) => task.Název));
		expect(storedNames('ukoly').slice(2)).toEqual(input.map((task) => task.Název));
		expect(result.items).toHaveLength(250);
		result.items.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json).toMatchObject({ status: 'created', batch: Math.floor(index / 100) + 1, record: input[index] });
		});
	});

	it('honours Records per Request', async () => {
		const result = await importRecords({ recordTypeId: 'ukoly', options: { batchSize: 7 } }, tasks(20));

		expect(result.error).toBeUndefined();
		expect(importLog().map((entry) => entry.records)).toEqual([7, 7, 6]);
	});

	it('with parallel requests, imports every record exactly once and keeps the output in input order', async () => {
		await addFault({ route: 'import', latencyMs: 20 });
		const input = tasks(1000, 'Paralelní');
		const result = await importRecords({ recordTypeId: 'ukoly', options: { batchSize: 50, concurrency: 4 } }, input);

		expect(result.error).toBeUndefined();
		expect(importLog()).toHaveLength(20);
		expect(importLog().every((entry) => entry.records === 50 && entry.status === 200)).toBe(true);
		const stored = storedNames('ukoly').slice(2);
		expect(stored).toHaveLength(1000);
		expect(new Set(stored).size).toBe(1000);
		expect([...stored].sort()).toEqual(input.map((task) => task.Název).sort());
		const type = sandbox.state.recordTypes.get('ukoly');
		result.items.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json.record).toEqual(input[index]);
			expect(item.json.id).toBe(type?.findByKey(input[index].Název)?.id);
		});
	});

	it('brings text typed in NFD to NFC in every batch, sent or not, unless told not to; the input items stay as they were', async () => {
		await addFault({ route: 'import', latencyMs: 20 });
		const NFD = (text: string) => text.normalize('NFD');
		const input = Array.from({ length: 30 }, (_, i) => ({ Název: NFD(`Účtenka č. ${i}`), Zadal: NFD('Řehoř Šťastný') }));
		const nfc = input.map((task) => ({ Název: task.Název.normalize('NFC'), Zadal: 'Řehoř Šťastný'.normalize('NFC') }));
		const result = await importRecords({ recordTypeId: 'ukoly', options: { batchSize: 4, concurrency: 2 } }, input);

		expect(result.error).toBeUndefined();
		expect(importLog().flatMap((entry) => entry.keys)).toEqual(nfc.map((task) => task.Název));
		expect(recordsOf('ukoly').slice(2).map((record) => record.fields)).toEqual(nfc);
		expect(result.items.map((item) => item.json.record)).toEqual(nfc);
		expect(input[29].Název).toBe(NFD('Účtenka č. 29'));

		sandbox.reset();
		const refused = await importRecords({ recordTypeId: 'ukoly', options: { batchSize: 10 } }, input, {
			credentials: { ...credentials, token: TOKENS.analysisAdmin },
			continueOnFail: true,
		});
		expect(importLog()).toHaveLength(1);
		expect(refused.items.map((item) => item.json.record)).toEqual(nfc);

		sandbox.reset();
		const asGiven = await importRecords(
			{ recordTypeId: 'ukoly', options: { batchSize: 4, normalizeTextValues: false } },
			input.slice(0, 5),
		);
		expect(asGiven.items.map((item) => item.json.record)).toEqual(input.slice(0, 5));
		expect(recordsOf('ukoly').slice(2).map((record) => record.fields)).toEqual(input.slice(0, 5));
	});

	it.each([1, 3])(
		'sends large batches byte for byte, made ahead in slices or made when sent (%d at a time)',
		async (concurrency) => {
			// About 400 KB per batch: one at a time, each body is made ahead in several slices; with
			// several at a time, it is made when its batch is sent.
			await addFault({ route: 'import', latencyMs: 30 });
			const input = Array.from({ length: 1200 }, (_, i) => ({
				Název: `Velký úkol ${i}`,
				Zadal: `${'Příliš žluťoučký kůň úpěl ďábelské ódy – „test“. '.repeat(40)}${i}`,
			}));
			const result = await importRecords({ recordTypeId: 'ukoly', options: { batchSize: 200, concurrency } }, input);

			expect(result.error).toBeUndefined();
			expect(importLog().map((entry) => entry.records)).toEqual([200, 200, 200, 200, 200, 200]);
			const sentKeys = importLog().flatMap((entry) => entry.keys);
			const inputKeys = input.map((task) => task.Název);
			if (concurrency === 1) expect(sentKeys).toEqual(inputKeys);
			else expect([...sentKeys].sort()).toEqual([...inputKeys].sort());
			const stored = recordsOf('ukoly').slice(2);
			expect(stored).toHaveLength(1200);
			const byName = new Map(stored.map((record) => [record.fields['Název'], record.fields['Zadal']]));
			for (const task of input) expect(byName.get(task.Název)).toBe(task.Zadal);
		},
	);
});

describe('faults the service recovers from', () => {
	it.each([
		['429 with Retry-After', { status: 429, retryAfter: 0, times: 2 }, '429'],
		['503 with Retry-After', { status: 503, retryAfter: 0, times: 2 }, '503'],
		['a dropped connection, with "Retry When Outcome Unknown"', { reset: true, times: 1 }, 'reset'],
	])('after %s, sends the batch again: nothing lost, nothing doubled', async (_label, fault, faultStatus) => {
		await addFault({ route: 'import', ...fault });
		const input = tasks(150);
		const result = await importRecords({ recordTypeId: 'ukoly', options: { retryUnknownOutcome: faultStatus === 'reset' } }, input);

		expect(result.error).toBeUndefined();
		expect(storedNames('ukoly').slice(2)).toEqual(input.map((task) => task.Název));
		expect(result.items.every((item) => item.json.status === 'created')).toBe(true);
		const statuses = importLog().map((entry) => String(entry.status));
		expect(statuses.filter((status) => status === faultStatus)).toHaveLength(fault.times);
		expect(statuses.filter((status) => status === '200')).toHaveLength(2);
	});
});

describe('a batch whose outcome is unknown', () => {
	// ukoly (2 records) · poznamky (2 records, the failing batch) · faktury-prijate (1 record)
	const mixed = [
		{ typ: 'ukoly', Název: 'A1' },
		{ typ: 'ukoly', Název: 'A2' },
		{ typ: 'poznamky', Text: 'B1' },
		{ typ: 'poznamky', Text: 'B2' },
		{ typ: 'faktury-prijate', 'Interní číslo': 'FP-C1' },
	];
	const parameters = { recordTypeId: '={{ $json.typ }}', fieldsToSend: 'allExcept', fieldsToExclude: 'typ' };

	it('with "continue on fail": not sent again, its items fail, the other batches are imported', async () => {
		await addFault({ route: 'import', recordTypeId: 'poznamky', status: 500, afterProcessing: true });
		const result = await importRecords(parameters, mixed, { continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.pairedItem, item.json.status ?? 'error'])).toEqual([
			[{ item: 0 }, 'created'],
			[{ item: 1 }, 'created'],
			[{ item: 2 }, 'error'],
			[{ item: 3 }, 'error'],
			[{ item: 4 }, 'created'],
		]);
		const failed = result.items[2].json;
		expect(failed.error).toBe(
			'Batch 2 of 3 (items 2–3) for record type "poznamky" failed: The service failed while processing the request for the record type "poznamky" (500)',
		);
		expect(failed.description).toContain('may already have processed this request, so it was not sent again');
		expect(failed).toMatchObject({ httpCode: '500', recordTypeId: 'poznamky', batch: 2, record: { Text: 'B1' } });
		// The sandbox did store them: the node must not have sent them a second time.
		expect(importLog().filter((entry) => entry.recordTypeId === 'poznamky')).toHaveLength(1);
		expect(recordsOf('poznamky').map((record) => record.fields.Text)).toEqual(['B1', 'B2']);
		expect(recordsOf('faktury-prijate').map((record) => record.fields['Interní číslo'])).toContain('FP-C1');
		expectNoToken(result);
	});

	it('without it: stops, says which batch and items failed, what was imported and what was not sent', async () => {
		await addFault({ route: 'import', recordTypeId: 'poznamky', status: 500, afterProcessing: true });
		const result = await importRecords(parameters, mixed);

		expect(result.items).toEqual([]);
		expect(result.error?.message).toBe(
			'Batch 2 of 3 (items 2–3) for record type "poznamky" failed: The service failed while processing the request for the record type "poznamky" (500)',
		);
		expect(result.error?.description).toContain('it was not sent again');
		expect(result.error?.description).toContain('Already imported: 2 records of batch 1.');
		expect(result.error?.description).toContain('Not sent: 1 record of batch 3.');
		expect(errorItemIndex(result)).toBe(2);
		expect(importLog().map((entry) => entry.recordTypeId)).toEqual(['ukoly', 'poznamky']);
		expect(recordsOf('faktury-prijate').map((record) => record.fields['Interní číslo'])).not.toContain('FP-C1');
		expectNoToken(result);
	});

	it('after a timeout: not sent again', async () => {
		await addFault({ route: 'import', slowMs: 1500, times: 1 });
		const result = await importRecords({ recordTypeId: 'ukoly', options: { timeout: 0.5 } }, tasks(3));

		expect(result.error?.message).toContain('did not answer within the timeout');
		expect(result.error?.description).toContain('it was not sent again');
		await new Promise((resolve) => setTimeout(resolve, 1500));
		expect(importLog()).toHaveLength(1);
		expect(storedNames('ukoly').slice(2)).toEqual(['Úkol 0', 'Úkol 1', 'Úkol 2']);
	});

	it('with "Retry When Outcome Unknown" and a key field: sent again, and the repeat only edits', async () => {
		await addFault({ route: 'import', reset: true, afterProcessing: true, times: 1 });
		const result = await importRecords({ recordTypeId: 'ukoly', options: { retryUnknownOutcome: true } }, tasks(3));

		expect(result.error).toBeUndefined();
		expect(importLog().map((entry) => [entry.processed, entry.status])).toEqual([
			[true, 'reset'],
			[true, 200],
		]);
		expect(storedNames('ukoly')).toHaveLength(5);
		expect(result.items.map((item) => item.json.status)).toEqual(['edited', 'edited', 'edited']);
	});
});

describe('errors of the service', () => {
	it('401: names the import permission, sends one request only, and never shows the token', async () => {
		const analysisOnly = { ...credentials, token: TOKENS.analysisAdmin };
		const result = await importRecords({ recordTypeId: 'ukoly', options: { batchSize: 10 } }, tasks(30), {
			credentials: analysisOnly,
		});

		expect(result.error?.message).toBe(
			'Batch 1 of 3 (items 0–9) for record type "ukoly" failed: The service refused the API token (401)',
		);
		expect(result.error?.description).toContain('import permission');
		expect(result.error?.description).toContain('Settings → Import → API keys for import');
		expect(importLog()).toHaveLength(1);
		expectNoToken(result, TOKENS.analysisAdmin);
	});

	it('401 with "continue on fail": every item fails, and batches after the first are not sent', async () => {
		const wrong = { ...credentials, token: 'rk_this-token-does-not-exist-0123456789' };
		const result = await importRecords({ recordTypeId: 'ukoly', options: { batchSize: 10 } }, tasks(30), {
			credentials: wrong,
			continueOnFail: true,
		});

		expect(result.items).toHaveLength(30);
		expect(result.items[0].json.error).toContain('The service refused the API token (401)');
		expect(result.items[29].json.error).toBe(
			'Not sent, because batch 1 failed: The service refused the API token (401)',
		);
		expect(result.items[29].json.batch).toBe(3);
		expect(importLog()).toHaveLength(1);
		expectNoToken(result, wrong.token);
	});

	it('404: says the record type does not exist and where to find its ID', async () => {
		const result = await importRecords({ recordTypeId: 'neexistuje' }, tasks(2));

		expect(result.error?.message).toBe(
			'Batch 1 of 1 (items 0–1) for record type "neexistuje" failed: The record type "neexistuje" does not exist (404)',
		);
		expect(result.error?.description).toContain('Check the Record Type ID');
		expect(result.error?.description).toContain('No records were imported.');
	});

	it('404 with "continue on fail": only that record type fails, the others are imported', async () => {
		const input = [
			{ typ: 'neexistuje', Název: 'X1' },
			{ typ: 'ukoly', Název: 'U1' },
			{ typ: 'neexistuje', Název: 'X2' },
			{ typ: 'ukoly', Název: 'U2' },
		];
		const result = await importRecords(
			{ recordTypeId: '={{ $json.typ }}', fieldsToSend: 'allExcept', fieldsToExclude: 'typ', options: { batchSize: 1 } },
			input,
			{ continueOnFail: true },
		);

		expect(result.items.map((item) => item.json.status ?? item.json.error)).toEqual([
			'Batch 1 of 4 (item 0) for record type "neexistuje" failed: The record type "neexistuje" does not exist (404)',
			'created',
			'Not sent, because batch 1 failed: The record type "neexistuje" does not exist (404)',
			'created',
		]);
		expect(importLog().map((entry) => entry.recordTypeId)).toEqual(['neexistuje', 'ukoly', 'ukoly']);
		expect(storedNames('ukoly').slice(2)).toEqual(['U1', 'U2']);
	});

	it('400 naming a record of the batch: points at the input item and field', async () => {
		const input: IDataObject[] = tasks(250);
		input[137] = { Název: 'Úkol 137', Poznámka: 'pole, které typ nemá' };
		const result = await importRecords({ recordTypeId: 'ukoly' }, input);

		expect(result.error?.message).toBe(
			'Batch 2 of 3 (items 100–199) for record type "ukoly" failed: The service rejected the request for the record type "ukoly" (400)',
		);
		// The service's sentence ends before the node's begins.
		expect(result.error?.description).toContain('Record 37: unknown field "Poznámka"');
		expect(result.error?.description).toContain(
			'Known fields: Název, Zadal, Zpracovatel. The service points at record 37 of this batch: input item 137, field "Poznámka".',
		);
		expect(result.error?.description).toContain('Already imported: 100 records of batch 1.');
		expect(result.error?.description).toContain('Not sent: 50 records of batch 3.');
		expect(errorItemIndex(result)).toBe(137);
		expect(storedNames('ukoly')).toHaveLength(2 + 100);
	});

	it('400 with "continue on fail": the rejected batch fails, the batches around it are imported', async () => {
		const input: IDataObject[] = tasks(250);
		input[137] = { Název: 'Úkol 137', Poznámka: 'x' };
		const result = await importRecords({ recordTypeId: 'ukoly' }, input, { continueOnFail: true });

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(250);
		const failed = result.items.filter((item) => item.json.error !== undefined);
		expect(failed.map((item) => (item.pairedItem as { item: number }).item)).toEqual([...Array(100).keys()].map((i) => i + 100));
		expect(failed[0].json.description).toContain('input item 137');
		expect(storedNames('ukoly')).toHaveLength(2 + 150);
	});
});

describe('responses the spec does not show', () => {
	let server: http.Server;
	let reply: { status: number; contentType?: string; body: string };
	let received: Array<{ path: string; records: number }>;

	beforeAll(async () => {
		server = http.createServer((req, res) => {
			let text = '';
			req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
			req.on('end', () => {
				received.push({ path: req.url ?? '', records: (JSON.parse(text) as { data: unknown[] }).data.length });
				res.writeHead(reply.status, reply.contentType ? { 'content-type': reply.contentType } : {});
				res.end(reply.body);
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	});
	afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));
	beforeEach(() => (received = []));

	const otherService = () => ({ ...credentials, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });

	it.each([
		['an empty 200', { status: 200, body: '' }, ['imported', 'imported']],
		['204 No Content', { status: 204, body: '' }, ['imported', 'imported']],
		['a JSON summary', { status: 200, contentType: 'application/json', body: '{"imported":2}' }, ['imported', 'imported']],
		['201 with an unrelated data object', { status: 201, contentType: 'application/json', body: '{"data":{"ok":true}}' }, ['imported', 'imported']],
		[
			'a list of results without indexes',
			{ status: 200, contentType: 'application/json', body: '[{"id":7,"status":"created"},{"id":8,"status":"updated"}]' },
			['created', 'updated'],
		],
	])('takes %s for an import, with what it says of each record', async (_label, response, statuses) => {
		reply = response;
		const result = await importRecords({ recordTypeId: 'ukoly', options: { includeResponse: true } }, tasks(2), {
			credentials: otherService(),
		});

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.status)).toEqual(statuses);
		expect(result.items.map((item) => item.json.record)).toEqual(tasks(2));
		expect(received).toEqual([{ path: '/api/3p/import/ukoly', records: 2 }]);
	});

	it.each([
		['an empty 200', { status: 200, body: '' }],
		['204 No Content', { status: 204, body: '' }],
		['a JSON summary', { status: 200, contentType: 'application/json', body: '{"imported":2}' }],
		['JSON under a vendor type', { status: 200, contentType: 'application/vnd.records+json', body: '{"ok":true}' }],
	])('takes %s for an import', async (_label, response) => {
		reply = response;
		const result = await importRecords({ recordTypeId: 'ukoly' }, tasks(2), { credentials: otherService() });

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.status)).toEqual(['imported', 'imported']);
	});

	it.each([
		['plain text', { status: 200, contentType: 'text/plain', body: 'OK' }, 'text/plain', 'OK'],
		['XML', { status: 200, contentType: 'application/xml', body: '<ok/>' }, 'application/xml', '<ok/>'],
		['an HTML page without a content type', { status: 200, body: '<html><body>Přihlášení</body></html>' }, 'no content type', '<html><body>Přihlášení</body></html>'],
	])('fails %s: the outcome is unknown, the error shows what came', async (_label, response, type, start) => {
		reply = response;
		const result = await importRecords({ recordTypeId: 'ukoly' }, tasks(2), { credentials: otherService() });

		expect(result.error?.message).toBe(
			`Batch 1 of 1 (items 0–1) for record type "ukoly" failed: The answer was not the service's: 200 with ${type}, where the service answers JSON`,
		);
		expect(result.error?.description).toContain(`It began: "${start}".`);
		expect(result.error?.description).toContain('whether they were imported is unknown');
		expect(received).toHaveLength(1);
	});

	it('never shows the token, even when the foreign answer echoes it', async () => {
		reply = { status: 200, contentType: 'text/html', body: `<html>Bearer ${credentials.token} is not signed in</html>` };
		const result = await importRecords({ recordTypeId: 'ukoly' }, tasks(2), { credentials: otherService() });

		expect(result.error?.description).toContain('It began: "<html>Bearer *** is not signed in</html>".');
		expectNoToken(result);
	});
});
