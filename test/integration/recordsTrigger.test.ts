/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a test: its tokens and keys are fixed
	test values, not secrets */
/**
 * The Records Trigger hosted like n8n hosts an active webhook workflow (tooling/harness/webhook.ts),
 * called by the sandbox's real outbound side: workflow "call API" actions and webhooks (spec §4.3,
 * §6), with the answers mapped back into sandbox records.
 */
import { CredentialTestContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { RecordsTriggerBasicAuthApi } from '../../credentials/RecordsTriggerBasicAuthApi.credentials';
import { RecordsTriggerBearerAuthApi } from '../../credentials/RecordsTriggerBearerAuthApi.credentials';
import { RecordsTrigger } from '../../nodes/RecordsTrigger/RecordsTrigger.node';
import {
	RESPOND_TO_WEBHOOK_STAND_IN,
	transformNode,
	type DownstreamNode,
	type RespondParameters,
	type WebhookHost,
	type WebhookHostOptions,
} from '../../tooling/harness/webhook';
import { callApi, sendWebhook, storedFields } from '../../tooling/sandbox/control';
import { RECORD_TYPES } from '../../tooling/sandbox/server';
import { hostWebhooksAgainstSandbox } from './fixture';

const INVOICES = RECORD_TYPES.receivedInvoices;
const INVOICE_KEY = 'FP-2026-0001';
const BASIC = { user: 'records-service', password: 'S3cret heslo čšž' };
const TOKEN = 'oauth2-access-token.4f9c2a7e1b';

const hosting = hostWebhooksAgainstSandbox();

const outboundCall = (action: IDataObject) => callApi(hosting.sandbox, action);
const outboundWebhook = (webhook: IDataObject) => sendWebhook(hosting.sandbox, webhook);
const storedInvoice = (key = INVOICE_KEY) => storedFields(hosting.sandbox, INVOICES, key);

const recordId = (key = INVOICE_KEY) => hosting.sandbox.state.findRecordByKey(INVOICES, key)?.id as string;

async function start(parameters: INodeParameters, extra: Partial<WebhookHostOptions> = {}): Promise<WebhookHost> {
	return await hosting.start({
		nodeType: new RecordsTrigger(),
		parameters,
		credentials: [
			{ type: new RecordsTriggerBasicAuthApi(), data: BASIC as unknown as ICredentialDataDecryptedObject },
			{ type: new RecordsTriggerBearerAuthApi(), data: { token: TOKEN } },
		],
		...extra,
	});
}

/** The trigger's emitted JSON of execution `index`, once its run finished. */
async function emitted(index = 0): Promise<IDataObject> {
	const execution = hosting.host?.executions[index];
	if (!execution) throw new Error(`No execution ${index}`);
	await execution.run;
	return execution.items[0].json;
}

function respondWith(parameters: RespondParameters, typeVersion = 1): DownstreamNode {
	return { name: 'Respond to Webhook', type: RESPOND_TO_WEBHOOK_STAND_IN, parameters, typeVersion };
}

describe('workflow call API actions', () => {
	it('receives a JSON POST with the record fields, answers at once, and the answer is mapped into the record', async () => {
		const { webhookUrl } = await start({ responseBody: '{ "status": "Přijato v n8n", "echo": "FP" }' });
		const outcome = await outboundCall({
			url: webhookUrl,
			method: 'POST',
			format: 'json',
			body: { invoice: '#(Interní číslo)', amount: '#(Kolik to stálo)' },
			recordTypeId: INVOICES,
			recordKey: INVOICE_KEY,
			mapping: [
				{ from: 'status', to: 'Stav' },
				{ from: 'echo', to: 'Popis' },
			],
		});

		expect(outcome).toMatchObject({ ok: true, status: 200, unmapped: [] });
		expect(outcome.headers['content-type']).toBe('application/json; charset=utf-8');
		expect(storedInvoice()).toMatchObject({ Stav: 'Přijato v n8n', Popis: 'FP' });
		expect(hosting.host?.executions).toHaveLength(1);
		expect(await emitted()).toEqual({
			event: null,
			method: 'POST',
			format: 'json',
			replyFormat: 'json',
			body: { invoice: INVOICE_KEY, amount: '4356,00' },
			query: {},
			params: {},
		});
	});

	it('receives an XML PUT and answers in XML, which the service maps back', async () => {
		const { webhookUrl } = await start({ responseBody: '{ "status": "Zpracováno", "detail": { "code": "A1" } }' });
		const outcome = await outboundCall({
			url: webhookUrl,
			method: 'PUT',
			format: 'xml',
			xmlRoot: 'invoice',
			body: { number: '#(Interní číslo)', partner: '#(Partner)' },
			recordTypeId: INVOICES,
			recordKey: INVOICE_KEY,
			mapping: [
				{ from: 'status', to: 'Stav' },
				{ from: 'response.detail.code', to: 'Projekt' },
			],
		});

		expect(outcome).toMatchObject({ ok: true, status: 200, unmapped: [] });
		expect(outcome.headers['content-type']).toBe('application/xml; charset=utf-8');
		expect(outcome.body).toBe(
			'<?xml version="1.0" encoding="UTF-8"?><response><status>Zpracováno</status><detail><code>A1</code></detail></response>',
		);
		expect(storedInvoice()).toMatchObject({ Stav: 'Zpracováno', Projekt: 'A1' });
		expect(await emitted()).toMatchObject({
			method: 'PUT',
			format: 'xml',
			replyFormat: 'xml',
			body: { invoice: { number: INVOICE_KEY, partner: 'Kancelářské potřeby Novák s.r.o.' } },
		});
	});

	it('exposes #(…) variables from the query string and from path parameters, on GET and DELETE', async () => {
		const { webhookUrl } = await start({ path: ':recordId' });
		expect(webhookUrl).toMatch(/\/webhook\/[0-9a-f-]{36}\/:recordId$/);
		const base = webhookUrl.replace(':recordId', '#(ID)');

		const get = await outboundCall({
			url: `${base}?invoice=#(Interní číslo)&partner=#(Partner)`,
			method: 'GET',
			recordTypeId: INVOICES,
			recordKey: INVOICE_KEY,
		});
		const remove = await outboundCall({ url: base, method: 'DELETE', recordTypeId: INVOICES, recordKey: INVOICE_KEY });

		expect([get.status, remove.status]).toEqual([200, 200]);
		expect(await emitted(0)).toMatchObject({
			method: 'GET',
			format: 'none',
			body: {},
			query: { invoice: INVOICE_KEY, partner: 'Kancelářské potřeby Novák s.r.o.' },
			params: { recordId: recordId() },
		});
		expect(await emitted(1)).toMatchObject({ method: 'DELETE', params: { recordId: recordId() } });
	});

	it('answers a GET without body in the format its Accept header asks for', async () => {
		const { webhookUrl } = await start({});
		const xml = await outboundCall({ url: webhookUrl, method: 'GET', format: 'xml' });
		const json = await outboundCall({ url: webhookUrl, method: 'GET', format: 'json' });
		expect(xml.body).toBe('<?xml version="1.0" encoding="UTF-8"?><response><received>true</received></response>');
		expect(json.body).toBe('{"received":true}');
	});
});

describe('PING', () => {
	it('answers the service\'s PING (HEAD) with 200 and starts nothing', async () => {
		const { webhookUrl } = await start({});
		const outcome = await outboundCall({ url: webhookUrl, method: 'PING' });
		expect(outcome).toMatchObject({ ok: true, status: 200 });
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it('answers a PING sent as GET with a small status document', async () => {
		const { webhookUrl } = await start({});
		const outcome = await outboundCall({ url: webhookUrl, method: 'PING', pingMethod: 'GET' });
		expect(outcome).toMatchObject({ ok: true, status: 200, parsed: { status: 'ok' } });
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it('starts the workflow on PING when asked to', async () => {
		const { webhookUrl } = await start({ options: { runOnPing: true } });
		await outboundCall({ url: webhookUrl, method: 'PING' });
		expect(await emitted()).toMatchObject({ method: 'HEAD', ping: true, format: 'none' });
	});

	it('answers OPTIONS (as n8n does) without starting anything', async () => {
		const { webhookUrl } = await start({ authentication: 'basicAuth' });
		const response = await fetch(webhookUrl, { method: 'OPTIONS' });
		expect(response.status).toBe(204);
		expect(hosting.host?.executions).toHaveLength(0);
	});
});

describe('authentication of the service', () => {
	const post = (webhookUrl: string, auth: IDataObject) =>
		outboundCall({ url: webhookUrl, method: 'POST', body: { a: 1 }, auth });

	it('Basic: accepts the right user and password, refuses wrong or missing ones with 401 and no execution', async () => {
		const { webhookUrl } = await start({ authentication: 'basicAuth' });

		const right = await post(webhookUrl, { type: 'basic', username: BASIC.user, password: BASIC.password });
		const wrong = await post(webhookUrl, { type: 'basic', username: BASIC.user, password: 'S3cret heslo' });
		const missing = await post(webhookUrl, { type: 'none' });
		const bearer = await post(webhookUrl, { type: 'oauth2', accessToken: 'S3cret-heslo' });

		expect(right.status).toBe(200);
		expect([wrong.status, missing.status, bearer.status]).toEqual([401, 401, 401]);
		expect(missing.headers['www-authenticate']).toMatch(/^Basic realm=/);
		expect(missing.parsed).toMatchObject({ code: 'unauthorized', message: expect.stringMatching(/auth to BASIC/) });
		expect(wrong.parsed).toMatchObject({ message: 'The credentials sent do not match those stored in the Records Trigger.' });
		expect(hosting.host?.executions).toHaveLength(1);
		for (const outcome of [right, wrong, missing, bearer]) expect(outcome.body ?? '').not.toContain(BASIC.password);
		expect(JSON.stringify(await emitted())).not.toContain(BASIC.password);
	});

	it('Bearer token (OAUTH2): accepts the right token, refuses wrong or missing ones with 401 and no execution', async () => {
		const { webhookUrl } = await start({ authentication: 'bearerToken', options: { includeHeaders: true } });

		const right = await post(webhookUrl, { type: 'oauth2', accessToken: TOKEN });
		const wrong = await post(webhookUrl, { type: 'oauth2', accessToken: `${TOKEN}x` });
		const missing = await post(webhookUrl, { type: 'none' });

		expect([right.status, wrong.status, missing.status]).toEqual([200, 401, 401]);
		expect(wrong.headers['www-authenticate']).toBe('Bearer realm="Records Trigger", error="invalid_token"');
		expect(hosting.host?.executions).toHaveLength(1);
		const item = await emitted();
		expect(item.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8' });
		expect(item.headers).not.toHaveProperty('authorization');
		expect(JSON.stringify(item)).not.toContain(TOKEN);
	});

	it('answers a PING only when it authenticates, so a PING checks URL and credentials together', async () => {
		const { webhookUrl } = await start({ authentication: 'bearerToken' });
		const refused = await outboundCall({ url: webhookUrl, method: 'PING', pingMethod: 'GET' });
		const accepted = await outboundCall({ url: webhookUrl, method: 'PING', auth: { type: 'oauth2', accessToken: TOKEN } });
		expect([refused.status, accepted.status]).toEqual([401, 200]);
	});

	it('refuses activation when the credential cannot authenticate anything, naming the problem', async () => {
		await expect(
			hosting.start({
				nodeType: new RecordsTrigger(),
				parameters: { authentication: 'basicAuth' },
				credentials: [{ type: new RecordsTriggerBasicAuthApi(), data: { user: 'a:b', password: 'x' } }],
			}),
		).rejects.toThrow(/credential cannot be used: The user name contains ":"/);
	});

	it('tests a credential as n8n\'s credential test does (testedBy), without quoting the secret', async () => {
		const test = new RecordsTrigger().methods.credentialTest.recordsTriggerCredential;
		const context = new CredentialTestContext();
		const ok = await test.call(context, { id: '1', name: 'c', type: 'recordsTriggerBearerAuthApi', data: { token: TOKEN } });
		const bad = await test.call(context, { id: '1', name: 'c', type: 'recordsTriggerBearerAuthApi', data: { token: `${TOKEN}\n` } });
		expect(ok.status).toBe('OK');
		expect(bad).toEqual({ status: 'Error', message: expect.stringMatching(/spaces or a line break/) });
		expect(bad.message).not.toContain(TOKEN);
	});
});

describe('service webhooks and the event filter', () => {
	it('starts the workflow for a chosen event with its fields', async () => {
		const { webhookUrl } = await start({ events: ['invoice.paid'] });
		const outcome = await outboundWebhook({ url: webhookUrl });
		expect(outcome.status).toBe(200);
		expect(await emitted()).toMatchObject({
			event: 'invoice.paid',
			body: { event: 'invoice.paid', invoice_id: 123, paid_at: '2026-11-21T10:00:00Z', amount: 1234.5 },
		});
	});

	it('answers other events with 200 "ignored" and starts nothing; other names can be typed in', async () => {
		const { webhookUrl } = await start({ events: ['invoice.paid'], otherEvents: 'invoice.overdue, task.done' });

		const ignored = await outboundWebhook({ url: webhookUrl, event: 'invoice.created' });
		expect(ignored.status).toBe(200);
		expect(JSON.parse(ignored.body ?? '')).toMatchObject({ status: 'ignored', event: 'invoice.created' });
		const call = await outboundCall({ url: webhookUrl, method: 'POST', body: { invoice: 'x' } });
		expect(call.parsed).toMatchObject({ status: 'ignored', event: null });
		expect(hosting.host?.executions).toHaveLength(0);

		await outboundWebhook({ url: webhookUrl, event: 'invoice.overdue' });
		expect(await emitted(0)).toMatchObject({ event: 'invoice.overdue' });
	});

	it('can let workflow calls (no event) through while filtering events', async () => {
		const { webhookUrl } = await start({ events: ['(no event)'] });
		await outboundWebhook({ url: webhookUrl, event: 'invoice.paid' });
		await outboundCall({ url: webhookUrl, method: 'POST', body: { invoice: 'x' } });
		expect(hosting.host?.executions).toHaveLength(1);
		expect(await emitted(0)).toMatchObject({ event: null, body: { invoice: 'x' } });
	});

	it('finds the event of an XML webhook under its root element', async () => {
		const { webhookUrl } = await start({ events: ['invoice.paid'] });
		await outboundWebhook({
			url: webhookUrl,
			contentType: 'application/xml',
			rawBody: '<webhook><event>invoice.paid</event><invoice_id>9</invoice_id></webhook>',
		});
		expect(await emitted()).toMatchObject({ event: 'invoice.paid', body: { webhook: { invoice_id: '9' } } });
	});
});

describe('respond modes, mapped back into the record', () => {
	const registry = transformNode('Company registry', (items) => [
		{ company: { name: `ACME for ${String((items[0].json.body as IDataObject).ico)}` }, ico: '27074358' },
	]);

	it('When Last Node Finishes: answers with the last node\'s first item', async () => {
		const { webhookUrl } = await start({ responseMode: 'lastNode' }, { downstream: [registry] });
		const outcome = await outboundCall({
			url: webhookUrl,
			method: 'POST',
			body: { ico: '#(Variabilní symbol)' },
			recordTypeId: INVOICES,
			recordKey: INVOICE_KEY,
			mapping: [
				{ from: 'company.name', to: 'Partner' },
				{ from: 'ico', to: 'Specifický symbol' },
			],
		});
		expect(outcome).toMatchObject({ ok: true, unmapped: [] });
		expect(storedInvoice()).toMatchObject({ Partner: 'ACME for 2026010045', 'Specifický symbol': '27074358' });
	});

	it('When Last Node Finishes: answers an XML call in XML through Property Name and Response Content-Type', async () => {
		const toXml = transformNode('To XML', () => [{ xml: '<company><name>ACME XML s.r.o.</name></company>' }]);
		const { webhookUrl } = await start(
			{
				responseMode: 'lastNode',
				options: { responsePropertyName: 'xml', responseContentType: 'application/xml; charset=utf-8' },
			},
			{ downstream: [toXml] },
		);
		const outcome = await outboundCall({
			url: webhookUrl,
			method: 'POST',
			format: 'xml',
			body: { ico: '1' },
			recordTypeId: INVOICES,
			recordKey: INVOICE_KEY,
			mapping: [{ from: 'name', to: 'Partner' }],
		});
		expect(outcome.headers['content-type']).toBe('application/xml; charset=utf-8');
		expect(storedInvoice()).toMatchObject({ Partner: 'ACME XML s.r.o.' });
	});

	it('Respond to Webhook (version 1): answers with what that node sends', async () => {
		const { webhookUrl } = await start(
			{ responseMode: 'responseNode' },
			{ downstream: [registry, respondWith({ respondWith: 'firstIncomingItem', options: { responseCode: 201 } })] },
		);
		const outcome = await outboundCall({
			url: webhookUrl,
			method: 'POST',
			body: { ico: '42' },
			recordTypeId: INVOICES,
			recordKey: INVOICE_KEY,
			mapping: [{ from: 'company.name', to: 'Partner' }],
		});
		expect(outcome).toMatchObject({ status: 201, unmapped: [] });
		expect(storedInvoice()).toMatchObject({ Partner: 'ACME for 42' });
	});

	it('Respond to Webhook (version 1): an XML answer as text with an XML Content-Type', async () => {
		const { webhookUrl } = await start(
			{ responseMode: 'responseNode' },
			{
				downstream: [
					respondWith({
						respondWith: 'text',
						responseBody: '<answer><state>Schváleno</state></answer>',
						options: { responseHeaders: { entries: [{ name: 'Content-Type', value: 'application/xml' }] } },
					}),
				],
			},
		);
		const outcome = await outboundCall({
			url: webhookUrl,
			method: 'POST',
			format: 'xml',
			body: { a: '1' },
			recordTypeId: INVOICES,
			recordKey: INVOICE_KEY,
			mapping: [{ from: 'state', to: 'Stav' }],
		});
		expect(outcome).toMatchObject({ status: 200, unmapped: [] });
		expect(storedInvoice()).toMatchObject({ Stav: 'Schváleno' });
	});

	it('refuses activation when Respond says "Using a Respond Node" but no node answers, or a Respond to Webhook node would refuse to', async () => {
		const options = (downstream: DownstreamNode[]) => ({
			nodeType: new RecordsTrigger(),
			parameters: { responseMode: 'responseNode' },
			downstream,
		});
		await expect(hosting.start(options([]))).rejects.toThrow(/no node after the Records Trigger answers the call/);
		await expect(hosting.start(options([respondWith({ respondWith: 'noData' }, 1.5)]))).rejects.toThrow(
			/is at version 1.5.*Replace it with a Records node set to Workflow Call → Respond to Call/,
		);
	});

	it('refuses activation when a Respond to Webhook node would be ignored', async () => {
		await expect(
			hosting.start({
				nodeType: new RecordsTrigger(),
				parameters: { responseMode: 'onReceived' },
				downstream: [respondWith({ respondWith: 'noData' })],
			}),
		).rejects.toThrow(/would never reach the service/);
	});
});

describe('bad and hostile bodies: a clear refusal and no execution', () => {
	const billionLaughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from(
		{ length: 9 },
		(_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
	).join('')}]><lolz>&lol9;</lolz>`;
	const externalEntity = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>';

	const raw = (webhookUrl: string, contentType: string, rawBody: string) =>
		outboundCall({ url: webhookUrl, method: 'POST', contentType, rawBody });

	it('malformed JSON: n8n itself refuses it (422) before the node when the Content-Type says JSON', async () => {
		const { webhookUrl } = await start({});
		const outcome = await raw(webhookUrl, 'application/json', '{"invoice": "FP-1",');
		expect(outcome.status).toBe(422);
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it('malformed JSON the node reads itself: 400 with the parser\'s reason', async () => {
		const { webhookUrl } = await start({}, { bodyReading: 'node' });
		const outcome = await raw(webhookUrl, 'application/json', '{"invoice": "FP-1",');
		expect(outcome.status).toBe(400);
		expect(outcome.parsed).toMatchObject({ code: 'invalid_json', message: expect.stringMatching(/not valid JSON \(.+\)/) });
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it('malformed JSON without a JSON Content-Type (n8n passes it on): 400 from the node', async () => {
		const { webhookUrl } = await start({});
		const outcome = await raw(webhookUrl, 'application/octet-stream', '{"invoice": ');
		expect(outcome).toMatchObject({ status: 400, parsed: { code: 'invalid_json' } });
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it('malformed XML: 400 in XML naming line and column', async () => {
		const { webhookUrl } = await start({}, { bodyReading: 'node' });
		const outcome = await raw(webhookUrl, 'application/xml', '<invoice>\n<number>1</numbr>\n</invoice>');
		expect(outcome.status).toBe(400);
		expect(outcome.headers['content-type']).toBe('application/xml; charset=utf-8');
		expect(outcome.parsed).toMatchObject({
			error: { code: 'invalid_xml', message: expect.stringMatching(/Expected <\/number> but found <\/numbr> \(line 2/) },
		});
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it.each([
		['billion laughs', billionLaughs],
		['an external entity', externalEntity],
	])('XML with %s is refused without expanding anything', async (_what, body) => {
		const { webhookUrl } = await start({}, { bodyReading: 'node' });
		const own = await raw(webhookUrl, 'application/xml', body);
		expect(own.status).toBe(400);
		expect(JSON.stringify(own.parsed)).toMatch(/DOCTYPE declarations are not accepted/);
		await hosting.host?.close();

		// Under n8n, a body with an XML Content-Type is parsed by n8n first: its parser expands no
		// entities, refusing some documents itself (422) and passing others on, which the node then
		// refuses (400). A body with another Content-Type goes to the node as is.
		const { webhookUrl: n8nUrl } = await start({});
		const byN8n = await raw(n8nUrl, 'text/xml', body);
		const byNode = await raw(n8nUrl, 'application/octet-stream', body);
		expect([400, 422]).toContain(byN8n.status);
		expect(byNode).toMatchObject({ status: 400 });
		expect(JSON.stringify(byNode.parsed)).toMatch(/DOCTYPE/);
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it.each(['n8n', 'node'] as const)('an oversized body is refused with 413 (body read by %s)', async (bodyReading) => {
		const { webhookUrl } = await start({ options: { maxBodySizeMb: 0.5 } }, { bodyReading });
		const big = JSON.stringify({ data: 'x'.repeat(600 * 1024) });
		const outcome = await raw(webhookUrl, 'application/json', big);
		expect(outcome.status).toBe(413);
		expect(outcome.parsed).toMatchObject({ code: 'payload_too_large', message: expect.stringMatching(/larger than the 512 KB/) });
		expect(hosting.host?.executions).toHaveLength(0);

		const fits = await raw(webhookUrl, 'application/json', JSON.stringify({ data: 'x'.repeat(400 * 1024) }));
		expect(fits.status).toBe(200);
		expect(hosting.host?.executions).toHaveLength(1);
	});

	it('a body in an undeclared encoding is refused instead of being corrupted', async () => {
		const { webhookUrl } = await start({}, { bodyReading: 'node' });
		const response = await fetch(webhookUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x9a, 0x22, 0x7d]),
		});
		expect(response.status).toBe(400);
		expect(await response.json()).toMatchObject({ code: 'invalid_encoding' });
		expect(hosting.host?.executions).toHaveLength(0);
	});
});

describe('form bodies', () => {
	// "Název=Škoda Octavia&Zadal=Jiří Čermák" as a windows-1250 caller percent-encodes it.
	const CP1250_FORM = 'N%E1zev=%8Akoda+Octavia&Zadal=Ji%F8%ED+%C8erm%E1k';
	const post = (url: string, body: string) =>
		fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });

	it('decodes percent-encoded windows-1250 bytes as windows-1250 when Body Encoding says so', async () => {
		const { webhookUrl } = await start({ options: { bodyEncoding: 'windows-1250' } });
		const response = await post(webhookUrl, CP1250_FORM);
		expect(response.status).toBe(200);
		expect(await emitted()).toMatchObject({ format: 'form', body: { Název: 'Škoda Octavia', Zadal: 'Jiří Čermák' } });
	});

	it('refuses them with what to set, instead of storing "�", when Body Encoding is UTF-8', async () => {
		const { webhookUrl } = await start({});
		const response = await post(webhookUrl, CP1250_FORM);
		expect(response.status).toBe(400);
		expect(await response.json()).toMatchObject({ code: 'invalid_encoding', message: expect.stringMatching(/"Body Encoding"/) });
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it('reads a UTF-8 form as before', async () => {
		const { webhookUrl } = await start({});
		await post(webhookUrl, new URLSearchParams({ Název: 'Škoda Octavia' }).toString());
		expect(await emitted()).toMatchObject({ format: 'form', body: { Název: 'Škoda Octavia' } });
	});
});

describe('options', () => {
	it('adds the raw body and the headers (without Authorization) when asked', async () => {
		const { webhookUrl } = await start({ authentication: 'basicAuth', options: { includeRawBody: true, includeHeaders: true } });
		const rawBody = '{ "a" : 1 }';
		await outboundCall({
			url: webhookUrl,
			method: 'POST',
			contentType: 'application/json',
			rawBody,
			headers: [{ name: 'X-Source', value: 'records' }],
			auth: { type: 'basic', username: BASIC.user, password: BASIC.password },
		});
		const item = await emitted();
		expect(item).toMatchObject({ rawBody, body: { a: 1 }, headers: { 'x-source': 'records' } });
		expect(item.headers).not.toHaveProperty('authorization');
	});

	it('refuses the call with a clear 500, and starts nothing, when its own Response Body cannot be computed', async () => {
		const { webhookUrl } = await start({ responseBody: '={{ $("Missing node").item.json }}' });
		const outcome = await outboundCall({ url: webhookUrl, method: 'POST', body: { a: 1 } });
		expect(outcome.status).toBe(500);
		expect(outcome.parsed).toMatchObject({ code: 'response_body_invalid', message: expect.stringMatching(/Response Body could not be computed/) });
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it.each([
		['above the range', '={{ 700 }}', '(got 700)'],
		['an interim 1xx status', '={{ 100 }}', '(got 100)'],
		['not a whole number', '={{ "accepted" }}', '(got "accepted")'],
	])('refuses the call with a clear 500, and starts nothing, when an expression sets its Response Code %s', async (_case, responseCode, got) => {
		const { webhookUrl } = await start({ responseCode });
		const outcome = await outboundCall({ url: webhookUrl, method: 'POST', body: { a: 1 } });
		expect(outcome.status).toBe(500);
		expect(outcome.parsed).toMatchObject({ code: 'response_code_invalid' });
		expect((outcome.parsed as IDataObject).message).toBe(
			`The Records Trigger's "Response Code" must be a whole number from 200 to 599 ${got}. Fix it in the node.`,
		);
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it('answers with a status code an expression sets within the range', async () => {
		const { webhookUrl } = await start({ responseCode: '={{ 200 + 1 }}' });
		const outcome = await outboundCall({ url: webhookUrl, method: 'POST', body: { a: 1 } });
		expect(outcome.status).toBe(201);
	});

	it('answers with the configured status code', async () => {
		const { webhookUrl } = await start({ responseCode: 202 });
		const outcome = await outboundCall({ url: webhookUrl, method: 'POST', body: { a: 1 } });
		expect(outcome.status).toBe(202);
	});
});
