import { isXmlChar, XML_ATTRIBUTE_PREFIX, XML_TEXT_KEY } from './xml';

/**
 * Writes JSON as XML with the mapping the reader (xml.ts) uses: "@name" fields are attributes,
 * "#text" the element's text, other fields child elements (a list repeats the element). Whatever
 * the value, the document is well-formed and valid under Namespaces in XML, and every value in it
 * is read back as written by a standard parser:
 * - a key that is not an XML name becomes one (other characters become "_"); a "prefix:name" key
 *   keeps its prefix only where an "@xmlns:prefix" field declares it (on the element or above),
 *   otherwise its ":" becomes "_" too, since a namespace-aware parser refuses an undeclared prefix;
 * - two attributes that would end up with one name get "_2", "_3"… on the later ones;
 * - the work grows linearly with the value, whatever its names: the prefixes in scope are one map
 *   changed on the way into an element and back on the way out (not a copy per element), a name's
 *   next free "_N" is remembered per name, and the document is written into one list of strings.
 * - line breaks and tabs are written as character references where a parser would change them
 *   (in attribute values, and a carriage return anywhere); characters XML cannot carry at all
 *   become U+FFFD.
 */

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

/** A name without ":" (Namespaces in XML's NCName), in the characters the reader accepts. */
const NC_NAME = /^[\p{L}_][\p{L}\p{M}\p{N}_.\-\u00B7]*$/u;

/** The prefixes declared where an element is written: prefix → namespace. */
type Scope = Map<string, string>;

const rootScope = (): Scope => new Map([['xml', XML_NAMESPACE]]);

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
const ATTRIBUTE_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '"': '&quot;', '\t': '&#9;', '\n': '&#10;' };

/** Characters XML 1.0 cannot carry at all, not even as references, become U+FFFD. */
function replaceNonXmlChars(text: string): string {
	let result = '';
	let from = 0;
	let index = 0;
	// Iterating by code point keeps surrogate pairs together; a lone surrogate is not an XML character.
	for (const char of text) {
		if (!isXmlChar(char.codePointAt(0) ?? 0)) {
			result += `${text.slice(from, index)}\uFFFD`;
			from = index + char.length;
		}
		index += char.length;
	}
	return from === 0 ? text : result + text.slice(from);
}

export function escapeXmlText(text: string): string {
	return replaceNonXmlChars(text).replace(/[&<>\r]/g, (char) => TEXT_ESCAPES[char]);
}

