/**
 * Records → Workflow Call → Respond to Call answering the sandbox's real outbound "call API" calls
 * (spec §4.3) for a Records Trigger set to "Using a Respond Node", hosted as n8n hosts an active
 * webhook workflow (tooling/harness/webhook.ts); the answers are mapped back into sandbox records.
 */
import type { IDataObject, INodeExecutionData, INodeParameters, IRun } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { RecordsTrigger } from '../../nodes/RecordsTrigger/RecordsTrigger.node';
import { runNode } from '../../tooling/harness/n8nCoreHarness';
import {
	transformNode,
	type DownstreamNode,
	type WebhookHostOptions,
} from '../../tooling/harness/webhook';
import { callApi, storedFields } from '../../tooling/sandbox/control';
import { RECORD_TYPES } from '../../tooling/sandbox/server';
import { hostWebhooksAgainstSandbox } from './fixture';

const INVOICES = RECORD_TYPES.receivedInvoices;
const INVOICE_KEY = 'FP-2026-0001';
const RESPOND_NODE = 'Respond to Call';

const hosting = hostWebhooksAgainstSandbox();

/** A call API action on the invoice, mapping fields of the answer into it. */
const callOnInvoice = (webhookUrl: string, call: IDataObject) =>
	callApi(hosting.sandbox, { url: webhookUrl, method: 'POST', recordTypeId: INVOICES, recordKey: INVOICE_KEY, ...call });

const storedInvoice = () => storedFields(hosting.sandbox, INVOICES, INVOICE_KEY);

function respondToCall(parameters: INodeParameters, extra: Partial<DownstreamNode> = {}): DownstreamNode {
	return {
		name: RESPOND_NODE,
		type: new Records(),
		parameters: { resource: 'workflowCall', operation: 'respond', ...parameters },
		...extra,
	};
}

async function start(downstream: DownstreamNode[], parameters: INodeParameters = {}, extra: Partial<WebhookHostOptions> = {}) {
	return await hosting.start({
		nodeType: new RecordsTrigger(),
		parameters: { responseMode: 'responseNode', ...parameters },
		downstream,
		...extra,
	});
}

/** The finished run of execution `index`. */
async function finishedRun(index = 0): Promise<IRun> {
	const execution = hosting.host?.executions[index];
	if (!execution) throw new Error(`No execution ${index}`);
	return await execution.run;
}

function outputOf(run: IRun, nodeName: string): INodeExecutionData[] {
	return run.data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? [];
}

/**
 * Stands in for a lookup (e.g. a company registry) that replaces the trigger's item with its own;
 * it reads `ico` from a JSON body or from an XML body's root element.
 */
const registry = transformNode('Company registry', (items) => {
	const body = items[0].json.body as IDataObject;
	const ico = body.ico ?? (Object.values(body)[0] as IDataObject | undefined)?.ico;
	return [{ company: { name: `ACME for ${String(ico)}`, ico: '27074358' }, state: 'Ověřeno' }];
});

