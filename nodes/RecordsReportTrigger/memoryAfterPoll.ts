/**
 * What the Records Report Trigger remembers after a poll that decided (changeDetector.ts): the row
 * count, the per-row memory where the mode keeps one, and the window of an ordered mode. Pure module:
 * no n8n imports.
 */
import type { ReportRow } from '../shared/report/rows';
import { identityOf, rowIdentityText } from '../shared/report/rows';
import type { DetectorSettings } from './changeDetector';
import { type Memory, MEMORY_VERSION, rememberAdded, rememberAfterRead, remembersEveryRow, splitIdentities, WINDOW_ROWS } from './memory';
import { NewRowFinder } from './rowFinder';

export const identitiesOf = (list: readonly string[]) => list.join('');

/** The memory before any poll completed a read: nothing counted yet. */
export function emptyMemory(settings: DetectorSettings, columns: string[] | undefined): Memory {
	const { report, identity, position } = settings;
	return { version: MEMORY_VERSION, report, identity, columns: columns ?? [], position, generation: 0, count: -1, polls: 0 };
}

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
	const base = previous ?? emptyMemory(settings, columns);
	const memory: Memory = {
		version: MEMORY_VERSION,
		report: settings.report,
		identity: settings.identity,
		columns: columns ?? base.columns,
		position: settings.position,
		generation: base.generation + 1,
		writer: settings.writer,
		count: base.count,
		polls: 0,
	};
	const ordered = settings.position !== 'anywhere';
	let reportBases: string[];
	if ('identities' in read) {
		memory.count = read.identities.length;
		reportBases = read.bases;
		if (remembersEveryRow(settings)) {
			memory.rows = identitiesOf(rememberAfterRead(splitIdentities(base.rows), read.identities, settings.maxRemembered));
		}
	} else if ('edges' in read) {
		memory.count = read.edges.count;
		reportBases = read.edges.window;
	} else {
		const added = read.added.map((row) => identityOf(rowIdentityText(row, memory.columns)));
		memory.count = base.count + added.length;
		memory.polls = settings.fullCheckEvery > 0 ? base.polls + 1 : 0;
		const window = splitIdentities(base.window);
		reportBases = settings.position === 'end' ? window.concat(added) : [...added, ...window];
		if (base.rows !== undefined && remembersEveryRow(settings)) memory.rows = identitiesOf(rowsAfterOrdered(settings, base, memory.columns, read.added));
	}
	if (ordered) {
		const rows = settings.windowRows ?? WINDOW_ROWS;
		memory.window = identitiesOf(settings.position === 'end' ? reportBases.slice(-rows) : reportBases.slice(0, rows));
		const far = settings.position === 'end' ? reportBases[0] : reportBases[reportBases.length - 1];
		memory.far = 'identities' in read ? far : 'edges' in read ? read.edges.far : base.far;
	}
	return memory;
}

/** Per-row memory after an ordered poll (a full check chosen): the new rows' identities added. */
function rowsAfterOrdered(settings: DetectorSettings, base: Memory, columns: string[], added: ReportRow[]): string[] {
	const previous = splitIdentities(base.rows);
	if (added.length === 0) return previous;
	const reportPart = new Set(previous.slice(previous.length - base.count));
	const finder = new NewRowFinder(columns, settings.identity === 'columns', new Set(previous), reportPart);
	for (const row of added) finder.visit(row);
	const at = settings.position === 'end' ? 'end' : 'top';
	return rememberAdded(previous, base.count, finder.identities, at, settings.maxRemembered);
}
