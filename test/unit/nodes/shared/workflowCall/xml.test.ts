import { parseXml, toXml, XmlSyntaxError, XML_MAX_DEPTH } from '../../../../../nodes/shared/workflowCall/xml';

describe('Records Trigger XML reader', () => {
	it('maps elements, repeated elements, attributes and text as documented', () => {
		const document = parseXml(
			'<?xml version="1.0" encoding="UTF-8"?>\n<record id="7"><Název>Faktura &amp; dobropis</Název><line>1</line><line>2</line><empty/><note lang="cs">pozor</note></record>',
		);
		expect(document).toEqual({
			record: {
				'@id': '7',
				Název: 'Faktura & dobropis',
				line: ['1', '2'],
				empty: '',
				note: { '@lang': 'cs', '#text': 'pozor' },
			},
		});
	});

	it('keeps text as written, decodes character references and CDATA, skips comments', () => {
		expect(parseXml('<a>  x &#x10D;&#269; <!-- c --><![CDATA[<b>&amp;</b>]]></a>')).toEqual({
			a: '  x čč <b>&amp;</b>',
		});
	});

	it('refuses a DOCTYPE, so no entity can be declared or expanded (billion laughs)', () => {
		const billionLaughs =
			'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><lolz>&lol2;</lolz>';
		expect(() => parseXml(billionLaughs)).toThrow(/DOCTYPE declarations are not accepted/);
	});

	it('refuses external entities and unknown entity references', () => {
		expect(() =>
			parseXml('<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r>&xxe;</r>'),
		).toThrow(XmlSyntaxError);
		expect(() => parseXml('<r>&xxe;</r>')).toThrow(/Unknown entity "&xxe;"/);
	});

	it('names line and column of a syntax error', () => {
		let caught: unknown;
		try {
			parseXml('<a>\n  <b>x</c>\n</a>');
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(XmlSyntaxError);
		expect((caught as XmlSyntaxError).line).toBe(2);
		expect((caught as Error).message).toMatch(/Expected <\/b> but found <\/c> \(line 2, column \d+\)/);
	});

	it.each([
		['unclosed element', '<a><b></a>'],
		['two roots', '<a/><b/>'],
		['bare ampersand', '<a>x & y</a>'],
		['text outside the root', '<a/>tail'],
		['empty document', '   '],
		['unquoted attribute', '<a b=1/>'],
		['duplicate attribute', '<a b="1" b="2"/>'],
		['invalid character reference', '<a>&#0;</a>'],
		['control character', '<a>\u0001</a>'],
	])('refuses %s', (_what, text) => {
		expect(() => parseXml(text)).toThrow(XmlSyntaxError);
	});

	it('refuses nesting deeper than the limit instead of exhausting the stack', () => {
		const deep = `${'<a>'.repeat(XML_MAX_DEPTH + 1)}${'</a>'.repeat(XML_MAX_DEPTH + 1)}`;
		expect(() => parseXml(deep)).toThrow(/nested more than/);
		const ok = `${'<a>'.repeat(XML_MAX_DEPTH)}x${'</a>'.repeat(XML_MAX_DEPTH)}`;
		expect(() => parseXml(ok)).not.toThrow();
	});

	it('does not let an element named __proto__ change the prototype of the result', () => {
		const document = parseXml('<r><__proto__><polluted>yes</polluted></__proto__></r>') as Record<string, Record<string, unknown>>;
		expect(Object.keys(document.r)).toEqual(['__proto__']);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect((document.r as { polluted?: unknown }).polluted).toBeUndefined();
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
