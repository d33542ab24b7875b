/**
 * The Records Report Trigger's rules, in one place: from what is remembered and the rows read, which
 * rows are new, what to remember, and what cannot be decided. Pure module: no n8n imports, no I/O.
 *
 * It works as a conversation (the "sans-I/O" shape): `next()` names the range of report rows it
 * wants read, the driver (pollReport.ts) reads it through the paging engine and hands the rows to
 * `take()` page by page, then calls `endRange()`; when `next()` has nothing more to ask, `decide()`
 * tells the rows to emit and the memory to save. A poll whose time runs out asks `cutShort()`
 * whether what it read can be decided on (an ordered poll at the end: the next poll goes on from
 * there; an ordered mode's full read, a safety net: the read at the chosen end made before it; an
 * ordered mode's first run that emits all current rows: the rows read, the rest at the next polls;
 * Anywhere's first run: the rows read, the next polls read on); otherwise the poll fails and nothing
 * is remembered. The reads are steps (detection.ts): a full read (fullRead.ts), the ordered modes'
 * checks (orderedChecks.ts), the first run of a bounded ordered mode (firstRunEdges.ts), the rest of
 * such a first run (backlog.ts), the parts of Anywhere's first run (firstRunParts.ts). The columns
 * rows are identified by are chosen in identityColumns.ts, the log's words in detectorNotes.ts, the
 * memory saved in memoryAfterPoll.ts. The contract each mode keeps is written in
 * docs/report-trigger-contract.md and proven by the model tests beside this module's tests.
 *
 * A failed ordered check is a change the ordered mode does not promise to handle. With per-row memory
 * (a full check chosen) the poll reads in full instead; with bounded memory (the default) it stops
 * with DetectorError naming what changed and the way out, since it cannot tell new rows from old.
 */
import type { ReportColumn, ReportRow } from '../shared/report/rows';
import {
	baseOf,
	ChangedDuringRead,
	type Decision,
	DetectorError,
	type DetectorSettings,
	type Finding,
	isStep,
	type ReadRange,
	type Step,
} from './detection';
import { TopBacklog } from './backlog';
import { firstRunSoFar, NextPart, readsPart } from './firstRunParts';
import { firstRunEdges } from './firstRunEdges';
import { FullRead, type FullReadOptions } from './fullRead';
import { keyColumnIds, wholeRowIds } from './identityColumns';
import { identityText, splitIdentities } from './identityText';
import { type Memory, remembersEveryRow, WINDOW_ROWS } from './memory';
import { acceptance, fullCheckNote, skippedNote } from './detectorNotes';
import { memoryAfterPoll, type PollForMemory } from './memoryAfterPoll';
import { EndCheck, TopEnd, windowLength } from './orderedChecks';
import { RememberedRows } from './rememberedRows';
import { NewRowFinder } from './rowFinder';
import { wayOut } from './wayOut';

export class ChangeDetector {
	private memory: Memory | undefined;
	private step: Step | undefined;
	private finding: Finding | undefined;
	/** The columns rows are identified by, once the first page told the report's columns, and their names. */
	private columns: string[] | undefined;
	private names: string[] | undefined;
	/** The step being read was replaced (Key Columns changed): end its range, read the new one. */
	private restarting = false;
	private readonly notes: string[] = [];
	private reason: string | undefined;
	private readonly remembered: RememberedRows;
	/**
	 * In an ordered mode, a full read is made after a read at the end where new rows appear that the
	 * poll can decide on instead, should the full read not fit n8n's time for a poll: `beforeFull`
	 * while that read is made (why the full read, and whether it reads the report's edges), then
	 * `fallback`, what it found (the ordered check's rows past the window, or the report as it is at
	 * its end).
	 */
	private beforeFull: { why: string | undefined; atEdges: boolean } | undefined;
	private fallback: Finding | undefined;
	private fallbackWhy: string | undefined;
	/** Whether the poll decided on the fallback: its full read was skipped. */
	private skippedFull = false;

	constructor(
		private readonly settings: DetectorSettings,
		stored: Memory | undefined,
	) {
		this.memory = stored !== undefined && stored.report === settings.report && stored.identity === settings.identity ? stored : undefined;
		this.remembered = RememberedRows.stored(this.memory?.rows);
		this.step = this.firstStep();
	}

	/** The range to read next; undefined once the poll can decide. */
	next(): ReadRange | undefined {
		return this.step?.range;
	}

	/** Rows of the current range, in report order. Returns 'stop' when no more of it is needed. */
	take(columns: readonly ReportColumn[], rows: readonly ReportRow[]): 'stop' | undefined {
		const ids = this.identityColumns(columns);
		if (this.restarting) return 'stop';
		return this.step!.take(rows, ids);
	}

