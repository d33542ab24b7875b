/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-hardcoded-secrets --
	a test: runs in Node.js, not inside n8n (Node.js's modules); its credentials are fixed test values */
/**
 * The Records Trigger's URL on the open internet, in a real, running n8n: hostile requests (a form
 * repeating one name, long Authorization headers, JSON nested 100,000 deep, a multipart upload past
 * Max Body Size sent in chunks, a compressed bomb, callers going away mid-body), each refused with
 * the trigger's own answer and starting nothing, while n8n's /healthz keeps answering promptly
 * throughout. Then what callers get back: 204 without a length, an unanswered Respond-node call as
 * 500, compressed text/json read, multipart fields and files, the Response Body's suggested
 * expressions, and a deleted credential told to nobody. The second round: multipart names counted
 * toward Max Body Size alike sized or chunked, 20,000 empty files refused by the part limit leaving
 * no files behind, XML calls of nearly 1 MB (many namespace declarations, attribute names that
 * collide once cleaned up) answered as XML by Respond to Call, 16 callers without Authorization
 * refused cheaply, and an Authentication value the trigger does not know refusing activation. One
 * n8n per release serves every test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';

import { sleep } from '../../tooling/lib/proc';
import { sendRaw as send } from '../../tooling/lib/request';
import { N8nInstance, type WorkflowJson } from '../../tooling/n8n/n8nInstance';
import { readSetup, runtimesUnderTest, workflow, type NodeSpec } from './harness';

const { packed } = readSetup();

const BASIC = { user: 'records-service', password: 'S3cret heslo čšž' };
const TOKEN = 'records-e2e-token.4f9c2a7e1b';
const PATHS = {
	plain: 'hostile/plain',
	basic: 'hostile/basic',
	bearer: 'hostile/bearer',
	respond: 'hostile/respond',
	respondXml: 'hostile/respond-xml',
	small: 'hostile/small',
	status204: 'hostile/no-content',
};
const EXPRESSIONS_WEBHOOK_ID = '7e2b9c41-5a3d-4c8e-9f10-2a6b3c4d0035';
const EXPRESSIONS_PATH = 'hostile/expr/:recordId';

/** /healthz must answer every probe, none slower than this, while the hostile requests run. */
const HEALTHZ_MAX_MS = 2000;

/** Files under a folder and its subfolders, n8n's database files aside. */
function filesUnder(folder: string): number {
	return readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && !entry.name.includes('.sqlite')).length;
}

/** Probes n8n's /healthz every 50 ms until `stop` is called; `stop` gives every probe's status and time. */
function probeHealth(baseUrl: string): () => Promise<Array<{ status: number; ms: number }>> {
	const probes: Array<{ status: number; ms: number }> = [];
	let done = false;
	const probing = (async () => {
		while (!done) {
			const start = performance.now();
			const status = await fetch(`${baseUrl}/healthz`)
				.then((response) => response.status)
				.catch(() => 0);
			probes.push({ status, ms: performance.now() - start });
			await sleep(50);
		}
	})();
	return async () => {
		done = true;
		await probing;
		return probes;
	};
}

/** Starts a body, sends part of it and goes away. */
async function abortMidBody(url: string, contentType: string): Promise<void> {
	const req = request(url, { method: 'POST', headers: { 'content-type': contentType, 'content-length': '100000' } });
	req.on('error', () => undefined);
	req.write('{"invoice": "FP-1", "note": "');
	await sleep(200);
	req.destroy();
}

const boundary = '----records-trigger-e2e';
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

/** Just under the trigger's default Max Body Size (1 MB): the largest body a caller gets through unasked. */
const NEAR_DEFAULT_LIMIT = 1024 * 1024 - 16 * 1024;

/**
 * Pieces made by `piece(0)`, `piece(1)`, … until they fill `bytes` (ASCII), and how many there are.
 */
function fill(bytes: number, piece: (index: number) => string): { text: string; count: number } {
	const pieces: string[] = [];
	let length = 0;
	for (let next = piece(0); length + next.length <= bytes; next = piece(pieces.length)) {
		pieces.push(next);
		length += next.length;
	}
	return { text: pieces.join(''), count: pieces.length };
}

/**
 * XML whose root declares thousands of namespace prefixes, with thousands of elements below it using
 * them: a writer that copies the prefixes in scope into every element takes time quadratic in this.
 */
function manyNamespaceDeclarations(): { xml: string; elements: number } {
	const declarations = fill(NEAR_DEFAULT_LIMIT / 2, (index) => ` xmlns:p${index}="urn:records:${index}"`);
	const lines = fill(NEAR_DEFAULT_LIMIT / 2 - 100, (index) => `<p0:line p1:no="${index}">x</p0:line>`);
	return { xml: `<r:call xmlns:r="urn:records"${declarations.text}>${lines.text}</r:call>`, elements: lines.count };
}

