/**
 * The request bodies of an import's batches, with the next one made ahead: while one batch is on
 * the wire, the next batch's JSON is serialized a slice at a time between other events, and then
 * encoded into its bytes, so the work overlaps the wait for the service instead of adding to it,
 * and never holds up the request just sent. A body made ahead for a batch that is then not sent is
 * dropped.
 */
import { sleep } from 'n8n-workflow';

import { JsonListBody } from '../../../../../shared/transport/jsonBody';

/**
 * The first slice is small: the request just sent still needs a turn or two to get onto the wire
 * (n8n's helper opens a new connection for it). Each next slice is twice as large, up to the last
 * size: every turn waits for a timer, and in slices of 128 KB a body of 1,000 records (about 600 KB)
 * was often unfinished when the answer to the batch before came (bench/findings.md).
 */
const FIRST_SLICE_CHARS = 64 * 1024;
const LARGEST_SLICE_CHARS = 512 * 1024;

export class BodyAhead {
	/** The body of the batch to be sent next, made while the current one is on the wire. */
	private ahead: { batchIndex: number; body: JsonListBody } | undefined;

	private finished = false;

	/**
	 * @param bodyFor makes the (unwritten) body of a batch by its index.
	 * @param wanted whether a batch may still be sent; a body is made ahead only for one that may.
	 */
	constructor(
		private readonly bodyFor: (batchIndex: number) => JsonListBody,
		private readonly wanted: (batchIndex: number) => boolean,
	) {}

	/** The finished body of a batch being sent: the one made ahead, or made now. */
	take(batchIndex: number): Buffer {
		const body = this.ahead?.batchIndex === batchIndex ? this.ahead.body : this.bodyFor(batchIndex);
		this.ahead = undefined;
		return body.finish();
	}

	/** Drops the body made ahead for a batch that will not be sent. */
	drop(batchIndex: number): void {
		if (this.ahead?.batchIndex === batchIndex) this.ahead = undefined;
	}

	/**
	 * Makes a batch's body in growing slices, yielding before each, and encodes it with the last one,
	 * so that sending it costs nothing more; stops when taken, dropped or finished.
	 */
	async makeAhead(batchIndex: number): Promise<void> {
		if (this.finished || !this.wanted(batchIndex)) return;
		const ahead = { batchIndex, body: this.bodyFor(batchIndex) };
		this.ahead = ahead;
		try {
			let sliceChars = FIRST_SLICE_CHARS;
			do {
				await sleep(0);
				// Taken for sending (take finishes it), or dropped.
				if (this.finished || this.ahead !== ahead) return;
				ahead.body.writeSlice(sliceChars);
				sliceChars = Math.min(2 * sliceChars, LARGEST_SLICE_CHARS);
			} while (!ahead.body.complete);
			// Encoded with the last slice, not a turn later: an answer that arrives in that turn would
			// otherwise find the bytes unmade and wait for them before the next batch could leave.
			ahead.body.finish();
		} catch {
			// Not made ahead: take makes it when the batch is sent, and reports the error there.
			if (this.ahead === ahead) this.ahead = undefined;
		}
	}

	/** No more batches are sent: whatever is being made ahead is dropped. */
	finish(): void {
		this.finished = true;
		this.ahead = undefined;
	}
}
