/**
 * XML answers read by a standard, namespace-aware XML parser (saxes, strict XML 1.0 with
 * Namespaces in XML): whatever item a workflow answers with, the document is well-formed and
 * namespace-valid, and every value in the item arrives as written (property-based, seeded and
 * shrinking, with the documented mapping as the oracle).
 */
import fc from 'fast-check';
import { SaxesParser, type SaxesTagNS } from 'saxes';

import { parseXml } from '../../../../../nodes/shared/workflowCall/xml';
import { toXml } from '../../../../../nodes/shared/workflowCall/xmlWriter';
import { MAX_GROWTH_AT_4N, settledGrowth } from '../../RecordsTrigger/linearTime';

interface Built {
	name: string;
	attributes: Record<string, string>;
	children: Array<[string, unknown]>;
	text: string;
}

/**
 * Parses with saxes, refusing anything a namespace-aware parser refuses, and builds the JSON of the
 * documented mapping: text-only elements are strings, others objects of "@attribute", "#text"
 * (when not empty) and children (repeated names as lists).
 */
function readWithStandardParser(xml: string): Record<string, unknown> {
	const parser = new SaxesParser({ xmlns: true });
	const stack: Built[] = [];
	let root: [string, unknown] | undefined;
	parser.on('error', (error) => {
		throw error;
	});
	parser.on('opentag', (tag: SaxesTagNS) => {
		const attributes: Record<string, string> = {};
		for (const attribute of Object.values(tag.attributes)) attributes[attribute.name] = attribute.value;
		stack.push({ name: tag.name, attributes, children: [], text: '' });
	});
	const addText = (text: string) => {
		if (stack.length > 0) stack[stack.length - 1].text += text;
	};
	parser.on('text', addText);
	parser.on('cdata', addText);
	parser.on('closetag', () => {
		const element = stack.pop() as Built;
		let value: unknown;
		if (element.children.length === 0 && Object.keys(element.attributes).length === 0) {
			value = element.text;
		} else {
			const object: Record<string, unknown> = {};
			// Own properties also for names such as __proto__.
			const set = (name: string, field: unknown) =>
				Object.defineProperty(object, name, { value: field, enumerable: true, writable: true, configurable: true });
			for (const [name, attribute] of Object.entries(element.attributes)) set(`@${name}`, attribute);
			if (element.text !== '') set('#text', element.text);
			for (const [name, child] of element.children) {
				const existing = Object.prototype.hasOwnProperty.call(object, name) ? object[name] : undefined;
				set(name, existing === undefined ? child : Array.isArray(existing) ? [...existing, child] : [existing, child]);
			}
			value = object;
		}
		if (stack.length === 0) root = [element.name, value];
		else stack[stack.length - 1].children.push([element.name, value]);
	});
	parser.write(xml).close();
	if (root === undefined) throw new Error('No root element');
	return Object.defineProperty({}, root[0], { value: root[1], enumerable: true });
}

/** What the writer promises for text: characters XML 1.0 cannot carry become U+FFFD, the rest stays. */
function asXmlText(value: unknown): string {
	let text = '';
	for (const char of String(value)) {
		const code = char.codePointAt(0) ?? 0;
		const allowed =
			code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
		text += allowed ? char : '\uFFFD';
	}
	return text;
}

const isScalar = (value: unknown) => value === null || typeof value !== 'object';

/**
 * Every value the writer must carry, from the documented mapping: "@name" scalars are attribute
 * values, "#text" scalars text, other keys elements (lists repeat them); an element without
 * attributes or content is "".
 */
function valuesOf(value: unknown, out: string[] = []): string[] {
	if (Array.isArray(value)) {
		for (const item of value) valuesOf(item, out);
		return out;
	}
	if (isScalar(value)) {
		out.push(value === null ? '' : asXmlText(value));
		return out;
	}
	let produced = false;
	for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
		if (key.startsWith('@') && key.length > 1 && isScalar(child)) {
			out.push(child === null ? '' : asXmlText(child));
			produced = true;
		} else if (key === '#text' && isScalar(child)) {
			const text = child === null ? '' : asXmlText(child);
			if (text !== '') out.push(text);
			produced ||= text !== '';
		} else {
			const before = out.length;
			valuesOf(child, out);
			produced ||= out.length > before;
		}
	}
	if (!produced) out.push('');
	return out;
}

function valuesRead(value: unknown, out: string[] = []): string[] {
	if (Array.isArray(value)) for (const item of value) valuesRead(item, out);
	else if (typeof value === 'string') out.push(value);
	else for (const child of Object.values(value as Record<string, unknown>)) valuesRead(child, out);
	return out;
}

const sorted = (values: string[]) => [...values].sort();