	/** The current range was read (to its end, or until `take` said stop); `columns`: the report's. */
	endRange(columns: readonly ReportColumn[] = []): void {
		// A report without rows still tells its columns: what rows appearing later are identified by.
		if (this.columns === undefined && columns.length > 0) this.identityColumns(columns);
		if (this.restarting) {
			this.restarting = false;
			return;
		}
		const next = this.step!.end();
		if (isStep(next)) this.step = next;
		else this.found(next);
	}

	/**
	 * The poll's time is up in the current range: whether what was read so far can be decided on
	 * (Appended at the End, once the window was read: the rows after it are new, the next poll goes on
	 * from the last of them). Otherwise the poll must fail without remembering anything.
	 */
	cutShort(budgetSeconds: number): boolean {
		const soFar = firstRunSoFar(this.settings, this.memory, this.step, this.fallback);
		if (soFar !== undefined) {
			this.fallback = undefined;
			this.beforeFull = undefined;
			// At the Top, what it read is decided on instead of the full read: its memory is bounded still.
			this.skippedFull = soFar.kind === 'edges';
			this.finding = soFar;
			this.step = undefined;
			return true;
		}
		if (this.fallback !== undefined) {
			this.decideOnFallback(budgetSeconds);
			return true;
		}
		const { step } = this;
		const finding = step instanceof EndCheck || step instanceof TopBacklog || step instanceof NextPart ? step.cutShort() : undefined;
		if (finding === undefined) return false;
		// No time is left for a full read: it is due again at the next poll.
		this.beforeFull = undefined;
		this.found(finding);
		return this.step === undefined;
	}

	/** Whether the read is a part of Anywhere's first run, whose time is bounded (firstRunParts.ts). */
	get readsPart(): boolean {
		return readsPart(this.settings, this.memory, this.step);
	}

	/** What the current read is, for the error of a poll whose time ran out. */
	get reading(): 'full' | 'top' | 'end' | 'edges' {
		if (this.step instanceof FullRead) return 'full';
		if (this.memory === undefined || this.beforeFull?.atEdges === true) return 'edges';
		return this.settings.position === 'top' ? 'top' : 'end';
	}

	/** Why this poll reads in full although an ordered mode was chosen; undefined when it does not (or its full read was skipped). */
	get fullReadReason(): string | undefined {
		return this.skippedFull ? undefined : this.reason;
	}

	/** Whether the poll's full read did not fit its time and it decided on the read at its end instead. */
	get fullReadSkipped(): boolean {
		return this.skippedFull;
	}

	/** The rows to emit and the memory to save, once `next()` returned undefined. */
	decide(): Decision {
		const finding = this.finding!;
		const firstRun = this.memory === undefined;
		let emit: ReportRow[] = [];
		let read: PollForMemory['read'];
		if (finding.kind === 'full') {
			emit = finding.newRows;
			read = { finder: finding.finder };
			if (finding.unsure !== undefined) this.notes.push(acceptance(finding.unsure, finding.finder.bases.length));
			else if (this.reason?.startsWith('the full check') === true) this.notes.push(fullCheckNote(emit.length));
		} else if (finding.kind === 'past') {
			emit = this.settings.identity === 'columns' ? this.newKeys(finding.added) : finding.added;
			if (finding.backlog !== undefined) emit = emit.concat(finding.backlog.rows);
			read = { added: finding.added, backlog: finding.backlog };
		} else if (finding.kind === 'firstRunPart') {
			emit = finding.newRows;
			read = { part: finding };
		} else if (finding.kind === 'edges') {
			emit = finding.backlog?.rows ?? [];
			read = { edges: finding };
		} else {
			throw new Error(`The change detector cannot decide on a finding "${finding.kind}"`);
		}
		if (firstRun && this.settings.firstRun === 'remember') emit = [];
		const remembered = this.memory === undefined ? RememberedRows.stored(undefined) : this.remembered;
		const memory = memoryAfterPoll({ settings: this.settings, previous: this.memory, remembered, columns: this.columns, read, skippedFull: this.skippedFull, names: this.names });
		const finders = 'finder' in finding ? [finding.finder] : this.keyFinder ? [this.keyFinder] : [];
		return { emit, memory, firstRun, notes: this.notes, finders };
	}

	// ---- Planning ------------------------------------------------------------------------------

