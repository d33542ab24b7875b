/**
 * Finds, row by row in report order, the rows whose identity the trigger has not remembered: the
 * comparison behind every full read of the Records Report Trigger. It keeps what the read needs of
 * every row in compact form (identities.ts): 9 bytes of its base identity, and an index slot per
 * different row. Pure module: no n8n imports.
 */
import type { ReportRow } from '../shared/report/rows';
import { IDENTITY_BYTES, rowIdentityText, writeIdentity } from '../shared/report/rows';
import { IdentityIndex, IdentityList, type IdentitySequence } from './identities';
import { identityText } from './identityText';

/** A key met on more than one row in one read, for the warning that names it. */
export interface RepeatedKey {
	/** The key's cells, as the report shows them. */
	key: string;
	/** Whether a later row with the key was emitted too (the key was new) or not (it was remembered). */
	emitted: boolean;
}

/** Identities remembered: the per-row memory (rememberedRows.ts), or a part of it. */
export interface Remembered {
	/** Whether the identity at `source[at…at+9)` is remembered. */
	has(source: Uint8Array, at: number): boolean;
}

/**
 * The per-row memory as a full read meets it: a remembered identity has a slot, marked once the read
 * met it, so that one lookup tells both whether a row's base is remembered and whether the read met
 * it before (the rows of a report are mostly remembered already).
 */
export interface MetRemembered extends Remembered {
	/** A read begins: it has met none of them. */
	beginRead(): void;
	/** The slot of a remembered identity; -1 when it is not remembered. */
	slotOf(source: Uint8Array, at: number): number;
	/** Notes that the read met the identity of a slot; whether it had met it before. */
	meet(slot: number): boolean;
}

const canMeet = (known: Remembered): known is MetRemembered => 'meet' in known;

/** Repeated keys listed by name at most; the warning counts the rest. */
const MAX_LISTED_KEYS = 20;

/** Where a row's base identity, its own identity and a copy's identity being tried sit in the scratch bytes. */
const BASE = 0;
const OWN = IDENTITY_BYTES;
const TRIED = 2 * IDENTITY_BYTES;

/**
 * Finds, row by row in report order, the rows whose identity is not remembered.
 *
 * By whole row, identical rows are distinct entries (two equal bank fees on one day): the k-th copy
 * gets its own identity, so a newly added copy of an existing row is still new.
 *
 * By key columns, exactly once means once per key: a key emitted once is never emitted again. When
 * one read meets several rows with one key, none is dropped silently: rows with a remembered key are
 * not emitted (as an edited row would not be), rows with a new key are each emitted once, except a
 * row identical to one already emitted in this read (the same row met twice because rows were added
 * above it while the pages were read). Every such key is listed in `repeatedKeys` for a warning.
 *
 * `earlier` holds the identities of the report's rows before the first row visited, for a read that
 * starts past them (an ordered poll): copies and keys are counted as if those rows had been read.
 */
export class NewRowFinder {
	/** The base identity of each row visited (before copies are numbered), in report order: what an ordered mode remembers. */
	readonly bases = new IdentityList();
	/** Keys met on more than one row (by key columns only), the first MAX_LISTED_KEYS of them. */
	readonly repeatedKeys: RepeatedKey[] = [];
	/** All keys met on more than one row, listed or not. */
	repeatedKeyCount = 0;

	/** Where `known` can tell which of its identities this read met, that. */
	private readonly meeting: MetRemembered | undefined;
	/** The row each base was first met on in this read (those not remembered, where `meeting` tells of the others). */
	private readonly firstMet: IdentityIndex;
	/** Copies met so far of a base met more than once (or counted from `earlier`), by its key (see `visit`). */
	private readonly copies = new Map<number, number>();
	/** Rows whose identity is not their base (numbered copies, by whole row), in order, and their identities. */
	private readonly numberedRows: number[] = [];
	private readonly numbered = new IdentityList();
	/**
	 * By key columns: the row emitted for each new key in this read, by its key (see `visit`); once a
	 * key repeats, the JSON of every row emitted with it, so that each later row costs one lookup.
	 */
	private readonly emittedByKey = new Map<number, ReportRow | Set<string>>();
	private readonly scratch = new Uint8Array(3 * IDENTITY_BYTES);

	/** `expectedRows`: about how many rows the read has (the rows remembered), to size the index once. */
	constructor(
		private readonly columnIds: readonly string[],
		private readonly byKey: boolean,
		private readonly known: Remembered,
		private readonly earlier?: Remembered,
		expectedRows = 0,
	) {
		this.meeting = canMeet(known) ? known : undefined;
		this.meeting?.beginRead();
		this.firstMet = new IdentityIndex(this.bases, this.meeting === undefined ? expectedRows : 0);
	}

