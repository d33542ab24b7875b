/**
 * Row identities as text: 12 base64url characters each (rows.ts), stored back to back in one string
 * (the window of an ordered mode; the per-row memory, see rememberedRows.ts), and the same identity
 * as its 9 bytes (identities.ts). Pure module.
 */
import { IDENTITY_BYTES, IDENTITY_LENGTH } from '../shared/report/rows';

export function splitIdentities(identities: string | undefined): string[] {
	if (identities === undefined) return [];
	const list = new Array<string>(identities.length / IDENTITY_LENGTH);
	for (let i = 0; i < list.length; i++) list[i] = identities.slice(i * IDENTITY_LENGTH, (i + 1) * IDENTITY_LENGTH);
	return list;
}

export const joinIdentities = (list: readonly string[]) => list.join('');

export const isIdentities = (value: unknown): value is string => typeof value === 'string' && value.length % IDENTITY_LENGTH === 0;

/** The text of the identity at `source[at…at+9)`. */
export const identityText = (source: Uint8Array, at: number): string =>
	Buffer.from(source.buffer, source.byteOffset + at, IDENTITY_BYTES).toString('base64url');

/** Writes the bytes of an identity's text to `target` from `at`. */
export function writeIdentityBytes(text: string, target: Uint8Array, at: number): void {
	Buffer.from(text, 'base64url').copy(target, at, 0, IDENTITY_BYTES);
}
