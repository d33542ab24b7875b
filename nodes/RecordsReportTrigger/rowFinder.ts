/**
 * Finds, row by row in report order, the rows whose identity the trigger has not remembered: the
 * comparison behind every full read of the Records Report Trigger. Pure module: no n8n imports.
 */
import type { ReportRow } from '../shared/report/rows';
import { identityOf, rowIdentityText } from '../shared/report/rows';

/** A key met on more than one row in one read, for the warning that names it. */
export interface RepeatedKey {
	/** The key's cells, as the report shows them. */
	key: string;
	/** Whether a later row with the key was emitted too (the key was new) or not (it was remembered). */
	emitted: boolean;
}

/** Identities remembered: a set, or the per-row memory (rememberedRows.ts). */
export interface Remembered {
	has(identity: string): boolean;
}

/** Repeated keys listed by name at most; the warning counts the rest. */
const MAX_LISTED_KEYS = 20;

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
	/** Identities of the rows read, one per row, in report order. */
	readonly identities: string[] = [];
	/** Keys met on more than one row (by key columns only), the first MAX_LISTED_KEYS of them. */
	readonly repeatedKeys: RepeatedKey[] = [];
	/** All keys met on more than one row, listed or not. */
	repeatedKeyCount = 0;

	private readonly occurrences = new Map<string, number>();
	/**
	 * By key columns: the row emitted for each new key in this read; once a key repeats, the JSON of
	 * every row emitted with it, so that each later row costs one lookup.
	 */
	private readonly emittedByKey = new Map<string, ReportRow | Set<string>>();

	constructor(
		private readonly columnIds: readonly string[],
		private readonly byKey: boolean,
		private readonly known: Remembered,
		private readonly earlier?: Remembered,
	) {}

	/** The identity of the last row visited. */
	get lastIdentity(): string | undefined {
		return this.identities[this.identities.length - 1];
	}

	/** Whether the row is new. */
	visit(row: ReportRow): boolean {
		// A report without column definitions: the row as the service sent it.
		const text = this.columnIds.length > 0 ? rowIdentityText(row, this.columnIds) : JSON.stringify(row);
		const base = identityOf(text);
		this.baseList.push(base);
		const copy = (this.occurrences.get(base) ?? this.copiesEarlier(base)) + 1;
		this.occurrences.set(base, copy);
		const identity = this.byKey || copy === 1 ? base : identityOf(`${base}#${copy}`);
		this.identities.push(identity);
		if (this.byKey) return this.visitKey(row, base, text, copy);
		return !this.known.has(identity);
	}

	private visitKey(row: ReportRow, key: string, text: string, copy: number): boolean {
		const isNew = !this.known.has(key);
		if (copy === 1) {
			if (isNew) this.emittedByKey.set(key, row);
			return isNew;
		}
		const first = this.emittedByKey.get(key);
		if (first === undefined || !isNew) {
			this.noteRepeated(text, copy, false);
			return false;
		}
		let emitted = first;
		if (!(emitted instanceof Set)) {
			emitted = new Set([JSON.stringify(first)]);
			this.emittedByKey.set(key, emitted);
		}
		const json = JSON.stringify(row);
		if (emitted.has(json)) return false;
		emitted.add(json);
		this.noteRepeated(text, copy, true);
		return true;
	}

	private noteRepeated(text: string, copy: number, emitted: boolean): void {
		const cells = JSON.parse(text) as unknown;
		const key = Array.isArray(cells) ? cells.map((cell) => (cell === null ? '' : String(cell))).join(', ') : text;
		if (copy === 2) {
			this.repeatedKeyCount++;
			if (this.repeatedKeys.length < MAX_LISTED_KEYS) this.repeatedKeys.push({ key, emitted });
			return;
		}
		const listed = emitted ? this.repeatedKeys.find((entry) => entry.key === key) : undefined;
		if (listed !== undefined) listed.emitted = true;
	}

	/** The base identity of each row visited (before copies are numbered): what an ordered mode remembers. */
	get bases(): string[] {
		return this.baseList;
	}

	private readonly baseList: string[] = [];

	/** How many rows before the read had this base identity (0 without `earlier`). */
	private copiesEarlier(base: string): number {
		if (this.earlier === undefined || !this.earlier.has(base)) return 0;
		if (this.byKey) return 1;
		let copies = 1;
		while (this.earlier.has(identityOf(`${base}#${copies + 1}`))) copies++;
		return copies;
	}
}
