const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']}');

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
 * n8n's HTTP client passes the bytes through untouched.
 */
export class JsonListBody {
	private readonly parts: Buffer[];
	private next = 0;
	/** Bytes per item so far, to size the steps of a slice; unknown before the first step. */
	private bytesPerItem: number | undefined;
	private bytes: Buffer | undefined;

	constructor(
		key: string,
		private readonly list: SerializableList,
		private readonly sliceBytes = 128 * 1024,
	) {
		this.parts = [Buffer.from(`{${JSON.stringify(key)}:[`, 'utf8')];
	}

	get complete(): boolean {
		return this.next >= this.list.length;
	}

	/** Serializes the next items, about sliceBytes of them; throws what serializing one throws. */
	writeSlice(): void {
		for (let written = 0; written < this.sliceBytes && !this.complete; ) {
			const items =
				this.bytesPerItem === undefined ? 8 : Math.ceil((this.sliceBytes - written) / this.bytesPerItem);
			const end = Math.min(this.list.length, this.next + items);
			const json = Buffer.from(this.list.serialize(this.next, end), 'utf8');
			if (this.next > 0) this.parts.push(COMMA);
			// Without the step's own brackets: `[a,b]` → `a,b`.
			this.parts.push(json.subarray(1, json.length - 1));
			written += json.length;
			this.bytesPerItem = Math.max(1, json.length / (end - this.next));
			this.next = end;
		}
	}

	/** The whole body, serializing what is left at once. */
	finish(): Buffer {
		if (this.bytes === undefined) {
			while (!this.complete) this.writeSlice();
			this.bytes = Buffer.concat([...this.parts, CLOSE]);
			this.parts.length = 0;
		}
		return this.bytes;
	}
}
