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
 * Finds, row by row in report order, the rows whose identity is not remembered.
 *
 * By key columns, a key identifies one row: a key met again in the same read is the same row (it can
 * show up twice when rows are added while pages are read) and is skipped. By whole row, identical
 * rows are distinct entries (two equal bank fees on one day): the k-th copy gets its own identity, so
 * a newly added copy of an existing row is still new.
 */
export class NewRowFinder {
	/** Identities of the rows read, in report order. */
	readonly identities: string[] = [];

	private readonly occurrences = new Map<string, number>();

	constructor(
		private readonly columnIds: readonly string[],
		private readonly byKey: boolean,
		private readonly known: ReadonlySet<string>,
	) {}

	/** Whether the row is new; a key repeated within the read is never new. */
	visit(row: ReportRow): boolean {
		// A report without column definitions: the row as the service sent it.
		const text = this.columnIds.length > 0 ? rowIdentityText(row, this.columnIds) : JSON.stringify(row);
		const base = identityOf(text);
		const seen = this.occurrences.get(base);
		let identity = base;
		if (seen !== undefined) {
			if (this.byKey) return false;
			this.occurrences.set(base, seen + 1);
			identity = identityOf(`${base}#${seen + 1}`);
		} else {
			this.occurrences.set(base, 1);
		}
		this.identities.push(identity);
		return !this.known.has(identity);
	}
}
