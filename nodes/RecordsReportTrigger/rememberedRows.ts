/**
 * Which report rows the trigger has already seen, kept in the workflow's static data (which n8n
 * persists with the workflow, so it survives restarts and is shared by queue-mode workers).
 *
 * Stored form: one string of fixed-width identities (12 characters each, see identityOf), oldest
 * first. 100,000 remembered rows take 1.2 MB. After each read the order becomes: identities that
 * are no longer in the report (oldest first), then the rows of the report in report order; when that
 * is longer than the bound, the front is cut. So the rows evicted first are those gone from the
 * report the longest, and a row still in the report is never forgotten — a report with more rows than
 * the bound is refused instead, since its forgotten rows would be emitted again on every poll.
 * `reportRows` says how many identities at the end are the report's rows, one per row in report
 * order: what the ordered poll modes (orderedRead.ts) check the report against.
 */
import type { IDataObject } from 'n8n-workflow';

import type { ReportRow } from '../shared/report/rows';
import { IDENTITY_LENGTH, identityOf, rowIdentityText } from '../shared/report/rows';

export const STATE_KEY = 'reportRows';
export const STATE_VERSION = 1;
export const DEFAULT_MAX_REMEMBERED = 100_000;

export interface RememberedRows {
	version: typeof STATE_VERSION;
	/** What the identities were computed from: report, identity kind and its columns. */
	config: string;
	/** Concatenated identities, oldest first. */
	identities: string;
	count: number;
	/**
	 * How many times the memory was saved (absent in memory saved before it was counted, read as 0):
	 * tells a poll that starts from an older copy than the last poll of this process left (see
	 * pollClaims.ts).
	 */
	generation?: number;
	/**
	 * How many of the last identities are the report's rows at the last poll, in report order.
	 * Missing in states saved before the ordered modes existed: their first ordered poll reads all.
	 */
	reportRows?: number;
}

/** The config string a state belongs to; a state of another config is not used. */
export function stateConfig(reportId: string, identity: 'hash' | 'columns', columnIds: string[]): string {
	return JSON.stringify([reportId, identity, columnIds]);
}

/** The remembered state for this config, or undefined when there is none yet (a first run). */
export function readRemembered(staticData: IDataObject, config: string): RememberedRows | undefined {
	const stored = staticData[STATE_KEY] as Partial<RememberedRows> | undefined;
	if (
		stored === undefined ||
		stored === null ||
		stored.version !== STATE_VERSION ||
		stored.config !== config ||
		typeof stored.identities !== 'string' ||
		stored.identities.length % IDENTITY_LENGTH !== 0
	) {
		return undefined;
	}
	return stored as RememberedRows;
}

/** The generation of the memory stored now, whatever its config; 0 when none was counted. */
export function storedGeneration(staticData: IDataObject): number {
	const stored = staticData[STATE_KEY] as Partial<RememberedRows> | undefined | null;
	return typeof stored?.generation === 'number' ? stored.generation : 0;
}

/** The identities stored now, whatever their config: tells whether another poll saved meanwhile. */
export function storedIdentities(staticData: IDataObject): string | undefined {
	const stored = staticData[STATE_KEY] as Partial<RememberedRows> | undefined | null;
	return typeof stored?.identities === 'string' ? stored.identities : undefined;
}

export function splitIdentities(identities: string): string[] {
	const list = new Array<string>(identities.length / IDENTITY_LENGTH);
	for (let i = 0; i < list.length; i++) {
		list[i] = identities.slice(i * IDENTITY_LENGTH, (i + 1) * IDENTITY_LENGTH);
	}
	return list;
}

/**
 * The identities to remember after a read: those of the previous state no longer in the report,
 * oldest first, then the report's rows in report order, cut from the front to `max`.
 */
export function nextRemembered(previous: readonly string[], current: readonly string[], max: number): string[] {
	const inReport = new Set(current);
	const gone = previous.filter((identity) => !inReport.has(identity));
	const all = gone.length === 0 ? [...current] : gone.concat(current);
	return all.length > max ? all.slice(all.length - max) : all;
}

/**
 * The identities to remember after an ordered poll found `added` rows past its boundary: the
 * previous list with the added rows at the end of the report's part (new rows appended) or at its
 * front (new rows at the top). A remembered row gone from the report that came back leaves the
 * gone part, as after a full read; the front is cut to `max`.
 */
export function withAddedRows(
	previous: readonly string[],
	reportRows: number,
	added: readonly string[],
	at: 'end' | 'top',
	max: number,
): string[] {
	const back = new Set(added);
	const gone = previous.slice(0, previous.length - reportRows).filter((identity) => !back.has(identity));
	const report = previous.slice(previous.length - reportRows);
	const all = at === 'end' ? gone.concat(report, added) : gone.concat(added, report);
	return all.length > max ? all.slice(all.length - max) : all;
}

/** A key met on more than one row in one read, for the warning that names it. */
export interface RepeatedKey {
	/** The key's cells, as the report shows them. */
	key: string;
	/** Whether a later row with the key was emitted too (the key was new) or not (it was remembered). */
	emitted: boolean;
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
		private readonly known: ReadonlySet<string>,
		private readonly earlier?: ReadonlySet<string>,
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

	/** How many rows before the read had this base identity (0 without `earlier`). */
	private copiesEarlier(base: string): number {
		if (this.earlier === undefined || !this.earlier.has(base)) return 0;
		if (this.byKey) return 1;
		let copies = 1;
		while (this.earlier.has(identityOf(`${base}#${copies + 1}`))) copies++;
		return copies;
	}
}
