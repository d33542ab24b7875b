/**
 * A small XML reader for the service's XML calls (xmlWriter.ts writes the answers), safe by
 * construction: there is no DTD support at all, so entity expansion ("billion laughs") and
 * external entities cannot happen. A document with a DOCTYPE is refused; only the five predefined
 * entities and numeric character references are decoded.
 *
 * Mapping between XML and JSON (the same both ways; xmlWriter.ts writes it):
 * - the document becomes `{ rootName: value }`;
 * - an element with only text becomes that text (a string, not trimmed; an empty element is `""`);
 * - an element with child elements or attributes becomes an object: attributes under `@name`,
 *   child elements under their names (a name that repeats becomes an array, in document order),
 *   and its non-blank text under `#text`;
 * - comments and processing instructions are skipped; CDATA sections are text;
 * - names are kept as written, namespace prefixes included (`soap:Body`);
 * - line ends are normalised as XML 1.0 §2.11 says ("\r\n" and "\r" become "\n"), and attribute
 *   values as §3.3.3 says for attributes without a DTD (each literal tab, line end or space becomes
 *   a space); characters written as references (`&#13;`, `&#9;`) are kept.
 */

export type XmlValue = string | XmlObject | XmlValue[];

export interface XmlObject {
	[name: string]: XmlValue;
}

export const XML_ATTRIBUTE_PREFIX = '@';
export const XML_TEXT_KEY = '#text';

/** Deeper documents are refused rather than risking the call stack. */
export const XML_MAX_DEPTH = 256;

export class XmlSyntaxError extends Error {
	constructor(
		message: string,
		readonly line: number,
		readonly column: number,
	) {
		super(`${message} (line ${line}, column ${column})`);
		this.name = 'XmlSyntaxError';
	}
}

const PREDEFINED_ENTITIES: Record<string, string> = {
	lt: '<',
	gt: '>',
	amp: '&',
	quot: '"',
	apos: "'",
};

const NAME = /[\p{L}_:][\p{L}\p{M}\p{N}_:.\-\u00B7]*/uy;
const WHITESPACE = /[ \t\r\n]*/y;

/** Assigns an own property, also for names such as `__proto__` that plain assignment would misuse. */
function setOwn(target: XmlObject, name: string, value: XmlValue): void {
	// Plain assignment is several times faster; only __proto__ needs the slow way.
	if (name === '__proto__') Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
	else target[name] = value;
}

function addChild(target: XmlObject, name: string, value: XmlValue): void {
	if (!Object.prototype.hasOwnProperty.call(target, name)) {
		setOwn(target, name, value);
		return;
	}
	const existing = target[name];
	if (Array.isArray(existing)) existing.push(value);
	else setOwn(target, name, [existing, value]);
}

/** Whether XML 1.0 can carry this character at all (its production Char). */
export function isXmlChar(code: number): boolean {
	return (
		code === 0x9 ||
		code === 0xa ||
		code === 0xd ||
		(code >= 0x20 && code <= 0xd7ff) ||
		(code >= 0xe000 && code <= 0xfffd) ||
		(code >= 0x10000 && code <= 0x10ffff)
	);
}

class XmlReader {
	private pos = 0;

	private readonly source: string;

	constructor(source: string) {
		// XML 1.0 §2.11: a parser reads every line end as a single line feed.
		this.source = source.includes('\r') ? source.replace(/\r\n?/g, '\n') : source;
	}

	read(): XmlObject {
		if (this.source.charCodeAt(0) === 0xfeff) this.pos = 1;
		if (this.source.startsWith('<?xml', this.pos) && /[\s?]/.test(this.source[this.pos + 5] ?? '')) {
			this.skipPast('?>', 'Unterminated XML declaration');
		}
		this.skipMisc();
		if (this.pos >= this.source.length) this.fail('The document is empty: expected a root element');
		if (this.source[this.pos] !== '<') this.fail('Expected the root element, found text');
		const [name, value] = this.readElement(1);
		this.skipMisc();
		if (this.pos < this.source.length) {
			this.fail(
				this.source[this.pos] === '<'
					? 'A second root element was found: an XML document has exactly one root element'
					: 'Text after the root element',
			);
		}
		const document: XmlObject = {};
		setOwn(document, name, value);
		return document;
	}

