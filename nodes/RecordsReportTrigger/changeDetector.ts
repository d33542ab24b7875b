/**
 * The Records Report Trigger's rules, in one place: from what is remembered and the rows read, which
 * rows are new, what to remember, and what cannot be decided. Pure module: no n8n imports, no I/O.
 *
 * It works as a conversation (the "sans-I/O" shape): `next()` names the range of report rows it
 * wants read, the driver (poll.ts) reads it through the paging engine and hands the rows to `take()`
 * page by page, then calls `endRange()`; when `next()` has nothing more to ask, `decide()` tells the
 * rows to emit and the memory to save. A poll whose time budget runs out calls `suspend()` instead,
 * and the next poll goes on from there. The contract each mode keeps is written in the README
 * ("Each row once") and proven by test/unit/nodes/RecordsReportTrigger/changeDetector.model.test.ts.
 *
 * - Anywhere (and any poll that has no usable boundary): a full read, every row compared with the
 *   per-row memory (rowFinder.ts). Reads are consistent: the paging engine's overlap check fails a
 *   read that a change shifted, and the driver reads again.
 * - Appended at the End: the rows from the start of the remembered window to the end. The window
 *   (the last 64 rows remembered) must stand exactly where it stood; the rows after it are new.
 * - At the Top: the rows from row 1 until the window is found; the rows above it are new. The row
 *   remembered last must then still be last, where the new rows moved it (this also tells a window
 *   found too early in a report of repeating rows).
 * A failed check is a change the ordered mode does not promise to handle. With per-row memory (a
 * full check chosen) the poll reads in full instead; with bounded memory (the default) it stops with
 * DetectorError naming what changed and what to choose, since it cannot tell new rows from old.
 */
import type { ReportColumn, ReportRow } from '../shared/report/rows';
import { describeColumns, IDENTITY_LENGTH, identityOf, rowIdentityText } from '../shared/report/rows';
import { TrailingRun } from '../shared/report/trailingRun';
import { type IdentityKind, type Memory, type NewRowPosition, remembersEveryRow, splitIdentities, WINDOW_ROWS } from './memory';
import { emptyMemory, identitiesOf, memoryAfterPoll } from './memoryAfterPoll';
import { NewRowFinder } from './rowFinder';

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
	/** Who saves the memory (see pollGuard.ts). */
	writer?: string;
	/** Rows of the window an ordered mode remembers; WINDOW_ROWS unless a test makes it small. */
	windowRows?: number;
	/** Rows read on either side of where a full read split over polls stopped; RESUME_SLACK by default. */
	resumeSlack?: number;
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
	firstRun: boolean;
	/** What the poll noticed, for n8n's log. */
	notes: string[];
	finders: NewRowFinder[];
}

/** A report change the chosen mode cannot resolve; the poll fails with it, nothing is remembered. */
export class DetectorError extends Error {
	constructor(
		message: string,
		readonly description: string,
	) {
		super(message);
	}
}

/** See `slack` in ChangeDetector. */
const RESUME_SLACK = 100;

type Phase = 'full' | 'end' | 'top' | 'far' | 'probe' | 'head' | 'last' | 'tail' | 'recheck' | 'done';

/** Beyond any real report: a service still sending rows there ignores `offset` (a full read says so). */
const PROBE_LIMIT = 2 ** 31;


export class ChangeDetector {
	private phase: Phase;
	private memory: Memory | undefined;
	private columns: string[] | undefined;
	private range: ReadRange;
	/** Rows read in the current range, base identities in report order (ordered checks). */
	private bases: string[] = [];
	private rows: ReportRow[] = [];
	private finder: NewRowFinder | undefined;
	private newRows: ReportRow[] = [];
	/** Top: where the window was found. */
	private windowAt = -1;
	private readonly notes: string[] = [];
	private reason: string | undefined;
	private ended = false;
	/** Whether this poll read the whole report (and not only past a boundary). */
	private readInFull = false;

	constructor(
		private readonly settings: DetectorSettings,
		stored: Memory | undefined,
	) {
		this.memory = this.usable(stored);
		this.phase = this.firstPhase();
		this.range = this.rangeOf(this.phase);
	}

