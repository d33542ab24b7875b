/**
 * The words the Records Report Trigger's change detector (changeDetector.ts) and its read steps share:
 * its settings, the ranges it asks to read, what a step finds, and the errors. Pure module.
 *
 * A step reads one range of the report (`range`), takes its rows page by page (`take`, which may say
 * 'stop' once it has seen enough) and, once the range was read, says what comes next (`end`): another
 * step, or what it found.
 */
import type { ReportColumn, ReportRow } from '../shared/report/rows';
import { identityOf, rowIdentityText } from '../shared/report/rows';
import type { IdentityKind, Lineage, Memory, NewRowPosition } from './memory';
import type { RememberedRows } from './rememberedRows';
import type { NewRowFinder } from './rowFinder';

export interface DetectorSettings {
	report: string;
	identity: IdentityKind;
	position: NewRowPosition;
	firstRun: 'remember' | 'emit';
	maxRemembered: number;
	/** Ordered modes read in full every this many polls to check their assumption; 0: never. */
	fullCheckEvery: number;
	/** The key columns' ids among the report's columns (identity 'columns'); may throw a clear error. */
	keyColumns: (columns: readonly ReportColumn[]) => string[];
	/** Key Columns as the parameter gives them (kept with the memory: while they stay, so do the key columns). */
	keyReferences?: string[];
	/** The line a memory begun by this poll belongs to (see memory.ts). */
	lineage: Lineage;
	/** Who saves the memory (see pollGuard.ts). */
	writer?: string;
	/** Rows of the window an ordered mode remembers; WINDOW_ROWS unless a test makes it small. */
	windowRows?: number;
	/**
	 * Whether a failed ordered check is final. A first failure of a poll may come from the report
	 * changing between the ranges it read: the driver reads again (ChangedDuringRead) before it
	 * takes a failed check as a change the mode does not allow.
	 */
	lastAttempt?: boolean;
}

/** A range of rows to read: from `start`, at most `maxRows` (undefined: to the end). */
export interface ReadRange {
	start: number;
	maxRows?: number;
}

export interface Decision {
	/** The new rows, in report order; empty when none (or on a first run that only remembers). */
	emit: ReportRow[];
	memory: Memory;
	/** Whether this poll was a first run (no memory it could go on from). */
	firstRun: boolean;
	/** What the poll noticed, for n8n's log. */
	notes: string[];
	finders: NewRowFinder[];
}

/**
 * A report change the chosen mode cannot resolve; the poll fails with it, nothing is remembered.
 * `check`: the failed ordered check it comes from, if any (the reason its ChangedDuringRead gave).
 */
export class DetectorError extends Error {
	constructor(
		message: string,
		readonly description: string,
		readonly check?: string,
	) {
		super(message);
	}
}

/** An ordered check failed; the report may have changed between two ranges read: read again. */
export class ChangedDuringRead extends Error {}

/**
 * What a step found: a full read (every row's identity, and the new rows: those not remembered, or
 * past a bounded memory's boundary; `unsure` when that boundary was not where it must be), the rows
 * past an ordered mode's boundary, what a first run found at the report's edges, a part of an
 * Anywhere first run read over several polls (firstRunParts.ts), a failed check, or that only a full
 * read can tell.
 */
export type Finding =
	| { kind: 'full'; finder: NewRowFinder; newRows: ReportRow[]; unsure?: string }
	| { kind: 'past'; added: ReportRow[]; backlog?: Backlog }
	| { kind: 'edges'; count: number; window: string[]; far: string | undefined; backlog?: Backlog }
	| FirstRunPart
	| { kind: 'failed'; reason: string }
	| { kind: 'readInFull'; reason: string };

/**
 * At the Top, the part of a first run's backlog a poll read (Emit All Current Rows on a report too
 * large to read in one poll, see backlog.ts): its rows, emitted after the rows added at the top; the
 * rows at the bottom of the report that are `left` to emit, and the base identity of the row right
 * above them (`after`: the last row emitted).
 */
export interface Backlog {
	rows: ReportRow[];
	left: number;
	after: string | undefined;
}

/**
 * Anywhere, a part of a first run (firstRunParts.ts): the rows it read and found new (to emit under
 * Emit All Current Rows), every row read so far (`rows`, `count` of them) and, where the report was
 * not read to its end, where the next poll reads on.
 */
export interface FirstRunPart {
	kind: 'firstRunPart';
	finder: NewRowFinder;
	newRows: ReportRow[];
	rows: RememberedRows;
	count: number;
	goesOn?: { at: number; after: string };
}

export interface Step {
	readonly range: ReadRange;
	/**
	 * Rows of the range in report order, in pieces of any size (pages, or parts of one), identified by
	 * the columns `ids`; 'stop' once enough.
	 */
	take(rows: readonly ReportRow[], ids: readonly string[]): 'stop' | undefined;
	/** The range was read (to its end, or until `take` said stop). */
	end(): Step | Finding;
}

export const isStep = (next: Step | Finding): next is Step => 'take' in next;

/** The base identity of a row (copies not numbered): what ordered modes compare. */
export const baseOf = (row: ReportRow, ids: readonly string[]): string => identityOf(rowIdentityText(row, ids));