describe('answers with the Records node, mapped back into the record', () => {
	it('a JSON call gets the first incoming item as JSON; the items pass through paired', async () => {
		const { webhookUrl } = await start([registry, respondToCall({})]);
		const outcome = await callOnInvoice(webhookUrl, {
			format: 'json',
			body: { ico: '#(Variabilní symbol)' },
			mapping: [
				{ from: 'company.name', to: 'Partner' },
				{ from: 'company.ico', to: 'Specifický symbol' },
				{ from: 'state', to: 'Stav' },
			],
		});

		expect(outcome).toMatchObject({ ok: true, status: 200, unmapped: [] });
		expect(outcome.headers['content-type']).toBe('application/json; charset=utf-8');
		expect(JSON.parse(outcome.body ?? '')).toEqual({
			company: { name: 'ACME for 2026010045', ico: '27074358' },
			state: 'Ověřeno',
		});
		expect(storedInvoice()).toMatchObject({
			Partner: 'ACME for 2026010045',
			'Specifický symbol': '27074358',
			Stav: 'Ověřeno',
		});
		const run = await finishedRun();
		expect(run.data.resultData.error).toBeUndefined();
		expect(outputOf(run, RESPOND_NODE)).toEqual([
			{ json: outputOf(run, 'Company registry')[0].json, pairedItem: { item: 0 } },
		]);
	});

	it('an XML call gets a typed JSON body, with expressions, as XML, even when a node before it dropped the trigger\'s fields', async () => {
		const { webhookUrl } = await start([
			registry,
			respondToCall({
				respondWith: 'json',
				responseBody: '={\n  "status": "{{ $json.state }}",\n  "detail": { "partner": "{{ $json.company.name }}", "code": "A1" }\n}',
			}),
		]);
		const outcome = await callOnInvoice(webhookUrl, {
			method: 'PUT',
			format: 'xml',
			xmlRoot: 'invoice',
			body: { ico: '#(Variabilní symbol)' },
			mapping: [
				{ from: 'status', to: 'Stav' },
				{ from: 'response.detail.partner', to: 'Partner' },
				{ from: 'detail.code', to: 'Projekt' },
			],
		});

		expect(outcome).toMatchObject({ ok: true, status: 200, unmapped: [] });
		expect(outcome.headers['content-type']).toBe('application/xml; charset=utf-8');
		expect(outcome.body).toBe(
			'<?xml version="1.0" encoding="UTF-8"?><response><status>Ověřeno</status><detail><partner>ACME for 2026010045</partner><code>A1</code></detail></response>',
		);
		expect(storedInvoice()).toMatchObject({ Stav: 'Ověřeno', Partner: 'ACME for 2026010045', Projekt: 'A1' });
	});

	it('a GET without a body that asks for XML (Accept) is answered in XML', async () => {
		const { webhookUrl } = await start([respondToCall({ respondWith: 'json', responseBody: '{ "status": "Zaplaceno" }' })]);
		const outcome = await callApi(hosting.sandbox, {
			url: webhookUrl,
			method: 'GET',
			format: 'xml',
			recordTypeId: INVOICES,
			recordKey: INVOICE_KEY,
			mapping: [{ from: 'status', to: 'Stav' }],
		});
		expect(outcome.body).toBe('<?xml version="1.0" encoding="UTF-8"?><response><status>Zaplaceno</status></response>');
		expect(storedInvoice()).toMatchObject({ Stav: 'Zaplaceno' });
	});

	it('answers with the chosen status code and headers; a Content-Type header replaces the format\'s', async () => {
		const { webhookUrl } = await start([
			respondToCall({
				respondWith: 'json',
				responseBody: '{ "status": "Přijato" }',
				options: {
					responseCode: 201,
					responseHeaders: {
						entries: [
							{ name: 'X-Records-Result', value: 'created' },
							{ name: 'Content-Type', value: 'application/vnd.records+json' },
						],
					},
				},
			}),
		]);
		const outcome = await callOnInvoice(webhookUrl, { body: { a: '1' }, mapping: [{ from: 'status', to: 'Stav' }] });

		expect(outcome).toMatchObject({ ok: true, status: 201, unmapped: [] });
		expect(outcome.headers['x-records-result']).toBe('created');
		expect(outcome.headers['content-type']).toBe('application/vnd.records+json; charset=utf-8');
		expect(storedInvoice()).toMatchObject({ Stav: 'Přijato' });
	});

	it('Format JSON or XML overrides the call\'s format, XML under the chosen root element', async () => {
		const { webhookUrl } = await start([
			respondToCall({ respondWith: 'json', responseBody: '{ "status": "OK" }', format: 'json' }),
		]);
		const json = await callOnInvoice(webhookUrl, { format: 'xml', body: { a: '1' }, mapping: [{ from: 'status', to: 'Stav' }] });
		expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
		expect(json.body).toBe('{"status":"OK"}');
		expect(storedInvoice()).toMatchObject({ Stav: 'OK' });
		await hosting.host?.close();

		const { webhookUrl: xmlUrl } = await start([
			respondToCall({
				respondWith: 'json',
				responseBody: '{ "@id": "7", "status": "OK & hotovo" }',
				format: 'xml',
				options: { xmlRootElement: 'result' },
			}),
		]);
		const xml = await callOnInvoice(xmlUrl, { format: 'json', body: { a: '1' }, mapping: [{ from: 'result.status', to: 'Popis' }] });
		expect(xml.body).toBe('<?xml version="1.0" encoding="UTF-8"?><result id="7"><status>OK &amp; hotovo</status></result>');
		expect(storedInvoice()).toMatchObject({ Popis: 'OK & hotovo' });
	});

	it('Text is sent as it is, e.g. XML the workflow built, with the Content-Type set in the headers', async () => {
		const { webhookUrl } = await start([
			respondToCall({
				respondWith: 'text',
				responseText: '<answer><state>Schváleno</state></answer>',
				options: { responseHeaders: { entries: [{ name: 'Content-Type', value: 'application/xml' }] } },
			}),
		]);
		const outcome = await callOnInvoice(webhookUrl, { format: 'xml', body: { a: '1' }, mapping: [{ from: 'state', to: 'Stav' }] });
		expect(outcome).toMatchObject({ status: 200, body: '<answer><state>Schváleno</state></answer>', unmapped: [] });
		expect(outcome.headers['content-type']).toBe('application/xml; charset=utf-8');
		expect(storedInvoice()).toMatchObject({ Stav: 'Schváleno' });
	});
});