	/** The range to read next; undefined once the poll can decide. */
	next(): ReadRange | undefined {
		return this.phase === 'done' || this.ended ? undefined : this.range;
	}

	/** Rows of the current range, in report order. Returns 'stop' when no more of it is needed. */
	take(columns: readonly ReportColumn[], rows: readonly ReportRow[]): 'stop' | undefined {
		const ids = this.identityColumns(columns);
		if (this.restarting) return 'stop';
		if (this.phase === 'full') return this.takeFull(ids, rows);
		for (const row of rows) {
			this.bases.push(identityOf(rowIdentityText(row, ids)));
			this.rows.push(row);
			if (this.phase === 'top' && this.topWindowFound()) return 'stop';
		}
		return (this.phase === 'far' && this.bases.length >= 2) || this.phase === 'probe' || (this.phase === 'last' && this.bases.length >= 2) ? 'stop' : undefined;
	}

	/** The current range was read (to its end, or until `take` said stop); `columns`: the report's. */
	endRange(columns: readonly ReportColumn[] = []): void {
		// A report without rows still tells its columns: what rows appearing later are identified by.
		if (this.columns === undefined && columns.length > 0) this.identityColumns(columns);
		if (this.restarting) this.restarting = false;
		else if (this.phase === 'full') {
			if (this.resumeCheck !== undefined) this.visitFull(this.resumed());
			this.phase = 'done';
			this.readInFull = true;
		}
		else if (this.phase === 'end') this.checkEnd();
		else if (this.phase === 'top') this.checkTop();
		else if (this.phase === 'far') this.checkFar();
		else if (this.phase === 'probe') this.checkProbe();
		else if (this.phase === 'head') this.checkHead();
		else if (this.phase === 'last') this.checkLast();
		else if (this.phase === 'tail') this.checkTail();
		else if (this.phase === 'recheck') this.checkRecheck();
	}

	/** The rows to emit and the memory to save, once `next()` returned undefined. */
	decide(): Decision {
		if (this.reason?.startsWith('the full check') === true) {
			this.notes.push(
				this.newRows.length === 0
					? 'full check: every row of the report was emitted before; the ordered polls missed nothing'
					: `full check: ${this.newRows.length} rows had not been emitted (rows added elsewhere than New Rows Appear says); they are emitted now`,
			);
		}
		const firstRun = this.memory === undefined;
		const emit = firstRun && this.settings.firstRun === 'remember' ? [] : this.newRows;
		const memory = memoryAfterPoll({
			settings: this.settings,
			previous: this.memory,
			columns: this.columns,
			read: this.readInFull
				? { identities: this.finder?.identities ?? [], bases: this.finder?.bases ?? [] }
				: (this.edges ?? { added: this.added }),
		});
		return { emit, memory, firstRun, notes: this.notes, finders: this.finder ? [this.finder] : [] };
	}

	/**
	 * The poll's time is up: the memory to save so that the next poll goes on with this full read.
	 * Undefined when the poll read no full read (ordered checks are short and start again).
	 */
	suspend(): Memory | undefined {
		if (this.phase !== 'full' || this.finder === undefined || this.resumeCheck !== undefined || this.trail.expected.length === 0) return undefined;
		const base = this.memory ?? emptyMemory(this.settings, this.columns);
		const pending = this.memory?.pending;
		return {
			...base,
			columns: this.columns ?? base.columns,
			generation: base.generation + 1,
			writer: this.settings.writer,
			pending: {
				offset: this.range.start + this.handed,
				bases: identitiesOf(this.finder.bases),
				lastRows: [...this.trail.expected],
				newRows: this.newRows,
				restarts: pending?.restarts ?? base.restarts ?? 0,
				// The next poll reads about as many rows as this one: a quarter of them is the slack.
				slack: Math.max(1, Math.min(this.settings.resumeSlack ?? RESUME_SLACK, Math.floor(this.handed / 4))),
			},
		};
	}

	/** Why the last poll read in full although an ordered mode was chosen; undefined when it did not. */
	get fullReadReason(): string | undefined {
		return this.reason;
	}

