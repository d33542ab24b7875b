/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside n8n (Node.js's
	modules, `setTimeout`) */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ok, request, type ClientResponse } from './http-client';
import { DEFAULT_WEBHOOK_PAYLOAD, RECORD_TYPES } from '../../tooling/sandbox/server';
import { useSandbox } from '../integration/fixture';
import { parseXml, toXml } from '../../tooling/sandbox/xml';

/** A tiny receiver standing in for the called system: records each request, answers as told. */
interface Received {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

interface Answer {
	status?: number;
	contentType?: string;
	body?: string;
	delayMs?: number;
}

const sandbox = useSandbox();
let receiver: http.Server;
let receiverUrl: string;
let received: Received[] = [];
let answer: Answer = {};

beforeAll(async () => {
	receiver = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
			const respond = (): void => {
				if (res.destroyed) return;
				res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'application/json' });
				res.end(answer.body ?? '{}');
			};
			if (answer.delayMs) setTimeout(respond, answer.delayMs);
			else respond();
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
	receiver.closeAllConnections();
	await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

beforeEach(() => {
	received = [];
	answer = {};
});

const call = async (body: Record<string, unknown>): Promise<ClientResponse> =>
	ok(await request(sandbox.baseUrl, 'POST', '/__sandbox/outbound/call', { body }));

interface CallResult {
	ok: boolean;
	status: number | null;
	body: string | null;
	parsed: unknown;
	mapped: Record<string, string>;
	unmapped: string[];
	record: { id: string; fields: Record<string, string> } | null;
	durationMs: number;
	error?: string;
	request: { headers: Record<string, string> };
}

describe('outbound "call API" action (spec §4.3)', () => {
	it('POSTs the record as JSON with BASIC auth, fills #(NAME) in the URL and maps the response into the record', async () => {
		answer = { body: JSON.stringify({ company: { name: 'Kancelářské potřeby Novák s.r.o. (ověřeno)', ico: '12345678' } }) };
		const response = await call({
			url: `${receiverUrl}/lookup/#(Interní číslo)?partner=#(Partner)`,
			method: 'POST',
			format: 'json',
			auth: { type: 'basic', username: 'služba', password: 'tajné heslo' },
			headers: [{ name: 'X-Record', value: '#(ID)' }],
			recordTypeId: RECORD_TYPES.receivedInvoices,
			recordKey: 'FP-2026-0001',
			mapping: [
				{ from: 'company.name', to: 'Partner' },
				{ from: 'company.ico', to: 'Číslo objednávky' },
				{ from: 'company.missing', to: 'Popis' },
			],
		});
		expect(response.status).toBe(200);
		const result = response.json as CallResult;
		expect(result).toMatchObject({ ok: true, status: 200, unmapped: ['company.missing'] });
		expect(received).toHaveLength(1);
		const [sent] = received;
		expect(sent.method).toBe('POST');
		expect(sent.url).toBe(`/lookup/FP-2026-0001?partner=${encodeURIComponent('Kancelářské potřeby Novák s.r.o.')}`);
		expect(sent.headers.authorization).toBe(`Basic ${Buffer.from('služba:tajné heslo').toString('base64')}`);
		expect(sent.headers['content-type']).toMatch(/^application\/json/);
		expect(sent.headers['x-record']).toBe('1');
		expect(JSON.parse(sent.body)).toMatchObject({ 'Interní číslo': 'FP-2026-0001', Stav: 'Uhrazeno' });
		expect(result.mapped).toEqual({ Partner: 'Kancelářské potřeby Novák s.r.o. (ověřeno)', 'Číslo objednávky': '12345678' });
		const stored = sandbox.state.findRecordByKey(RECORD_TYPES.receivedInvoices, 'FP-2026-0001');
		expect(stored?.fields.Partner).toBe('Kancelářské potřeby Novák s.r.o. (ověřeno)');
		expect(stored?.fields['Číslo objednávky']).toBe('12345678');
		expect(JSON.stringify(result)).not.toContain('tajné heslo');
	});

	it('sends an OAUTH2 access token as a bearer header and a templated JSON body with escaped values', async () => {
		await request(sandbox.baseUrl, 'POST', '/__sandbox/record-types', {
			body: { id: 'firmy', fields: ['IČO', 'Název'], keyField: 'IČO', records: [{ IČO: '27074358', Název: 'Firma "Uvozovky"' }] },
		});
		const result = (await call({
			url: `${receiverUrl}/firmy`,
			method: 'PUT',
			format: 'json',
			auth: { type: 'oauth2', accessToken: 'access-123' },
			body: '{"ico":"#(IČO)","name":"#(Název)","when":"#(when)"}',
			variables: { when: '21.11.2026' },
			recordTypeId: 'firmy',
			recordKey: '27074358',
		})).json as CallResult;
		expect(result.ok).toBe(true);
		expect(received[0].method).toBe('PUT');
		expect(received[0].headers.authorization).toBe('Bearer access-123');
		expect(JSON.parse(received[0].body)).toEqual({ ico: '27074358', name: 'Firma "Uvozovky"', when: '21.11.2026' });
		expect(result.request.headers.authorization).toBe('Bearer <redacted>');
	});

	it('sends XML and maps fields of an XML response, with or without the root element in the path', async () => {
		answer = {
			contentType: 'application/xml',
			body: '<?xml version="1.0"?><odpoved><firma ico="123"><nazev>Stavby &amp; syn</nazev></firma><stav><![CDATA[<aktivní>]]></stav></odpoved>',
		};
		const result = (await call({
			url: `${receiverUrl}/xml`,
			method: 'POST',
			format: 'xml',
			body: { ukol: '#(Název)', cislo: 5 },
			xmlRoot: 'pozadavek',
			recordTypeId: RECORD_TYPES.tasks,
			recordKey: 'Objednat tonery',
			mapping: [
				{ from: 'odpoved.firma.nazev', to: 'Zadal' },
				{ from: 'stav', to: 'Zpracovatel' },
			],
		})).json as CallResult;
		expect(received[0].headers['content-type']).toMatch(/^application\/xml/);
		expect(parseXml(received[0].body)).toEqual({ pozadavek: { ukol: 'Objednat tonery', cislo: '5' } });
		expect(result.parsed).toEqual({ odpoved: { firma: { '@ico': '123', nazev: 'Stavby & syn' }, stav: '<aktivní>' } });
		expect(result.mapped).toEqual({ Zadal: 'Stavby & syn', Zpracovatel: '<aktivní>' });
		expect(sandbox.state.findRecordByKey(RECORD_TYPES.tasks, 'Objednat tonery')?.fields).toMatchObject({
			Zadal: 'Stavby & syn',
			Zpracovatel: '<aktivní>',
		});
		const records = ok(await request(sandbox.baseUrl, 'GET', `/__sandbox/records/${RECORD_TYPES.tasks}`)).json as {
			records: Array<{ fields: Record<string, string> }>;
		};
		expect(records.records.some((r) => r.fields.Zadal === 'Stavby & syn')).toBe(true);
	});

	it('sends PING as a HEAD request marked X-Records-Ping (or GET when asked)', async () => {
		const result = (await call({ url: `${receiverUrl}/hook`, method: 'PING', format: 'json' })).json as CallResult;
		expect(result).toMatchObject({ ok: true, status: 200 });
		expect(received[0]).toMatchObject({ method: 'HEAD', body: '' });
		expect(received[0].headers['x-records-ping']).toBe('1');
		await call({ url: `${receiverUrl}/hook`, method: 'PING', format: 'json', pingMethod: 'GET' });
		expect(received[1].method).toBe('GET');
		expect(received[1].headers['x-records-ping']).toBe('1');
	});

	it('sends GET and DELETE without a body', async () => {
		await call({ url: `${receiverUrl}/a?x=#(x)`, method: 'GET', format: 'json', variables: { x: 'a b&c' } });
		await call({ url: `${receiverUrl}/b`, method: 'DELETE', format: 'json' });
		expect(received.map((r) => [r.method, r.url, r.body])).toEqual([
			['GET', '/a?x=a%20b%26c', ''],
			['DELETE', '/b', ''],
		]);
	});

	it('reports a timeout as ok:false, error "timeout"', async () => {
		answer = { delayMs: 1000 };
		const result = (await call({ url: `${receiverUrl}/slow`, method: 'GET', format: 'json', timeoutSeconds: 0.2 })).json as CallResult;
		expect(result).toMatchObject({ ok: false, error: 'timeout' });
		expect(result.durationMs).toBeLessThan(900);
	});

	it('reports an error status and a refused connection without mapping anything', async () => {
		answer = { status: 500, body: '{"company":{"name":"x"}}' };
		const failed = (await call({
			url: `${receiverUrl}/err`,
			method: 'POST',
			format: 'json',
			body: {},
			recordTypeId: RECORD_TYPES.tasks,
			recordKey: 'Objednat tonery',
			mapping: [{ from: 'company.name', to: 'Zadal' }],
		})).json as CallResult;
		expect(failed).toMatchObject({ ok: false, status: 500, mapped: {} });
		expect(sandbox.state.findRecordByKey(RECORD_TYPES.tasks, 'Objednat tonery')?.fields.Zadal).toBe('Jana Nováková');
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		const refused = (await call({ url: `http://127.0.0.1:${port}/`, method: 'GET', format: 'json' })).json as CallResult;
		expect(refused).toMatchObject({ ok: false, error: 'ECONNREFUSED' });
	});

	it.each([
		[{ url: 'x', method: 'PATCH', format: 'json' }, /method/],
		[{ url: 'x', method: 'GET', format: 'csv' }, /format/],
		[{ url: `http://127.0.0.1/#(Neznámá)`, method: 'GET', format: 'json' }, /Unknown variable #\(Neznámá\)/],
		[{ url: 'http://127.0.0.1/', method: 'GET', format: 'json', recordTypeId: RECORD_TYPES.tasks, recordKey: 'nic' }, /No record/],
		[
			{
				url: 'http://127.0.0.1/',
				method: 'GET',
				format: 'json',
				recordTypeId: RECORD_TYPES.tasks,
				recordKey: 'Objednat tonery',
				mapping: [{ from: 'a', to: 'Neexistuje' }],
			},
			/Mapping target "Neexistuje"/,
		],
		[{ url: 'http://127.0.0.1/', method: 'GET', format: 'json', auth: { type: 'basic' } }, /username/],
	])('refuses a bad call configuration with 400: %j', async (body, message) => {
		const response = await call(body);
		expect(response.status).toBe(400);
		expect((response.json as { message: string }).message).toMatch(message);
		expect(received).toHaveLength(0);
	});
});

describe('outbound webhook (spec §6)', () => {
	it('sends the invoice.paid event with defaults', async () => {
		answer = { status: 202, body: '{"received":true}' };
		const response = ok(await request(sandbox.baseUrl, 'POST', '/__sandbox/outbound/webhook', { body: { url: `${receiverUrl}/wh` } }));
		expect(response.json).toMatchObject({ ok: true, status: 202, body: '{"received":true}' });
		expect(received[0].method).toBe('POST');
		expect(received[0].headers['content-type']).toMatch(/^application\/json/);
		expect(JSON.parse(received[0].body)).toEqual(DEFAULT_WEBHOOK_PAYLOAD);
	});

	it('overrides the event and payload, and adds headers and auth', async () => {
		await request(sandbox.baseUrl, 'POST', '/__sandbox/outbound/webhook', {
			body: {
				url: `${receiverUrl}/wh`,
				event: 'invoice.overdue',
				payload: { invoice_id: 77, note: 'x' },
				headers: [{ name: 'X-Signature', value: 'abc' }],
				auth: { type: 'oauth2', accessToken: 'tok' },
			},
		});
		expect(JSON.parse(received[0].body)).toEqual({ ...DEFAULT_WEBHOOK_PAYLOAD, event: 'invoice.overdue', invoice_id: 77, note: 'x' });
		expect(received[0].headers['x-signature']).toBe('abc');
		expect(received[0].headers.authorization).toBe('Bearer tok');
	});

	it('can send a raw (malformed) body for negative tests', async () => {
		await request(sandbox.baseUrl, 'POST', '/__sandbox/outbound/webhook', { body: { url: `${receiverUrl}/wh`, rawBody: '{"event":' } });
		expect(received[0].body).toBe('{"event":');
	});
});

describe('sandbox XML helpers', () => {
	it('round-trips element-per-field documents, repeated elements and awkward names', () => {
		const xml = toXml('record', { 'Interní číslo': 'A&B', položky: [{ kód: 1 }, { kód: 2 }], prázdné: null });
		expect(xml).toBe(
			'<?xml version="1.0" encoding="UTF-8"?><record><Interní_číslo>A&amp;B</Interní_číslo><položky><kód>1</kód></položky><položky><kód>2</kód></položky><prázdné/></record>',
		);
		expect(parseXml(xml)).toEqual({ record: { Interní_číslo: 'A&B', položky: [{ kód: '1' }, { kód: '2' }], prázdné: '' } });
	});

	it('decodes character references and refuses DOCTYPE, unknown entities and broken documents', () => {
		expect(parseXml('<a>&#268;&#x65;</a>')).toEqual({ a: 'Če' });
		expect(() => parseXml('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>')).toThrow(/DOCTYPE/);
		expect(() => parseXml('<a>&x;</a>')).toThrow(/Unknown entity/);
		expect(() => parseXml('<a><b></a>')).toThrow(/Expected <\/b>/);
		expect(() => parseXml('<a></a><b/>')).toThrow(/after the root/);
	});
});
