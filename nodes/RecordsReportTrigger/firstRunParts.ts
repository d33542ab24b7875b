/**
 * Anywhere, a first run on a report too large to read in the time one poll may take: it reads the
 * report in parts, one a poll, each from where the last stopped, until the whole report was read
 * once; then the mode goes on as usual (its next poll reads in full and compares every row with the
 * memory). Pure module: a read step and findings of the change detector (see detection.ts), and the
 * words n8n's log gets.
 *
 * - A part remembers the rows it read (and, under Emit All Current Rows, emits those not read
 *   before); the memory says where the next part starts (memory.ts: `readOnAt`) and which rows stand
 *   right above it (`readOnAfter`, at most a window's).
 * - A part first reads those rows again. Where they still stand right above its start, nothing moved
 *   above it, and its rows are counted on from the rows read before: identical rows are numbered as
 *   one read of the whole report numbers them. Where they moved (rows were added or deleted above
 *   since), a row read again is the row remembered, not a new one, and identical rows are counted
 *   within the part; so are they in every later part (the memory then keeps no rows to read again),
 *   since rows read before may now stand below the point it reads on from.
 * - A row that moved from below the read point to above it (rows deleted above it, or re-sorted) is
 *   not read by the first run: the first poll after it compares it with the memory and emits it, as
 *   it emits a row added above the read point meanwhile. A row added below the read point meanwhile
 *   is read by a part: under Only Remember Them it counts as there before, as any row a first run
 *   reads does.
 * - Each part's read ends where the paging engine proves the report's end; Max Remembered Rows
 *   counts every row read so far. New Rows Appear changed meanwhile waits for the first run's end:
 *   its memory stays Anywhere's until then, and the next poll reads in full as after any such edit.
 */
import type { ReportRow } from '../shared/report/rows';
import { topSoFar } from './backlog';
import { baseOf, type DetectorSettings, type Finding, type FirstRunPart, type ReadRange, type Step } from './detection';
import { FullRead } from './fullRead';
import type { IdentityList, IdentitySequence } from './identities';
import { joinIdentities, splitIdentities } from './identityText';
import { type Memory, WINDOW_ROWS } from './memory';
import { RememberedRows } from './rememberedRows';
import { NewRowFinder } from './rowFinder';

/**
 * The most a part may take, in ms, whatever n8n's budget for a poll (the smaller one counts). n8n
 * 2.x makes the poll it runs on activation inside the workflow's publication, which it aborts after
 * 84 s (0.7 of its 120 s lease), and gives that poll 5 minutes; n8n 1.x gives none. A part stops
 * reading where one more request as slow as its slowest would pass 60 s, which leaves about 20 s for
 * what follows the last answer: comparing its page, writing the memory (12 MB at 1,000,000 rows) and
 * n8n's save of it.
 */
export const PART_MS = 60_000;

/**
 * Whether the read going on is a first run's that the next poll goes on from when it is cut short: a
 * part of an Anywhere first run, or the full read of a first run that emits all current rows in an
 * ordered mode (backlog.ts). Either may be the poll n8n makes on activation, so PART_MS bounds both.
 */
export function readsPart(settings: DetectorSettings, memory: Memory | undefined, step: Step | undefined): boolean {
	if (step instanceof NextPart) return true;
	return memory === undefined && step instanceof FullRead && (settings.position === 'anywhere' || settings.firstRun === 'emit');
}

/**
 * A first run's full read cut short by the poll's time: what it read, to decide on now and go on
 * from at the next poll (Anywhere: a part, this module; an ordered mode emitting all current rows:
 * backlog.ts). Undefined where that is not the case.
 */
export function firstRunSoFar(settings: DetectorSettings, memory: Memory | undefined, step: Step | undefined, fallback: Finding | undefined): Finding | undefined {
	if (memory !== undefined || !(step instanceof FullRead)) return undefined;
	if (settings.position !== 'anywhere' && settings.firstRun !== 'emit') return undefined;
	const read = step.soFar();
	if (read === undefined) return undefined;
	const { finder, newRows } = read;
	if (settings.position === 'anywhere') {
		const rows = RememberedRows.stored(undefined).afterRead(finder.identities, settings.maxRemembered);
		const count = finder.bases.length;
		return { kind: 'firstRunPart', finder, newRows, rows, count, goesOn: { at: count, after: tail([], finder.bases, windowRows(settings)) } };
	}
	if (settings.position === 'end') return { kind: 'full', finder, newRows };
	if (fallback?.kind === 'edges') return topSoFar(fallback, { bases: finder.bases, newRows });
	return undefined;
}

/** The next part of an Anywhere first run: from the rows it read last, to the end or until its time is up. */
export class NextPart implements Step {
	readonly range: ReadRange;
	/** The base identities of the rows read last, and those read again in their place. */
	private readonly window: string[];
	private readonly again: ReportRow[] = [];
	/** Whether those rows moved (rows were added or deleted above them since the last part). */
	private moved = false;
	private finder: NewRowFinder | undefined;
	private ids: readonly string[] = [];
	private taken = 0;
	private visited = 0;
	/** The rows visited whose identity the memory does not hold, by their number in the visit; the new rows to emit. */
	private readonly fresh: number[] = [];
	private readonly newRows: ReportRow[] = [];

