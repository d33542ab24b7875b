/** The value at a path of keys in node parameters, or undefined where the path leads nowhere. */
export function valueAtPath(parameters: unknown, path: readonly string[]): unknown {
	let value = parameters;
	for (const segment of path) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string, unknown>)[segment];
	}
	return value;
}
