/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside n8n
	(process.cpuUsage for the CPU time of a scaling check) */
/**
 * multipart/form-data bodies as n8n parsed them: held to Max Body Size with their names and
 * framing counted, to a number of parts, and turned into binary entries in time linear in their
 * number, an empty file written nowhere.
 */
import * as fc from 'fast-check';
import type { IBinaryData } from 'n8n-workflow';

import { MAX_FORM_FIELDS } from '../../../../../nodes/RecordsTrigger/helpers/formBody';
import {
	checkedMultipart,
	multipartBinary,
	multipartSize,
	parsedMultipart,
} from '../../../../../nodes/RecordsTrigger/helpers/multipartBody';

const MB = 1024 * 1024;

interface Part {
	name: string;
	value: string;
	fileName?: string;
	type?: string;
}

/** The body a client writes for `parts` with `boundary`, and n8n's parse of it (`{ data, files }`). */
function bodyOf(parts: Part[], boundary: string) {
	const chunks: string[] = [];
	// Without a prototype, so that names such as "toString" or "__proto__" are plain names.
	const data = Object.create(null) as Record<string, string | string[]>;
	const files = Object.create(null) as Record<string, Array<{ filepath: string; originalFilename: string; mimetype: string | null; size: number }>>;
	for (const part of parts) {
		const disposition = `form-data; name="${part.name}"${part.fileName !== undefined ? `; filename="${part.fileName}"` : ''}`;
		chunks.push(`--${boundary}\r\nContent-Disposition: ${disposition}${part.type ? `\r\nContent-Type: ${part.type}` : ''}\r\n\r\n${part.value}\r\n`);
		if (part.fileName !== undefined) {
			(files[part.name] ??= []).push({ filepath: `/tmp/upload-${chunks.length}`, originalFilename: part.fileName, mimetype: part.type ?? null, size: Buffer.byteLength(part.value) });
		} else {
			const before = data[part.name];
			data[part.name] = before === undefined ? part.value : ([] as string[]).concat(before, part.value);
		}
	}
	chunks.push(`--${boundary}--\r\n`);
	return { wire: Buffer.byteLength(chunks.join('')), parsed: parsedMultipart({ data, files }) };
}

const copies = () => {
	const copied: string[] = [];
	const copy = async (filePath: string, fileName: string, mimeType?: string): Promise<IBinaryData> => {
		copied.push(filePath);
		return { data: 'filesystem', id: `filesystem-v2:${filePath}`, fileName, mimeType: mimeType ?? 'text/plain' };
	};
	return { copied, copy };
};

