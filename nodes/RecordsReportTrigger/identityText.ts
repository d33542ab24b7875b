/**
 * Row identities stored as one string of fixed-width identities (12 characters each): the window of
 * an ordered mode, and today's form of the per-row memory. Pure module.
 */
import { IDENTITY_LENGTH } from '../shared/report/rows';

export function splitIdentities(identities: string | undefined): string[] {
	if (identities === undefined) return [];
	const list = new Array<string>(identities.length / IDENTITY_LENGTH);
	for (let i = 0; i < list.length; i++) list[i] = identities.slice(i * IDENTITY_LENGTH, (i + 1) * IDENTITY_LENGTH);
	return list;
}

export const joinIdentities = (list: readonly string[]) => list.join('');

export const isIdentities = (value: unknown): value is string => typeof value === 'string' && value.length % IDENTITY_LENGTH === 0;