	private firstStep(): Step {
		const { memory, settings } = this;
		const ordered = settings.position !== 'anywhere';
		const everyRow = remembersEveryRow(settings);
		if (memory === undefined) {
			if (!ordered || (settings.firstRun === 'emit' && settings.position === 'end')) return this.fullRead({});
			// Only Remember Them: the report's edges are what later polls compare with; with a full check
			// the whole report is read after them, and skipped where it does not fit. Emit All Current Rows
			// At the Top reads them first too, for the rows it cannot read in time (backlog.ts).
			const edges = this.edges();
			if (!everyRow && settings.firstRun === 'remember') return edges;
			this.beforeFull = { why: undefined, atEdges: true };
			return edges;
		}
		if (memory.readOnAt !== undefined) return new NextPart(memory, this.remembered, settings);
		const bounded = memory.rows === undefined && memory.window !== undefined && memory.count > 0;
		const samePosition = memory.position === settings.position && memory.window !== undefined && memory.count > 0;
		// The mode or its memory changed: a full read, compared with every remembered row, or with the
		// remembered mode's check where only a bounded memory is there.
		const changed = memory.position !== settings.position || (bounded && everyRow && memory.skipped !== true);
		if (!ordered || changed || !samePosition) {
			if (!changed) return this.fullRead({ known: this.remembered });
			const why = 'New Rows Appear or Full Check Every changed since the last poll';
			if (!ordered) return this.fullStep(why);
			// Where the full read does not fit: the remembered check, where it is the same mode's, else the report's end.
			this.beforeFull = { why, atEdges: !samePosition };
			return samePosition ? this.orderedCheck(memory) : this.edges();
		}
		if (settings.fullCheckEvery > 0 && memory.polls + 1 >= settings.fullCheckEvery) {
			this.beforeFull = { why: `the full check is due (every ${settings.fullCheckEvery} polls)`, atEdges: false };
		}
		return this.orderedCheck(memory);
	}

	private orderedCheck(memory: Memory): Step {
		return this.settings.position === 'end' ? new EndCheck(memory) : new TopEnd(memory);
	}

	/** The report's edges at the end where new rows appear, as a first run that only remembers reads them. */
	private edges(): Step {
		return firstRunEdges(this.settings.position === 'top' ? 'top' : 'end', this.settings.windowRows ?? WINDOW_ROWS, this.memory?.count);
	}

	/**
	 * The full read of an ordered mode, once the read at its end was made: compared with every remembered
	 * row, or with the remembered mode's check where only a bounded memory is there.
	 */
	private fullStep(why: string | undefined): Step {
		const { memory } = this;
		if (memory === undefined) return why === undefined ? this.fullRead({}) : this.readInFull(why);
		const bounded = memory.rows === undefined && memory.window !== undefined && memory.count > 0;
		if (!bounded) return this.readInFull(why ?? 'New Rows Appear or Full Check Every changed since the last poll');
		const end = memory.position === 'end' ? 'end' : 'top';
		this.reason = `${why ?? 'Full Check Every is set'}. The ${windowLength(memory)} rows remembered at the ${end} must stand where they stood; the rows past them are new`;
		return this.fullRead({ bounded: memory });
	}

	/** The read at the end where new rows appear found what the poll can decide on: now the full read. */
	private keepFallback(finding: Finding): void {
		const why = this.beforeFull!.why;
		this.beforeFull = undefined;
		this.fallback = finding;
		this.fallbackWhy = why;
		this.step = this.fullStep(why);
	}

	/** The full read did not fit the poll's time: the poll decides on what it read at its end. */
	private decideOnFallback(budgetSeconds: number): void {
		const finding = this.fallback!;
		this.fallback = undefined;
		this.skippedFull = true;
		this.step = undefined;
		this.finding = finding;
		const { fullCheckEvery, position } = this.settings;
		this.notes.push(skippedNote({ kind: finding.kind, remembered: this.memory !== undefined, why: this.fallbackWhy, budgetSeconds, fullCheckEvery, end: position === 'top' ? 'top' : 'end' }));
	}

	/**
	 * The columns identities are made of; a Whole Row memory keeps the columns it was made of. Where
	 * their ids moved while their names stayed (followColumns.ts), they are followed by name.
	 */
	private identityColumns(columns: readonly ReportColumn[]): string[] {
		const nameById = new Map(columns.map((column) => [column.id, typeof column.name === 'string' ? column.name : '']));
		if (this.columns !== undefined) {
			// Each range is its own read: columns that moved between two of them would make old rows look new.
			if (columns.length > 0 && this.columns.some((id, i) => (nameById.get(id) ?? '') !== this.names?.[i])) {
				throw new ChangedDuringRead(`the columns of report "${this.settings.report}" changed between two ranges of the read`);
			}
			return this.columns;
		}
		const chosen = this.settings.identity === 'columns' ? keyColumnIds(this.memory, this.settings, columns) : wholeRowIds(this.memory, this.settings.report, columns);
		this.notes.push(...chosen.notes);
		if (chosen.startOver === true) this.startOver();
		const { ids } = chosen;
		this.names = ids.map((id) => nameById.get(id) ?? '');
		return (this.columns = ids);
	}