	// ---- Planning ------------------------------------------------------------------------------

	/** The stored memory if it belongs to this report and identity kind. */
	private usable(stored: Memory | undefined): Memory | undefined {
		const { report, identity } = this.settings;
		if (stored === undefined || stored.report !== report || stored.identity !== identity) return undefined;
		return stored;
	}

	private firstPhase(): Phase {
		const { memory, settings } = this;
		if (memory === undefined && this.remembersEdgesOnly) return 'head';
		if (memory === undefined || memory.pending !== undefined) return 'full';
		// A full read can compare with per-row memory, or with a report that was empty.
		const comparable = memory.rows !== undefined || memory.count === 0;
		if (settings.position === 'anywhere') {
			if (!comparable) this.forget('New Rows Appear was changed to "Anywhere"');
			return 'full';
		}
		if (memory.position !== settings.position || memory.window === undefined || memory.count <= 0) {
			if (!comparable) this.forget('New Rows Appear was changed');
			else if (memory.count > 0) this.reason = 'no boundary is remembered yet';
			return 'full';
		}
		if (settings.fullCheckEvery > 0 && memory.polls + 1 >= settings.fullCheckEvery && comparable) {
			this.reason = `the full check is due (every ${settings.fullCheckEvery} polls)`;
			return 'full';
		}
		return settings.position;
	}

	/** Takes the report as it is now, as on a first run (what was remembered cannot be compared). */
	private forget(why: string): void {
		this.notes.push(`${why}: what was remembered cannot be compared with the report, so this poll is a first run`);
		this.memory = undefined;
	}

	private rangeOf(phase: Phase): ReadRange {
		const memory = this.memory;
		if (phase === 'full') {
			const pending = memory?.pending;
			return { start: pending === undefined ? 0 : Math.max(0, pending.offset - pending.lastRows.length - this.slack) };
		}
		if (phase === 'end') return { start: Math.max(0, memory!.count - this.windowLength()) };
		if (phase === 'head') return { start: 0, maxRows: this.windowRows };
		return { start: 0 };
	}

	private windowLength(): number {
		return (this.memory?.window?.length ?? 0) / IDENTITY_LENGTH;
	}

	/** The columns identities are made of; a Whole Row memory keeps the columns it was made of. */
	private identityColumns(columns: readonly ReportColumn[]): string[] {
		if (this.columns !== undefined) return this.columns;
		const ids = columns.map((column) => column.id);
		if (this.settings.identity === 'columns') {
			const keys = this.settings.keyColumns(columns);
			if (this.memory !== undefined && this.memory.columns.join('\u0000') !== keys.join('\u0000')) {
				this.restartFirstRun('Key Columns changed');
			}
			return (this.columns = keys);
		}
		if (this.memory === undefined || this.memory.columns.length === 0) return (this.columns = ids);
		const missing = this.memory.columns.filter((id) => !ids.includes(id));
		if (missing.length > 0) {
			throw new DetectorError(
				`Report "${this.settings.report}" no longer has the column${missing.length > 1 ? 's' : ''} ${missing.map((id) => `"${id}"`).join(', ')} that its rows were remembered by`,
				`With Row Identity "Whole Row" a row is remembered by all its cells, so after a column is removed no row can be matched with what was remembered, and the trigger cannot tell new rows from old. Nothing was emitted. To go on: choose Row Identity "Key Columns" with a column that identifies a row (e.g. a transaction ID), or start over by renaming this trigger node (a renamed node starts with a first run; On First Run decides what it emits). The report's columns now: ${describeColumns(columns) || 'none'}.`,
			);
		}
		if (ids.length !== this.memory.columns.length || ids.some((id, index) => id !== this.memory!.columns[index])) {
			this.notes.push(
				`the report's columns changed (now ${ids.length}, ${this.memory.columns.length} remembered); rows are still identified by the ${this.memory.columns.length} remembered columns`,
			);
		}
		return (this.columns = this.memory.columns);
	}

	private restartFirstRun(why: string): void {
		this.forget(why);
		this.restarting = this.phase !== 'full' || this.range.start !== 0;
		this.phase = 'full';
		this.range = { start: 0 };
	}

