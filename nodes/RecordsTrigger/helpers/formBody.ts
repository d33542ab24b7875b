import { invalidEncoding } from './bodyText';
import type { Checked } from './rejection';

/**
 * application/x-www-form-urlencoded bodies, read in time linear in their size: a name given more
 * than once gets the list of its values, in order. n8n's own form parser stops at 1,000 fields and
 * drops the rest without a word; this one refuses such a form instead.
 */

export const MAX_FORM_FIELDS = 1000;

/**
 * One name or value of a form body: "+" is a space, and each run of %XX escapes is bytes of text in
 * the body's encoding (a windows-1250 caller's "%9A" is "š"; in UTF-8 "š" is "%C5%A1"). A "%" not
 * followed by two hex digits stays as it is, as in URLSearchParams. Throws on bytes not valid in
 * the encoding.
 */
function formComponent(raw: string, decoder: InstanceType<typeof TextDecoder>): string {
	return raw.replace(/\+/g, ' ').replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => decoder.decode(percentBytes(run)));
}

/** The value of a hexadecimal digit's character code (0-9, A-F, a-f). */
const hexDigit = (code: number) => (code <= 0x39 ? code - 0x30 : (code | 0x20) - 0x57);

/** The bytes of a run of "%XX" escapes. */
function percentBytes(run: string): Uint8Array {
	const bytes = new Uint8Array(run.length / 3);
	for (let index = 0; index < bytes.length; index++) {
		bytes[index] = hexDigit(run.charCodeAt(index * 3 + 1)) * 16 + hexDigit(run.charCodeAt(index * 3 + 2));
	}
	return bytes;
}

/** Parses a form body whose percent-encoded bytes are text in `encoding`. */
export function parseForm(text: string, encoding: string): Checked<Record<string, string | string[]>> {
	// ignoreBOM keeps a U+FEFF that starts an escape run: it is the caller's data. Only a mark before
	// the whole body is not, and decodeBody drops that one.
	const decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
	const result: Record<string, string | string[]> = {};
	let fields = 0;
	for (let start = 0; start <= text.length; ) {
		const ampersand = text.indexOf('&', start);
		const end = ampersand < 0 ? text.length : ampersand;
		const pair = text.slice(start, end);
		start = end + 1;
		if (pair === '') continue;
		if (++fields > MAX_FORM_FIELDS) {
			return {
				rejection: {
					status: 413,
					code: 'too_many_fields',
					message: `The form body has more than ${MAX_FORM_FIELDS.toLocaleString('en-US')} fields, more than this trigger reads from a form. Send the data as JSON or XML instead.`,
				},
			};
		}
		const equals = pair.indexOf('=');
		let name: string;
		let value: string;
		try {
			name = formComponent(equals < 0 ? pair : pair.slice(0, equals), decoder);
			value = equals < 0 ? '' : formComponent(pair.slice(equals + 1), decoder);
		} catch {
			return { rejection: invalidEncoding(encoding) };
		}
		const existing = Object.prototype.hasOwnProperty.call(result, name) ? result[name] : undefined;
		if (Array.isArray(existing)) {
			// In place: copying the list at every repeat made a form of one repeated name quadratic.
			existing.push(value);
			continue;
		}
		// An own property also for names such as __proto__.
		Object.defineProperty(result, name, {
			value: existing === undefined ? value : [existing, value],
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return { value: result };
}
