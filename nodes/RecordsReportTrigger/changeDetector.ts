/**
 * The Records Report Trigger's rules, in one place: from what is remembered and the rows read, which
 * rows are new, what to remember, and what cannot be decided. Pure module: no n8n imports, no I/O.
 *
 * It works as a conversation (the "sans-I/O" shape): `next()` names the range of report rows it
 * wants read, the driver (pollReport.ts) reads it through the paging engine and hands the rows to
 * `take()` page by page, then calls `endRange()`; when `next()` has nothing more to ask, `decide()`
 * tells the rows to emit and the memory to save. A poll whose time runs out asks `cutShort()`
 * whether what it read can be decided on (an ordered poll at the end: the next poll goes on from
 * there); otherwise the poll fails and nothing is remembered. The reads are steps (detection.ts):
 * a full read (fullRead.ts), the ordered modes' checks (orderedChecks.ts), the first run of a bounded
 * ordered mode (firstRunEdges.ts). The contract each mode keeps is written in
 * docs/report-trigger-contract.md and proven by the model tests beside this module's tests.
 *
 * A failed ordered check is a change the ordered mode does not promise to handle. With per-row memory
 * (a full check chosen) the poll reads in full instead; with bounded memory (the default) it stops
 * with DetectorError naming what changed and the way out, since it cannot tell new rows from old.
 */
import type { ReportColumn, ReportRow } from '../shared/report/rows';
import { describeColumns } from '../shared/report/rows';
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
import { firstRunEdges } from './firstRunEdges';
import { FullRead, type FullReadOptions } from './fullRead';
import { identityText, splitIdentities } from './identityText';
import { type Memory, remembersEveryRow, WINDOW_ROWS } from './memory';
import { memoryAfterPoll, type PollForMemory } from './memoryAfterPoll';
import { EndCheck, TopEnd, windowLength } from './orderedChecks';
import { RememberedRows } from './rememberedRows';
import { NewRowFinder } from './rowFinder';
import { wayOut } from './wayOut';

export class ChangeDetector {
	private memory: Memory | undefined;
	private step: Step | undefined;
	private finding: Finding | undefined;
	/** The columns rows are identified by, once the first page told the report's columns. */
	private columns: string[] | undefined;
	/** The step being read was replaced (Key Columns changed): end its range, read the new one. */
	private restarting = false;
	private readonly notes: string[] = [];
	private reason: string | undefined;
	private readonly remembered: RememberedRows;

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
	cutShort(): boolean {
		const finding = this.step instanceof EndCheck ? this.step.cutShort() : undefined;
		if (finding === undefined) return false;
		this.found(finding);
		return this.step === undefined;
	}

	/** What the current read is, for the error of a poll whose time ran out. */
	get reading(): 'full' | 'ordered' | 'edges' {
		if (this.step instanceof FullRead) return 'full';
		return this.memory === undefined ? 'edges' : 'ordered';
	}

