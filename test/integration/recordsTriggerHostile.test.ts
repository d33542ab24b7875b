/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets,
	@n8n/community-nodes/no-restricted-imports -- a test: its credentials are fixed test values, not
	secrets; it runs in Node.js, not inside n8n (Node.js's modules, `@n8n/backend-common`, `@n8n/di`) */
/**
 * The Records Trigger's URL faces the internet: hostile and unusual requests, sent over real HTTP
 * to the trigger hosted as n8n 2.41.1 hosts it (tooling/harness/webhook.ts, which reads bodies as
 * n8n does), each answered with what happened, and nothing started that should not be.
 */
import { request, type IncomingMessage } from 'node:http';
import { deflateSync, gzipSync } from 'node:zlib';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { ICredentialDataDecryptedObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { RecordsTriggerBasicAuthApi } from '../../credentials/RecordsTriggerBasicAuthApi.credentials';
import { RecordsTriggerBearerAuthApi } from '../../credentials/RecordsTriggerBearerAuthApi.credentials';
import { Records } from '../../nodes/Records/Records.node';
import { RecordsTrigger } from '../../nodes/RecordsTrigger/RecordsTrigger.node';
import { transformNode, type DownstreamNode, type WebhookHost, type WebhookHostOptions } from '../../tooling/harness/webhook';
import { sleep } from '../../tooling/lib/proc';
import { sendRaw as send } from '../../tooling/lib/request';
import { hostWebhooksAgainstSandbox } from './fixture';

const BASIC = { user: 'records-service', password: 'S3cret heslo čšž' };
const TOKEN = 'oauth2-access-token.4f9c2a7e1b';

const hosting = hostWebhooksAgainstSandbox();

async function start(parameters: INodeParameters, extra: Partial<WebhookHostOptions> = {}): Promise<WebhookHost> {
	return await hosting.start({
		nodeType: new RecordsTrigger(),
		typeVersion: 1.1,
		parameters,
		credentials: [
			{ type: new RecordsTriggerBasicAuthApi(), data: { ...BASIC } as unknown as ICredentialDataDecryptedObject },
			{ type: new RecordsTriggerBearerAuthApi(), data: { token: TOKEN } },
		],
		...extra,
	});
}

const postJson = (url: string, body: string, contentType = 'application/json') => send(url, { headers: { 'content-type': contentType }, body });

/**
 * The trigger's emitted item of execution `index`, once its run finished. An immediate answer goes
 * out from inside the node, before the host starts the execution: it may take a moment to appear.
 */
async function emitted(index = 0) {
	for (let waited = 0; hosting.host?.executions[index] === undefined && waited < 2000; waited += 20) {
		await sleep(20);
	}
	const execution = hosting.host?.executions[index];
	if (!execution) throw new Error(`No execution ${index}`);
	await execution.run;
	return execution.items[0];
}

describe('bodies that cost more than their size', () => {
	it('a JSON body nested 100,000 levels deep is refused with 400 and starts nothing', async () => {
		const { webhookUrl } = await start({});
		const deep = '['.repeat(100_000) + ']'.repeat(100_000);
		for (const contentType of ['application/json', 'text/json']) {
			const answer = await postJson(webhookUrl, deep, contentType);
			expect(answer.status).toBe(400);
			expect(answer.json).toMatchObject({ code: 'invalid_json', message: expect.stringMatching(/nested more than 256 levels/) });
		}
		expect(hosting.host?.executions).toHaveLength(0);
	});
});

describe('descriptions that work when copied', () => {
	/** Every "{{ … }}" the trigger's parameter descriptions suggest, options included. */
	function suggestedExpressions(properties: INodeProperties[]): string[] {
		const found: string[] = [];
		const visit = (list: Array<Partial<INodeProperties> & { values?: INodeProperties[] }>) => {
			for (const property of list) {
				for (const match of String(property.description ?? '').matchAll(/\{\{\s*(.+?)\s*\}\}/g)) found.push(match[1]);
				const nested = (property.options ?? []) as Array<Partial<INodeProperties> & { values?: INodeProperties[] }>;
				visit(nested.filter((option) => typeof option === 'object'));
				if (property.values) visit(property.values);
			}
		};
		visit(properties);
		return found;
	}

	/** What each suggestion gives for a call to ".../4711?id=FP-1" with Path ":recordId", as its description says. */
	const EXPECTED: Record<string, unknown> = {
		'$json.query.id': 'FP-1',
		'$json.params.recordId': '4711',
	};

	it('every expression a Records Trigger description suggests runs in the immediate answer and gives what it says', async () => {
		const suggested = suggestedExpressions(new RecordsTrigger().description.properties);
		expect(suggested.length).toBeGreaterThan(0);
		for (const expression of suggested) {
			expect({ expression, known: expression in EXPECTED }).toEqual({ expression, known: true });
			const host = await start({ path: ':recordId', responseBody: `={ "value": {{ JSON.stringify(${expression}) }} }` });
			const answer = await postJson(host.webhookUrl.replace(':recordId', '4711') + '?id=FP-1', JSON.stringify({ invoice: 'FP-1' }));
			expect({ expression, status: answer.status, body: answer.json }).toEqual({ expression, status: 200, body: { value: EXPECTED[expression] } });
			await host.close();
		}
	});
});

describe('every answer the caller gets is what happened', () => {
	it('a call the workflow never answers under "Using a Respond Node" gets a 5xx, not an empty 200', async () => {
		const nothing = transformNode('Nothing to answer', () => []);
		const respond: DownstreamNode = {
			name: 'Respond to Call',
			type: new Records(),
			parameters: { resource: 'workflowCall', operation: 'respond' },
		};
		const { webhookUrl } = await start({ responseMode: 'responseNode' }, { downstream: [nothing, respond] });
		const answer = await postJson(webhookUrl, JSON.stringify({ invoice: 'FP-1' }));
		expect(answer.status).toBeGreaterThanOrEqual(500);
		expect(hosting.host?.executions).toHaveLength(1);
	});

	it('Response Code 204 answers with no body and no Content-Length', async () => {
		const { webhookUrl } = await start({ responseCode: 204 });
		const answer = await postJson(webhookUrl, JSON.stringify({ invoice: 'FP-1' }));
		expect(answer.status).toBe(204);
		expect(answer.text).toBe('');
		expect(answer.headers['content-length']).toBeUndefined();
		expect(answer.headers['content-type']).toBeUndefined();
		expect(hosting.host?.executions).toHaveLength(1);
	});

	describe('an unauthenticated caller learns nothing of the trigger\'s credential', () => {
		let logged: string[];
		beforeEach(() => {
			logged = [];
			jest.spyOn(Container.get(Logger), 'error').mockImplementation((message: string) => void logged.push(message));
		});
		afterEach(() => jest.restoreAllMocks());

		it.each([
			['deleted', undefined],
			['edited to an empty password', { user: BASIC.user, password: '' }],
			['edited to a user name with ":"', { user: 'records:service', password: BASIC.password }],
		] as const)('with the credential %s: a 500 that names and describes no credential; the reason goes to n8n\'s log', async (_case, data) => {
			const host = await start({ authentication: 'basicAuth' });
			host.setCredential('recordsTriggerBasicAuthApi', data as ICredentialDataDecryptedObject | undefined);
			// Credentials that a usable credential could match: others are refused with 401 unread.
			const authorization = `Basic ${Buffer.from(`${BASIC.user}:${BASIC.password}`).toString('base64')}`;
			const answer = await send(host.webhookUrl, { headers: { 'content-type': 'application/json', authorization }, body: JSON.stringify({ invoice: 'FP-1' }) });
			expect(answer.status).toBe(500);
			expect(answer.text).not.toMatch(/recordsTrigger|credential-id|Basic Auth|password|user name|does not exist/i);
			expect(String(answer.json?.message)).not.toMatch(/":"/);
			expect(answer.json).toMatchObject({ code: 'trigger_not_ready' });
			expect(logged.join('\n')).toMatch(/Records Trigger/);
			expect(hosting.host?.executions).toHaveLength(0);
		});
	});
});

describe('an Authentication value the trigger does not know fails closed', () => {
	it.each(['bearer', 'headerAuth', 'BearerToken', 'None', ''])('Authentication %p: activation is refused naming the values allowed', async (authentication) => {
		await expect(start({ authentication })).rejects.toThrow(/"basicAuth" \(Basic Auth\), "bearerToken" \(Bearer Token\), "none" \(None\)/);
	});
});

describe('a call that cannot authenticate costs no credential', () => {
	it.each([
		['no Authorization', undefined],
		['another scheme', 'Basic cmVjb3JkczpzZWNyZXQ='],
		['a token no credential can hold', 'Bearer not a token'],
	])('%s: 401 without reading the credential (the same with the credential deleted)', async (_case, authorization) => {
		const host = await start({ authentication: 'bearerToken' });
		host.setCredential('recordsTriggerBearerAuthApi', undefined);
		const answer = await send(host.webhookUrl, { headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) }, body: '{}' });
		expect([answer.status, answer.json?.code]).toEqual([401, 'unauthorized']);
		expect(answer.headers['www-authenticate']).toMatch(/^Bearer realm=/);
		expect(hosting.host?.executions).toHaveLength(0);
	});
});

