/**
 * A deliberately small XML writer and reader for the sandbox's outbound calls: element-per-field
 * documents, attributes, CDATA, comments and the five predefined entities plus character references.
 * DOCTYPE declarations (and with them entity definitions) are refused.
 */

export type XmlValue = string | XmlObject | XmlValue[];

export interface XmlObject {
	[name: string]: XmlValue;
}

const PREDEFINED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const ESCAPES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' };

export function escapeXml(text: string): string {
	return text.replace(/[<>&"']/g, (char) => ESCAPES[char]);
}

/** Turns any string into a valid XML element name (spaces and other invalid characters become `_`). */
export function xmlName(name: string): string {
	let cleaned = name.replace(/[^\p{L}\p{N}_.-]/gu, '_');
	if (!/^[\p{L}_]/u.test(cleaned)) cleaned = `_${cleaned}`;
	return cleaned;
}

function element(name: string, value: unknown): string {
	const tag = xmlName(name);
	if (Array.isArray(value)) return value.map((item) => element(name, item)).join('');
	if (value === null || value === undefined) return `<${tag}/>`;
	if (typeof value === 'object') {
		const children = Object.entries(value as Record<string, unknown>)
			.map(([childName, childValue]) => element(childName, childValue))
			.join('');
		return `<${tag}>${children}</${tag}>`;
	}
	return `<${tag}>${escapeXml(String(value))}</${tag}>`;
}

/** `{a: 1, b: {c: "x"}}` under root `record` → `<record><a>1</a><b><c>x</c></b></record>`. */
export function toXml(rootName: string, value: unknown): string {
	return `<?xml version="1.0" encoding="UTF-8"?>${element(rootName, value)}`;
}

export class XmlParseError extends Error {}

function decodeEntities(text: string, at: number): string {
	return text.replace(/&([^;&\s]*);?/g, (match, entity: string) => {
		if (!match.endsWith(';')) throw new XmlParseError(`Unterminated entity "${match}" near offset ${at}`);
		if (entity in PREDEFINED_ENTITIES) return PREDEFINED_ENTITIES[entity];
		const numeric = /^#(x[0-9a-fA-F]+|[0-9]+)$/.exec(entity);
		if (numeric) {
			const code = numeric[1].startsWith('x') ? parseInt(numeric[1].slice(1), 16) : parseInt(numeric[1], 10);
			if (code > 0x10ffff) throw new XmlParseError(`Invalid character reference "${match}" near offset ${at}`);
			return String.fromCodePoint(code);
		}
		throw new XmlParseError(`Unknown entity "${match}" near offset ${at}`);
	});
}

/**
 * Parses a document into `{rootName: value}`. An element with only text becomes a string; one with
 * children or attributes becomes an object (attributes as `@name`, text as `#text`); repeated child
 * names become arrays.
 */
export function parseXml(text: string): XmlObject {
	let pos = 0;
	const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;

	const fail = (message: string): never => {
		throw new XmlParseError(`${message} at offset ${pos}`);
	};

	const skipMisc = (): void => {
		for (;;) {
			while (pos < source.length && /\s/.test(source[pos])) pos++;
			if (source.startsWith('<?', pos)) {
				const end = source.indexOf('?>', pos);
				if (end < 0) fail('Unterminated processing instruction');
				pos = end + 2;
			} else if (source.startsWith('<!--', pos)) {
				const end = source.indexOf('-->', pos);
				if (end < 0) fail('Unterminated comment');
				pos = end + 3;
			} else if (source.startsWith('<!', pos) && !source.startsWith('<![CDATA[', pos)) {
				fail('DOCTYPE and entity declarations are not accepted');
			} else {
				return;
			}
		}
	};

	const readName = (): string => {
		const match = /^[^\s/>=<"']+/.exec(source.slice(pos, pos + 256));
		if (!match) fail('Expected a name');
		const name = (match as RegExpExecArray)[0];
		pos += name.length;
		return name;
	};

	const addChild = (target: XmlObject, name: string, value: XmlValue): void => {
		const existing = target[name];
		if (existing === undefined) target[name] = value;
		else if (Array.isArray(existing)) existing.push(value);
		else target[name] = [existing, value];
	};

	const parseElement = (): [string, XmlValue] => {
		if (source[pos] !== '<') fail('Expected "<"');
		pos++;
		const name = readName();
		const attributes: XmlObject = {};
		let hasAttributes = false;
		for (;;) {
			while (/\s/.test(source[pos] ?? '')) pos++;
			if (source.startsWith('/>', pos)) {
				pos += 2;
				return [name, hasAttributes ? attributes : ''];
			}
			if (source[pos] === '>') {
				pos++;
				break;
			}
			if (pos >= source.length) fail(`Unterminated start tag <${name}>`);
			const attribute = readName();
			while (/\s/.test(source[pos] ?? '')) pos++;
			if (source[pos] !== '=') fail(`Expected "=" after attribute ${attribute}`);
			pos++;
			while (/\s/.test(source[pos] ?? '')) pos++;
			const quote = source[pos];
			if (quote !== '"' && quote !== "'") fail(`Expected a quoted value for attribute ${attribute}`);
			const end = source.indexOf(quote, pos + 1);
			if (end < 0) fail(`Unterminated value of attribute ${attribute}`);
			attributes[`@${attribute}`] = decodeEntities(source.slice(pos + 1, end), pos);
			hasAttributes = true;
			pos = end + 1;
		}
		const children: XmlObject = {};
		let hasChildren = false;
		let textContent = '';
		for (;;) {
			if (pos >= source.length) fail(`Missing </${name}>`);
			if (source.startsWith('</', pos)) {
				pos += 2;
				const closing = readName();
				if (closing !== name) fail(`Expected </${name}> but found </${closing}>`);
				while (/\s/.test(source[pos] ?? '')) pos++;
				if (source[pos] !== '>') fail(`Unterminated end tag </${closing}>`);
				pos++;
				break;
			}
			if (source.startsWith('<!--', pos)) {
				const end = source.indexOf('-->', pos);
				if (end < 0) fail('Unterminated comment');
				pos = end + 3;
			} else if (source.startsWith('<![CDATA[', pos)) {
				const end = source.indexOf(']]>', pos);
				if (end < 0) fail('Unterminated CDATA section');
				textContent += source.slice(pos + 9, end);
				pos = end + 3;
			} else if (source.startsWith('<?', pos)) {
				const end = source.indexOf('?>', pos);
				if (end < 0) fail('Unterminated processing instruction');
				pos = end + 2;
			} else if (source.startsWith('<!', pos)) {
				fail('Declarations are not accepted inside elements');
			} else if (source[pos] === '<') {
				const [childName, childValue] = parseElement();
				addChild(children, childName, childValue);
				hasChildren = true;
			} else {
				const end = source.indexOf('<', pos);
				const stop = end < 0 ? source.length : end;
				textContent += decodeEntities(source.slice(pos, stop), pos);
				pos = stop;
			}
		}
		if (!hasChildren && !hasAttributes) return [name, textContent];
		const result: XmlObject = { ...attributes, ...children };
		if (textContent.trim() !== '') result['#text'] = textContent;
		return [name, result];
	};

	skipMisc();
	if (pos >= source.length) fail('Empty document');
	const [rootName, rootValue] = parseElement();
	skipMisc();
	if (pos < source.length) fail('Content after the root element');
	return { [rootName]: rootValue };
}
