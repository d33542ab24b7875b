/**
 * A function of text with its results kept (pure): the field names of records and the keys and
 * status words of answers repeat from one record or entry to the next, and each is worked out once.
 * At most 10,000 are kept; past that the kept results start over.
 */
export function keptResults(reduce: (text: string) => string): (text: string) => string {
	const kept = new Map<string, string>();
	return (text) => {
		let reduced = kept.get(text);
		if (reduced === undefined) {
			reduced = reduce(text);
			if (kept.size >= 10_000) kept.clear();
			kept.set(text, reduced);
		}
		return reduced;
	};
}