function escapeXmlAttribute(text: string): string {
	return replaceNonXmlChars(text).replace(/[&<>"\t\n\r]/g, (char) => ATTRIBUTE_ESCAPES[char]);
}

/** Turns any text into a name without ":": other characters become "_", and "_" goes first when needed. */
export function xmlName(name: string): string {
	let cleaned = name.replace(/[^\p{L}\p{M}\p{N}_.\-\u00B7]/gu, '_');
	if (!/^[\p{L}_]/u.test(cleaned)) cleaned = `_${cleaned}`;
	return cleaned;
}

/** `prefix:local` when both are names and the prefix is declared here, else undefined. */
function declaredQualifiedName(name: string, scope: ReadonlyMap<string, string>): { prefix: string; local: string } | undefined {
	const colon = name.indexOf(':');
	if (colon < 0) return undefined;
	const prefix = name.slice(0, colon);
	const local = name.slice(colon + 1);
	if (!NC_NAME.test(prefix) || !NC_NAME.test(local) || !scope.has(prefix)) return undefined;
	return { prefix, local };
}

/** The name an element is written with. */
function elementName(key: string, scope: ReadonlyMap<string, string>): string {
	return declaredQualifiedName(key, scope) === undefined ? xmlName(key) : key;
}

function scalarText(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (value instanceof Date) return value.toISOString();
	return String(value);
}

const isScalar = (value: unknown) => value === null || typeof value !== 'object' || value instanceof Date;

/**
 * The prefix a namespace declaration field ("@xmlns:p") declares, when it is one a parser accepts:
 * a name other than xml and xmlns, bound to a namespace that is neither empty nor reserved.
 */
function declaredPrefix(key: string, value: string): string | undefined {
	if (!key.startsWith('xmlns:')) return undefined;
	const prefix = key.slice('xmlns:'.length);
	if (!NC_NAME.test(prefix) || prefix === 'xml' || prefix === 'xmlns') return undefined;
	// Parsers compare the namespace trimmed (saxes does).
	const namespace = value.trim();
	if (namespace === '' || namespace === XML_NAMESPACE || namespace === XMLNS_NAMESPACE) return undefined;
	return prefix;
}

interface Attribute {
	name: string;
	value: string;
}

/** A namespace and local name, as a parser compares attributes. */
const expandedName = (namespace: string | undefined, name: string) => `{${namespace ?? ''}}${name.slice(name.indexOf(':') + 1)}`;

/**
 * The attributes of an element: namespace declarations first, then the other attributes, each under
 * a name unique both as written and as namespace and local name (a parser refuses either kind of
 * duplicate). The element's declarations are entered into `scope`; the returned list of what they
 * replaced puts it back (restoreScope).
 */
function attributesOf(entries: Array<[string, string]>, scope: Scope): { attributes: Attribute[]; replaced: Array<[string, string | undefined]> } {
	const attributes: Attribute[] = [];
	const replaced: Array<[string, string | undefined]> = [];
	const written = new Set<string>();
	const expanded = new Set<string>();
	const rest: Array<[string, string]> = [];
	for (const [key, value] of entries) {
		const prefix = declaredPrefix(key, value);
		const isDefaultDeclaration = key === 'xmlns' && value.trim() !== XML_NAMESPACE && value.trim() !== XMLNS_NAMESPACE;
		if (prefix === undefined && !isDefaultDeclaration) {
			rest.push([key, value]);
			continue;
		}
		if (prefix !== undefined) {
			replaced.push([prefix, scope.get(prefix)]);
			scope.set(prefix, value.trim());
		}
		attributes.push({ name: key, value });
		written.add(key);
		expanded.add(`{${XMLNS_NAMESPACE}}${prefix ?? ''}`);
	}
	// The next "_N" to try for each name, so that many names cleaned up to one are not each tried
	// against all the earlier ones.
	const nextSuffix = new Map<string, number>();
	for (const [key, value] of rest) {
		const qualified = declaredQualifiedName(key, scope);
		let local = qualified?.local ?? xmlName(key);
		// A plain attribute named xmlns (or a prefix xmlns) would be read as a namespace declaration.
		if (qualified === undefined && local === 'xmlns') local = '_xmlns';
		if (qualified?.prefix === 'xmlns') local = xmlName(key);
		const prefix = qualified?.prefix === 'xmlns' ? undefined : qualified?.prefix;
		const namespace = prefix === undefined ? '' : scope.get(prefix);
		const base = prefix === undefined ? local : `${prefix}:${local}`;
		let name = base;
		const taken = () => written.has(name) || expanded.has(expandedName(namespace, name));
		if (taken()) {
			const counter = expandedName(namespace, base);
			let suffix = nextSuffix.get(counter) ?? 2;
			for (name = `${base}_${suffix}`; taken(); name = `${base}_${suffix}`) suffix++;
			nextSuffix.set(counter, suffix + 1);
		}
		written.add(name);
		expanded.add(expandedName(namespace, name));
		attributes.push({ name, value });
	}
	return { attributes, replaced };
}

/** Puts back the declarations an element's attributes replaced, in reverse order. */
function restoreScope(scope: Scope, replaced: Array<[string, string | undefined]>): void {
	for (let index = replaced.length - 1; index >= 0; index--) {
		const [prefix, outer] = replaced[index];
		if (outer === undefined) scope.delete(prefix);
		else scope.set(prefix, outer);
	}
}

function writeElement(key: string, value: unknown, scope: Scope, out: string[]): void {
	if (Array.isArray(value)) {
		for (const item of value) writeElement(key, item, scope, out);
		return;
	}
	if (isScalar(value) || value === undefined) {
		const tag = elementName(key, scope);
		out.push(value === null || value === undefined ? `<${tag}/>` : `<${tag}>${escapeXmlText(scalarText(value))}</${tag}>`);
		return;
	}
	const attributeEntries: Array<[string, string]> = [];
	const content: Array<[string, unknown]> = [];
	for (const [field, child] of Object.entries(value as Record<string, unknown>)) {
		if (field.startsWith(XML_ATTRIBUTE_PREFIX) && field.length > 1 && isScalar(child)) {
			attributeEntries.push([field.slice(1), replaceNonXmlChars(scalarText(child))]);
		} else {
			content.push([field, child]);
		}
	}
	const { attributes, replaced } = attributesOf(attributeEntries, scope);
	const tag = elementName(key, scope);
	const start = tag + attributes.map(({ name, value: text }) => ` ${name}="${escapeXmlAttribute(text)}"`).join('');
	// Children are written into the same list, after the start tag: an element with nothing inside
	// then becomes an empty-element tag in place.
	const startIndex = out.length;
	out.push(`<${start}>`);
	for (const [field, child] of content) {
		if (field === XML_TEXT_KEY && isScalar(child)) {
			const text = escapeXmlText(scalarText(child));
			if (text !== '') out.push(text);
		} else {
			writeElement(field, child, scope, out);
		}
	}
	if (out.length === startIndex + 1) out[startIndex] = `<${start}/>`;
	else out.push(`</${tag}>`);
	restoreScope(scope, replaced);
}

/**
 * Writes `value` as a document with root element `rootName` (made a name as any key is), the
 * reverse of parseXml. A list at the root becomes repeated `<item>` elements inside the root element.
 */
export function toXml(rootName: string, value: unknown): string {
	const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
	writeElement(rootName, Array.isArray(value) ? { item: value } : value, rootScope(), out);
	return out.join('');
}
