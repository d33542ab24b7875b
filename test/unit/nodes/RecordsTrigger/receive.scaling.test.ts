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
import { SaxesParser } from 'saxes';
import type { IDataObject, IExecuteFunctions, IN8nHttpFullResponse, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';

import { execute as respondToCall } from '../../../../nodes/Records/actions/workflowCall/respond.operation';
import { receiveCall } from '../../../../nodes/RecordsTrigger/receive';
import { parseXml } from '../../../../nodes/shared/workflowCall/xml';
import { MAX_GROWTH_AT_4N, settledGrowth } from './linearTime';

const KB = 1024;
/** The size of a body at scale 1; the same family is also run at 4 times it. */
const BASE_BYTES = 96 * KB;
/**
 * A failure is reported as found, not shrunk: a run that is more than linear takes seconds at these
 * sizes, and shrinking it took some twenty minutes; the failure prints the seed and the family's
 * shape.
 */
const SEEDED = { seed: 46, numRuns: 6, endOnFailure: true };

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

/**
 * Respond to Call's Format: its default, the call's own format, or JSON (how an XML call's item is
 * written back as JSON).
 */
type AnswerFormat = 'sameAsCall' | 'json';

/** Respond to Call at its defaults (but for `format`), after the trigger: what it sends back. */
async function respondedWith(items: INodeExecutionData[], format: AnswerFormat = 'sameAsCall'): Promise<IN8nHttpFullResponse> {
	let sent: IN8nHttpFullResponse | undefined;
	const context = {
		getNode: () => RESPOND,
		getParentNodes: () => [TRIGGER],
		getWorkflowDataProxy: () => ({ $items: () => items }),
		getNodeParameter: (name: string, _item: number, fallback?: unknown) =>
			({ respondWith: 'firstIncomingItem', format, options: {} })[name] ?? fallback,
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
async function answerTo(call: Call, format: AnswerFormat = 'sameAsCall'): Promise<{ body: string; contentType: string }> {
	const trigger = await triggerItems(call);
	if (trigger.items === undefined) return { body: trigger.body ?? '', contentType: `refused: ${trigger.body ?? ''}`.slice(0, 300) };
	const answer = await respondedWith(trigger.items, format);
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
		// Many members: one per KB, so that the body at 4n stays under the 1,000 a body may have.
		const members = shape.gzipMembers === 'many' ? countFor(text.length, 1024) : Number(shape.gzipMembers);
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

/**
 * Every value an XML call carries (attribute values, the text of innermost elements) holds this
 * letter once: the answer must hold it as often, wherever the writer had to rename or re-escape.
 */
const MARK = 'ʘ';

/** An XML call: a root element in the "urn:records" namespace holding the event and `content`. */
interface XmlCall {
	contentType: string;
	/** Namespace declarations on the root element, beside its own. */
	declarations?: string;
	/** The parts of the body after the event, generated until they fill the body. */
	piece: (index: number) => string;
}

/** The call of `bytes` bytes that repeats `piece` after the event, and how many values it carries. */
function xmlCallOf(shape: XmlCall, bytes: number): Call & { values: number } {
	const open = `<?xml version="1.0" encoding="UTF-8"?>\r\n<r:webhook xmlns:r="urn:records"${shape.declarations ?? ''}><r:event>invoice.paid</r:event>`;
	const close = '</r:webhook>';
	const parts = [open];
	let size = open.length + close.length;
	for (let index = 0; size < bytes; index++) {
		const piece = shape.piece(index);
		parts.push(piece);
		size += piece.length;
	}
	parts.push(close);
	const text = parts.join('');
	return { headers: { 'content-type': shape.contentType }, rawBody: Buffer.from(text), values: text.split(MARK).length - 1 };
}

/** A body of the family with its shape, which a failure prints (the counterexample, beside the seed). */
function shown<S, C>(shape: S, bodyAt: (bytes: number) => C): ((bytes: number) => C) & { [fc.toStringMethod]: () => string } {
	return Object.assign(bodyAt, { [fc.toStringMethod]: () => fc.stringify(shape) });
}

const xmlContentType = fc.constantFrom('application/xml', 'text/xml; charset=utf-8', 'application/soap+xml');

/** `count` copies of `unit(index)`, joined. */
const repeated = (count: number, unit: (index: number) => string) => Array.from({ length: count }, (_, index) => unit(index)).join('');

/**
 * Many namespace declarations on the root, and elements below it (nested, each with an attribute)
 * that use the prefixes, prefixes never declared, the default namespace, or declare a prefix again.
 */
const xmlDeclarationsFamily = fc
	.record({
		declarationShare: fc.double({ min: 0.2, max: 0.8, noNaN: true }),
		names: fc.constantFrom('declared prefixes', 'undeclared prefixes', 'default namespace', 'a prefix declared again on each element'),
		depth: fc.integer({ min: 1, max: 40 }),
		contentType: xmlContentType,
	})
	.map((shape) => shown(shape, (bytes: number) => {
		const declarations = countFor(bytes * shape.declarationShare, 30);
		const element = (index: number, level: number) => {
			const prefix = `p${(index * 7 + level) % declarations}`;
			switch (shape.names) {
				case 'declared prefixes':
					return { tag: `${prefix}:item`, attributes: ` ${prefix}:id="${MARK}${index}"` };
				case 'undeclared prefixes':
					return { tag: `u${index % 97}:item`, attributes: ` u${level}:id="${MARK}${index}"` };
				case 'default namespace':
					return { tag: 'item', attributes: ` xmlns="urn:records:default${level}" id="${MARK}${index}"` };
				case 'a prefix declared again on each element':
					return { tag: `${prefix}:item`, attributes: ` xmlns:${prefix}="urn:records:again${index}" ${prefix}:id="${MARK}${index}"` };
			}
		};
		return xmlCallOf(
			{
				contentType: shape.contentType,
				declarations: repeated(declarations, (index) => ` xmlns:p${index}="urn:records:p${index}"`),
				piece: (index) => {
					const chain = Array.from({ length: shape.depth }, (_, level) => element(index, level));
					return `${chain.map(({ tag, attributes }) => `<${tag}${attributes}>`).join('')}${MARK}${chain
						.reverse()
						.map(({ tag }) => `</${tag}>`)
						.join('')}`;
				},
			},
			bytes,
		);
	}));

/**
 * Attribute names the writer must rename and that collide once renamed: names that differ only in
 * ":" and "_" (an undeclared prefix's ":" becomes "_"), or one local name under many prefixes bound
 * to one namespace (one name to a namespace-aware parser); all on one element, or a few on each.
 * Element names that differ only in ":" and "_" too.
 */
const xmlCollidingNamesFamily = fc
	.record({
		collision: fc.constantFrom('":" and "_"', 'one namespace under many prefixes'),
		perElement: fc.oneof(fc.constant('all'), fc.integer({ min: 2, max: 64 })),
		elementNames: fc.constantFrom('plain', 'colliding'),
		contentType: xmlContentType,
	})
	.map((shape) => shown(shape, (bytes: number) => {
		// Each attribute costs about 40 bytes with its share of a declaration; the one element of
		// "all" holds them all.
		const attributes = countFor(bytes, 40);
		const perElement = shape.perElement === 'all' ? attributes : shape.perElement;
		const manyPrefixes = shape.collision === 'one namespace under many prefixes';
		const attributeName = (index: number) => (manyPrefixes ? `q${index}:a` : nthName('a', ':_', index, 16));
		const tag = (index: number) => (shape.elementNames === 'plain' ? 'e' : nthName('e', ':_', index, 16));
		return xmlCallOf(
			{
				contentType: shape.contentType,
				declarations: manyPrefixes ? repeated(Math.min(perElement, attributes), (index) => ` xmlns:q${index}="urn:records:same"`) : '',
				piece: (index) => `<${tag(index)}${repeated(perElement, (attribute) => ` ${attributeName(attribute)}="${MARK}"`)}/>`,
			},
			bytes,
		);
	}));

/**
 * Elements nested up to the deepest the trigger reads, with attributes, and values made of character
 * references, entity references, CDATA and line ends that a parser changes (the writer must write
 * each back so that it is read as sent).
 */
const xmlDeepFamily = fc
	.record({
		depth: fc.integer({ min: 2, max: 254 }),
		reference: fc.constantFrom('&#13;', '&#9;&#10;', '&#x1F600;', '&amp;&lt;&gt;&quot;&apos;', '\r\n\t', 'č'),
		cdata: fc.boolean(),
		attributesPerElement: fc.integer({ min: 0, max: 8 }),
		referencesPerValue: fc.integer({ min: 1, max: 32 }),
		contentType: xmlContentType,
	})
	.map((shape) => shown(shape, (bytes: number) => {
		const value = `${MARK}${shape.reference.repeat(shape.referencesPerValue)}`;
		const text = shape.cdata ? `<![CDATA[${value}<&>]]>` : value;
		const attributes = repeated(shape.attributesPerElement, (index) => ` a${index}="${value}"`);
		const chain = `${repeated(shape.depth, (level) => `<d${level}${attributes}>`)}${text}${repeated(shape.depth, (level) => `</d${shape.depth - 1 - level}>`)}`;
		return xmlCallOf({ contentType: shape.contentType, piece: () => chain }, bytes);
	}));

/** How many times MARK is in the values of an answer (attribute values and text, as a parser reads them). */
function marksInAnswer(answer: { body: string; contentType: string }): number {
	const marks = (text: string) => text.split(MARK).length - 1;
	if (!answer.contentType.startsWith('application/xml')) {
		let found = 0;
		JSON.parse(answer.body, (_key, value: unknown) => {
			if (typeof value === 'string') found += marks(value);
			return value;
		});
		return found;
	}
	let found = 0;
	const parser = new SaxesParser({ xmlns: true });
	parser.on('error', (error) => {
		throw error;
	});
	parser.on('opentag', (tag) => {
		for (const attribute of Object.values(tag.attributes)) found += marks(attribute.value);
	});
	parser.on('text', (text) => (found += marks(text)));
	parser.on('cdata', (text) => (found += marks(text)));
	parser.write(answer.body).close();
	return found;
}

/** Answers the call at n and at 4n; the growth of the CPU time, and the last answer at 4n. */
async function growthOf<C extends Call>(bodyAt: (bytes: number) => C, format: AnswerFormat = 'sameAsCall') {
	const calls = { 1: bodyAt(BASE_BYTES), 4: bodyAt(4 * BASE_BYTES) };
	// Only the last answer is kept: answers kept from every run would grow the heap, and the
	// garbage collector's work with it, from one run to the next.
	let answer = { body: '', contentType: '' };
	const growth = await settledGrowth(async (scale) => {
		const answered = await answerTo(calls[scale], format);
		if (scale === 4) answer = answered;
	});
	return { growth, answer, call: calls[4] };
}

function expectLinear({ ratio, ms }: { ratio: number; ms: [number, number] }) {
	expect(ratio <= MAX_GROWTH_AT_4N ? 'linear' : `${ratio.toFixed(1)}× the CPU time at 4n (${ms[0].toFixed(0)} ms → ${ms[1].toFixed(0)} ms)`).toBe('linear');
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
				expectLinear(growth);
			}),
			SEEDED,
		);
	});

	describe.each([
		['as XML (the defaults: the call\'s format)', 'sameAsCall', 'application/xml'],
		['as JSON (Format: JSON)', 'json', 'application/json'],
	] as const)('XML calls, answered %s', (_answer, format, answerType) => {
		it.each([
			['many namespace declarations on the root', xmlDeclarationsFamily],
			['attribute and element names that collide once renamed', xmlCollidingNamesFamily],
			['deep nesting, many attributes, character references', xmlDeepFamily],
		])('%s', async (_family, family) => {
			await fc.assert(
				fc.asyncProperty(family, async (bodyAt) => {
					const { growth, answer, call } = await growthOf(bodyAt, format);
					expect(answer.contentType.split(';')[0]).toBe(answerType);
					expect(marksInAnswer(answer)).toBe(call.values);
					expectLinear(growth);
				}),
				SEEDED,
			);
		});
	});
});
