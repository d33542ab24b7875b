/**
 * The per-row memory of the Records Report Trigger: the identity of every row it has emitted or
 * remembered, the rows gone from the report first (oldest first), then the report's rows in report
 * order. Pure module. Only this module knows how it is stored: one string of 12-character base64url
 * identities, 12 characters a row, which is the base64url text of the identities' bytes back to
 * back (9 bytes a row). It is decoded once per poll into those bytes (identities.ts) and written in
 * one piece; a poll that leaves the memory as it was hands back the very string it was given.
 */
import { IDENTITY_BYTES, IDENTITY_LENGTH } from '../shared/report/rows';
import { IdentityIndex, IdentityList, type IdentitySequence } from './identities';
import { writeIdentityBytes } from './identityText';
import type { MetRemembered, Remembered } from './rowFinder';

const NONE: IdentitySequence = { length: 0, forEach: () => undefined };

/** A character that is not base64url. */
const NOT_BASE64URL = /[^A-Za-z0-9_-]/;

export class RememberedRows implements MetRemembered {
	private index: IdentityIndex | undefined;
	private decoded: IdentityList | undefined;

	private constructor(
		decoded: IdentityList | undefined,
		private stored?: string,
	) {
		this.decoded = decoded;
	}

	/** From the stored form (decoded when first needed); none when nothing is stored. */
	static stored(stored: string | undefined): RememberedRows {
		return new RememberedRows(stored === undefined || stored === '' ? new IdentityList() : undefined, stored);
	}

	/** The identities of `sequence`, in its order. */
	static of(sequence: IdentitySequence): RememberedRows {
		return joined([sequence], Infinity);
	}

	/** Over identities' bytes back to back (not a copy). */
	static over(bytes: Uint8Array): RememberedRows {
		return new RememberedRows(IdentityList.over(bytes));
	}

	/** Whether a stored value is of this form. */
	static isStored(value: unknown): value is string {
		return typeof value === 'string' && value.length % IDENTITY_LENGTH === 0 && !NOT_BASE64URL.test(value);
	}

	/** The stored form. */
	encode(): string {
		if (this.stored === undefined) {
			const bytes = this.list.bytes();
			this.stored = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('base64url');
		}
		return this.stored;
	}

	get size(): number {
		return this.decoded?.length ?? (this.stored ?? '').length / IDENTITY_LENGTH;
	}

	/** The identities, decoded from the stored form on first use. */
	private get list(): IdentityList {
		this.decoded ??= IdentityList.over(Buffer.from(this.stored ?? '', 'base64url'));
		return this.decoded;
	}

	has(source: Uint8Array, at: number): boolean {
		return this.indexed().find(source, at) >= 0;
	}

	beginRead(): void {
		this.indexed().clearMarks();
	}

	slotOf(source: Uint8Array, at: number): number {
		return this.indexed().find(source, at);
	}

	meet(slot: number): boolean {
		return this.indexed().mark(slot);
	}

	/** Whether the identity with this text is remembered. */
	hasText(identity: string): boolean {
		if (identity.length !== IDENTITY_LENGTH) return false;
		const bytes = new Uint8Array(IDENTITY_BYTES);
		writeIdentityBytes(identity, bytes, 0);
		return this.has(bytes, 0);
	}

	/** The identities of the report's rows at the last read: the last `count` remembered. */
	reportPart(count: number): Remembered {
		const index = this.indexed();
		const from = this.list.length - count;
		// The index holds the last row of each identity: one in the part has its last row there.
		return {
			has: (source, at) => {
				const slot = index.find(source, at);
				return slot >= 0 && index.row(slot) >= from;
			},
		};
	}

	/**
	 * After a full read that met `current` (every row's identity, in report order): those remembered
	 * but no longer in the report (oldest first), then the report's rows; cut from the front to `max`.
	 * Unchanged, it is this memory itself (and its stored form the string it was read from).
	 */
	afterRead(current: IdentitySequence, max: number): RememberedRows {
		// The identities the read met, marked in the index (where the read did not mark them itself).
		const index = this.indexed();
		if (current.metIn !== this) {
			index.clearMarks();
			current.forEach((source, at) => {
				const slot = index.find(source, at);
				if (slot >= 0) index.mark(slot);
			});
		}
		const gone = index.marked === index.size ? NONE : this.select(0, this.size, (source, at) => !index.isMarked(index.find(source, at)));
		if (gone.length === 0 && current.length === this.size && this.size <= max && this.sameOrder(current)) return this;
		return joined([gone, current], max);
	}

	/**
	 * After an ordered poll found the rows `added` (their identities) past its boundary, at the end or
	 * the top of the report's `reportRows` rows: the report's part grows there; cut to `max`.
	 */
	afterAdded(reportRows: number, added: IdentitySequence, at: 'end' | 'top', max: number): RememberedRows {
		if (added.length === 0) return this;
		const back = RememberedRows.of(added);
		const split = Math.max(0, this.size - reportRows);
		const gone = this.select(0, split, (source, from) => !back.has(source, from));
		const report = this.list.part(split, this.size);
		return joined(at === 'end' ? [gone, report, added] : [gone, added, report], max);
	}

	private indexed(): IdentityIndex {
		this.index ??= IdentityIndex.of(this.list);
		return this.index;
	}

	/** The rows from `from` to `to` whose identity `keep` keeps, in order. */
	private select(from: number, to: number, keep: (source: Uint8Array, at: number) => boolean): IdentitySequence {
		const { list } = this;
		const kept = new Uint8Array(Math.max(0, to - from));
		let length = 0;
		for (let row = from; row < to; row++) {
			if (keep(list.bytesOf(row), list.offsetOf(row))) {
				kept[row - from] = 1;
				length++;
			}
		}
		return {
			length,
			forEach: (visit) => {
				for (let row = from; row < to; row++) if (kept[row - from] === 1) visit(list.bytesOf(row), list.offsetOf(row));
			},
		};
	}

	/** Whether `current` holds exactly the remembered identities, in their order. */
	private sameOrder(current: IdentitySequence): boolean {
		let row = 0;
		let same = true;
		current.forEach((source, at) => {
			if (same && !this.list.equals(row, source, at)) same = false;
			row++;
		});
		return same;
	}
}

/** The sequences one after the other, cut from the front to `max`. */
function joined(parts: IdentitySequence[], max: number): RememberedRows {
	const total = parts.reduce((sum, part) => sum + part.length, 0);
	let skip = Math.max(0, total - max);
	const bytes = new Uint8Array((total - skip) * IDENTITY_BYTES);
	let to = 0;
	for (const part of parts) {
		part.forEach((source, at) => {
			if (skip > 0) {
				skip--;
				return;
			}
			copyIdentity(source, at, bytes, to);
			to += IDENTITY_BYTES;
		});
	}
	return RememberedRows.over(bytes);
}

function copyIdentity(source: Uint8Array, at: number, target: Uint8Array, to: number): void {
	for (let i = 0; i < IDENTITY_BYTES; i++) target[to + i] = source[at + i];
}
