/**
 * What the Records Report Trigger remembers between polls, in the workflow's static data (the
 * durable poll cursor where n8n has them). Pure module: no n8n imports.
 *
 * Two kinds of memory, chosen by New Rows Appear and Full Check Every:
 * - per row (`rows`, see rememberedRows.ts): one identity per row. Every row is compared with it
 *   (Anywhere; the ordered modes with a full check, whose failed checks fall back to a full read).
 * - bounded (`window`, `far`, `count`): the ordered modes remember the row count, the 64 rows at
 *   the end where new rows appear and the row at the other end, whatever the report's size (under
 *   1.5 KB of static data).
 * A memory belongs to a line (`lineage`, begun at `since` by the first run that started it: a new
 * trigger, or one that started over after another report or identity was chosen); saves within a
 * line count up `generation`, and name the process that saved (`writer`). The guard (pollGuard.ts)
 * tells an older memory from a newer one by them.
 *
 * A later release reads an older memory: a field added later is optional, so a memory saved before it
 * existed reads as before (it lacks the field), and the format's number (`version`) stays. Only a
 * change an older memory cannot be read as raises the number; that release converts every earlier
 * number rather than discard it, since a memory the trigger cannot read makes it start over.
 */
import { IDENTITY_LENGTH } from '../shared/report/rows';
import { isIdentities } from './identityText';
import { RememberedRows } from './rememberedRows';

export const STATE_KEY = 'reportRows';
export const MEMORY_VERSION = 1;
/** Rows of the bounded memory's window. */
export const WINDOW_ROWS = 64;

export type NewRowPosition = 'anywhere' | 'end' | 'top';
export type IdentityKind = 'hash' | 'columns';

export interface Memory {
	version: typeof MEMORY_VERSION;
	/** The report and the identity chosen: memory of another is not used. */
	report: string;
	identity: IdentityKind;
	/** The column ids identities are made of: every column (Whole Row) or the key columns. */
	columns: string[];
	/** The position the window belongs to. */
	position: NewRowPosition;
	/** The line this memory belongs to, and when its first run began (ms since the epoch). */
	lineage: string;
	since: number;
	/** Saves within the line: 1 for its first run. */
	generation: number;
	writer?: string;
	/** Rows in the report at the last read. */
	count: number;
	/** Ordered modes: base identities of the rows at the end where new rows appear, report order. */
	window?: string;
	/** Ordered modes: base identity of the row at the other end (top: the last row; end: row 1). */
	far?: string;
	/** Per-row memory (rememberedRows.ts). */
	rows?: string;
	/** Polls since the last full read, or the last one skipped (for the full check of the ordered modes). */
	polls: number;
	/**
	 * An ordered mode with a full check whose memory is bounded still: its full read did not fit n8n's
	 * time for a poll, and is tried again once the full check is due (every Full Check Every polls).
	 */
	skipped?: boolean;
	/**
	 * The names of `columns`, in their order: a service that numbers its columns by position moves
	 * their ids when a column is added, and the names tell where the remembered ones went
	 * (followColumns.ts). Memories saved before names were kept have none; the next save adds them.
	 */
	names?: string[];
	/**
	 * At the Top, a first run under Emit All Current Rows on a report too large to read in one poll:
	 * the rows at the bottom of the report (the last `backlog` of `count`) not emitted yet, and the
	 * base identity of the row right above them, the last one emitted (backlog.ts). Each poll emits
	 * more of them, in report order, after the rows added at the top.
	 */
	backlog?: number;
	backlogAfter?: string;
	/** Key Columns as the parameter gave them when the memory was saved (Row Identity "Key Columns"). */
	keys?: string[];
	/**
	 * Anywhere, a first run too large for one poll and not complete yet (firstRunParts.ts): the next
	 * poll reads on from row `readOnAt` (0-based), after the rows whose base identities `readOnAfter`
	 * holds (the last rows read, at most a window's; none once rows moved above them). `rows` holds
	 * every row read so far.
	 */
	readOnAt?: number;
	readOnAfter?: string;
}

/** A new line of memory, for a poll that starts over: its id and when it began. */
export interface Lineage {
	id: string;
	since: number;
}

/**
 * Whether the trigger remembers every row of the report: in Anywhere, and in an ordered mode with a
 * full check (which compares every row); otherwise an ordered mode remembers only its window.
 */
export function remembersEveryRow(settings: { position: NewRowPosition; fullCheckEvery: number }): boolean {
	return settings.position === 'anywhere' || settings.fullCheckEvery > 0;
}

/** Reads the stored memory; undefined when there is none or it is not this format. */
export function readMemory(stored: unknown): Memory | undefined {
	if (stored === null || typeof stored !== 'object') return undefined;
	const memory = stored as Partial<Memory>;
	const valid =
		memory.version === MEMORY_VERSION &&
		typeof memory.report === 'string' &&
		typeof memory.lineage === 'string' &&
		typeof memory.since === 'number' &&
		typeof memory.generation === 'number' &&
		Array.isArray(memory.columns) &&
		typeof memory.count === 'number' &&
		(memory.rows === undefined || RememberedRows.isStored(memory.rows)) &&
		(memory.window === undefined || isIdentities(memory.window)) &&
		(memory.names === undefined || isTexts(memory.names, memory.columns.length)) &&
		(memory.keys === undefined || isTexts(memory.keys)) &&
		(memory.backlog === undefined || (Number.isInteger(memory.backlog) && memory.backlog > 0 && isIdentity(memory.backlogAfter))) &&
		(memory.readOnAt === undefined || (Number.isInteger(memory.readOnAt) && memory.readOnAt > 0 && memory.rows !== undefined && isIdentities(memory.readOnAfter)));
	return valid ? (memory as Memory) : undefined;
}

/** Whether a stored value is one row identity. */
const isIdentity = (value: unknown): value is string => isIdentities(value) && value.length === IDENTITY_LENGTH;

/** Whether a stored value is a list of texts (of `length` texts, where given). */
function isTexts(value: unknown, length?: number): value is string[] {
	return Array.isArray(value) && value.every((entry) => typeof entry === 'string') && (length === undefined || value.length === length);
}