describe('XML answers read by a namespace-aware parser', () => {
	it('writes keys holding ":" as names a namespace-aware parser accepts (no undeclared prefix)', () => {
		const xml = toXml('response', { '2026-11-21T10:00:00Z': 'paid', 'soap:Body': { 'x:y': '1' }, '@a:b': 'c' });
		const read = readWithStandardParser(xml);
		expect(sorted(valuesRead(read))).toEqual(['1', 'c', 'paid']);
	});

	it('keeps a prefix the item declares with an "@xmlns:" key', () => {
		const item = { '@xmlns:inv': 'urn:records:invoice', 'inv:number': 'FP-1', 'inv:line': { '@inv:no': '1', '#text': 'x' } };
		expect(readWithStandardParser(toXml('response', item))).toEqual({ response: item });
	});

	it('keeps a prefixed root element the answer declares, and cleans one it does not', () => {
		const envelope = { '@xmlns:soap': 'http://schemas.xmlsoap.org/soap/envelope/', 'soap:Body': { status: 'OK' } };
		expect(readWithStandardParser(toXml('soap:Envelope', envelope))).toEqual({ 'soap:Envelope': envelope });
		expect(toXml('soap:Envelope', { status: 'OK' })).toBe('<?xml version="1.0" encoding="UTF-8"?><soap_Envelope><status>OK</status></soap_Envelope>');
	});

	it('gives two "@" keys that clean up to one name two attributes, so the element stays well-formed', () => {
		const xml = toXml('response', { '@a b': '1', '@a_b': '2', '@a:b': '3' });
		const read = readWithStandardParser(xml) as { response: Record<string, string> };
		expect(sorted(Object.values(read.response))).toEqual(['1', '2', '3']);
	});

	it('keeps line breaks and tabs in attribute values, which a parser would otherwise turn into spaces', () => {
		const item = { '@note': 'line 1\nline 2\ttab\r\nend', text: 'a\r\nb\rc' };
		expect(readWithStandardParser(toXml('response', item))).toEqual({ response: item });
	});

	const hostileKey = fc.oneof(
		fc.constantFrom(
			'a', 'b', 'p:a', 'q:b', 'p:', ':a', 'a:b:c', '1a', 'a b', '@a b', '@a_b', '@a', '@p:a', '@q:a', '@p:x', '@q:x',
			'@xmlns', '@xmlns:p', '@xmlns:q', '@xmlns:xml', '@xmlns:xmlns', '@xml:lang', 'xml:lang', 'xmlns:p', 'xmlns', '@xmlns:',
			'#text', '@', '@#text', '__proto__', 'xml', 'XMLa',
		),
		fc.string({ maxLength: 6 }),
	);
	const textUnit = fc.constantFrom('a', 'é', ' ', '<', '>', '&', '"', "'", '\t', '\n', '\r', '\u0000', '\u0085', '\uD800', '😀', ']]>', 'urn:x', 'http://www.w3.org/XML/1998/namespace', 'http://www.w3.org/2000/xmlns/');
	const scalar = fc.oneof(fc.string({ unit: textUnit, maxLength: 6 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
	const { item } = fc.letrec<{ item: unknown; value: unknown }>((tie) => ({
		item: fc.dictionary(hostileKey, tie('value'), { maxKeys: 6 }),
		value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('item'), fc.array(tie('value'), { maxLength: 3 })),
	}));

	it('is well-formed and namespace-valid for any item, and carries every value of it', () => {
		fc.assert(
			fc.property(item, fc.constantFrom('response', 'p:root', 'a b', 'error'), (value, root) => {
				const xml = toXml(root, value);
				const read = readWithStandardParser(xml);
				expect(sorted(valuesRead(read))).toEqual(sorted(valuesOf(value)));
			}),
			{ seed: 35, numRuns: 2000 },
		);
	});

	it('round-trips items of plain names exactly, as the Records Trigger reads XML', () => {
		const name = fc.constantFrom('a', 'b', 'Název', 'line', 'x-y', 'z.1');
		const text = fc.string({ unit: fc.constantFrom('a', 'č', ' x', '<', '&', '\t', '\n'), minLength: 1, maxLength: 5 }).filter((t) => t.trim() !== '');
		const { element } = fc.letrec<{ element: unknown; content: unknown }>((tie) => ({
			element: fc.oneof({ depthSize: 'small' }, text, tie('content')),
			content: fc
				.record({
					attributes: fc.dictionary(name.map((n) => `@${n}`), text, { maxKeys: 2 }),
					children: fc.dictionary(name, fc.oneof(tie('element'), fc.array(tie('element'), { minLength: 2, maxLength: 3 })), { minKeys: 1, maxKeys: 3 }),
				})
				.map(({ attributes, children }) => ({ ...attributes, ...children })),
		}));
		fc.assert(
			fc.property(element, (value) => {
				expect(readWithStandardParser(toXml('response', value))).toEqual({ response: value });
			}),
			{ seed: 35, numRuns: 500 },
		);
	});
});

describe('Records Trigger XML writer', () => {
	it('writes the mapping parseXml reads, so a round trip keeps the data', () => {
		const value = {
			'@id': '7',
			Název: 'A < B & "C"',
			line: ['1', '2'],
			nested: { deep: 'x' },
			note: { '@lang': 'cs', '#text': 'pozor' },
		};
		const xml = toXml('record', value);
		expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?><record id="7">')).toBe(true);
		expect(parseXml(xml)).toEqual({ record: value });
	});

	it('writes numbers and booleans as text, null as an empty element, a root list as items', () => {
		expect(toXml('response', { amount: 1234.5, paid: true, note: null })).toBe(
			'<?xml version="1.0" encoding="UTF-8"?><response><amount>1234.5</amount><paid>true</paid><note/></response>',
		);
		expect(toXml('response', [{ a: 1 }, { a: 2 }])).toBe(
			'<?xml version="1.0" encoding="UTF-8"?><response><item><a>1</a></item><item><a>2</a></item></response>',
		);
	});

	it('turns keys that are not XML names into names, and characters XML cannot carry into U+FFFD', () => {
		expect(toXml('r', { 'Kolik to stálo': '1', '2nd': 'x', bad: 'a\u0000b' })).toBe(
			'<?xml version="1.0" encoding="UTF-8"?><r><Kolik_to_stálo>1</Kolik_to_stálo><_2nd>x</_2nd><bad>a\uFFFDb</bad></r>',
		);
	});
});

describe('XML answers written in time linear in the item (issue: a real n8n frozen for 68–74 s)', () => {
	/** The `index`th name of `length` characters of `alphabet` after "a": all different, one name once cleaned up. */
	const nth = (alphabet: string, index: number, length: number) =>
		'a' + Array.from({ length }, (_, position) => alphabet[Math.floor(index / alphabet.length ** position) % alphabet.length]).join('');
	/**
	 * Sizes of a few hundred names, each written ten times: above a few thousand entries V8's own maps
	 * and object enumeration take 8 to 10 times the CPU at 4n (measured with plain attributes), which
	 * would measure the machine rather than the writer. Quadratic work still takes 16 times at 4n.
	 */
	const N = 400;
	const tenTimes = (write: () => unknown) => () => {
		for (let time = 0; time < 10; time++) write();
	};

	it('named case: many namespace declarations on the root are not copied into every element below', async () => {
		const itemOf = (scale: number) => {
			const declarations = Object.fromEntries(Array.from({ length: N * scale }, (_, index) => [`@xmlns:p${index}`, `urn:records:${index}`]));
			return { ...declarations, 'p0:line': Array.from({ length: N * scale }, (_, index) => ({ '@p1:no': String(index), '#text': 'x' })) };
		};
		const items = { 1: itemOf(1), 4: itemOf(4) };
		const { ratio } = await settledGrowth((scale) => tenTimes(() => toXml('response', items[scale]))());
		expect(ratio).toBeLessThanOrEqual(MAX_GROWTH_AT_4N);
		const small = { '@xmlns:p': 'urn:p', '@xmlns:q': 'urn:q', 'p:a': { 'q:b': { '@xmlns:q': 'urn:inner', 'q:c': '1' } }, 'q:d': '2' };
		expect(readWithStandardParser(toXml('response', small))).toEqual({ response: small });
	});

	it('named case: attribute names that clean up to one name ("a:_…", "a_:…") are numbered without trying each number again', async () => {
		const itemOf = (scale: number) => Object.fromEntries(Array.from({ length: N * scale }, (_, index) => [`@${nth(':_', index, 14)}`, String(index)]));
		const items = { 1: itemOf(1), 4: itemOf(4) };
		const { ratio } = await settledGrowth((scale) => tenTimes(() => toXml('response', items[scale]))());
		expect(ratio).toBeLessThanOrEqual(MAX_GROWTH_AT_4N);
		const read = readWithStandardParser(toXml('response', items[1])) as { response: Record<string, string> };
		expect(Object.keys(read.response)).toHaveLength(N);
		expect(sorted(Object.values(read.response))).toEqual(sorted(Object.values(items[1])));
	});

	it('named case: prefixes of one namespace give one expanded attribute name, numbered in linear time', async () => {
		const itemOf = (scale: number) => ({
			...Object.fromEntries(Array.from({ length: N * scale }, (_, index) => [`@xmlns:p${index}`, 'urn:records:one'])),
			...Object.fromEntries(Array.from({ length: N * scale }, (_, index) => [`@p${index}:x`, String(index)])),
		});
		const items = { 1: itemOf(1), 4: itemOf(4) };
		const { ratio } = await settledGrowth((scale) => tenTimes(() => toXml('response', items[scale]))());
		expect(ratio).toBeLessThanOrEqual(MAX_GROWTH_AT_4N);
		expect(() => readWithStandardParser(toXml('response', items[1]))).not.toThrow();
	});

	it('numbers a collision past names the item already holds ("a__2" taken: the next is "a__3")', () => {
		const xml = toXml('response', { '@a__2': 'taken', '@a_': '1', '@a:': '2', '@a ': '3' });
		expect(xml).toContain('<response a__2="taken" a_="1" a__3="2" a__4="3"/>');
	});
});