	/** The current range began elsewhere than a first run reads from: end it, read from row 1. */
	private restarting = false;

	// ---- Full read -----------------------------------------------------------------------------

	private takeFull(ids: string[], rows: readonly ReportRow[]): 'stop' | undefined {
		this.handed += rows.length;
		if (this.finder === undefined) {
			const known = new Set(splitIdentities(this.memory?.rows));
			this.finder = new NewRowFinder(ids, this.settings.identity === 'columns', known);
			const pending = this.memory?.pending;
			if (pending !== undefined) {
				this.finder.resume(splitIdentities(pending.bases), pending.newRows);
				this.newRows = [...pending.newRows];
				this.trail = TrailingRun.from(pending.lastRows);
				this.resumeCheck = [];
			}
		}
		let fresh = rows;
		if (this.resumeCheck !== undefined) {
			this.resumeCheck.push(...rows);
			const { lastRows } = this.memory!.pending!;
			if (this.resumeCheck.length < lastRows.length + 2 * this.slack) return undefined;
			fresh = this.resumed();
		}
		this.visitFull(fresh);
		return undefined;
	}

	private visitFull(rows: readonly ReportRow[]): void {
		for (const row of rows) {
			if (this.finder!.visit(row)) this.newRows.push(row);
		}
		this.trail.add(rows);
	}

	/** Rows handed to the full read in this poll (from the start of its range). */
	private handed = 0;

	/** While a full read goes on from an earlier poll: the rows read around where it stopped. */
	private resumeCheck: ReportRow[] | undefined;

	/**
	 * Rows before and after where a full read stopped that the poll going on with it reads: rows
	 * added or deleted above that place since (at the top of a newest-first report, say) move it.
	 */
	private get slack(): number {
		return this.memory?.pending?.slack ?? this.settings.resumeSlack ?? RESUME_SLACK;
	}

	/**
	 * Finds where the last poll stopped reading: the one place among the rows read around it where
	 * its last rows stand. The rows after them are the rows to go on with. Nowhere, or more than one
	 * place (rows that repeat a pattern): the report changed too much to go on, read it afresh.
	 */
	private resumed(): ReportRow[] {
		const rows = this.resumeCheck!;
		const last = TrailingRun.from(this.memory!.pending!.lastRows);
		const length = this.memory!.pending!.lastRows.length;
		const places: number[] = [];
		for (let at = 0; at + length <= rows.length; at++) {
			if (last.matches(rows.slice(at, at + length))) places.push(at);
		}
		this.resumeCheck = undefined;
		if (places.length !== 1) throw new ReadAgain('the report changed since the last poll began reading it');
		return rows.slice(places[0] + length);
	}

	/** The last rows of the full read, to find again when a later poll goes on with it. */
	private trail = new TrailingRun();

	// ---- Ordered checks ------------------------------------------------------------------------

	private windowMatches(at: number): boolean {
		const window = this.memory!.window!;
		const length = this.windowLength();
		if (at < 0 || at + length > this.bases.length) return false;
		for (let i = 0; i < length; i++) {
			if (this.bases[at + i] !== window.slice(i * IDENTITY_LENGTH, (i + 1) * IDENTITY_LENGTH)) return false;
		}
		return true;
	}

	private topWindowFound(): boolean {
		const at = this.bases.length - this.windowLength();
		if ((this.target !== undefined && at !== this.target) || !this.windowMatches(at)) return false;
		this.windowAt = at;
		return true;
	}

	/** The rows an ordered poll found past its boundary: all of them new, by key once per key. */
	private found(added: ReportRow[]): void {
		this.added = added;
		if (this.settings.identity !== 'columns') {
			this.newRows = added;
			return;
		}
		const known = new Set([...splitIdentities(this.memory!.rows), ...splitIdentities(this.memory!.window)]);
		this.finder = new NewRowFinder(this.columns ?? this.memory!.columns, true, known);
		this.newRows = added.filter((row) => this.finder!.visit(row));
	}

