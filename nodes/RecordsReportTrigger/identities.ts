/**
 * Row identities in compact form, for reads of a million rows in a few megabytes: each identity is
 * 9 bytes (the 72 bits of SHA-256 that its 12 base64url characters stand for, rows.ts), kept in
 * typed arrays. A list keeps them in order, in chunks that never move as it grows; an index finds an
 * identity in a list by open addressing (linear probing over an Int32Array of row numbers), and can
 * mark what it found. Pure module: no n8n imports.
 */
import { IDENTITY_BYTES } from '../shared/report/rows';
import { identityText } from './identityText';

/** Identities per chunk of a list: 65,536 (576 KB). */
const CHUNK_BITS = 16;
const CHUNK_ROWS = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_ROWS - 1;

/** Identities in order, one at a time from any source: a list, or a read's rows (rowFinder.ts). */
export interface IdentitySequence {
	readonly length: number;
	/** Calls `visit` with each identity, as the 9 bytes of `source` from `at`, in order. */
	forEach(visit: (source: Uint8Array, at: number) => void): void;
	/** The memory a read met these identities through, which has marked every one it holds (rowFinder.ts). */
	readonly metIn?: object;
}

/** A list of identities, in chunks of CHUNK_ROWS. */
export class IdentityList implements IdentitySequence {
	length = 0;
	private readonly chunks: Uint8Array[] = [];
	/** The bytes a list made `over` them views. */
	private whole: Uint8Array | undefined;

	/** A list over identities stored back to back: views of `bytes`, not a copy. No `push` after. */
	static over(bytes: Uint8Array): IdentityList {
		const list = new IdentityList();
		list.whole = bytes;
		const size = CHUNK_ROWS * IDENTITY_BYTES;
		for (let at = 0; at < bytes.length; at += size) list.chunks.push(bytes.subarray(at, Math.min(bytes.length, at + size)));
		list.length = Math.floor(bytes.length / IDENTITY_BYTES);
		return list;
	}

	/** Adds the identity at `source[at…at+9)` at the end. */
	push(source: Uint8Array, at: number): void {
		if (this.whole !== undefined) throw new Error('A list over stored identities does not grow');
		const index = this.length & CHUNK_MASK;
		if (index === 0) this.chunks.push(new Uint8Array(CHUNK_ROWS * IDENTITY_BYTES));
		const chunk = this.chunks[this.chunks.length - 1];
		const to = index * IDENTITY_BYTES;
		for (let i = 0; i < IDENTITY_BYTES; i++) chunk[to + i] = source[at + i];
		this.length++;
	}

	/** The bytes identity `row` is in: `bytesOf(row)` from `offsetOf(row)`. */
	bytesOf(row: number): Uint8Array {
		return this.chunks[row >>> CHUNK_BITS];
	}

	offsetOf(row: number): number {
		return (row & CHUNK_MASK) * IDENTITY_BYTES;
	}

	/** The text of identity `row` (identityText.ts). */
	text(row: number): string {
		return identityText(this.bytesOf(row), this.offsetOf(row));
	}

	/** Whether identity `row` is the one at `source[at…]`. */
	equals(row: number, source: Uint8Array, at: number): boolean {
		return sameIdentity(this.chunks[row >>> CHUNK_BITS], (row & CHUNK_MASK) * IDENTITY_BYTES, source, at);
	}

	forEach(visit: (source: Uint8Array, at: number) => void): void {
		this.range(0, this.length, visit);
	}

	/** Identities `from` to `to` (exclusive), as a sequence. */
	part(from: number, to: number): IdentitySequence {
		return { length: Math.max(0, to - from), forEach: (visit) => this.range(from, to, visit) };
	}

	/** Calls `visit` with identities `from` to `to` (exclusive), in order. */
	range(from: number, to: number, visit: (source: Uint8Array, at: number) => void): void {
		for (let row = from; row < to; row++) visit(this.chunks[row >>> CHUNK_BITS], (row & CHUNK_MASK) * IDENTITY_BYTES);
	}

	/** Every identity, back to back: the list's own bytes when it has one chunk, else a copy. */
	bytes(): Uint8Array {
		const size = this.length * IDENTITY_BYTES;
		if (this.whole !== undefined) return this.whole.subarray(0, size);
		if (this.chunks.length === 1) return this.chunks[0].subarray(0, size);
		const all = new Uint8Array(size);
		let at = 0;
		for (const chunk of this.chunks) {
			const part = chunk.subarray(0, Math.min(chunk.length, size - at));
			all.set(part, at);
			at += part.length;
		}
		return all;
	}
}

/** Whether the 9 bytes of `a` from `i` are those of `b` from `j`. */
export function sameIdentity(a: Uint8Array, i: number, b: Uint8Array, j: number): boolean {
	return (
		a[i] === b[j] &&
		a[i + 1] === b[j + 1] &&
		a[i + 2] === b[j + 2] &&
		a[i + 3] === b[j + 3] &&
		a[i + 4] === b[j + 4] &&
		a[i + 5] === b[j + 5] &&
		a[i + 6] === b[j + 6] &&
		a[i + 7] === b[j + 7] &&
		a[i + 8] === b[j + 8]
	);
}