/**
 * XML whose root has thousands of attributes whose names differ only in ":" and "_" after "a" (`a:_:…`,
 * `a_::…`): all one name once the undeclared prefixes are cleaned up, so a writer numbering them by
 * trying `_2`, `_3`, … for each takes time quadratic in this.
 */
function attributeNamesThatCollide(): { xml: string; attributes: number } {
	const name = (index: number) => 'a' + Array.from({ length: 16 }, (_, bit) => ((index >> bit) & 1 ? ':' : '_')).join('');
	const attributes = fill(NEAR_DEFAULT_LIMIT - 100, (index) => ` ${name(index)}="v${index}"`);
	return { xml: `<call${attributes.text}><event>invoice.paid</event></call>`, attributes: attributes.count };
}

const trigger = (id: string, parameters: Record<string, unknown>, extra: Partial<NodeSpec> = {}): NodeSpec => ({
	name: 'Records call',
	type: 'n8n-nodes-records.recordsTrigger',
	typeVersion: 1.1,
	webhookId: `7e2b9c41-5a3d-4c8e-9f10-${id.padStart(12, '0').slice(-12)}`,
	parameters,
	...extra,
});

describe.each(runtimesUnderTest())('the Records Trigger facing hostile callers in %s', (_title, runtime) => {
	let n8n: N8nInstance;
	let basicCredentialId: string;
	let bearerCredential: NodeSpec['credentials'];
	const ids: Record<string, string> = {};
	const url = (path: string) => `${n8n.baseUrl}/webhook/${path}`;

	beforeAll(async () => {
		n8n = await N8nInstance.create({ runtime, package: packed, startTimeoutMs: 300_000 });
		await n8n.start();
		basicCredentialId = await n8n.createCredential({ name: 'Records service (Basic)', type: 'recordsTriggerBasicAuthApi', data: BASIC });
		const basicCredential = { recordsTriggerBasicAuthApi: { id: basicCredentialId, name: 'Records service (Basic)' } };
		bearerCredential = { recordsTriggerBearerAuthApi: { id: await n8n.createCredential({ name: 'Records service (Bearer)', type: 'recordsTriggerBearerAuthApi', data: { token: TOKEN } }), name: 'Records service (Bearer)' } };
		const workflows: Record<string, WorkflowJson> = {
			plain: workflow('hostilePlain', 'Hostile: plain', [trigger('1', { path: PATHS.plain })]),
			small: workflow('hostileSmall', 'Hostile: 1 MB', [trigger('2', { path: PATHS.small, options: { maxBodySizeMb: 1 } })]),
			basic: workflow('hostileBasic', 'Hostile: Basic auth', [
				trigger('3', { path: PATHS.basic, authentication: 'basicAuth' }, { credentials: basicCredential }),
			]),
			bearer: workflow('hostileBearer', 'Hostile: bearer token', [
				trigger('7', { path: PATHS.bearer, authentication: 'bearerToken' }, { credentials: bearerCredential }),
			]),
			status204: workflow('hostile204', 'Hostile: 204', [trigger('4', { path: PATHS.status204, responseCode: 204 })]),
			// The Filter lets no item through, so Respond to Call never runs and the call is never answered.
			respond: workflow('hostileRespond', 'Hostile: unanswered', [
				trigger('5', { path: PATHS.respond, responseMode: 'responseNode' }),
				{
					name: 'Nothing passes',
					type: 'n8n-nodes-base.filter',
					typeVersion: 2,
					parameters: {
						conditions: {
							options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
							conditions: [{ id: 'never', leftValue: '={{ $json.method }}', rightValue: 'NEVER', operator: { type: 'string', operation: 'equals' } }],
							combinator: 'and',
						},
						options: {},
					},
				},
				{ name: 'Respond to Call', type: 'n8n-nodes-records.records', parameters: { resource: 'workflowCall', operation: 'respond' } },
			]),
			// Respond to Call at its defaults: the first incoming item, in the call's format (XML for XML).
			respondXml: workflow('hostileRespondXml', 'Hostile: XML answered by Respond to Call', [
				trigger('8', { path: PATHS.respondXml, responseMode: 'responseNode' }),
				{ name: 'Respond to Call', type: 'n8n-nodes-records.records', parameters: { resource: 'workflowCall', operation: 'respond' } },
			]),
			expressions: workflow('hostileExpr', 'Hostile: described expressions', [
				trigger('6', { path: EXPRESSIONS_PATH, responseBody: '={ "id": "{{ $json.query.id }}", "recordId": "{{ $json.params.recordId }}" }' }, { webhookId: EXPRESSIONS_WEBHOOK_ID }),
			]),
		};
		for (const [key, json] of Object.entries(workflows)) ids[key] = await n8n.createWorkflow(json, { activate: true });
		for (const path of Object.values(PATHS)) await n8n.waitForWebhook(path, { method: 'POST' });
		// A path with ":name" segments is not offered by n8n's "Did you mean" answer: call it until it answers.
		for (let tries = 0; (await fetch(url(`${EXPRESSIONS_WEBHOOK_ID}/hostile/expr/1`), { method: 'HEAD' })).status === 404; tries++) {
			if (tries > 120) throw new Error('The webhook with a ":recordId" path was not registered within 60 s');
			await sleep(500);
		}
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	test('hostile requests are refused by the trigger, start nothing, and /healthz answers promptly throughout', async () => {
		const probes: Array<{ status: number; ms: number }> = [];
		let hostileDone = false;
		const probing = (async () => {
			while (!hostileDone) {
				const start = performance.now();
				const status = await fetch(`${n8n.baseUrl}/healthz`)
					.then((response) => response.status)
					.catch(() => 0);
				probes.push({ status, ms: performance.now() - start });
				await sleep(50);
			}
		})();

		const form = await send(url(PATHS.plain), { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a&'.repeat(39_000) });
		const textForm = await send(url(PATHS.plain), { headers: { 'content-type': 'text/json' }, body: '['.repeat(100_000) + ']'.repeat(100_000) });
		const deepJson = await send(url(PATHS.plain), { headers: { 'content-type': 'application/json' }, body: '['.repeat(100_000) + ']'.repeat(100_000) });
		const authorizations = await Promise.all(
			Array.from({ length: 20 }, () => send(url(PATHS.basic), { headers: { 'content-type': 'application/json', authorization: `Bearer a${' '.repeat(15_500)}b` }, body: '{}' })),
		);
		const upload = await send(url(PATHS.small), {
			headers: { 'content-type': MULTIPART },
			body: multipart([{ name: 'scan', value: Buffer.alloc(3 * 1024 * 1024, 0x41), fileName: 'scan.pdf', type: 'application/pdf' }]),
			chunked: true,
		});
		const bomb = await send(url(PATHS.small), {
			headers: { 'content-type': 'text/json', 'content-encoding': 'gzip' },
			body: gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)),
		});
		await abortMidBody(url(PATHS.plain), 'text/json');
		await abortMidBody(url(PATHS.plain), 'application/json');
		hostileDone = true;
		await probing;

		expect([form.status, form.json?.code]).toEqual([413, 'too_many_fields']);
		expect([textForm.status, textForm.json?.code]).toEqual([400, 'invalid_json']);
		expect([deepJson.status, deepJson.json?.code]).toEqual([400, 'invalid_json']);
		expect(new Set(authorizations.map((answer) => answer.status))).toEqual(new Set([401]));
		expect([upload.status, upload.json?.code]).toEqual([413, 'payload_too_large']);
		expect([bomb.status, bomb.json?.code]).toEqual([413, 'payload_too_large']);
		expect(probes.length).toBeGreaterThan(0);
		expect(probes.filter((probe) => probe.status !== 200)).toEqual([]);
		expect(Math.max(...probes.map((probe) => probe.ms))).toBeLessThanOrEqual(HEALTHZ_MAX_MS);
		for (const key of ['plain', 'small', 'basic']) expect(await n8n.executions(ids[key])).toHaveLength(0);
	});

	test('what callers get back: 204 without a length, an unanswered call as 500, compressed and multipart bodies read, described expressions working', async () => {
		const noContent = await send(url(PATHS.status204), { headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
		expect(noContent.status).toBe(204);
		expect(noContent.headers['content-length']).toBeUndefined();

		const unanswered = await send(url(PATHS.respond), { headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
		expect(unanswered.status).toBe(500);

		const compressed = await send(url(PATHS.plain), {
			headers: { 'content-type': 'text/json', 'content-encoding': 'gzip' },
			body: gzipSync(JSON.stringify({ event: 'invoice.paid', invoice_id: 4711 })),
		});
		expect(compressed.status).toBe(200);

		const files = await send(url(PATHS.plain), {
			headers: { 'content-type': MULTIPART },
			body: multipart([
				{ name: 'event', value: 'invoice.paid' },
				{ name: 'invoice', value: '%PDF-1.4 FP-1', fileName: 'FP-1.pdf', type: 'application/pdf' },
			]),
		});
		expect(files.status).toBe(200);
		const executions = await n8n.waitForExecutions(ids.plain, 2);
		const items = executions.map((execution) => execution.data?.resultData.runData['Records call']?.[0]?.data?.main?.[0]?.[0]);
		expect(items[0]?.json).toMatchObject({ event: 'invoice.paid', format: 'json', body: { invoice_id: 4711 } });
		expect(items[1]?.json).toMatchObject({ event: 'invoice.paid', format: 'form', body: { event: 'invoice.paid' } });
		expect(items[1]?.binary?.invoice).toMatchObject({ fileName: 'FP-1.pdf', mimeType: 'application/pdf' });

		const described = await send(`${url(`${EXPRESSIONS_WEBHOOK_ID}/hostile/expr/4711`)}?id=FP-1`, { headers: { 'content-type': 'application/json' }, body: '{}' });
		if (runtime.spec.n8nVersion.startsWith('1.')) {
			// n8n 1.x gives an immediate answer's expressions no "$json": a 500 that says so, as the description warns.
			expect([described.status, described.json?.code]).toEqual([500, 'response_body_invalid']);
			expect(described.json?.message).toMatch(/only on n8n 2 and later.*When Last Node Finishes/);
		} else {
			expect(described.json).toEqual({ id: 'FP-1', recordId: '4711' });
		}
	});

	test('multipart bodies are held to Max Body Size (names counted, sized or chunked) with /healthz answering promptly, and to the part limit leaving no files behind', async () => {
		// Earlier tests start executions of these workflows: none may be added here.
		const executionsBefore = { plain: (await n8n.executions(ids.plain)).length, small: (await n8n.executions(ids.small)).length };
		const stop = probeHealth(n8n.baseUrl);
		const longName = multipart([{ name: 'n'.repeat(3 * 1024 * 1024), value: '' }]);
		const sameBody = multipart([{ name: 'n'.repeat(600 * 1024), value: 'v'.repeat(600 * 1024) }]);
		const answers: Record<string, { status: number; code: unknown }> = {};
		for (const chunked of [false, true]) {
			for (const [label, body] of [['long name', longName], ['same body', sameBody]] as const) {
				const answer = await send(url(PATHS.small), { headers: { 'content-type': MULTIPART }, body, chunked });
				answers[`${label}${chunked ? ', chunked' : ''}`] = { status: answer.status, code: answer.json?.code };
			}
		}
		const probes = await stop();
		const tooLarge = { status: 413, code: 'payload_too_large' };
		expect(answers).toEqual({ 'long name': tooLarge, 'same body': tooLarge, 'long name, chunked': tooLarge, 'same body, chunked': tooLarge });
		expect(probes.filter((probe) => probe.status !== 200)).toEqual([]);
		expect(Math.max(...probes.map((probe) => probe.ms))).toBeLessThanOrEqual(HEALTHZ_MAX_MS);

		// n8n itself writes every file of a multipart body to a temporary file before the trigger runs
		// (and deletes them after): that part of the cost is n8n's, so /healthz is not held here.
		const filesBefore = filesUnder(join(n8n.userFolder, '.n8n'));
		const emptyFiles = multipart(Array.from({ length: 20_000 }, (_, index) => ({ name: 'f[]', value: '', fileName: `${index}.txt`, type: 'text/plain' })));
		const manyFiles = await send(url(PATHS.plain), { headers: { 'content-type': MULTIPART }, body: emptyFiles, chunked: true });
		// n8n 1.x stops parsing a multipart body at its first empty file and hands the trigger the fields
		// and files before it (none here), so the call starts the workflow with an empty body.
		const stoppedByN8n = runtime.spec.n8nVersion.startsWith('1.');
		expect([manyFiles.status, manyFiles.json?.code]).toEqual(stoppedByN8n ? [200, undefined] : [413, 'too_many_fields']);
		await sleep(2000);
		expect(filesUnder(join(n8n.userFolder, '.n8n')) - filesBefore).toBeLessThanOrEqual(5);
		expect(await n8n.executions(ids.plain)).toHaveLength(executionsBefore.plain + (stoppedByN8n ? 1 : 0));
		expect(await n8n.executions(ids.small)).toHaveLength(executionsBefore.small);
	});

	test.each([
		['many namespace declarations on the root', () => {
			const { xml, elements } = manyNamespaceDeclarations();
			return { xml, check: (answer: string) => expect(answer.split('</p0:line>').length - 1).toBe(elements) };
		}],
		['attribute names that are one name once cleaned up', () => {
			const { xml, attributes } = attributeNamesThatCollide();
			return { xml, check: (answer: string) => expect(answer.match(/="v\d+"/g) ?? []).toHaveLength(attributes) };
		}],
	])('an XML call of nearly 1 MB with %s, answered as XML by Respond to Call at its defaults: the whole answer arrives, and /healthz answers promptly', async (_label, build) => {
		const { xml, check } = build();
		expect(Buffer.byteLength(xml)).toBeGreaterThan(NEAR_DEFAULT_LIMIT * 0.95);
		expect(Buffer.byteLength(xml)).toBeLessThan(1024 * 1024);
		const stop = probeHealth(n8n.baseUrl);
		const answer = await send(url(PATHS.respondXml), { headers: { 'content-type': 'application/xml' }, body: xml });
		const probes = await stop();
		expect(answer.status).toBe(200);
		expect(answer.headers['content-type']).toMatch(/^application\/xml/);
		check(answer.text);
		expect(probes.filter((probe) => probe.status !== 200)).toEqual([]);
		expect(Math.max(...probes.map((probe) => probe.ms))).toBeLessThanOrEqual(HEALTHZ_MAX_MS);
	});

	test('16 callers in parallel without Authorization are refused with 401, and /healthz answers promptly throughout', async () => {
		const stop = probeHealth(n8n.baseUrl);
		const statuses = new Map<number, number>();
		const until = performance.now() + 5000;
		await Promise.all(
			Array.from({ length: 16 }, async () => {
				while (performance.now() < until) {
					const answer = await send(url(PATHS.bearer), { headers: { 'content-type': 'application/json' }, body: '{"event":"invoice.paid"}' });
					statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
				}
			}),
		);
		const probes = await stop();
		expect([...statuses.keys()]).toEqual([401]);
		expect(probes.filter((probe) => probe.status !== 200)).toEqual([]);
		expect(Math.max(...probes.map((probe) => probe.ms))).toBeLessThanOrEqual(HEALTHZ_MAX_MS);
		expect(statuses.get(401)).toBeGreaterThan(16);
		expect(await n8n.executions(ids.bearer)).toHaveLength(0);
	});

	test.each(['bearer', 'headerAuth', 'BearerToken'])('Authentication %p, which the trigger does not know: activation is refused naming the values allowed', async (authentication) => {
		const path = `hostile/unknown-auth-${authentication}`;
		const id = await n8n.createWorkflow(
			workflow(`hostileAuth${authentication}`, `Hostile: authentication ${authentication}`, [
				trigger(String(10 + authentication.length), { path, authentication }, { credentials: bearerCredential }),
			]),
		);
		const logBefore = readFileSync(n8n.serverLog, 'utf8').length;
		// n8n 1.x answers the activation with its error; n8n 2.x may publish in the background and log it.
		const answered = await n8n.api('POST', `/workflows/${id}/activate`).then(
			() => '',
			(error: Error) => error.message,
		);
		const refusal = new RegExp(`Authentication is "${authentication}", which it does not know.*"basicAuth" \\(Basic Auth\\), "bearerToken" \\(Bearer Token\\), "none" \\(None\\)`);
		// n8n 1.x's answer carries the message inside JSON, its quotes escaped.
		const seen = () => (answered + readFileSync(n8n.serverLog, 'utf8').slice(logBefore)).replace(/\\"/g, '"');
		for (let waited = 0; !refusal.test(seen()) && waited < 30_000; waited += 500) await sleep(500);
		expect(seen()).toMatch(refusal);
		const answer = await send(url(path), { headers: { 'content-type': 'application/json' }, body: '{}' });
		expect(answer.status).toBe(404);
		expect(await n8n.executions(id)).toHaveLength(0);
	});

	test('with its credential deleted, a caller gets a 500 that names no credential; n8n\'s log has the reason', async () => {
		const logBefore = readFileSync(n8n.serverLog, 'utf8').length;
		await n8n.api('DELETE', `/credentials/${basicCredentialId}`);
		// Credentials a usable credential could match: others are refused with 401 before it is read.
		const authorization = `Basic ${Buffer.from(`${BASIC.user}:${BASIC.password}`).toString('base64')}`;
		const answer = await send(url(PATHS.basic), { headers: { 'content-type': 'application/json', authorization }, body: '{}' });
		expect(answer.status).toBe(500);
		expect(answer.json?.code).toBe('trigger_not_ready');
		expect(answer.text).not.toMatch(new RegExp(`${basicCredentialId}|recordsTriggerBasicAuthApi|does not exist`));
		expect(readFileSync(n8n.serverLog, 'utf8').slice(logBefore)).toMatch(/Records Trigger has no usable Basic Auth credential/);
	});
});
