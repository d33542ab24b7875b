/**
 * What the Records Report Trigger remembers after a poll that decided (changeDetector.ts): the row
 * count, the per-row memory where the mode keeps one, and the window of an ordered mode. Pure module:
 * no n8n imports.
 */
import type { ReportRow } from '../shared/report/rows';
import { type Backlog, baseOf, type DetectorSettings, type FirstRunPart } from './detection';
import type { IdentityList } from './identities';
import { joinIdentities, splitIdentities } from './identityText';
import { type Memory, MEMORY_VERSION, remembersEveryRow, WINDOW_ROWS } from './memory';
import type { RememberedRows } from './rememberedRows';
import { NewRowFinder } from './rowFinder';

export interface PollForMemory {
	settings: DetectorSettings;
	/** What was remembered before the poll; undefined on a first run. */
	previous: Memory | undefined;
	/** Its per-row memory, as the poll read it (empty without one). */
	remembered: RememberedRows;
	/** The column ids rows were identified by in this poll; undefined when it saw no columns. */
	columns: string[] | undefined;
	/**
	 * A full read (the finder that met every row: their identities, copies numbered, and base
	 * identities, in report order), an ordered poll's rows past its boundary (all of them, emitted or
	 * not), what a first run of a bounded ordered mode found at the report's edges (the row count,
	 * the window, the far row), or a part of Anywhere's first run (firstRunParts.ts).
	 */
	read:
		| { finder: NewRowFinder }
		| { part: FirstRunPart }
		| { added: ReportRow[]; backlog?: Backlog }
		| { edges: { count: number; window: string[]; far: string | undefined; backlog?: Backlog } };
	/** The names of `columns`, in their order. */
	names?: string[];
	/** Whether the poll's full read did not fit its time: the full check counts again from this poll. */
	skippedFull?: boolean;
}

export function memoryAfterPoll({ settings, previous, remembered, columns, read, skippedFull = false, names }: PollForMemory): Memory {
	const memory: Memory = {
		version: MEMORY_VERSION,
		report: settings.report,
		identity: settings.identity,
		columns: columns ?? previous?.columns ?? [],
		position: settings.position,
		lineage: previous?.lineage ?? settings.lineage.id,
		since: previous?.since ?? settings.lineage.since,
		generation: (previous?.generation ?? 0) + 1,
		writer: settings.writer,
		count: previous?.count ?? 0,
		polls: 0,
	};
	const keptNames = columns === undefined ? previous?.names : names;
	if (keptNames !== undefined) memory.names = keptNames;
	if (settings.identity === 'columns' && settings.keyReferences !== undefined) memory.keys = [...settings.keyReferences];
	const everyRow = remembersEveryRow(settings);
	const rows = settings.windowRows ?? WINDOW_ROWS;
	const end = settings.position === 'end';
	// The base identities at the end where new rows appear (at least the window), and the row at the other end.
	let reportBases: string[];
	let far: string | undefined;
	if ('part' in read) {
		const { part } = read;
		memory.count = part.count;
		memory.rows = part.rows.encode();
		if (part.goesOn !== undefined) Object.assign(memory, { readOnAt: part.goesOn.at, readOnAfter: part.goesOn.after });
		// Anywhere's first run, whatever New Rows Appear says now (firstRunParts.ts).
		memory.position = 'anywhere';
		reportBases = [];
	} else if ('finder' in read) {
		const { bases, identities } = read.finder;
		memory.count = bases.length;
		reportBases = end ? textsOf(bases, bases.length - rows, bases.length) : textsOf(bases, 0, rows);
		far = end ? identityAt(bases, 0) : identityAt(bases, bases.length - 1);
		if (everyRow) memory.rows = remembered.afterRead(identities, settings.maxRemembered).encode();
	} else if ('edges' in read) {
		memory.count = read.edges.count;
		reportBases = read.edges.window;
		far = read.edges.far;
		keepBacklog(memory, read.edges.backlog);
	} else {
		const base = previous!;
		const added = read.added.map((row) => baseOf(row, memory.columns));
		memory.count = base.count + added.length;
		memory.polls = settings.fullCheckEvery > 0 ? base.polls + 1 : 0;
		const window = splitIdentities(base.window);
		reportBases = end ? window.concat(added) : [...added, ...window];
		far = base.far;
		keepBacklog(memory, read.backlog ?? (base.backlog === undefined ? undefined : { rows: [], left: base.backlog, after: base.backlogAfter }));
		if (base.rows !== undefined && everyRow) memory.rows = rowsAfterOrdered(settings, base, remembered, memory.columns, read.added);
	}
	if (skippedFull) {
		memory.polls = 0;
		if (everyRow && memory.rows === undefined) memory.skipped = true;
	}
	if (memory.position !== 'anywhere') {
		memory.window = joinIdentities(end ? reportBases.slice(-rows) : reportBases.slice(0, rows));
		memory.far = far;
	}
	return memory;
}

/** At the Top, the rows a first run has still to emit, where there are any (backlog.ts). */
function keepBacklog(memory: Memory, backlog: Backlog | undefined): void {
	if (backlog === undefined || backlog.left <= 0 || backlog.after === undefined) return;
	memory.backlog = backlog.left;
	memory.backlogAfter = backlog.after;
}

/** The texts of identities `from` to `to` of a list (within it). */
function textsOf(list: IdentityList, from: number, to: number): string[] {
	const texts: string[] = [];
	for (let row = Math.max(0, from); row < Math.min(list.length, to); row++) texts.push(list.text(row));
	return texts;
}

/** The text of identity `row` of a list; undefined outside it. */
const identityAt = (list: IdentityList, row: number): string | undefined => (row >= 0 && row < list.length ? list.text(row) : undefined);

/** Per-row memory after an ordered poll (a full check chosen): the new rows' identities added. */
function rowsAfterOrdered(settings: DetectorSettings, base: Memory, previous: RememberedRows, columns: string[], added: ReportRow[]): string {
	const finder = new NewRowFinder(columns, settings.identity === 'columns', previous, previous.reportPart(base.count));
	for (const row of added) finder.visit(row);
	const at = settings.position === 'end' ? 'end' : 'top';
	return previous.afterAdded(base.count, finder.identities, at, settings.maxRemembered).encode();
}