/** Slots per identity held at most: beyond it the index grows (to twice its size). */
const MAX_LOAD = 0.7;
const TWO_32 = 2 ** 32;

/**
 * Finds identities of a list by their bytes: a slot per identity, holding its row in the list (the
 * row added last, for an identity added twice). A slot can be marked (the sign of its value).
 * Identities are uniformly random bits already: their first 4 bytes place them, and their fifth is
 * kept beside the slot, so that a probe reads the list only where that byte matches.
 */
export class IdentityIndex {
	/** Row + 1 per slot, negative when marked; 0 for an empty slot. */
	private slots: Int32Array;
	/** The fifth byte of each slot's identity. */
	private tags: Uint8Array;
	private held = 0;
	/** Slots marked. */
	private marks = 0;

	/** An index of `list`'s identities, for about `expected` of them. */
	constructor(
		private readonly list: IdentityList,
		expected = 0,
	) {
		this.slots = new Int32Array(capacityFor(expected));
		this.tags = new Uint8Array(this.slots.length);
	}

	/** An index of the identities of `list` from row `from` to `to` (exclusive). */
	static of(list: IdentityList, from = 0, to = list.length): IdentityIndex {
		const index = new IdentityIndex(list, to - from);
		for (let row = from; row < to; row++) index.add(row);
		return index;
	}

	/** How many different identities it holds. */
	get size(): number {
		return this.held;
	}

	/** How many of them are marked. */
	get marked(): number {
		return this.marks;
	}

	/** The slot of the identity at `source[at…]`; -1 when it does not hold it. */
	find(source: Uint8Array, at: number): number {
		const slot = this.probe(source, at);
		return this.slots[slot] === 0 ? -1 : slot;
	}

	/** The row a slot holds. */
	row(slot: number): number {
		const value = this.slots[slot];
		return (value < 0 ? -value : value) - 1;
	}

	/** Adds row `row` of the list; where its identity is held already, the slot now holds this row. */
	add(row: number): void {
		if ((this.held + 1) / this.slots.length > MAX_LOAD) this.grow();
		const source = this.list.bytesOf(row);
		const at = this.list.offsetOf(row);
		const slot = this.probe(source, at);
		const value = this.slots[slot];
		if (value === 0) {
			this.held++;
			this.tags[slot] = source[at + 4];
		}
		this.slots[slot] = value < 0 ? -(row + 1) : row + 1;
	}

	/** Unmarks every slot. */
	clearMarks(): void {
		const { slots } = this;
		if (this.marks > 0) for (let slot = 0; slot < slots.length; slot++) if (slots[slot] < 0) slots[slot] = -slots[slot];
		this.marks = 0;
	}

	/** Marks a slot; whether it was marked already. */
	mark(slot: number): boolean {
		const value = this.slots[slot];
		if (value < 0) return true;
		this.slots[slot] = -value;
		this.marks++;
		return false;
	}

	isMarked(slot: number): boolean {
		return this.slots[slot] < 0;
	}

	/** The slot holding the identity at `source[at…]`, or the empty slot where it would go. */
	private probe(source: Uint8Array, at: number): number {
		const { slots, tags, list } = this;
		const capacity = slots.length;
		const tag = source[at + 4];
		for (let slot = firstSlot(source, at, capacity); ; slot = slot + 1 === capacity ? 0 : slot + 1) {
			const value = slots[slot];
			if (value === 0) return slot;
			if (tags[slot] === tag && list.equals((value < 0 ? -value : value) - 1, source, at)) return slot;
		}
	}

	private grow(): void {
		const { slots, tags } = this;
		this.slots = new Int32Array(slots.length * 2);
		this.tags = new Uint8Array(this.slots.length);
		for (let old = 0; old < slots.length; old++) {
			const value = slots[old];
			if (value === 0) continue;
			const row = (value < 0 ? -value : value) - 1;
			let slot = firstSlot(this.list.bytesOf(row), this.list.offsetOf(row), this.slots.length);
			while (this.slots[slot] !== 0) slot = slot + 1 === this.slots.length ? 0 : slot + 1;
			this.slots[slot] = value;
			this.tags[slot] = tags[old];
		}
	}
}

function capacityFor(expected: number): number {
	return Math.max(16, Math.ceil(expected / MAX_LOAD) + 1);
}

/** Where an identity's probing starts: its first 4 bytes, scaled to the capacity. */
function firstSlot(source: Uint8Array, at: number, capacity: number): number {
	const bits = (source[at] | (source[at + 1] << 8) | (source[at + 2] << 16) | (source[at + 3] << 24)) >>> 0;
	return Math.floor((bits / TWO_32) * capacity);
}