	/** Why this poll reads in full although an ordered mode was chosen; undefined when it does not. */
	get fullReadReason(): string | undefined {
		return this.reason;
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
			read = { added: finding.added };
		} else if (finding.kind === 'edges') {
			read = { edges: finding };
		} else {
			throw new Error(`The change detector cannot decide on a finding "${finding.kind}"`);
		}
		if (firstRun && this.settings.firstRun === 'remember') emit = [];
		const remembered = this.memory === undefined ? RememberedRows.stored(undefined) : this.remembered;
		const memory = memoryAfterPoll({ settings: this.settings, previous: this.memory, remembered, columns: this.columns, read });
		const finders = finding.kind === 'full' ? [finding.finder] : this.keyFinder ? [this.keyFinder] : [];
		return { emit, memory, firstRun, notes: this.notes, finders };
	}

	// ---- Planning ------------------------------------------------------------------------------

	private firstStep(): Step {
		const { memory, settings } = this;
		if (memory === undefined) {
			if (!remembersEveryRow(settings) && settings.firstRun === 'remember' && settings.position !== 'anywhere') {
				return firstRunEdges(settings.position, settings.windowRows ?? WINDOW_ROWS);
			}
			return this.fullRead({});
		}
		const bounded = memory.rows === undefined && memory.window !== undefined && memory.count > 0;
		// The mode or its memory changed: a full read, compared with every remembered row, or with the
		// remembered mode's check where only a bounded memory is there.
		const changed = memory.position !== settings.position || (bounded && remembersEveryRow(settings));
		if (settings.position === 'anywhere' || changed || memory.window === undefined || memory.count <= 0) {
			if (!changed) return this.fullRead({ known: this.remembered });
			const why = 'New Rows Appear or Full Check Every changed since the last poll';
			if (!bounded) return this.readInFull(why);
			const end = memory.position === 'end' ? 'end' : 'top';
			this.reason = `${why}. The ${windowLength(memory)} rows remembered at the ${end} must stand where they stood; the rows past them are new`;
			return this.fullRead({ bounded: memory });
		}
		if (settings.fullCheckEvery > 0 && memory.polls + 1 >= settings.fullCheckEvery && memory.rows !== undefined) {
			return this.readInFull(`the full check is due (every ${settings.fullCheckEvery} polls)`);
		}
		return settings.position === 'end' ? new EndCheck(memory) : new TopEnd(memory);
	}

	/** The columns identities are made of; a Whole Row memory keeps the columns it was made of. */
	private identityColumns(columns: readonly ReportColumn[]): string[] {
		if (this.columns !== undefined) return this.columns;
		const ids = columns.map((column) => column.id);
		const memory = this.memory;
		if (this.settings.identity === 'columns') {
			const keys = this.settings.keyColumns(columns);
			if (memory !== undefined && memory.columns.join('\u0000') !== keys.join('\u0000')) this.startOver();
			return (this.columns = keys);
		}
		if (memory === undefined || memory.columns.length === 0) return (this.columns = ids);
		const missing = memory.columns.filter((id) => !ids.includes(id));
		if (missing.length > 0) {
			throw new DetectorError(
				`Report "${this.settings.report}" no longer has the column${missing.length > 1 ? 's' : ''} ${missing.map((id) => `"${id}"`).join(', ')} that its rows were remembered by`,
				`With Row Identity "Whole Row" a row is remembered by all its cells, so after a column is removed no row can be matched with what was remembered, and the trigger cannot tell new rows from old. Nothing was emitted. To go on, choose Row Identity "Key Columns" with a column that identifies a row (e.g. a transaction ID): the next poll is a first run, and On First Run decides what it emits. The report's columns now: ${describeColumns(columns) || 'none'}.`,
			);
		}
		if (ids.length !== memory.columns.length || ids.some((id, index) => id !== memory.columns[index])) {
			this.notes.push(
				`the report's columns changed (now ${ids.length}, ${memory.columns.length} remembered); rows are still identified by the ${memory.columns.length} remembered columns`,
			);
		}
		// A copy: the stored memory is n8n's observable static data, slow to read row after row.
		return (this.columns = [...memory.columns]);
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
			this.step = this.readInFull(finding.reason);
			return;
		}
		if (finding.kind === 'past' && this.memory?.rows !== undefined && this.settings.identity !== 'columns') {
			// With every row remembered, a row past the boundary that is remembered already was moved or
			// copied there: only a full read can tell which rows are new.
			const columns = this.columns ?? this.memory.columns;
			if (finding.added.some((row) => this.remembered.hasText(baseOf(row, columns)))) {
				this.failed('a row past the rows remembered at that end is one remembered already (moved or copied there)');
				return;
			}
		}
		this.finding = finding;
		this.step = undefined;
	}

	/** A failed check: read in full where every row is remembered, else read again or stop. */
	private failed(reason: string): void {
		const { memory, settings } = this;
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

/** The log's words for a poll that took the report as it is (see wayOut.ts). */
function acceptance(reason: string, rows: number): string {
	return `New Rows Appear or Full Check Every changed, and the rows remembered before cannot be found where they must be (${reason}); this poll takes the report as it is: its ${rows} rows count as emitted (rows added since the last poll that read it cannot be told from old rows among them and were not emitted); every row added from now on is emitted`;
}

function fullCheckNote(missed: number): string {
	return missed === 0
		? 'full check: every row of the report was emitted before; the ordered polls missed nothing'
		: `full check: ${missed} rows had not been emitted (rows added elsewhere than New Rows Appear says); they are emitted now`;
}
