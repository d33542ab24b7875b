/**
 * What the Records Report Trigger remembers after a poll that decided (changeDetector.ts): the row
 * count, the per-row memory where the mode keeps one, and the window of an ordered mode. Pure module:
 * no n8n imports.
 */
import type { ReportRow } from '../shared/report/rows';
import { baseOf, type DetectorSettings } from './detection';
import { joinIdentities, splitIdentities } from './identityText';
import { type Memory, MEMORY_VERSION, remembersEveryRow, WINDOW_ROWS } from './memory';
import { RememberedRows } from './rememberedRows';
import { NewRowFinder } from './rowFinder';

export interface PollForMemory {
	settings: DetectorSettings;
	/** What was remembered before the poll; undefined on a first run. */
	previous: Memory | undefined;
	/** The column ids rows were identified by in this poll; undefined when it saw no columns. */
	columns: string[] | undefined;
	/**
	 * A full read (every row's identity, copies numbered, and base identity, in report order), an
	 * ordered poll's rows past its boundary (all of them, emitted or not), or what a first run of a
	 * bounded ordered mode found at the report's edges (the row count, the window, the far row).
	 */
	read: { identities: string[]; bases: string[] } | { added: ReportRow[] } | { edges: { count: number; window: string[]; far: string | undefined } };
}

export function memoryAfterPoll({ settings, previous, columns, read }: PollForMemory): Memory {
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
	const everyRow = remembersEveryRow(settings);
	let reportBases: string[];
	if ('identities' in read) {
		memory.count = read.identities.length;
		reportBases = read.bases;
		if (everyRow) memory.rows = RememberedRows.stored(previous?.rows).afterRead(read.identities, settings.maxRemembered).encode();
	} else if ('edges' in read) {
		memory.count = read.edges.count;
		reportBases = read.edges.window;
	} else {
		const base = previous!;
		const added = read.added.map((row) => baseOf(row, memory.columns));
		memory.count = base.count + added.length;
		memory.polls = settings.fullCheckEvery > 0 ? base.polls + 1 : 0;
		const window = splitIdentities(base.window);
		reportBases = settings.position === 'end' ? window.concat(added) : [...added, ...window];
		if (base.rows !== undefined && everyRow) memory.rows = rowsAfterOrdered(settings, base, memory.columns, read.added);
	}
	if (settings.position !== 'anywhere') {
		const rows = settings.windowRows ?? WINDOW_ROWS;
		const end = settings.position === 'end';
		memory.window = joinIdentities(end ? reportBases.slice(-rows) : reportBases.slice(0, rows));
		memory.far = 'identities' in read ? (end ? reportBases[0] : reportBases[reportBases.length - 1]) : 'edges' in read ? read.edges.far : previous!.far;
	}
	return memory;
}

/** Per-row memory after an ordered poll (a full check chosen): the new rows' identities added. */
function rowsAfterOrdered(settings: DetectorSettings, base: Memory, columns: string[], added: ReportRow[]): string {
	const previous = RememberedRows.stored(base.rows);
	const finder = new NewRowFinder(columns, settings.identity === 'columns', previous, previous.reportPart(base.count));
	for (const row of added) finder.visit(row);
	const at = settings.position === 'end' ? 'end' : 'top';
	return previous.afterAdded(base.count, finder.identities, at, settings.maxRemembered).encode();
}
