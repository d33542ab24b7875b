const CLOSE = ']}';

/**
 * A list that serializes its own items, a run at a time: `serialize(start, end)` gives the JSON
 * array of the items from start up to end, the text `JSON.stringify(list.slice(start, end))` gives.
 */
export interface SerializableList {
	readonly length: number;
	serialize(start: number, end: number): string;
}

/**
 * The bytes of `JSON.stringify({ [key]: list })`, made a slice of the list at a time. An import
 * serializes its next batch while the current one is on the wire; in slices, the work never holds
 * up a request's connect or write, or an answer, for longer than one slice.
 *
 * The slices are kept as text and encoded once, when the body is finished, into one buffer of the
 * body's exact size. Buffers live outside V8's heap, and V8 starts a full garbage collection, which
 * marks the whole heap with every input item, when they grow by 64 MB; a buffer per slice joined
 * into another made two of them per body, and reached that within an import of 100,000 records.
 * n8n's HTTP client passes the bytes through untouched.
 */
export class JsonListBody {
	/** The JSON arrays of the runs of items serialized so far, brackets included. */
	private readonly runs: string[] = [];
	private next = 0;
	/** Characters per item so far, to size the steps of a slice; unknown before the first step. */
	private charsPerItem: number | undefined;
	private bytes: Buffer | undefined;

	constructor(
		private readonly key: string,
		private readonly list: SerializableList,
		private readonly sliceChars = 128 * 1024,
	) {}

	get complete(): boolean {
		return this.next >= this.list.length;
	}

	/** Serializes the next items, about `chars` of text; throws what serializing one throws. */
	writeSlice(chars = this.sliceChars): void {
		for (let written = 0; written < chars && !this.complete; ) {
			const items = this.charsPerItem === undefined ? 8 : Math.ceil((chars - written) / this.charsPerItem);
			const end = Math.min(this.list.length, this.next + items);
			const json = this.list.serialize(this.next, end);
			this.runs.push(json);
			written += json.length;
			this.charsPerItem = Math.max(1, json.length / (end - this.next));
			this.next = end;
		}
	}

	/** The whole body, serializing what is left at once. */
	finish(): Buffer {
		if (this.bytes === undefined) {
			while (!this.complete) this.writeSlice();
			// Each run without its own brackets, and a comma between runs: `[a,b]`, `[c]` → `a,b,c`.
			const inner = this.runs.map((run) => run.slice(1, -1));
			const head = `{${JSON.stringify(this.key)}:[`;
			let size = Buffer.byteLength(head) + Math.max(0, inner.length - 1) + CLOSE.length;
			for (const items of inner) size += Buffer.byteLength(items);
			const bytes = Buffer.allocUnsafe(size);
			let at = bytes.write(head, 0);
			inner.forEach((items, index) => {
				if (index > 0) at += bytes.write(',', at);
				at += bytes.write(items, at);
			});
			bytes.write(CLOSE, at);
			this.bytes = bytes;
			this.runs.length = 0;
		}
		return this.bytes;
	}
}
