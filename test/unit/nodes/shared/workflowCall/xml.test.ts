import { parseXml, XmlSyntaxError, XML_MAX_DEPTH } from '../../../../../nodes/shared/workflowCall/xml';

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

	it('named case: reads every line end as one line feed (XML 1.0 §2.11), but keeps a carriage return written as a reference', () => {
		expect(parseXml('<r>\r\n<a>1\r\n2\r3</a><b>x&#13;&#10;y</b></r>')).toEqual({ r: { a: '1\n2\n3', b: 'x\r\ny' } });
		expect(parseXml('<r><![CDATA[a\r\nb]]></r>')).toEqual({ r: 'a\nb' });
	});

	it('named case: reads literal tabs and line ends in an attribute value as spaces (§3.3.3), references as written', () => {
		expect(parseXml('<r a="x\ty\r\nz\nw" b="&#9;&#10;&#13;"/>')).toEqual({ r: { '@a': 'x y z w', '@b': '\t\n\r' } });
	});
});