	private checkEnd(): void {
		const memory = this.memory!;
		if (!this.windowMatches(0)) {
			const expected = this.range.start;
			this.fail(
				this.bases.length < this.windowLength()
					? `the report has ${expected + this.bases.length} rows, fewer than the ${memory.count} remembered (rows were deleted)`
					: `the ${this.windowLength()} rows remembered last are no longer rows ${expected + 1}–${memory.count} (rows were deleted, inserted, edited or re-sorted)`,
			);
			return;
		}
		this.found(this.rows.slice(this.windowLength()));
		this.phase = 'done';
	}

	private checkTop(): void {
		if (this.windowAt < 0) {
			this.fail('the rows remembered at the top are no longer together in the report (rows were deleted, inserted, edited or re-sorted)');
			return;
		}
		this.found(this.rows.slice(0, this.windowAt));
		this.readRange('far', { start: this.windowAt + this.memory!.count - 1, maxRows: 2 });
	}

	private checkFar(): void {
		const memory = this.memory!;
		const total = this.windowAt + memory.count;
		if (this.bases.length === 1 && this.bases[0] === memory.far) {
			this.phase = 'done';
			return;
		}
		if (this.bases.length === 2 && this.target === undefined) {
			// Rows follow: the window may stand lower, its rows repeated by new rows above it. Where the
			// report ends tells where it must stand.
			this.probeLo = total;
			this.probe();
			return;
		}
		this.fail(
			this.bases.length === 0
				? `the report has fewer than the ${total} rows expected after ${this.windowAt} new rows at the top (rows were deleted)`
				: `row ${total} is not the row remembered last, or rows follow it (rows were deleted, inserted or edited below the top)`,
		);
	}

	/** Exponential, then binary search for the report's end: row `probeLo` exists, `probeHi` not. */
	private probe(): void {
		if (this.probeHi === undefined && this.probeLo + this.probeStep > PROBE_LIMIT) {
			this.readInFullInstead('the service sent rows at every offset the search for its end asked for');
			return;
		}
		if (this.probeHi !== undefined && this.probeHi - this.probeLo <= 1) {
			// Without memory, this is a first run looking for the end (see "First run" below).
			if (this.memory === undefined) {
				this.endFound(this.probeHi);
				return;
			}
			const at = this.probeHi - this.memory!.count;
			this.target = at;
			this.windowAt = -1;
			this.readRange('top', { start: 0, maxRows: at + this.windowLength() });
			return;
		}
		this.probeAt = this.probeHi === undefined ? this.probeLo + this.probeStep : Math.floor((this.probeLo + this.probeHi) / 2);
		this.readRange('probe', { start: this.probeAt, maxRows: 1 });
	}

	private checkProbe(): void {
		if (this.rows.length > 0) {
			this.probeLo = this.probeAt;
			if (this.probeHi === undefined) this.probeStep *= 2;
		} else {
			this.probeHi = this.probeAt;
		}
		this.probe();
	}

	private readRange(phase: Phase, range: ReadRange): void {
		this.phase = phase;
		this.range = range;
		this.bases = [];
		this.rows = [];
	}

	/** At the Top: where the window must stand, once the report's end told it. */
	private target: number | undefined;
	private probeLo = 0;
	private probeHi: number | undefined;
	private probeStep = 1;
	private probeAt = 0;
	/** The rows an ordered poll found past its boundary (emitted or not). */
	private added: ReportRow[] = [];

	// ---- First run of a bounded ordered mode ---------------------------------------------------
	//
	// On First Run "Only Remember Them" needs only what later ordered polls compare with: the window at
	// the end where new rows appear, the row at the other end and the row count. The count comes from
	// one-row reads (exponential, then binary search: about 2·log2(rows) requests) instead of reading
	// every row. The reads happen at different moments, so at the top the window is read again last
	// and must be unchanged (rows added above meanwhile shift everything); at the end, the rows from
	// the window's start are read to the end, so rows appended meanwhile are among them. A report that
	// changed between the reads is read again (ChangedDuringRead), on the poll's last attempt in full.

	/** Whether this first run needs only the edges of the report (see above). */
	private get remembersEdgesOnly(): boolean {
		return !remembersEveryRow(this.settings) && this.settings.firstRun === 'remember';
	}

