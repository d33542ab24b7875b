export interface QueryParameter {
	name: string;
	value: string;
}

const EXAMPLE = '/api/v1/records/ukoly';

/** Characters a URL path and query may carry as they are; everything else is percent-encoded. */
const UNRESERVED_OR_DELIMITER = /[A-Za-z0-9\-._~!$&'()*+,;=:@/?]/;

function encodePathText(text: string): string {
	let encoded = '';
	for (let i = 0; i < text.length; ) {
		const char = String.fromCodePoint(text.codePointAt(i) as number);
		i += char.length;
		if (char === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i, i + 2))) {
			encoded += char;
		} else if (UNRESERVED_OR_DELIMITER.test(char)) {
			encoded += char;
		} else {
			encoded += encodeURIComponent(char);
		}
	}
	return encoded;
}

/**
 * The path of a Custom API Call, ready to append to the credential's Base URL, with the query
 * parameters in it (repeated names are sent repeated, in order).
 *
 * The API token goes with every request, so the path may only ever name a place under the Base URL:
 * absolute and protocol-relative URLs are refused rather than resolved.
 */
export function buildCustomApiPath(path: unknown, query: QueryParameter[] = []): string {
	if (typeof path !== 'string' || path.trim() === '') {
		throw new Error(`The Path is empty; enter the path after the credential's Base URL, e.g. ${EXAMPLE}`);
	}
	const text = path.trim();
	if (/^[a-z][a-z0-9+.-]*:/i.test(text)) {
		throw new Error(
			`The Path "${text}" is an absolute URL. Enter only the part after the credential's Base URL, e.g. ${EXAMPLE}: the API token is sent only to the Base URL's host, never to an address given here.`,
		);
	}
	if (!text.startsWith('/')) {
		throw new Error(`The Path "${text}" must start with "/", e.g. ${EXAMPLE}`);
	}
	if (/^\/[/\\]/.test(text)) {
		throw new Error(
			`The Path "${text}" starts with "${text.slice(0, 2)}", which names another host. Enter a path under the credential's Base URL, e.g. ${EXAMPLE}`,
		);
	}
	if ([...text].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) {
		throw new Error(
			`The Path ${JSON.stringify(text)} contains a control character such as a line break; remove it`,
		);
	}

	let result = encodePathText(text);
	const pairs: string[] = [];
	query.forEach((parameter, index) => {
		const name = String(parameter.name ?? '').trim();
		if (name === '') {
			throw new Error(`Query parameter ${index + 1} has no name; enter one or remove the parameter`);
		}
		pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(parameter.value ?? ''))}`);
	});
	if (pairs.length > 0) {
		const separator = !result.includes('?') ? '?' : result.endsWith('?') || result.endsWith('&') ? '' : '&';
		result += separator + pairs.join('&');
	}
	return result;
}