	private fail(message: string, at = this.pos): never {
		const before = this.source.slice(0, at);
		const line = before.split('\n').length;
		const column = at - before.lastIndexOf('\n');
		throw new XmlSyntaxError(message, line, column);
	}

	private skipPast(terminator: string, message: string): void {
		const end = this.source.indexOf(terminator, this.pos);
		if (end < 0) this.fail(message);
		this.pos = end + terminator.length;
	}

	private skipWhitespace(): void {
		WHITESPACE.lastIndex = this.pos;
		WHITESPACE.exec(this.source);
		this.pos = WHITESPACE.lastIndex;
	}

	/** Whitespace, comments and processing instructions around the root element. */
	private skipMisc(): void {
		for (;;) {
			this.skipWhitespace();
			if (this.source.startsWith('<!--', this.pos)) {
				this.skipPast('-->', 'Unterminated comment');
			} else if (this.source.startsWith('<?', this.pos)) {
				this.skipPast('?>', 'Unterminated processing instruction');
			} else if (this.source.startsWith('<!DOCTYPE', this.pos) || this.source.startsWith('<!doctype', this.pos)) {
				this.fail(
					'DOCTYPE declarations are not accepted, because they can define entities (entity expansion, external entities). Send the document without a DOCTYPE',
				);
			} else if (this.source.startsWith('<!', this.pos)) {
				this.fail('Declarations are not accepted');
			} else {
				return;
			}
		}
	}

	private readName(what: string): string {
		NAME.lastIndex = this.pos;
		const match = NAME.exec(this.source);
		if (!match) this.fail(`Expected ${what}`);
		this.pos = NAME.lastIndex;
		return match[0];
	}

	private decode(raw: string, at: number): string {
		if (!raw.includes('&')) return this.checkChars(raw, at);
		let result = '';
		let from = 0;
		for (let amp = raw.indexOf('&'); amp >= 0; amp = raw.indexOf('&', from)) {
			result += raw.slice(from, amp);
			const semicolon = raw.indexOf(';', amp);
			const reference = semicolon < 0 ? '' : raw.slice(amp + 1, semicolon);
			if (semicolon < 0 || reference === '' || /[\s&<]/.test(reference)) {
				this.fail('A bare "&" must be written as "&amp;"', at + amp);
			}
			if (reference.startsWith('#')) {
				const code = /^#x[0-9a-fA-F]{1,6}$/.test(reference)
					? parseInt(reference.slice(2), 16)
					: /^#[0-9]{1,7}$/.test(reference)
						? parseInt(reference.slice(1), 10)
						: NaN;
				if (!isXmlChar(code)) this.fail(`Invalid character reference "&${reference};"`, at + amp);
				result += String.fromCodePoint(code);
			} else if (Object.prototype.hasOwnProperty.call(PREDEFINED_ENTITIES, reference)) {
				result += PREDEFINED_ENTITIES[reference];
			} else {
				this.fail(
					`Unknown entity "&${reference};": only &lt; &gt; &amp; &quot; &apos; and numeric character references are accepted (entity declarations are refused)`,
					at + amp,
				);
			}
			from = semicolon + 1;
		}
		return this.checkChars(result + raw.slice(from), at);
	}

	private checkChars(text: string, at: number): string {
		for (let index = 0; index < text.length; index++) {
			const code = text.charCodeAt(index);
			if (code < 0x20 && code !== 0x9 && code !== 0xa && code !== 0xd) {
				this.fail(`Control character U+${code.toString(16).padStart(4, '0').toUpperCase()} is not allowed in XML`, at + index);
			}
		}
		return text;
	}

