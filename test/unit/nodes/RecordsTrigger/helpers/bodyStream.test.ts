/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside n8n;
	compresses bodies (`node:zlib`) */
/**
 * Compressed bodies as the trigger reads them itself: a gzip body of several members (files joined
 * with `cat`) is read whole, every member, and held to Max Body Size as sent and inflated in all;
 * at most 1,000 of them. One rule whatever Node.js release runs it: Node.js 20's gzip reader reads
 * every member in one pass, Node.js 24's stops after the first, and these tests expect the same of
 * both (run this file with either). Property-based, with the members' joined content as the oracle (seeded, shrinking).
 */
import { crc32, deflateSync, gzipSync } from 'node:zlib';

import fc from 'fast-check';

import { MAX_GZIP_MEMBERS, readBodyBytes, type BodySource } from '../../../../../nodes/RecordsTrigger/helpers/bodyStream';

const SEEDED = { seed: 24, numRuns: 60 };

/** A call whose bytes n8n kept as sent ("x-gzip": n8n inflates only "gzip" and "deflate" itself). */
const call = (body: Buffer, encoding = 'x-gzip'): BodySource => ({
	headers: { 'content-type': 'text/json', 'content-encoding': encoding },
	rawBody: body,
	on: () => undefined,
});

const joined = (members: Uint8Array[], level = 6) => Buffer.concat(members.map((member) => gzipSync(member, { level })));

/** What a member holds: a few bytes of anything, or a long run that inflates in several chunks. */
const memberContent = fc.oneof(
	{ weight: 4, arbitrary: fc.uint8Array({ maxLength: 600 }) },
	{ weight: 1, arbitrary: fc.integer({ min: 0, max: 200_000 }).map((length) => new Uint8Array(length).fill(0x7b)) },
);

describe('a gzip body of several members, whatever Node.js release reads it', () => {
	it('is read whole, every member, or refused with 413 when it passes Max Body Size as sent or inflated in all', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(memberContent, { minLength: 1, maxLength: 40 }),
				fc.integer({ min: 0, max: 9 }),
				fc.integer({ min: 1, max: 400_000 }),
				async (members, level, limit) => {
					const body = joined(members, level);
					const content = Buffer.concat(members);
					const read = await readBodyBytes(call(body), limit);
					if (body.length > limit || content.length > limit) {
						expect('rejection' in read && [read.rejection.status, read.rejection.code]).toEqual([413, 'payload_too_large']);
					} else {
						expect('value' in read && read.value?.equals(content)).toBe(true);
					}
				},
			),
			SEEDED,
		);
	});

	it('named case: 1,000 members (Node.js 24 once read 16) are read whole; 1,001 are refused with 400', async () => {
		const text = JSON.stringify({ event: 'invoice.paid', lines: Array.from({ length: 400 }, (_, index) => `line ${index}`) });
		const split = (count: number) => {
			const step = Math.ceil(text.length / count);
			return joined(Array.from({ length: count }, (_, index) => Buffer.from(text.slice(index * step, (index + 1) * step))));
		};
		const read = await readBodyBytes(call(split(MAX_GZIP_MEMBERS)), 1024 * 1024);
		expect('value' in read && read.value?.toString()).toBe(text);
		const tooMany = await readBodyBytes(call(split(MAX_GZIP_MEMBERS + 1)), 1024 * 1024);
		expect('rejection' in tooMany && [tooMany.rejection.status, tooMany.rejection.code, tooMany.rejection.message]).toEqual([
			400,
			'invalid_compression',
			expect.stringMatching(/more than 1000 gzip files joined together.*Compress the body as one gzip file/),
		]);
	});

	it('named case: 1,000 empty members are read, as an empty body', async () => {
		const body = Buffer.concat(Array.from({ length: MAX_GZIP_MEMBERS }, () => gzipSync(Buffer.alloc(0))));
		const read = await readBodyBytes(call(body), 64 * 1024);
		expect('value' in read && read.value?.length).toBe(0);
	});

	it('reads a member whose header has an extra field, a file name, a comment and a header CRC, which must be right', async () => {
		const content = Buffer.from('{"a":1}');
		const plain = gzipSync(content);
		const extra = Buffer.from([4, 0, 0x41, 0x42, 2, 0]);
		// The second member's header: FHCRC, FEXTRA, FNAME and FCOMMENT set, then those fields in order.
		const fields = Buffer.concat([plain.subarray(0, 3), Buffer.from([4 | 8 | 16 | 2]), plain.subarray(4, 10), extra, Buffer.from('a.json\0note\0')]);
		const headerCrc = (wrong: number) => Buffer.from([(crc32(fields) & 0xff) ^ wrong, (crc32(fields) >> 8) & 0xff]);
		const read = await readBodyBytes(call(Buffer.concat([plain, fields, headerCrc(0), plain.subarray(10)])), 1024);
		expect('value' in read && read.value?.toString()).toBe('{"a":1}{"a":1}');
		const wrongCrc = await readBodyBytes(call(Buffer.concat([plain, fields, headerCrc(1), plain.subarray(10)])), 1024);
		expect('rejection' in wrongCrc && wrongCrc.rejection.code).toBe('invalid_compression');
	});

	it('named case: members that each fit but pass Max Body Size together are refused with 413', async () => {
		const body = joined([Buffer.alloc(400, 0x61), Buffer.alloc(400, 0x62), Buffer.alloc(400, 0x63)]);
		const read = await readBodyBytes(call(body), 1000);
		expect('rejection' in read && [read.rejection.status, read.rejection.code]).toEqual([413, 'payload_too_large']);
	});

	it('ignores zero bytes after the last member, as gzip does', async () => {
		const body = Buffer.concat([joined([Buffer.from('{"a":'), Buffer.from('1}')]), Buffer.alloc(7)]);
		const read = await readBodyBytes(call(body), 1024);
		expect('value' in read && read.value?.toString()).toBe('{"a":1}');
	});

	it.each([
		['bytes that are no gzip member', Buffer.from('junk')],
		['a member cut short', gzipSync(Buffer.from('{"b":2}')).subarray(0, 12)],
	])('refuses %s after the members with 400 invalid_compression', async (_label, after) => {
		const body = Buffer.concat([joined([Buffer.from('{"a":'), Buffer.from('1}')]), after]);
		const read = await readBodyBytes(call(body), 1024);
		expect('rejection' in read && [read.rejection.status, read.rejection.code]).toEqual([400, 'invalid_compression']);
	});

	it.each([
		['nothing after it', '', true],
		['bytes after it', 'junk', false],
	])('a deflate body with %s is read only when it ends with its stream', async (_label, after, read) => {
		const body = Buffer.concat([deflateSync(Buffer.from('{"a":1}')), Buffer.from(after)]);
		const result = await readBodyBytes(call(body, 'Deflate'), 1024);
		expect('value' in result ? result.value?.toString() : result.rejection.code).toBe(read ? '{"a":1}' : 'invalid_compression');
	});
});