	constructor(
		private readonly memory: Memory,
		private readonly remembered: RememberedRows,
		private readonly settings: DetectorSettings,
	) {
		const at = memory.readOnAt ?? 0;
		const window = splitIdentities(memory.readOnAfter);
		this.window = window.slice(Math.max(0, window.length - at));
		this.range = { start: at - this.window.length };
	}

	take(rows: readonly ReportRow[], ids: readonly string[]): undefined {
		this.ids = ids;
		for (const row of rows) {
			this.taken++;
			if (this.finder !== undefined) this.visit(row);
			else if (this.again.push(row) >= this.window.length) this.begin();
		}
		return undefined;
	}

	end(): FirstRunPart {
		if (this.finder === undefined) this.begin();
		return this.part(undefined);
	}

	/**
	 * The poll's time is up: what this part read, the next poll goes on after it. A part whose time ran
	 * out while it read the rows again leaves the next part the rest of them to read again, where those
	 * it read stood in place (so that identical rows are still counted on), and none where they moved;
	 * either way the next part gets on.
	 */
	cutShort(): FirstRunPart {
		if (this.finder === undefined) {
			const { memory, again, window, ids } = this;
			const inPlace = again.every((row, i) => baseOf(row, ids) === window[i]);
			const after = inPlace ? joinIdentities(window.slice(again.length)) : '';
			const nothing = new NewRowFinder(ids, false, { has: () => false });
			return { kind: 'firstRunPart', finder: nothing, newRows: [], rows: this.remembered, count: memory.count, goesOn: { at: memory.readOnAt!, after } };
		}
		const after = this.moved ? '' : tail(this.window, this.finder.bases, windowRows(this.settings));
		return this.part({ at: this.range.start + this.taken, after });
	}

	/** The rows read again are checked: where they stand, the part counts on from the rows read before. */
	private begin(): void {
		const { again, window, ids, remembered } = this;
		this.moved = again.length < window.length || again.some((row, i) => baseOf(row, ids) !== window[i]);
		this.finder = new NewRowFinder(ids, this.settings.identity === 'columns', remembered, this.moved ? undefined : remembered.reportPart(this.memory.count));
		if (this.moved) for (const row of again) this.visit(row);
	}

	private visit(row: ReportRow): void {
		if (this.finder!.visit(row)) {
			this.fresh.push(this.visited);
			if (this.settings.firstRun === 'emit') this.newRows.push(row);
		}
		this.visited++;
	}

	private part(goesOn: FirstRunPart['goesOn']): FirstRunPart {
		const finder = this.finder!;
		const added = picked(finder.identities, this.fresh);
		const rows = this.remembered.afterAdded(this.memory.count, added, 'end', this.settings.maxRemembered);
		return { kind: 'firstRunPart', finder, newRows: this.newRows, rows, count: this.memory.count + added.length, goesOn };
	}
}

const windowRows = (settings: DetectorSettings) => settings.windowRows ?? WINDOW_ROWS;

/** The last `rows` base identities of `before` followed by `bases`, stored as one string. */
function tail(before: readonly string[], bases: IdentityList, rows: number): string {
	const texts: string[] = [];
	for (let row = Math.max(0, bases.length - rows); row < bases.length; row++) texts.push(bases.text(row));
	return joinIdentities([...before, ...texts].slice(-rows));
}

/** The identities of `all` at the positions `rows` (ascending). */
function picked(all: IdentitySequence, rows: readonly number[]): IdentitySequence {
	return {
		length: rows.length,
		forEach(visit) {
			let row = 0;
			let next = 0;
			all.forEach((source, at) => {
				if (next < rows.length && rows[next] === row) {
					visit(source, at);
					next++;
				}
				row++;
			});
		},
	};
}

/** What n8n's log says of a poll that read a part of a first run, or finished one; undefined otherwise. */
export function partNote(firstRun: 'remember' | 'emit', before: Memory | undefined, after: Memory, emitted: number): { warn: boolean; text: string } | undefined {
	if (after.readOnAt !== undefined) return { warn: true, text: partWords(firstRun, after, emitted) };
	if (before?.readOnAt === undefined) return undefined;
	return { warn: false, text: `the first run is complete: the whole report was read once (${after.count} rows remembered); from now on each poll emits the rows not emitted or remembered before` };
}

/** How far a first run read over several polls has got. */
export function partWords(firstRun: 'remember' | 'emit', after: Memory, emitted: number): string {
	const what = firstRun === 'emit' ? `${emitted} of them emitted by this poll` : 'none emitted, as On First Run is "Only Remember Them"';
	return `the report is too large to read whole in the time one poll may take, so its first run goes on over the next polls: ${after.count} rows read and remembered so far (${what}); the next poll reads on from row ${(after.readOnAt ?? 0) + 1}`;
}
