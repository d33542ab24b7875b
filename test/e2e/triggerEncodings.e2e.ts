/**
 * Czech encodings at the Records Trigger in a real, running n8n. n8n decodes JSON, XML, plain-text
 * and form bodies itself before the trigger runs, with Node's Buffer encodings: a charset of
 * windows-1250 or ISO-8859-2 on them gets n8n's own 422. Bodies of other content types reach the
 * trigger as bytes. The trigger's 400 for a body that is not UTF-8 gives advice; following it
 * (the "Body Encoding" option, or a content type n8n passes on) leads to success on both releases.
 * One n8n per release serves every test of this file.
 */
import { N8nInstance, type WorkflowJson } from '../../tooling/n8n/n8nInstance';
import { readSetup, runtimesUnderTest, workflow } from './harness';

const { packed } = readSetup();

const NAME = 'Účetní kancelář Šťastná, Žďár nad Sázavou';

/** Encodes text in a single-byte encoding by inverting the TextDecoder's table. */
function encode(text: string, encoding: 'windows-1250' | 'iso-8859-2'): Buffer {
	const decoder = new TextDecoder(encoding);
	const byteOf = new Map<string, number>();
	for (let byte = 0; byte < 256; byte++) byteOf.set(decoder.decode(Uint8Array.of(byte)), byte);
	return Buffer.from(
		[...text].map((char) => {
			const byte = byteOf.get(char);
			if (byte === undefined) throw new Error(`"${char}" has no byte in ${encoding}`);
			return byte;
		}),
	);
}

const jsonIn = (encoding: 'windows-1250' | 'iso-8859-2') => encode(JSON.stringify({ nazev: NAME }), encoding);

/** A trigger that answers with the item it made, so that the test sees what the workflow got. */
const triggerWorkflow = (id: string, path: string, options: Record<string, unknown>): WorkflowJson =>
	workflow(id, `Encodings ${path}`, [
		{
			name: 'Records call',
			type: 'n8n-nodes-records.recordsTrigger',
			webhookId: `9a7c1e20-4b3d-4f51-8e62-${id.padStart(12, '0').slice(-12)}`,
			parameters: { path, responseMode: 'lastNode', responseData: 'firstEntryJson', options },
		},
	]);

const TRIGGERS = [{ auto: 'records/enc-auto', cp1250: 'records/enc-1250' }];

describe.each(runtimesUnderTest())('Czech encodings at the Records Trigger in %s', (_title, runtime) => {
	let n8n: N8nInstance;

	const post = async (path: string, contentType: string, body: Buffer) => {
		const response = await fetch(`${n8n.baseUrl}/webhook/${path}`, {
			method: 'POST',
			headers: { 'content-type': contentType },
			body,
		});
		const text = await response.text();
		let json: Record<string, unknown> | undefined;
		try {
			json = JSON.parse(text) as Record<string, unknown>;
		} catch {
			json = undefined;
		}
		return { status: response.status, text, json };
	};

	beforeAll(async () => {
		n8n = await N8nInstance.create({ runtime, package: packed });
		await n8n.start();
		for (const [index, trigger] of TRIGGERS.entries()) {
			await n8n.createWorkflow(triggerWorkflow(`encAuto${index}`, trigger.auto, {}), { activate: true });
			await n8n.createWorkflow(
				triggerWorkflow(`enc1250${index}`, trigger.cp1250, { bodyEncoding: 'windows-1250' }),
				{ activate: true },
			);
		}
		for (const trigger of TRIGGERS) {
			await n8n.waitForWebhook(trigger.auto, { method: 'POST' });
			await n8n.waitForWebhook(trigger.cp1250, { method: 'POST' });
		}
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	describe.each(TRIGGERS)('the trigger at $auto', (trigger) => {
		test.each([
			'application/json; charset=windows-1250',
			'text/plain; charset=windows-1250',
			'application/xml; charset=windows-1250',
			'application/json; charset=iso-8859-2',
		])('n8n refuses %s itself (422) before the trigger runs', async (contentType) => {
			const answer = await post(trigger.auto, contentType, jsonIn('windows-1250'));
			expect(answer.status).toBe(422);
		});

		test('a windows-1250 body without a charset gets the 400 whose advice works', async () => {
			const answer = await post(trigger.auto, 'application/json', jsonIn('windows-1250'));
			expect(answer.status).toBe(400);
			expect(answer.json?.code).toBe('invalid_encoding');
			expect(answer.json?.message).toContain('option "Body Encoding"');
			expect(answer.json?.message).toContain('"text/json; charset=windows-1250"');
		});

		test('following the advice: the "Body Encoding" option decodes JSON and plain text sent without a charset', async () => {
			const json = await post(trigger.cp1250, 'application/json', jsonIn('windows-1250'));
			expect(json.status).toBe(200);
			expect(json.json).toMatchObject({ format: 'json', body: { nazev: NAME } });

			const text = await post(trigger.cp1250, 'text/plain', encode(NAME, 'windows-1250'));
			expect(text.status).toBe(200);
			expect(text.json).toMatchObject({ body: NAME });
		});

		test.each([
			['text/json; charset=windows-1250', 'windows-1250'],
			['text/json; charset=iso-8859-2', 'iso-8859-2'],
			['application/vnd.records+json; charset=iso-8859-2', 'iso-8859-2'],
		] as const)('following the advice: %s reaches the trigger as bytes and is decoded', async (contentType, encoding) => {
			const answer = await post(trigger.auto, contentType, jsonIn(encoding));
			expect(answer.status).toBe(200);
			expect(answer.json).toMatchObject({ format: 'json', body: { nazev: NAME } });
		});

		test('an XML body that declares windows-1250 in its XML declaration is decoded by it', async () => {
			const xml = encode(`<?xml version="1.0" encoding="windows-1250"?><dotaz><nazev>${NAME}</nazev></dotaz>`, 'windows-1250');
			const answer = await post(trigger.auto, 'application/xml', xml);
			expect(answer.status).toBe(200);
			expect(answer.json).toMatchObject({ format: 'xml', body: { dotaz: { nazev: NAME } } });
		});
	});
});