describe('bodies as callers send them', () => {
	const EVENT = { event: 'invoice.paid', invoice_id: 4711, note: 'Žluťoučký kůň' };

	it.each([
		['gzip', 'text/json', gzipSync],
		['gzip', 'application/vnd.records+json', gzipSync],
		['deflate', 'text/json', deflateSync],
		['gzip', 'application/json', gzipSync],
		['gzip', 'application/xml', gzipSync],
	] as const)('a %s-compressed %s body is inflated and read', async (encoding, contentType, compress) => {
		const { webhookUrl } = await start({});
		const text = contentType.endsWith('xml') ? '<event><name>invoice.paid</name></event>' : JSON.stringify(EVENT);
		const answer = await send(webhookUrl, { headers: { 'content-type': contentType, 'content-encoding': encoding }, body: compress(text) });
		expect(answer.status).toBe(200);
		expect((await emitted()).json.body).toEqual(contentType.endsWith('xml') ? { event: { name: 'invoice.paid' } } : EVENT);
	});

	it.each([2, 17, 1000])('a text/json body of %i gzip members joined ("cat a.gz b.gz") is read whole', async (members) => {
		const { webhookUrl } = await start({});
		const text = JSON.stringify(EVENT);
		const step = Math.ceil(text.length / members);
		const body = Buffer.concat(Array.from({ length: members }, (_, index) => gzipSync(text.slice(index * step, (index + 1) * step))));
		const answer = await send(webhookUrl, { headers: { 'content-type': 'text/json', 'content-encoding': 'gzip' }, body });
		expect(answer.status).toBe(200);
		expect((await emitted()).json.body).toEqual(EVENT);
	});

	it('a body that does not inflate as its Content-Encoding says is refused with 400', async () => {
		const { webhookUrl } = await start({});
		const answer = await send(webhookUrl, { headers: { 'content-type': 'text/json', 'content-encoding': 'gzip' }, body: '{"not":"gzip"}' });
		expect([answer.status, answer.json?.code]).toEqual([400, 'invalid_compression']);
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it.each(['text/json', 'text/plain'])('a UTF-16 %s body with a byte order mark is read', async (contentType) => {
		const { webhookUrl } = await start({});
		const text = JSON.stringify(EVENT);
		const answer = await send(webhookUrl, { headers: { 'content-type': contentType }, body: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]) });
		expect(answer.status).toBe(200);
		expect((await emitted()).json.body).toEqual(contentType === 'text/json' ? EVENT : text);
	});

	it('a compression the trigger cannot read is refused with 415 naming the ones it can', async () => {
		const { webhookUrl } = await start({});
		const answer = await send(webhookUrl, { headers: { 'content-type': 'text/json', 'content-encoding': 'br' }, body: 'x' });
		expect(answer.status).toBe(415);
		expect(answer.json).toMatchObject({ code: 'unsupported_encoding', message: expect.stringMatching(/gzip.*deflate/) });
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it('a compressed body inflating past Max Body Size is refused with 413, without inflating it all', async () => {
		const { webhookUrl } = await start({ options: { maxBodySizeMb: 1 } });
		const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
		const answer = await send(webhookUrl, { headers: { 'content-type': 'text/json', 'content-encoding': 'gzip' }, body: bomb });
		expect(answer.status).toBe(413);
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it('a caller that aborts mid-body gets the node\'s quiet refusal: no error, no execution', async () => {
		const host = await start({});
		for (const contentType of ['text/json', 'application/json']) {
			const req = request(host.webhookUrl, { method: 'POST', headers: { 'content-type': contentType, 'content-length': '100000' } });
			req.on('error', () => undefined);
			req.write('{"invoice": "FP-1", "note": "');
			await sleep(100);
			req.destroy();
		}
		await sleep(300);
		expect(host.webhookErrors).toEqual([]);
		expect(host.executions).toHaveLength(0);
	});

	it('a caller that goes away mid-body before the trigger runs starts nothing, where n8n leaves the body to the trigger or reads it', async () => {
		// n8n looks the webhook and its workflow up before the node runs: the caller can be gone by then.
		const gone = (req: IncomingMessage) => new Promise<void>((resolve) => (req.destroyed ? resolve() : req.once('close', () => resolve())));
		const host = await start({}, { beforeBody: gone });
		for (const contentType of ['text/json', 'application/octet-stream', 'application/json', 'application/xml']) {
			const req = request(host.webhookUrl, { method: 'POST', headers: { 'content-type': contentType, 'content-length': '100000' } });
			req.on('error', () => undefined);
			req.write(contentType.endsWith('xml') ? '<event><name>' : '{"invoice": "FP-1", "note": "');
			await sleep(100);
			req.destroy();
		}
		await sleep(300);
		expect(host.webhookErrors).toEqual([]);
		expect(host.executions.map(({ items }) => items[0]?.json.body)).toEqual([]);
	});

	const boundary = '----records-trigger-test';
	function multipart(parts: Array<{ name: string; value: Buffer | string; fileName?: string; type?: string }>): Buffer {
		const chunks: Buffer[] = [];
		for (const part of parts) {
			const disposition = `form-data; name="${part.name}"${part.fileName ? `; filename="${part.fileName}"` : ''}`;
			const type = part.type ? `\r\nContent-Type: ${part.type}` : '';
			chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
		}
		chunks.push(Buffer.from(`--${boundary}--\r\n`));
		return Buffer.concat(chunks);
	}
	const MULTIPART = `multipart/form-data; boundary=${boundary}`;

	it('a multipart/form-data call: its fields are the body, its event found, its files kept as binary data', async () => {
		const { webhookUrl } = await start({ events: ['invoice.paid'] });
		const pdf = Buffer.from('%PDF-1.4 faktura FP-1');
		const body = multipart([
			{ name: 'event', value: 'invoice.paid' },
			{ name: 'note', value: 'Žluťoučký kůň' },
			{ name: 'invoice', value: pdf, fileName: 'FP-1.pdf', type: 'application/pdf' },
			{ name: 'attachments[]', value: 'a', fileName: 'a.txt', type: 'text/plain' },
			{ name: 'attachments[]', value: 'b', fileName: 'b.txt', type: 'text/plain' },
		]);
		const answer = await send(webhookUrl, { headers: { 'content-type': MULTIPART }, body });
		expect(answer.json).toEqual({ received: true });
		const item = await emitted();
		expect(item.json).toMatchObject({ event: 'invoice.paid', format: 'form', body: { event: 'invoice.paid', note: 'Žluťoučký kůň' } });
		expect(item.binary?.invoice).toMatchObject({ fileName: 'FP-1.pdf', mimeType: 'application/pdf' });
		expect(Buffer.from(item.binary?.invoice.data ?? '', 'base64')).toEqual(pdf);
		expect(Object.keys(item.binary ?? {}).sort()).toEqual(['attachments0', 'attachments1', 'invoice']);
		// n8n's parser lists a field's files as they finish arriving, not always in the body's order.
		const attachments = ['attachments0', 'attachments1'].map((key) => Buffer.from(item.binary?.[key].data ?? '', 'base64').toString());
		expect(attachments.sort()).toEqual(['a', 'b']);
	});

	it('a multipart upload larger than Max Body Size is refused with 413, also when sent in chunks without a length', async () => {
		const { webhookUrl } = await start({ options: { maxBodySizeMb: 1 } });
		const body = multipart([{ name: 'scan', value: Buffer.alloc(3 * 1024 * 1024, 0x41), fileName: 'scan.pdf', type: 'application/pdf' }]);
		const answer = await send(webhookUrl, { headers: { 'content-type': MULTIPART }, body, chunked: true });
		expect(answer.status).toBe(413);
		expect(answer.json).toMatchObject({ code: 'payload_too_large' });
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it('a multipart field whose name is 3 MB is refused with 413 at a 1 MB limit, sent with a length or in chunks', async () => {
		const { webhookUrl } = await start({ options: { maxBodySizeMb: 1 } });
		const body = multipart([{ name: 'n'.repeat(3 * 1024 * 1024), value: '' }]);
		for (const chunked of [false, true]) {
			const answer = await send(webhookUrl, { headers: { 'content-type': MULTIPART }, body, chunked });
			expect({ chunked, status: answer.status, code: answer.json?.code }).toEqual({ chunked, status: 413, code: 'payload_too_large' });
		}
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it.each([
		['names and values over the limit together', 600 * 1024, 413],
		['names and values within the limit', 300 * 1024, 200],
	] as const)('the same multipart body gets the same answer with a length and in chunks: %s', async (_case, half, status) => {
		const { webhookUrl } = await start({ options: { maxBodySizeMb: 1 } });
		const body = multipart([{ name: 'n'.repeat(half), value: 'v'.repeat(half) }]);
		for (const chunked of [false, true]) {
			const answer = await send(webhookUrl, { headers: { 'content-type': MULTIPART }, body, chunked });
			expect({ chunked, status: answer.status }).toEqual({ chunked, status });
		}
	});

	it('1,001 empty named files in a chunked body are refused with 413 too_many_fields and start nothing', async () => {
		const { webhookUrl } = await start({});
		const body = multipart(Array.from({ length: 1001 }, (_, index) => ({ name: 'f[]', value: '', fileName: `${index}.txt`, type: 'text/plain' })));
		const answer = await send(webhookUrl, { headers: { 'content-type': MULTIPART }, body, chunked: true });
		expect(answer.status).toBe(413);
		expect(answer.json).toMatchObject({ code: 'too_many_fields', message: expect.stringMatching(/1,001 fields and files/) });
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it('an empty named file is binary data of 0 bytes under its name', async () => {
		const { webhookUrl } = await start({});
		const body = multipart([{ name: 'empty', value: '', fileName: 'empty.csv', type: 'text/csv' }]);
		const answer = await send(webhookUrl, { headers: { 'content-type': MULTIPART }, body, chunked: true });
		expect(answer.status).toBe(200);
		const item = await emitted();
		expect(item.binary?.empty).toMatchObject({ fileName: 'empty.csv', mimeType: 'text/csv', bytes: 0 });
		expect(Buffer.from(item.binary?.empty.data ?? 'x', 'base64')).toHaveLength(0);
	});

	it('a multipart body n8n does not parse (multipart/mixed) is refused with 415 saying what to send', async () => {
		const { webhookUrl } = await start({});
		const answer = await send(webhookUrl, { headers: { 'content-type': `multipart/mixed; boundary=${boundary}` }, body: multipart([{ name: 'a', value: '1' }]) });
		expect(answer.status).toBe(415);
		expect(answer.json).toMatchObject({ code: 'unsupported_media_type', message: expect.stringMatching(/multipart\/form-data/) });
		expect(hosting.host?.executions).toHaveLength(0);
	});

	it('Max Body Size above n8n\'s 16 MB limit is refused at activation, saying the limit', async () => {
		await expect(start({ options: { maxBodySizeMb: 20 } })).rejects.toThrow(/at most 16/);
		await expect(start({ options: { maxBodySizeMb: '={{ 17 }}' } })).rejects.toThrow(/at most 16/);
	});

	it('a 17 MB body of a type the trigger reads itself is refused with its own 413 at the 16 MB limit', async () => {
		const { webhookUrl } = await start({ options: { maxBodySizeMb: 16 } });
		const answer = await postJson(webhookUrl, JSON.stringify({ data: 'x'.repeat(17 * 1024 * 1024) }), 'text/json');
		expect(answer.status).toBe(413);
		expect(answer.json).toMatchObject({ code: 'payload_too_large' });
	});
});
