/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside n8n;
	compresses bodies (`node:zlib`) */
/**
 * Every path from a call to its answer costs work linear in what the caller sent: the Records
 * Trigger reads the call (JSON, XML, forms, multipart; compressed or not) and builds its item, and a
 * Records node's Respond to Call at its defaults (the first incoming item, in the call's format)
 * writes that item back as JSON or XML. Families of bodies are generated (seeded, shrinking) from
 * the shapes that make readers and writers slow: names that clean up to one name, many fields,
 * parts and gzip members, long names (XML answers: xmlWriter.test.ts's named cases); each family is run at n
 * and 4n, and its CPU time must grow as a linear cost does (about 4×), not as a quadratic one (16×).
 * The oracle besides the growth: the call is answered, and an XML answer is a document the reader
 * reads back.
 */
import { gzipSync } from 'node:zlib';

import fc from 'fast-check';
import type { IDataObject, IExecuteFunctions, IN8nHttpFullResponse, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { execute as respondToCall } from '../../../../nodes/Records/actions/workflowCall/respond.operation';
import { receiveCall } from '../../../../nodes/RecordsTrigger/receive';
import { parseXml } from '../../../../nodes/shared/workflowCall/xml';
import { MAX_GROWTH_AT_4N, settledGrowth } from './linearTime';

const KB = 1024;
/** The size of a body at scale 1; the same family is also run at 4 times it. */
const BASE_BYTES = 96 * KB;
const SEEDED = { seed: 46, numRuns: 6 };

/** A call as n8n hands it to the trigger: the bytes n8n kept, or n8n's parse of a multipart body. */
interface Call {
	headers: Record<string, string>;
	rawBody?: Buffer;
	multipart?: { data: Record<string, string | string[]>; files: Record<string, Array<{ filepath: string; originalFilename: string; size: number }>> };
}

const TRIGGER = { name: 'Records Trigger', type: 'n8n-nodes-records.recordsTrigger', typeVersion: 1.1, parameters: { responseMode: 'responseNode' } };
const RESPOND = { name: 'Respond to Call', type: 'n8n-nodes-records.records', typeVersion: 1, parameters: { resource: 'workflowCall', operation: 'respond' } };

/** The trigger's part: n8n calls its webhook with the request, and runs the workflow with what it returns. */
async function triggerItems(call: Call): Promise<{ items?: INodeExecutionData[]; status?: number; body?: string }> {
	const parameters: IDataObject = { authentication: 'none', responseMode: 'responseNode', options: {}, events: ['*'], path: 'records' };
	const written: { status?: number; body?: string } = {};
	const request = {
		method: 'POST',
		headers: call.headers,
		rawBody: call.rawBody,
		body: call.multipart,
		readable: false,
		on: () => undefined,
	};
	const response = {
		writeHead: (status: number) => (written.status = status),
		end: (body?: string) => (written.body = body),
	};
	const context = {
		getRequestObject: () => request,
		getResponseObject: () => response,
		getNodeParameter: (name: string, fallback?: unknown) => parameters[name] ?? fallback,
		getNode: () => TRIGGER,
		getChildNodes: () => [RESPOND],
		getQueryData: () => ({}),
		getParamsData: () => ({}),
		nodeHelpers: { copyBinaryFile: async (_path: string, fileName: string, mimeType?: string) => ({ data: '', fileName, mimeType: mimeType ?? 'application/octet-stream' }) },
	} as unknown as IWebhookFunctions;
	const result = await receiveCall.call(context);
	return { items: result.workflowData?.[0], ...written };
}

/** Respond to Call at its defaults, after the trigger: what it sends back. */
async function respondedWith(items: INodeExecutionData[]): Promise<IN8nHttpFullResponse> {
	let sent: IN8nHttpFullResponse | undefined;
	const context = {
		getNode: () => RESPOND,
		getParentNodes: () => [TRIGGER],
		getWorkflowDataProxy: () => ({ $items: () => items }),
		getNodeParameter: (name: string, _item: number, fallback?: unknown) =>
			({ respondWith: 'firstIncomingItem', format: 'sameAsCall', options: {} })[name] ?? fallback,
		continueOnFail: () => false,
		sendResponse: async (response: IN8nHttpFullResponse) => {
			sent = response;
		},
	} as unknown as IExecuteFunctions;
	await respondToCall.call(context, items);
	if (sent === undefined) throw new Error('Respond to Call sent nothing');
	return sent;
}

/** From the call to the answer the caller gets; the answer's body and type. */
async function answerTo(call: Call): Promise<{ body: string; contentType: string }> {
	const trigger = await triggerItems(call);
	if (trigger.items === undefined) return { body: trigger.body ?? '', contentType: `refused: ${trigger.body ?? ''}`.slice(0, 300) };
	const answer = await respondedWith(trigger.items);
	return { body: String(answer.body), contentType: String(answer.headers?.['content-type']) };
}

/**
 * The `index`th name over `alphabet` after a first letter: names that are all different as sent and,
 * for alphabets of characters an XML name may not keep (":" and "_" after cleaning), one name once
 * written back.
 */
function nthName(first: string, alphabet: string, index: number, length: number): string {
	let name = first;
	for (let rest = index, position = 0; position < length; position++, rest = Math.floor(rest / alphabet.length)) {
		name += alphabet[rest % alphabet.length];
	}
	return name;
}

/** How many of a repeated unit fit in the bytes a share of the body is given. */
const countFor = (bytes: number, unit: number) => Math.max(1, Math.floor(bytes / Math.max(1, unit)));

/** JSON (in the types n8n reads and those it passes on, compressed in one or many gzip members). */
const jsonFamily = fc
	.record({
		keyAlphabet: fc.constantFrom('@_:', 'ab', '"\\', 'é😀'),
		value: fc.jsonValue({ maxDepth: 3 }),
		shape: fc.constantFrom('object', 'list', 'nested'),
		contentType: fc.constantFrom('application/json', 'text/json', 'application/vnd.records+json'),
		gzipMembers: fc.constantFrom(0, 1, 3, 'many'),
	})
	.map((shape) => (bytes: number): Call => {
		const unit = JSON.stringify(shape.value) ?? 'null';
		const count = countFor(bytes, unit.length + 24);
		const entries = Array.from({ length: count }, (_, index) => [nthName('@', shape.keyAlphabet, index, 10), shape.value] as const);
		const body =
			shape.shape === 'object'
				? { event: 'invoice.paid', ...Object.fromEntries(entries) }
				: shape.shape === 'list'
					? entries.map(([, value]) => value)
					: { event: 'invoice.paid', data: entries.map(([key, value]) => ({ [key]: [{ value }] })) };
		const text = Buffer.from(JSON.stringify(body));
		if (shape.gzipMembers === 0 || shape.contentType === 'application/json') return { headers: { 'content-type': shape.contentType }, rawBody: text };
		const members = shape.gzipMembers === 'many' ? countFor(text.length, 256) : Number(shape.gzipMembers);
		const step = Math.ceil(text.length / members);
		const parts = Array.from({ length: members }, (_, index) => gzipSync(text.subarray(index * step, (index + 1) * step)));
		// "x-gzip": n8n kept the bytes as sent, and the trigger inflates them, as it does the types n8n passes on.
		return { headers: { 'content-type': shape.contentType, 'content-encoding': 'x-gzip' }, rawBody: Buffer.concat(parts) };
	});

/** Forms of many fields whose names collide once written back as XML (the caller asks for XML). */
const formFamily = fc
	.record({
		nameAlphabet: fc.constantFrom('_:', ':-', '._'),
		attributes: fc.boolean(),
		valueUnit: fc.constantFrom('x', '%C5%A1', '+', '%EF%BB%BF', '%0D%0A'),
		accept: fc.constantFrom('application/xml', 'application/json'),
	})
	.map((shape) => (bytes: number): Call => {
		// At most 249 fields at scale 1: with the event, fewer than the 1,000 a form may have at 4n.
		const fields = Math.min(249 * (bytes / BASE_BYTES), countFor(bytes, 80));
		const value = shape.valueUnit.repeat(Math.ceil(bytes / fields / shape.valueUnit.length / 2));
		const pairs = Array.from({ length: fields }, (_, index) => `${shape.attributes ? '%40' : ''}a${nthName('', shape.nameAlphabet, index, 12)}=${value}`);
		return {
			headers: { 'content-type': 'application/x-www-form-urlencoded', accept: shape.accept },
			rawBody: Buffer.from(['event=invoice.paid', ...pairs].join('&')),
		};
	});

/** Multipart, as n8n parses it: many fields (long names, or many short ones) and many files. */
const multipartFamily = fc
	.record({
		fieldShare: fc.double({ min: 0.1, max: 1, noNaN: true }),
		nameLength: fc.constantFrom(8, 256, 'scales'),
		filesUnder: fc.constantFrom('one field', 'a field each'),
		accept: fc.constantFrom('application/xml', 'application/json'),
	})
	.map((shape) => (bytes: number): Call => {
		const nameLength = shape.nameLength === 'scales' ? Math.floor(bytes / 8) : Number(shape.nameLength);
		const fieldBytes = bytes * shape.fieldShare;
		// At most 249 parts at scale 1 (200 fields, 49 files): with the event, fewer than the 1,000 a
		// multipart body may have at 4n.
		const fields = Math.min(200 * (bytes / BASE_BYTES), countFor(fieldBytes, nameLength + 8));
		const data: Record<string, string> = { event: 'invoice.paid' };
		for (let index = 0; index < fields; index++) data[`@${nthName('f', ':_', index, 16)}${'n'.repeat(nameLength)}`] = 'value';
		const fileCount = Math.min(49 * (bytes / BASE_BYTES), countFor(bytes - fieldBytes, 200));
		const files: NonNullable<Call['multipart']>['files'] = {};
		for (let index = 0; index < fileCount; index++) {
			const field = shape.filesUnder === 'one field' ? 'attachments[]' : `file${index}`;
			(files[field] ??= []).push({ filepath: `/uploads/${index}`, originalFilename: `${index}.pdf`, size: 100 });
		}
		return { headers: { 'content-type': 'multipart/form-data; boundary=x', accept: shape.accept }, multipart: { data, files } };
	});

/** Answers the call at n and at 4n; the growth of the CPU time and the answers. */
async function growthOf(bodyAt: (bytes: number) => Call) {
	const calls = { 1: bodyAt(BASE_BYTES), 4: bodyAt(4 * BASE_BYTES) };
	const answers: Array<{ body: string; contentType: string }> = [];
	const growth = await settledGrowth(async (scale) => answers.push(await answerTo(calls[scale])));
	return { growth, answer: answers[answers.length - 1] };
}

function expectAnswered(answer: { body: string; contentType: string }) {
	expect(answer.contentType).toMatch(/^application\/(json|xml)/);
	if (answer.contentType.startsWith('application/xml')) expect(() => parseXml(answer.body)).not.toThrow();
	else expect(() => JSON.parse(answer.body) as unknown).not.toThrow();
}

describe('from a call to its answer through Respond to Call at its defaults, work grows linearly with the call', () => {
	jest.setTimeout(240_000);

	it.each([
		['JSON, compressed or not, in one or many gzip members', jsonFamily],
		['forms of many fields, answered as XML or JSON', formFamily],
		['multipart with many parts and long names, answered as XML or JSON', multipartFamily],
	])('%s', async (_family, family) => {
		await fc.assert(
			fc.asyncProperty(family, async (bodyAt) => {
				const { growth, answer } = await growthOf(bodyAt);
				expectAnswered(answer);
				const { ratio, ms } = growth;
				expect(ratio <= MAX_GROWTH_AT_4N ? 'linear' : `${ratio.toFixed(1)}× the CPU time at 4n (${ms[0].toFixed(0)} ms → ${ms[1].toFixed(0)} ms)`).toBe('linear');
			}),
			SEEDED,
		);
	});
});