describe('Max Body Size counts what the parts are made of', () => {
	it('a field whose name is 3 MB is refused at a 1 MB limit (its value is empty)', () => {
		const { parsed } = bodyOf([{ name: 'n'.repeat(3 * MB), value: '' }], 'b');
		expect(checkedMultipart(parsed!, MB)).toMatchObject({ rejection: { status: 413, code: 'payload_too_large' } });
	});

	it('file names and types count too', () => {
		const { parsed } = bodyOf([{ name: 'f', value: '', fileName: 'x'.repeat(2 * MB), type: 'text/plain' }], 'b');
		expect(checkedMultipart(parsed!, MB)).toMatchObject({ rejection: { status: 413 } });
	});

	it('any body: the size counted is at most the bytes a client sends, and short of them by no more than the boundary and the closing line (headers n8n does not pass on aside)', () => {
		const text = fc.string({ maxLength: 30, unit: 'grapheme' }).map((value) => value.replace(/["\r\n\\]/g, 'x'));
		const field = fc.record({ name: text.filter((name) => name !== ''), value: text });
		const file = fc.record({ name: text.filter((name) => name !== ''), value: text, fileName: text, type: fc.option(fc.constantFrom('text/plain', 'application/pdf'), { nil: undefined }) });
		const part = fc.oneof(field, file);
		fc.assert(
			fc.property(fc.array(part, { maxLength: 30 }), fc.integer({ min: 1, max: 70 }), (parts, boundaryLength) => {
				const { wire, parsed } = bodyOf(parts, 'b'.repeat(boundaryLength));
				const size = multipartSize(parsed!);
				expect(size).toBeLessThanOrEqual(wire);
				expect(wire - size).toBeLessThanOrEqual(parts.length * (boundaryLength - 1) + boundaryLength + 6);
			}),
			{ seed: 46, numRuns: 300 },
		);
	});
});

describe('a part count limit like the form field limit', () => {
	const files = (count: number) => bodyOf(Array.from({ length: count }, (_, index) => ({ name: 'f[]', value: '', fileName: `${index}.txt` })), 'b').parsed!;

	it(`${MAX_FORM_FIELDS} parts are read; one more is refused with 413 too_many_fields, before any file is copied`, () => {
		expect(checkedMultipart(files(MAX_FORM_FIELDS), 16 * MB)).toHaveProperty('value');
		const fieldsAndFiles = bodyOf([...Array.from({ length: MAX_FORM_FIELDS }, () => ({ name: 'a', value: '1' })), { name: 'f', value: '', fileName: 'x' }], 'b').parsed!;
		for (const parsed of [files(MAX_FORM_FIELDS + 1), fieldsAndFiles]) {
			expect(checkedMultipart(parsed, 16 * MB)).toMatchObject({
				rejection: { status: 413, code: 'too_many_fields', message: expect.stringMatching(/1,001 fields and files, more than the 1,000/) },
			});
		}
	});
});

describe('binary entries', () => {
	it('an empty file is kept as empty binary data, without writing anything (no copy)', async () => {
		const { copied, copy } = copies();
		const { parsed } = bodyOf([{ name: 'empty', value: '', fileName: '../../etc/x.txt', type: 'text/csv' }, { name: 'full', value: 'abc', fileName: 'a.txt' }], 'b');
		const binary = await multipartBinary(parsed!.files, copy);
		expect(binary.empty).toEqual({ data: '', mimeType: 'text/csv', fileName: 'x.txt', fileSize: '0 B', bytes: 0 });
		expect(Buffer.from(binary.empty.data, 'base64')).toHaveLength(0);
		expect(copied).toHaveLength(1);
		expect(Object.keys(binary).sort()).toEqual(['empty', 'full']);
	});

	it('names colliding under one base stay distinct: "f" and "f[]" both give f0, f1…, the second set gets f_2, f_3…, and a field "f_2" then f_2_2', async () => {
		const { copy } = copies();
		const parsed = bodyOf(
			[
				{ name: 'f', value: 'a', fileName: 'a' },
				{ name: 'f', value: 'b', fileName: 'b' },
				{ name: 'f[]', value: 'c', fileName: 'c' },
				{ name: 'f[]', value: 'd', fileName: 'd' },
				{ name: 'f_2', value: 'e', fileName: 'e' },
			],
			'b',
		).parsed!;
		const binary = await multipartBinary(parsed.files, copy);
		expect(Object.keys(binary)).toHaveLength(5);
		expect(Object.keys(binary).sort()).toEqual(['f0', 'f1', 'f_2', 'f_2_2', 'f_3']);
	});

	/** CPU time of naming `count` files under "f" and `count` more under "f[]" (every one of the second colliding), best of 3. */
	async function namingMs(count: number): Promise<number> {
		const parts = (name: string) => Array.from({ length: count }, (_, index) => ({ name, value: 'x', fileName: `${index}` }));
		const parsed = bodyOf([...parts('f'), ...parts('f[]')], 'b').parsed!;
		const copy = async (): Promise<IBinaryData> => ({ data: '', mimeType: 'text/plain' });
		let best = Number.POSITIVE_INFINITY;
		for (let attempt = 0; attempt < 3; attempt++) {
			const start = process.cpuUsage();
			await multipartBinary(parsed.files, copy);
			const used = process.cpuUsage(start);
			best = Math.min(best, (used.user + used.system) / 1000);
		}
		return best;
	}

	it('naming 4n colliding files costs about 4 times n, not 16 times (2 × 1,500 against 2 × 6,000)', async () => {
		await namingMs(500);
		const small = await namingMs(1500);
		const large = await namingMs(6000);
		// Linear work gives about 4; work that grows with the square gives 16.
		expect(large / Math.max(small, 1)).toBeLessThan(8);
	});
});