describe('mistakes: the node fails, and the call gets 500 with what went wrong', () => {
	it('a header HTTP cannot carry: nothing is mapped into the record, and the service learns why', async () => {
		const before = storedInvoice();
		const { webhookUrl } = await start([
			registry,
			respondToCall({ options: { responseHeaders: { entries: [{ name: 'X-Stav', value: 'Přijato' }] } } }),
		]);
		const outcome = await callOnInvoice(webhookUrl, { body: { ico: '1' }, mapping: [{ from: 'state', to: 'Stav' }] });

		const message = /Response Headers: Header 1 \("X-Stav"\): the value holds .* non-ASCII character/;
		expect(outcome).toMatchObject({
			ok: false,
			status: 500,
			parsed: { code: 'respond_failed', message: expect.stringMatching(message) },
		});
		expect(outcome.headers).not.toHaveProperty('x-stav');
		expect(storedInvoice()).toEqual(before);
		expect((await finishedRun()).data.resultData.error?.message).toMatch(message);
	});

	it.each([
		['an interim 1xx code', 100, '(got 100)'],
		['a 1xx code from an expression', '={{ 150 + 49 }}', '(got 199)'],
		['an expression that gives no number', "={{ Number('dvě stě') }}", '(got NaN)'],
	])('%s: refused with what it got, and the call gets a real answer', async (_label, responseCode, got) => {
		const before = storedInvoice();
		const { webhookUrl } = await start([respondToCall({ options: { responseCode } })]);
		const outcome = await callOnInvoice(webhookUrl, { body: { a: '1' }, mapping: [{ from: 'a', to: 'Stav' }] });

		const message = `"Response Code" must be a whole number from 200 to 599 ${got}`;
		expect(outcome).toMatchObject({
			ok: false,
			status: 500,
			parsed: { code: 'respond_failed', message: `The workflow could not answer the call: ${message}` },
		});
		expect(storedInvoice()).toEqual(before);
		expect((await finishedRun()).data.resultData.error?.message).toBe(message);
	});

	it('a Response Body that is not JSON, for an XML call: the refusal is XML', async () => {
		const { webhookUrl } = await start([respondToCall({ respondWith: 'json', responseBody: '{ "status": ok }' })]);
		const outcome = await callOnInvoice(webhookUrl, { format: 'xml', body: { a: '1' } });
		expect(outcome.status).toBe(500);
		expect(outcome.headers['content-type']).toBe('application/xml; charset=utf-8');
		expect(outcome.parsed).toEqual({
			error: {
				code: 'respond_failed',
				message: expect.stringMatching(/^The workflow could not answer the call: "Response Body" is not valid JSON: /),
			},
		});
		expect((await finishedRun()).data.resultData.error?.message).toMatch(/^"Response Body" is not valid JSON: /);
	});

	it('under On Error → Continue, a later node can still answer', async () => {
		const fallback = respondToCall({ respondWith: 'json', responseBody: '{ "status": "Náhradní odpověď" }' }, { name: 'Fallback answer' });
		const { webhookUrl } = await start([
			respondToCall({ options: { responseCode: 99 } }, { continueOnFail: true }),
			fallback,
		]);
		const outcome = await callOnInvoice(webhookUrl, { body: { a: '1' }, mapping: [{ from: 'status', to: 'Stav' }] });
		expect(outcome).toMatchObject({ ok: true, status: 200, unmapped: [] });
		expect(storedInvoice()).toMatchObject({ Stav: 'Náhradní odpověď' });
		expect(outputOf(await finishedRun(), RESPOND_NODE)).toEqual([
			{
				json: {
					error: '"Response Code" must be a whole number from 200 to 599 (got 99)',
					description: 'Set "Response Code" in the options to a whole number between 200 and 599.',
				},
				pairedItem: [{ item: 0 }],
			},
		]);
	});

	it('without a Records Trigger before it, the node fails with what to do, and needs no Records API credential', async () => {
		const { error, items } = await runNode({
			nodeType: new Records(),
			parameters: { resource: 'workflowCall', operation: 'respond' },
		});
		expect(items).toEqual([]);
		expect(error?.message).toBe('No Records Trigger comes before this node, so there is no call to respond to');
		expect(error?.description).toMatch(/after a Records Trigger whose Respond option is "Using a Respond Node"/);
	});

	it('with On Error → Continue, outputs the error paired to every input item and answers nothing', async () => {
		const { error, items } = await runNode({
			nodeType: new Records(),
			parameters: { resource: 'workflowCall', operation: 'respond' },
			input: [{ a: 1 }, { a: 2 }],
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(items).toEqual([
			{
				json: {
					error: 'No Records Trigger comes before this node, so there is no call to respond to',
					description: expect.stringMatching(/Using a Respond Node/),
				},
				pairedItem: [{ item: 0 }, { item: 1 }],
			},
		]);
	});
});

describe('the trigger\'s Respond setup', () => {
	it('refuses activation when the trigger answers itself, so that the node\'s answer would be lost', async () => {
		await expect(start([respondToCall({})], { responseMode: 'lastNode' })).rejects.toThrow(
			/"Respond to Call" answers the call, but the Records Trigger's Respond is not set to "Using a Respond Node"/,
		);
		await expect(start([respondToCall({})], { responseMode: 'onReceived' })).rejects.toThrow(/would never reach the service/);
	});

	it('refuses activation when the only Respond to Call is disabled', async () => {
		await expect(start([respondToCall({}, { disabled: true })])).rejects.toThrow(
			/no node after the Records Trigger answers the call\. Add a Records node set to Workflow Call → Respond to Call/,
		);
	});

	it('does not take a Records node set to another operation for one that answers', async () => {
		const importer: DownstreamNode = {
			name: 'Records',
			type: new Records(),
			parameters: { resource: 'record', operation: 'import', recordTypeId: INVOICES },
		};
		await expect(start([importer])).rejects.toThrow(/no node after the Records Trigger answers the call/);
	});
});
