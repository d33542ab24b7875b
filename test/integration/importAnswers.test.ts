/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets --
	a test: runs in Node.js, not inside n8n (Node.js's modules); its token is a fixed test value */
/**
 * Record → Import reads what a service of its own (not the sandbox) answers, through n8n's execution
 * engine over real HTTP: answers a real back end gives, which the guide (§4.1, "not shown") does not
 * describe. An item says "imported" only when the answer plainly says so, "refused" only when it
 * plainly says the record was not imported, and "unknown" otherwise; no error quotes the token.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { runNode, type RunNodeResult } from '../../tooling/harness/n8nCoreHarness';

const TOKEN = 'rk_review2_8f3a61c04e9b27d5a1c6e08f93b4d27a';

interface Reply {
	status: number;
	contentType?: string;
	body: string;
}

let server: http.Server;
let replies: Array<Reply | ((authorization: string) => Reply)>;
let received: number[];

beforeAll(async () => {
	server = http.createServer((req, res) => {
		let text = '';
		req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
		req.on('end', () => {
			received.push((JSON.parse(text) as { data: unknown[] }).data.length);
			const next = replies.shift() ?? { status: 200, body: '' };
			const reply = typeof next === 'function' ? next(req.headers.authorization ?? '') : next;
			res.writeHead(reply.status, reply.contentType ? { 'content-type': reply.contentType } : {});
			res.end(reply.body);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => await new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
	replies = [];
	received = [];
});

const tasks = (count: number) => Array.from({ length: count }, (_, i) => ({ Název: `Úkol ${i}`, Zadal: 'Jana Nováková' }));

function importTasks(count: number, options: IDataObject = {}, continueOnFail = true): Promise<RunNodeResult> {
	return runNode({
		nodeType: new Records(),
		parameters: { resource: 'record', operation: 'import', recordTypeId: 'ukoly', options: options as IDataObject as Record<string, never> },
		credentials: { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: TOKEN, allowHttp: true },
		input: tasks(count),
		continueOnFail,
	});
}

const json = (body: unknown, contentType = 'application/json'): Reply => ({ status: 200, contentType, body: JSON.stringify(body) });

/** Per item: imported, refused or unknown, by what the item says. */
function outcomes(result: RunNodeResult): string[] {
	return result.items.map(({ json: item }) => {
		if (item.error === undefined) return 'imported';
		const text = String(item.error);
		if (text.startsWith('The service did not import this record')) return 'refused';
		if (/unknown/i.test(text)) return 'unknown';
		return text;
	});
}

/** Every 6-character piece of the token: none may appear anywhere in what the run produced. */
function expectNoPieceOfToken(result: RunNodeResult) {
	const error = result.error as unknown as Record<string, unknown> | undefined;
	const seen = JSON.stringify({
		items: result.items,
		run: result.run.data.resultData,
		error: error && { message: error.message, description: error.description, messages: error.messages },
	});
	for (let start = 0; start + 6 <= TOKEN.length; start++) {
		expect({ piece: TOKEN.slice(start, start + 6), found: seen.includes(TOKEN.slice(start, start + 6)) }).toEqual({
			piece: TOKEN.slice(start, start + 6),
			found: false,
		});
	}
}

describe('finding 1: a 200 that says the import failed at its top level', () => {
	it.each([
		['success: false', { success: false, error: 'Record type "ukoly" is locked for import' }, 'Record type "ukoly" is locked for import'],
		['status: "error"', { status: 'error', message: 'Import is disabled for this token' }, 'Import is disabled for this token'],
		['an error object', { error: { code: 'VALIDATION', message: 'Field "Zadal" is unknown' } }, 'Field "Zadal" is unknown'],
	])('a 200 with %s at its top level is no import: every record of the batch is refused, with the reason', async (_label, body, reason) => {
		replies = [json(body)];
		const result = await importTasks(3);

		expect(outcomes(result)).toEqual(['refused', 'refused', 'refused']);
		expect(result.items[0].json.error).toBe(`The service did not import this record: ${reason}`);
		expect(result.items.map((item) => item.json.outcome)).toEqual(['refused', 'refused', 'refused']);
	});

	it('without Continue On Fail, the run stops with the service\'s reason and says nothing was imported', async () => {
		replies = [json({ success: false, error: 'Record type "ukoly" is locked for import' })];
		const result = await importTasks(3, { batchSize: 3 }, false);

		expect(result.error?.message).toBe(
			'Batch 1 of 1 (items 0–2) for record type "ukoly": the service did not import 3 records (items 0–2)',
		);
		expect(result.error?.description).toContain('Record type "ukoly" is locked for import');
		expect(result.error?.description).toContain('No records were imported.');
	});
});

describe('finding 2: refusals listed under a key the node did not read', () => {
	it('a 200 with refusals under errors: [{index, message}] calls neither record an index may name "imported" when it cannot say which', async () => {
		// Index 1 of 3 records is the second counting from 0, the first counting from 1: the answer does not say which.
		// The third is named by neither reading, and the count of 2 imported confirms it.
		replies = [json({ status: 'partial', imported: 2, failed: 1, errors: [{ index: 1, message: 'Field "Zadal" is unknown' }] })];
		const result = await importTasks(3);

		expect(outcomes(result)).toEqual(['unknown', 'unknown', 'imported']);
		expect(result.items[0].json.error).toContain('could count from 0 or from 1');
	});

	it('and pairs them when the answer settles the counting (an index 0)', async () => {
		replies = [json({ status: 'partial', imported: 2, failed: 1, errors: [{ index: 0, message: 'Field "Zadal" is unknown' }] })];
		const result = await importTasks(3);

		expect(outcomes(result)).toEqual(['refused', 'imported', 'imported']);
		expect(result.items[0].json.error).toBe('The service did not import this record: Field "Zadal" is unknown');
	});
});

describe('finding 3: results listed for the refused records only, without an index', () => {
	it('a 200 listing only the refused records without an index makes the batch\'s outcome unknown, not imported', async () => {
		replies = [json({ status: 'ok', results: [{ status: 'error', message: 'Record is locked' }] })];
		const result = await importTasks(3);

		expect(outcomes(result)).toEqual(['unknown', 'unknown', 'unknown']);
		expect(result.items.map((item) => item.json.outcome)).toEqual(['unknown', 'unknown', 'unknown']);
	});

	it('and pairs a refusal that carries the record\'s field value', async () => {
		replies = [json({ results: [{ status: 'error', Název: 'Úkol 1', message: 'Record is locked' }] })];
		const result = await importTasks(3);

		expect(outcomes(result)).toEqual(['imported', 'refused', 'imported']);
	});
});

describe('finding 4: indexes counted from 1', () => {
	it('a 200 with 1-based indexes blames the right record (an index equal to the batch size settles it)', async () => {
		replies = [
			json({
				results: [
					{ index: 1, status: 'created', id: 11 },
					{ index: 2, status: 'error', message: 'Record is locked' },
					{ index: 3, status: 'created', id: 13 },
				],
			}),
		];
		const result = await importTasks(3);

		expect(outcomes(result)).toEqual(['imported', 'refused', 'imported']);
		expect(result.items.map((item) => item.json.id ?? null)).toEqual([11, null, 13]);
	});

	it('an index that could count from 0 or from 1 blames no record: the records either reading names are unknown, the other imported', async () => {
		replies = [json({ errors: [{ index: 2, message: 'Record is locked' }] })];
		const result = await importTasks(3);

		expect(outcomes(result)).toEqual(['imported', 'unknown', 'unknown']);
	});
});

describe('finding 5: a JSON answer labelled text/html', () => {
	it('a successful import whose JSON answer is labelled text/html is read by its content: every record imported', async () => {
		replies = [json({ status: 'ok', imported: 3 }, 'text/html; charset=UTF-8')];
		const result = await importTasks(3);

		expect(result.error).toBeUndefined();
		expect(outcomes(result)).toEqual(['imported', 'imported', 'imported']);
		expect(received).toEqual([3]);
	});

	it('an HTML page is still not the service\'s, and its error does not claim that nothing was imported', async () => {
		replies = [{ status: 200, contentType: 'text/html', body: '<!DOCTYPE html><html><body>Sign in</body></html>' }];
		const result = await importTasks(3, {}, false);

		expect(result.error?.message).toContain("The answer was not the service's");
		expect(result.error?.description).not.toContain('No records were imported');
		expect(result.error?.description).not.toContain('It was empty');
		expect(result.error?.description).toContain('Outcome unknown: 3 records of batch 1.');
	});
});

describe('finding 6: the token across the excerpt\'s cut', () => {
	it.each([113, 123, 138, 146])(
		'an answer echoing "Bearer <token>" from character %s, across the import excerpt\'s 160-character cut, leaves no piece of it in the error',
		async (at) => {
			replies = [
				(authorization) => {
					const page = `<html><body>${'x'.repeat(at - 12)}${authorization}</body></html>`;
					return { status: 200, contentType: 'text/html', body: page };
				},
			];
			const result = await importTasks(3, {}, false);

			expect(result.error?.description).toContain('It began: "<html><body>xxxx');
			expectNoPieceOfToken(result);
		},
	);

	it('a JSON answer echoing the token in its reasons, and in the response output with Include Full Response, shows none of it', async () => {
		replies = [
			(authorization) => json({ success: false, error: `The token in "${authorization}" may not import into this record type` }),
			(authorization) => json({ status: 'ok', imported: 3, request: { headers: { authorization } } }),
		];
		const refused = await importTasks(3, { includeResponse: true });
		const imported = await importTasks(3, { includeResponse: true });

		expect(outcomes(refused)).toEqual(['refused', 'refused', 'refused']);
		expect(refused.items[0].json.error).toContain('The token in "Bearer ***" may not import');
		expectNoPieceOfToken(refused);
		expect(outcomes(imported)).toEqual(['imported', 'imported', 'imported']);
		expect(imported.items[0].json.response).toEqual({ status: 'ok', imported: 3, request: { headers: { authorization: 'Bearer ***' } } });
		expectNoPieceOfToken(imported);
	});

	it.each([458, 465, 478, 487])(
		'an error answer echoing "Bearer <token>" from character %s, across the transport\'s 500-character cut, leaves no piece of it',
		async (at) => {
			replies = [
				(authorization) => ({
					status: 400,
					contentType: 'application/json',
					body: JSON.stringify({ message: `${'x'.repeat(at)}${authorization}` }),
				}),
			];
			const result = await importTasks(3, {}, false);

			expect(result.error?.description).toContain('xxxx');
			expectNoPieceOfToken(result);
		},
	);
});
