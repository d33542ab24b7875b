/* eslint-disable @n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside n8n; reads the
	process's heap size (`process`) to bound the memory a request costs, compresses bodies (`node:zlib`) */
/**
 * Hostile requests against everything the Records Trigger reads from a call before and after
 * authentication: bodies of every content type, option and compression, built from the fragments
 * that make parsers slow (a repeated name, brackets, escapes, references, byte order marks) and
 * repeated to tens or hundreds of kilobytes; and long Authorization, Content-Type and Accept
 * headers. Each must be handled in time and memory that grow no faster than its size (seeded,
 * shrinking; bounds in linearTime.ts). The oracle is the bound itself: an answer or a refusal, never
 * a cost that grows with the square of the input.
 */
import { gzipSync } from 'node:zlib';

import fc from 'fast-check';

import { checkCaller } from '../../../../nodes/RecordsTrigger/helpers/callerAuth';
import { parseContentType } from '../../../../nodes/RecordsTrigger/helpers/contentType';
import { receiveBody, type BodyOptions } from '../../../../nodes/RecordsTrigger/helpers/incomingBody';
import { replyFormatFor } from '../../../../nodes/RecordsTrigger/helpers/reply';
import { timeBoundMs } from './linearTime';

const SEEDED = { seed: 35, numRuns: 150 };
const MB = 1024 * 1024;

/** Bytes of heap a byte of input may cost at most while it is handled, and the result it leaves. */
const HEAP_BYTES_PER_BYTE = 64;
const HEAP_ALLOWANCE = 48 * MB;
const RESULT_CHARS_PER_BYTE = 8;

const FRAGMENTS = [
	'a&', '&', 'a=', '=', '+', '%', '%C5', '%C5%A1', '%%', '%zz', '[', ']', '{"a":', '{', '"', '\\', '\\"', '[1,', ' ', '\t', '\n',
	'<a>', '</a>', '<a/>', '<a ', 'b="', '"/>', '&amp;', '&#', '&#x10D;', '&a', ';', '<!--', '-->', '<![CDATA[', ']]>', '<?', '?>',
	'<!DOCTYPE', '\u0000', 'ž', '\uFEFF', '😀', '\uD800', '0', 'e', '-', '.',
];

/** A body: an optional start, a fragment repeated to a size, an optional end. */
const hostileText = fc
	.record({
		start: fc.constantFrom('', '{"event":"invoice.paid","a":', '<r>', '<?xml version="1.0"?><r a="', 'event=invoice.paid&', '['),
		fragment: fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('')),
		size: fc.integer({ min: 16 * 1024, max: 256 * 1024 }),
		end: fc.constantFrom('', '}', '</r>', '"/></r>', ']'),
	})
	.map(({ start, fragment, size, end }) => start + fragment.repeat(Math.ceil(size / fragment.length)) + end);

const bodyCase = fc.record({
	text: hostileText,
	contentType: fc.constantFrom(
		undefined,
		'application/json',
		'text/json; charset=windows-1250',
		'application/vnd.records+json',
		'application/xml',
		'application/x-www-form-urlencoded',
		'text/plain; charset=utf-16le',
		'application/octet-stream',
	),
	options: fc.record(
		{
			parseBodyAs: fc.constantFrom<BodyOptions['parseBodyAs']>('auto', 'json', 'xml', 'text'),
			bodyEncoding: fc.constantFrom<BodyOptions['bodyEncoding']>('utf-8', 'windows-1250'),
		},
		{ requiredKeys: [] },
	),
	gzip: fc.boolean(),
});

/** The trigger's body reading, on the bytes n8n kept, as in a real call (n8n inflated them when gzip). */
async function readBody(bytes: Buffer, contentType: string | undefined, options: BodyOptions, gzip: boolean) {
	const headers: Record<string, string> = gzip ? { 'content-encoding': 'x-gzip' } : {};
	const source = { headers, rawBody: gzip ? gzipSync(bytes) : bytes, on: () => undefined };
	const noFiles = async () => {
		throw new Error('no files in these bodies');
	};
	return await receiveBody(source, parseContentType(contentType), options, 16 * MB, noFiles);
}

