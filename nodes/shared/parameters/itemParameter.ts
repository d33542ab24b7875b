import type { IExecuteFunctions, NodeParameterValueType } from 'n8n-workflow';

import { valueAtPath } from './path';

function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(holdsExpression);
	return false;
}

/**
 * Reads a node parameter item after item. A parameter that holds no expression has the same value
 * for every item, so it is read once: n8n resolves a parameter anew on every getNodeParameter
 * call, which adds up to a noticeable share of an import of 100,000 items.
 */
export function itemParameterReader<T extends NodeParameterValueType | object>(
	context: IExecuteFunctions,
	name: string,
	fallback?: T,
): (itemIndex: number) => T {
	const raw = valueAtPath(context.getNode().parameters, name.split('.'));
	const read = (itemIndex: number) => context.getNodeParameter(name, itemIndex, fallback) as T;
	if (holdsExpression(raw)) return read;
	let value: { read: T } | undefined;
	return (itemIndex) => (value ??= { read: read(itemIndex) }).read;
}