	/** A full read compared with every remembered row (none on a first run), and why. */
	private readInFull(why: string): Step {
		this.reason = this.memory === undefined ? why : `${why}. Its rows are compared with every remembered row, so none is lost or emitted twice`;
		return this.fullRead({ known: this.remembered });
	}

	/** A full read; on a first run that only remembers, the rows it finds new are not kept. */
	private fullRead(options: FullReadOptions): FullRead {
		const keepNew = this.memory !== undefined || this.settings.firstRun === 'emit';
		return new FullRead(this.settings.identity === 'columns', { ...options, expectedRows: this.memory?.count, keepNew });
	}

	/** What was remembered cannot be used (Key Columns changed): this poll is a first run, read from its first step. */
	private startOver(): void {
		this.memory = undefined;
		this.reason = undefined;
		this.beforeFull = undefined;
		this.fallback = undefined;
		this.restarting = true;
		this.step = this.firstStep();
	}

	// ---- Findings ------------------------------------------------------------------------------

	private found(finding: Finding): void {
		if (finding.kind === 'failed') {
			this.failed(finding.reason);
			return;
		}
		if (finding.kind === 'readInFull') {
			this.beforeFull = undefined;
			this.step = this.memory === undefined ? this.readInFull(finding.reason) : this.fullStep(finding.reason);
			return;
		}
		if (finding.kind === 'past' && finding.backlog === undefined && this.memory?.backlog !== undefined && this.settings.position === 'top') {
			// The rows added at the top are known: now the rows a first run has still to emit (backlog.ts).
			this.step = new TopBacklog(this.memory, finding.added);
			return;
		}
		if (finding.kind === 'past' && this.memory?.rows !== undefined && this.settings.identity !== 'columns') {
			// With every row remembered, a row past the boundary that is remembered already was moved or
			// copied there: only a full read can tell which rows are new.
			// Should the full read not fit, the rows past the boundary are emitted, as without Full Check Every.
			const columns = this.columns ?? this.memory.columns;
			if (finding.added.some((row) => this.remembered.hasText(baseOf(row, columns)))) {
				this.beforeFull = { why: 'a row past the rows remembered at that end is one remembered already (moved or copied there)', atEdges: false };
			}
		}
		if (this.beforeFull !== undefined && (finding.kind === 'past' || finding.kind === 'edges')) {
			this.keepFallback(finding);
			return;
		}
		this.finding = finding;
		this.step = undefined;
	}

	/** A failed check: read in full where every row is remembered, else read again or stop. */
	private failed(reason: string): void {
		const { memory, settings } = this;
		if (this.beforeFull?.atEdges === true) {
			// The edges did not agree (the report changed between their reads): the full read alone.
			const why = this.beforeFull.why ?? (memory === undefined ? undefined : reason);
			this.beforeFull = undefined;
			this.step = this.fullStep(why);
			return;
		}
		if (memory !== undefined && settings.position !== 'anywhere' && remembersEveryRow(settings)) {
			// The report may have changed between the ranges read: read again first. Then a full read
			// decides, the report's edges read before it, to decide on should it not fit.
			if (settings.lastAttempt !== true) throw new ChangedDuringRead(reason);
			this.beforeFull = { why: reason, atEdges: true };
			this.step = this.edges();
			return;
		}
		if (memory === undefined || memory.rows !== undefined) {
			// A first run's reads did not agree (the report changed between them), or a per-row memory.
			if (memory === undefined && settings.lastAttempt !== true) throw new ChangedDuringRead(reason);
			this.step = this.readInFull(reason);
			return;
		}
		if (settings.lastAttempt !== true) throw new ChangedDuringRead(reason);
		const { message, description } = wayOut(settings.report, settings.position === 'top' ? 'top' : 'end', reason);
		throw new DetectorError(message, description, reason);
	}

	/** By key, the rows past the boundary whose key is not remembered; each key once. */
	private keyFinder: NewRowFinder | undefined;

	private newKeys(added: ReportRow[]): ReportRow[] {
		const memory = this.memory!;
		const window = new Set(splitIdentities(memory.window));
		const remembered = this.remembered;
		const finder = new NewRowFinder(this.columns ?? memory.columns, true, { has: (source, at) => window.has(identityText(source, at)) || remembered.has(source, at) });
		this.keyFinder = finder;
		return added.filter((row) => finder.visit(row));
	}
}