	/** Whether the row is new. */
	visit(row: ReportRow): boolean {
		// A report without column definitions: the row as the service sent it.
		const text = this.columnIds.length > 0 ? rowIdentityText(row, this.columnIds) : JSON.stringify(row);
		const { scratch, bases } = this;
		writeIdentity(text, scratch, BASE);
		// The base's key: its slot in the memory where it is remembered, else -(1 + the row it was first met on).
		const remembered = this.meeting === undefined ? -1 : this.meeting.slotOf(scratch, BASE);
		let key: number;
		let metBefore: boolean;
		if (remembered >= 0) {
			key = remembered;
			metBefore = this.meeting!.meet(remembered);
		} else {
			const slot = this.firstMet.find(scratch, BASE);
			metBefore = slot >= 0;
			key = -1 - (metBefore ? this.firstMet.row(slot) : bases.length);
		}
		const copy = metBefore ? (this.copies.get(key) ?? 1) + 1 : this.copiesEarlier() + 1;
		if (copy > 1) this.copies.set(key, copy);
		bases.push(scratch, BASE);
		if (!metBefore && remembered < 0) this.firstMet.add(bases.length - 1);
		const known = this.meeting === undefined ? undefined : remembered >= 0;
		if (this.byKey) return this.visitKey(row, key, copy, known);
		if (copy === 1) return !(known ?? this.known.has(scratch, BASE));
		this.numberedRows.push(bases.length - 1);
		writeIdentity(`${identityText(scratch, BASE)}#${copy}`, scratch, OWN);
		this.numbered.push(scratch, OWN);
		return !this.knows(scratch, OWN);
	}

	/** Whether an identity is remembered (and met by this read, where the memory keeps that). */
	private knows(source: Uint8Array, at: number): boolean {
		if (this.meeting === undefined) return this.known.has(source, at);
		const slot = this.meeting.slotOf(source, at);
		if (slot >= 0) this.meeting.meet(slot);
		return slot >= 0;
	}

	/** The identity of each row visited (copies numbered), in report order: what the per-row memory remembers. */
	get identities(): IdentitySequence {
		const { bases, numbered, numberedRows } = this;
		return {
			length: bases.length,
			metIn: this.meeting,
			forEach(visit) {
				let next = 0;
				for (let row = 0; row < bases.length; row++) {
					if (next < numberedRows.length && numberedRows[next] === row) {
						visit(numbered.bytesOf(next), numbered.offsetOf(next));
						next++;
					} else {
						visit(bases.bytesOf(row), bases.offsetOf(row));
					}
				}
			},
		};
	}

	/** `known`: whether the key is remembered, where the lookup was made already. */
	private visitKey(row: ReportRow, key: number, copy: number, known: boolean | undefined): boolean {
		const isNew = !(known ?? this.known.has(this.scratch, BASE));
		if (copy === 1) {
			if (isNew) this.emittedByKey.set(key, row);
			return isNew;
		}
		const emittedFirst = this.emittedByKey.get(key);
		if (emittedFirst === undefined || !isNew) {
			this.noteRepeated(row, copy, false);
			return false;
		}
		let emitted = emittedFirst;
		if (!(emitted instanceof Set)) {
			emitted = new Set([JSON.stringify(emittedFirst)]);
			this.emittedByKey.set(key, emitted);
		}
		const json = JSON.stringify(row);
		if (emitted.has(json)) return false;
		emitted.add(json);
		this.noteRepeated(row, copy, true);
		return true;
	}

	private noteRepeated(row: ReportRow, copy: number, emitted: boolean): void {
		const key =
			this.columnIds.length > 0
				? this.columnIds.map((id) => String(row[id] ?? '')).join(', ')
				: JSON.stringify(row);
		if (copy === 2) {
			this.repeatedKeyCount++;
			if (this.repeatedKeys.length < MAX_LISTED_KEYS) this.repeatedKeys.push({ key, emitted });
			return;
		}
		const listed = emitted ? this.repeatedKeys.find((entry) => entry.key === key) : undefined;
		if (listed !== undefined) listed.emitted = true;
	}

	/** How many rows before the read had the base in the scratch bytes (0 without `earlier`). */
	private copiesEarlier(): number {
		const { earlier, scratch } = this;
		if (earlier === undefined || !earlier.has(scratch, BASE)) return 0;
		if (this.byKey) return 1;
		const base = identityText(scratch, BASE);
		let copies = 1;
		for (;;) {
			writeIdentity(`${base}#${copies + 1}`, scratch, TRIED);
			if (!earlier.has(scratch, TRIED)) return copies;
			copies++;
		}
	}
}
