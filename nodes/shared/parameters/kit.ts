/**
 * Checking parameter values that an expression could set to anything: whole numbers, choices and
 * JSON text. One rule for what counts as "not set" (undefined, null or blank text: the default
 * applies) and one message style: the parameter's name in quotes, what was wrong, and the item it
 * was read for as " [item 3]" at the end.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** " [item 3]", or nothing for a node-level setting. */
export function itemTag(itemIndex: number | undefined): string {
	return itemIndex === undefined ? '' : ` [item ${itemIndex}]`;
}

/** The one null rule: a parameter that is undefined, null or blank text is not set. */
export function isUnset(value: unknown): boolean {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** An error about a parameter: the message names the item; the description says how to fix it. */
export function parameterError(
	node: INode,
	message: string,
	itemIndex: number | undefined,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(node, `${message}${itemTag(itemIndex)}`, { itemIndex, description });
}

export interface WholeNumberRule {
	/** The parameter's name as the editor shows it. */
	label: string;
	min: number;
	/** Infinity (the default) for no upper limit. */
	max?: number;
	/** What an unset value means; without one, an unset value is an error. */
	fallback?: number;
	itemIndex?: number;
	/** Where the user sets it, for the fix: "in the options" unless said otherwise. */
	where?: string;
}

/** A value as the user would recognise it in a message: JSON.stringify writes NaN and Infinity as null. */
function shownValue(value: unknown): string {
	if (typeof value === 'number') return String(value);
	return JSON.stringify(value) ?? 'nothing';
}

/** A whole number within limits; numeric text ("5") is accepted as the number. */
export function wholeNumber(node: INode, value: unknown, rule: WholeNumberRule): number {
	const { label, min, max = Infinity, fallback, itemIndex, where = 'in the options' } = rule;
	if (isUnset(value) && fallback !== undefined) return fallback;
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number === 'number' && Number.isInteger(number) && number >= min && number <= max) return number;
	const range = max === Infinity ? `from ${min} up` : `from ${min} to ${max}`;
	const wanted = max === Infinity ? `of at least ${min}` : `between ${min} and ${max}`;
	throw parameterError(
		node,
		`"${label}" must be a whole number ${range} (got ${shownValue(value)})`,
		itemIndex,
		`Set "${label}" ${where} to a whole number ${wanted}.`,
	);
}

/** One of a parameter's listed values; unset means the fallback. */
export function choice<T extends string>(
	node: INode,
	value: unknown,
	rule: { label: string; allowed: readonly T[]; fallback: T; itemIndex?: number },
): T {
	if (isUnset(value)) return rule.fallback;
	if ((rule.allowed as readonly unknown[]).includes(value)) return value as T;
	throw parameterError(
		node,
		`"${rule.label}" cannot be ${JSON.stringify(value)}`,
		rule.itemIndex,
		`Choose one of the listed values for "${rule.label}" (${rule.allowed.join(', ')}).`,
	);
}

/**
 * The value of a JSON parameter: text is parsed (invalid JSON is an error naming the parameter and
 * the item), anything else (an expression's object) is taken as it is. Blank text is undefined:
 * whether that is allowed is the caller's rule.
 */
export function jsonParameter(
	node: INode,
	raw: unknown,
	rule: { label: string; itemIndex?: number; example: string },
): unknown {
	if (typeof raw !== 'string') return raw;
	if (raw.trim() === '') return undefined;
	try {
		return JSON.parse(raw) as unknown;
	} catch (error) {
		throw parameterError(
			node,
			`"${rule.label}" is not valid JSON: ${(error as Error).message}`,
			rule.itemIndex,
			`Check the JSON for missing quotes, commas or brackets, e.g. ${rule.example}; put expressions inside string values, e.g. "{{ $json.name }}".`,
		);
	}
}
