/**
 * What the Records Report Trigger remembers between polls, in the workflow's static data (the
 * durable poll cursor where n8n has them). Pure module: no n8n imports.
 *
 * Two kinds of memory, chosen by New Rows Appear and Full Check Every:
 * - per row (`rows`): one 12-character identity per row, the rows gone from the report first, then
 *   the report's rows in report order. Every row is compared with it (Anywhere; the ordered modes
 *   with a full check, whose failed checks fall back to a full read). 1,000,000 rows take 12 MB.
 * - bounded (`window`, `far`, `count`): the ordered modes remember the row count, the 64 rows at
 *   the end where new rows appear and the row at the other end, whatever the report's size (under
 *   1.5 KB of static data).
 * Both also count polls (for the full check), count saves (`generation`) and name the process that
 * saved last (`writer`, see pollGuard.ts). A full read that a poll's time budget cut short leaves
 * `pending`, from which the next poll goes on.
 */
import type { ReportRow } from '../shared/report/rows';
import { IDENTITY_LENGTH } from '../shared/report/rows';

export const STATE_KEY = 'reportRows';
export const MEMORY_VERSION = 1;
/** Rows of the bounded memory's window. */
export const WINDOW_ROWS = 64;

export type NewRowPosition = 'anywhere' | 'end' | 'top';
export type IdentityKind = 'hash' | 'columns';

/** A full read begun by an earlier poll, to go on from. */
export interface PendingRead {
	/** The next row to read. */
	offset: number;
	/** Base identities of the rows read so far, concatenated. */
	bases: string;
	/** The last rows read, as JSON (see TrailingRun): the rows before `offset` must still be these. */
	lastRows: string[];
	/** The new rows found so far, emitted when the read completes. */
	newRows: ReportRow[];
	/** How many times the read started again because the report changed between polls. */
	restarts: number;
	/** Rows read on either side of `offset` to find it again: a quarter of what the last poll read. */
	slack?: number;
}

export interface Memory {
	version: typeof MEMORY_VERSION;
	/** The report and the identity chosen: memory of another is not used. */
	report: string;
	identity: IdentityKind;
	/** The column ids identities are made of: every column (Whole Row) or the key columns. */
	columns: string[];
	/** The position the window belongs to. */
	position: NewRowPosition;
	generation: number;
	writer?: string;
	/** Rows in the report at the last complete read; -1 before one completed. */
	count: number;
	/** Ordered modes: base identities of the rows at the end where new rows appear, report order. */
	window?: string;
	/** Ordered modes: base identity of the row at the other end (top: the last row; end: row 1). */
	far?: string;
	/** Per-row memory: identities (copies numbered), the gone rows first, then the report's rows. */
	rows?: string;
	/** Polls since the last full read (for the full check of the ordered modes). */
	polls: number;
	pending?: PendingRead;
	/** Full reads split over polls that began afresh since one last completed (the report changed). */
	restarts?: number;
}

/**
 * Whether the trigger remembers every row of the report: in Anywhere, and in an ordered mode with a
 * full check (which compares every row); otherwise an ordered mode remembers only its window.
 */
export function remembersEveryRow(settings: { position: NewRowPosition; fullCheckEvery: number }): boolean {
	return settings.position === 'anywhere' || settings.fullCheckEvery > 0;
}

export function splitIdentities(identities: string | undefined): string[] {
	if (identities === undefined) return [];
	const list = new Array<string>(identities.length / IDENTITY_LENGTH);
	for (let i = 0; i < list.length; i++) list[i] = identities.slice(i * IDENTITY_LENGTH, (i + 1) * IDENTITY_LENGTH);
	return list;
}

const isIdentities = (value: unknown): value is string =>
	typeof value === 'string' && value.length % IDENTITY_LENGTH === 0;

/** Reads the stored memory; undefined when there is none or it is not this format. */
export function readMemory(stored: unknown): Memory | undefined {
	if (stored === null || typeof stored !== 'object') return undefined;
	const memory = stored as Partial<Memory>;
	const valid =
		memory.version === MEMORY_VERSION &&
		typeof memory.report === 'string' &&
		Array.isArray(memory.columns) &&
		typeof memory.count === 'number' &&
		(memory.rows === undefined || isIdentities(memory.rows)) &&
		(memory.window === undefined || isIdentities(memory.window));
	return valid ? (memory as Memory) : undefined;
}

/**
 * The identities to remember after a full read: those remembered but no longer in the report
 * (oldest first), then the report's rows in report order, cut from the front to `max`.
 */
export function rememberAfterRead(previous: readonly string[], current: readonly string[], max: number): string[] {
	const inReport = new Set(current);
	const gone = previous.filter((identity) => !inReport.has(identity));
	const all = gone.length === 0 ? [...current] : gone.concat(current);
	return all.length > max ? all.slice(all.length - max) : all;
}

/**
 * The identities to remember after an ordered poll found `added` rows past its boundary, for the
 * per-row memory: the report's part grows at its end or its front; the front is cut to `max`.
 */
export function rememberAdded(
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