	private readAttributes(element: string): XmlObject | undefined {
		let attributes: XmlObject | undefined;
		for (;;) {
			const before = this.pos;
			this.skipWhitespace();
			const next = this.source[this.pos];
			if (next === '>' || next === '/' || next === undefined) return attributes;
			if (this.pos === before) this.fail(`Expected whitespace before an attribute of <${element}>`);
			const name = this.readName(`an attribute name or the end of <${element}>`);
			this.skipWhitespace();
			if (this.source[this.pos] !== '=') this.fail(`Expected "=" after attribute "${name}" of <${element}>`);
			this.pos++;
			this.skipWhitespace();
			const quote = this.source[this.pos];
			if (quote !== '"' && quote !== "'") this.fail(`The value of attribute "${name}" must be quoted`);
			const end = this.source.indexOf(quote, this.pos + 1);
			if (end < 0) this.fail(`Unterminated value of attribute "${name}"`);
			const raw = this.source.slice(this.pos + 1, end);
			if (raw.includes('<')) this.fail(`"<" is not allowed in the value of attribute "${name}"`, this.pos + 1 + raw.indexOf('<'));
			const key = `${XML_ATTRIBUTE_PREFIX}${name}`;
			attributes ??= {};
			if (Object.prototype.hasOwnProperty.call(attributes, key)) this.fail(`Attribute "${name}" appears twice in <${element}>`);
			// XML 1.0 §3.3.3: literal white space in a value is a space; references are decoded after.
			setOwn(attributes, key, this.decode(raw.replace(/[\t\n]/g, ' '), this.pos + 1));
			this.pos = end + 1;
		}
	}

	private readElement(depth: number): [string, XmlValue] {
		if (depth > XML_MAX_DEPTH) this.fail(`Elements are nested more than ${XML_MAX_DEPTH} levels deep`);
		const start = this.pos;
		this.pos++;
		const name = this.readName('an element name after "<"');
		const attributes = this.readAttributes(name);
		if (this.source.startsWith('/>', this.pos)) {
			this.pos += 2;
			return [name, attributes ?? ''];
		}
		if (this.source[this.pos] !== '>') this.fail(`Unterminated start tag <${name}>`);
		this.pos++;

		const children: XmlObject = {};
		let hasChildren = false;
		let text = '';
		for (;;) {
			const lt = this.source.indexOf('<', this.pos);
			if (lt < 0) this.fail(`Missing end tag </${name}> for the element opened here`, start);
			if (lt > this.pos) {
				text += this.decode(this.source.slice(this.pos, lt), this.pos);
				this.pos = lt;
			}
			if (this.source.startsWith('</', this.pos)) {
				this.pos += 2;
				const closing = this.readName(`the element name in </${name}>`);
				if (closing !== name) this.fail(`Expected </${name}> but found </${closing}>`);
				this.skipWhitespace();
				if (this.source[this.pos] !== '>') this.fail(`Unterminated end tag </${closing}>`);
				this.pos++;
				break;
			}
			if (this.source.startsWith('<!--', this.pos)) {
				this.skipPast('-->', 'Unterminated comment');
			} else if (this.source.startsWith('<![CDATA[', this.pos)) {
				const end = this.source.indexOf(']]>', this.pos);
				if (end < 0) this.fail('Unterminated CDATA section');
				text += this.checkChars(this.source.slice(this.pos + 9, end), this.pos + 9);
				this.pos = end + 3;
			} else if (this.source.startsWith('<?', this.pos)) {
				this.skipPast('?>', 'Unterminated processing instruction');
			} else if (this.source.startsWith('<!', this.pos)) {
				this.fail('Declarations (DOCTYPE, ENTITY) are not accepted');
			} else {
				const [childName, childValue] = this.readElement(depth + 1);
				addChild(children, childName, childValue);
				hasChildren = true;
			}
		}
		if (!hasChildren && attributes === undefined) return [name, text];
		const result: XmlObject = attributes ?? {};
		if (text.trim() !== '') setOwn(result, XML_TEXT_KEY, text);
		for (const [childName, childValue] of Object.entries(children)) setOwn(result, childName, childValue);
		return [name, result];
	}
}

/** Parses an XML document; throws XmlSyntaxError (with line and column) when it is not acceptable. */
export function parseXml(text: string): XmlObject {
	return new XmlReader(text).read();
}