	private get windowRows(): number {
		return this.settings.windowRows ?? WINDOW_ROWS;
	}

	/** The first rows of the report as read first (At the Top: the window). */
	private head: string[] = [];
	/** The row at the far end (At the Top: the last row), once read. */
	private farRow: string | undefined;
	/** What a first run that read only the report's edges remembers. */
	private edges: { edges: { count: number; window: string[]; far: string | undefined } } | undefined;

	private checkHead(): void {
		this.head = this.bases;
		const top = this.settings.position === 'top';
		if (this.head.length < this.windowRows) {
			// That is the whole report.
			this.rememberEdges(this.head.length, this.head, top ? this.head[this.head.length - 1] : this.head[0]);
			return;
		}
		this.probeLo = this.head.length - 1;
		this.probeStep = this.windowRows;
		this.probe();
	}

	private endFound(count: number): void {
		if (this.settings.position === 'top') this.readRange('last', { start: count - 1, maxRows: 2 });
		else this.readRange('tail', { start: count - this.windowRows });
		this.count = count;
	}

	/** At the Top: the last row; exactly one row must stand at the end found. */
	private checkLast(): void {
		if (this.bases.length !== 1) {
			this.changedOnFirstRun();
			return;
		}
		this.farRow = this.bases[0];
		this.readRange('recheck', { start: 0, maxRows: this.windowRows });
	}

	/** At the Top: the window again, as first read: nothing was added above it meanwhile. */
	private checkRecheck(): void {
		if (this.bases.length !== this.head.length || this.bases.some((base, i) => base !== this.head[i])) {
			this.changedOnFirstRun();
			return;
		}
		this.rememberEdges(this.count, this.head, this.farRow);
	}

	/** Appended at the End: the rows from where the window starts to the end, appended ones too. */
	private checkTail(): void {
		if (this.bases.length < this.windowRows) {
			this.changedOnFirstRun();
			return;
		}
		this.rememberEdges(this.range.start + this.bases.length, this.bases.slice(-this.windowRows), this.head[0]);
	}

	private rememberEdges(count: number, window: string[], far: string | undefined): void {
		this.edges = { edges: { count, window, far } };
		this.phase = 'done';
	}

	private changedOnFirstRun(): void {
		const reason = 'the report changed while the first poll looked for its end';
		if (this.settings.lastAttempt !== true) throw new ChangedDuringRead(reason);
		this.readInFullInstead(reason);
	}

	/** A first run reads the whole report after all. */
	private readInFullInstead(reason: string): void {
		this.reason = reason;
		this.readRange('full', { start: 0 });
	}

	/** The report's row count found by a first run's search. */
	private count = 0;

	/** A failed ordered check: read in full where every row is remembered, else stop with the reason. */
	private fail(reason: string): void {
		if (this.memory?.rows !== undefined) {
			this.reason = reason;
			this.phase = 'full';
			this.range = { start: 0 };
			this.bases = [];
			this.rows = [];
			this.newRows = [];
			this.added = [];
			this.finder = undefined;
			return;
		}
		if (this.settings.lastAttempt !== true) throw new ChangedDuringRead(reason);
		const other = this.settings.position === 'end' ? 'At the Top' : 'Appended at the End';
		throw new DetectorError(
			`Report "${this.settings.report}" changed in a way New Rows Appear "${this.settings.position === 'end' ? 'Appended at the End' : 'At the Top'}" does not allow: ${reason}`,
			`In this mode the trigger remembers only the rows next to where new rows appear, so it cannot tell which rows are new after this change, and it emitted nothing. If the report is sorted the other way, choose "${other}". If rows of the report can be deleted, edited or inserted elsewhere, choose New Rows Appear "Anywhere", which compares every row. To accept the report as it is now and go on from there, rename this trigger node (a renamed node starts with a first run).`,
		);
	}
}

/** The report changed between the polls of one full read: read it again from its first row. */
export class ReadAgain extends Error {}

/** An ordered check failed; the report may have changed between two ranges read: read again. */
export class ChangedDuringRead extends Error {}