/** Runs `handle` once, within the time and heap bounds for `bytes` bytes, the best of three if the time is over. */
async function withinBounds<T>(bytes: number, handle: () => Promise<T> | T): Promise<T> {
	const bound = timeBoundMs(bytes);
	let best = Number.POSITIVE_INFINITY;
	let result: T | undefined;
	for (let attempt = 0; attempt < 3 && best > bound; attempt++) {
		const heapBefore = process.memoryUsage().heapUsed;
		const start = performance.now();
		result = await handle();
		best = Math.min(best, performance.now() - start);
		const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
		expect(heapGrowth).toBeLessThanOrEqual(HEAP_ALLOWANCE + bytes * HEAP_BYTES_PER_BYTE);
	}
	expect(best).toBeLessThanOrEqual(bound);
	return result as T;
}

describe('hostile requests cost time and memory linear in their size', () => {
	it('any body, content type, option and compression: an answer or a refusal within the bounds', async () => {
		await fc.assert(
			fc.asyncProperty(bodyCase, async ({ text, contentType, options, gzip }) => {
				const bytes = Buffer.from(text, contentType?.includes('utf-16') ? 'utf16le' : 'utf8');
				const result = await withinBounds(bytes.length, () => readBody(bytes, contentType, options, gzip));
				expect('value' in result || 'rejection' in result).toBe(true);
				if ('value' in result) {
					expect(JSON.stringify(result.value.value).length).toBeLessThanOrEqual(1024 + bytes.length * RESULT_CHARS_PER_BYTE);
				}
			}),
			SEEDED,
		);
	});

	it.each([
		['a form of one repeated name', 'application/x-www-form-urlencoded', 'a&'],
		['JSON brackets', 'application/json', '['],
		['JSON escapes in one string', 'text/json', '\\"'],
		['percent signs', 'application/x-www-form-urlencoded', '%'],
		['XML elements left open', 'application/xml', '<a>'],
		['XML references', 'application/xml', '&#'],
	])('the default Max Body Size of %s (1 MB) stays within the bounds', async (_case, contentType, fragment) => {
		const bytes = Buffer.from(fragment.repeat(MB / fragment.length));
		await withinBounds(bytes.length, () => readBody(bytes, contentType, {}, false));
	});

	const headerFragments = [' ', '\t', 'a', '=', ',', ';', '"', 'q=0.', 'charset=', 'Basic ', 'Bearer ', '/', '+xml', '\\'];
	const hostileHeader = fc
		.record({
			start: fc.constantFrom('', 'Bearer a', 'Basic ', 'application/json;', 'application/xml, '),
			fragment: fc.array(fc.constantFrom(...headerFragments), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('')),
			size: fc.integer({ min: 4 * 1024, max: 64 * 1024 }),
			end: fc.constantFrom('', 'b', '"', 'x=='),
		})
		.map(({ start, fragment, size, end }) => start + fragment.repeat(Math.ceil(size / fragment.length)) + end);

	it('any long Authorization, Content-Type or Accept header: read within the bounds, and never accepted as credentials', async () => {
		const expected = { type: 'bearerToken', credential: { token: 'abc.DEF-123_~+/=' } } as const;
		const basic = { type: 'basicAuth', credential: { user: 'records', password: 'tajné heslo' } } as const;
		await fc.assert(
			fc.asyncProperty(hostileHeader, async (value) => {
				await withinBounds(value.length, () => {
					expect(checkCaller(value, expected).ok).toBe(false);
					expect(checkCaller(value, basic).ok).toBe(false);
					parseContentType(value);
					replyFormatFor(undefined, value);
				});
			}),
			SEEDED,
		);
	});
});
