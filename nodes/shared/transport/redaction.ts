/**
 * Keeping secrets out of text taken from an answer, pure (no n8n). An answer may echo the request's
 * Authorization header, whole or cut short by the service, plain or escaped. Every form of each
 * secret is replaced with *** in the whole text first, and only then is the text shortened, so no
 * cut can leave the first characters of a secret behind.
 */

/** Shorter values are not redacted: they would blank ordinary words of the text. */
const MIN_SECRET_LENGTH = 4;
/** A run of token characters at least this long that is part of a secret is a piece of it. */
const MIN_PIECE_LENGTH = 8;
/** Characters a token, a password in a URL or their escaped forms are made of. */
const TOKEN_RUN = /[A-Za-z0-9._~+/=%\\-]{8,}/g;

/** The forms a secret takes in an echo: as it is, escaped in JSON (`\/`), percent-encoded. */
export function secretForms(secrets: readonly string[]): string[] {
	const forms = new Set<string>();
	for (const secret of secrets) {
		if (secret.length < MIN_SECRET_LENGTH) continue;
		forms.add(secret);
		forms.add(JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'));
		forms.add(encodeURIComponent(secret));
	}
	return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * A run of token characters with any piece of a secret at its start or end, or whole, replaced.
 * A piece at the start holds the run's first MIN_PIECE_LENGTH characters, and one at the end its
 * last: where the form has no such characters, no length is tried (most runs, e.g. record ids).
 */
function redactPieces(run: string, forms: readonly string[]): string {
	let start = 0;
	let end = run.length;
	for (const form of forms) {
		if (form.includes(run)) return '***';
		if (end - start >= MIN_PIECE_LENGTH && form.includes(run.slice(start, start + MIN_PIECE_LENGTH))) {
			for (let length = Math.min(form.length - 1, end - start); length >= MIN_PIECE_LENGTH; length--) {
				if (run.startsWith(form.slice(-length), start)) {
					start += length;
					break;
				}
			}
		}
		if (end - start >= MIN_PIECE_LENGTH && form.includes(run.slice(end - MIN_PIECE_LENGTH, end))) {
			for (let length = Math.min(form.length - 1, end - start); length >= MIN_PIECE_LENGTH; length--) {
				if (run.slice(start, end).endsWith(form.slice(0, length))) {
					end -= length;
					break;
				}
			}
		}
	}
	if (start === 0 && end === run.length) return run;
	return `${start > 0 ? '***' : ''}${run.slice(start, end)}${end < run.length ? '***' : ''}`;
}

/**
 * The text without any secret: each form of each secret replaced with ***, and so is a piece of
 * one (8 characters or more) that the service cut off itself, e.g. `Bearer rk_5f0c9a7e…`.
 */
export function redact(text: string, secrets: readonly string[]): string {
	return redactForms(text, secretForms(secrets));
}

/** `redact` for many texts with the same secrets: their forms are worked out once, not per text. */
export function redactor(secrets: readonly string[]): (text: string) => string {
	const forms = secretForms(secrets);
	return (text) => redactForms(text, forms);
}

function redactForms(text: string, forms: readonly string[]): string {
	if (forms.length === 0) return text;
	// Too short to hold a form (the last is the shortest) or a piece: most statuses and ids of an answer.
	if (text.length < MIN_PIECE_LENGTH && text.length < forms[forms.length - 1].length) return text;
	let redacted = text;
	for (const form of forms) if (redacted.includes(form)) redacted = redacted.split(form).join('***');
	return redacted.replace(TOKEN_RUN, (run) => redactPieces(run, forms));
}

/** The first `maxLength` characters of the text, secrets redacted before the cut, whitespace collapsed. */
export function excerpt(text: string, secrets: readonly string[], maxLength: number): string {
	return redact(text, secrets).replace(/\s+/g, ' ').trim().slice(0, maxLength);
}

/** A parsed JSON value with every text in it (keys too) redacted, e.g. an answer put into an item. */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
	if (secretForms(secrets).length === 0) return value;
	const clean = redactor(secrets);
	const walk = (part: unknown): unknown => {
		if (typeof part === 'string') return clean(part);
		if (Array.isArray(part)) return part.map(walk);
		if (typeof part === 'object' && part !== null) {
			return Object.fromEntries(Object.entries(part).map(([key, member]) => [clean(key), walk(member)]));
		}
		return part;
	};
	return walk(value);
}
