/**
 * The columns a poll identifies rows by (Row Identity), from the report's columns and what was
 * remembered: Whole Row keeps the columns its memory was made of, Key Columns the columns they named
 * while the parameter is unchanged; ids that moved while the names stayed are followed by name
 * (followColumns.ts), and n8n's log is told so. Pure module: the change detector's (changeDetector.ts).
 */
import type { ReportColumn } from '../shared/report/rows';
import { describeColumns } from '../shared/report/rows';
import { DetectorError, type DetectorSettings } from './detection';
import { followColumns, movedNote } from './followColumns';
import type { Memory } from './memory';

/** The column ids, what n8n's log should say, and whether the trigger starts over (other Key Columns). */
export interface ColumnChoice {
	ids: string[];
	notes: string[];
	startOver?: boolean;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((entry, i) => entry === b[i]);

/** The key columns: the remembered ones while Key Columns is unchanged, else as the parameter names them. */
export function keyColumnIds(memory: Memory | undefined, settings: DetectorSettings, columns: readonly ReportColumn[]): ColumnChoice {
	if (memory !== undefined && memory.keys !== undefined && sameList(memory.keys, settings.keyReferences ?? [])) {
		const followed = followColumns(memory, columns);
		const present = new Set(columns.map((column) => column.id));
		if (!('conflict' in followed) && followed.ids.every((id) => present.has(id))) {
			const notes = followed.moved.length > 0 ? [`${movedNote(followed.moved)}; Key Columns stay the columns they named when the trigger last saved`] : [];
			return { ids: followed.ids, notes };
		}
	}
	const keys = settings.keyColumns(columns);
	if (memory === undefined || sameList(memory.columns, keys)) return { ids: keys, notes: [] };
	// Other ids: the same columns, where their ids moved, or other Key Columns (the trigger starts over).
	const followed = followColumns(memory, columns);
	if ('conflict' in followed || followed.moved.length === 0 || !sameList(followed.ids, keys)) return { ids: keys, notes: [], startOver: true };
	return { ids: keys, notes: [movedNote(followed.moved)] };
}

/** Whole Row: every column on a first run; else the remembered columns, followed by name where their ids moved. */
export function wholeRowIds(memory: Memory | undefined, report: string, columns: readonly ReportColumn[]): ColumnChoice {
	const ids = columns.map((column) => column.id);
	if (memory === undefined || memory.columns.length === 0) return { ids, notes: [] };
	const notes: string[] = [];
	const followed = followColumns(memory, columns);
	if ('conflict' in followed) {
		throw new DetectorError(
			`Report "${report}" changed its columns so that the columns its rows were remembered by cannot be found: ${followed.conflict}`,
			`With Row Identity "Whole Row" a row is remembered by all its cells, so the trigger cannot tell new rows from old without those columns. Nothing was emitted. If the columns were only renamed, name them as they were. To go on otherwise, choose Row Identity "Key Columns" with a column that identifies a row (e.g. a transaction ID): the next poll is a first run, and On First Run decides what it emits. The report's columns now: ${describeColumns(columns) || 'none'}.`,
		);
	}
	if (followed.moved.length > 0) notes.push(movedNote(followed.moved));
	const missing = followed.ids.filter((id) => !ids.includes(id));
	if (missing.length > 0) {
		throw new DetectorError(
			`Report "${report}" no longer has the column${missing.length > 1 ? 's' : ''} ${missing.map((id) => `"${id}"`).join(', ')} that its rows were remembered by`,
			`With Row Identity "Whole Row" a row is remembered by all its cells, so after a column is removed no row can be matched with what was remembered, and the trigger cannot tell new rows from old. Nothing was emitted. To go on, choose Row Identity "Key Columns" with a column that identifies a row (e.g. a transaction ID): the next poll is a first run, and On First Run decides what it emits. The report's columns now: ${describeColumns(columns) || 'none'}.`,
		);
	}
	if (ids.length !== followed.ids.length || ids.some((id, index) => id !== followed.ids[index])) {
		notes.push(`the report's columns changed (now ${ids.length}, ${followed.ids.length} remembered); rows are still identified by the ${followed.ids.length} remembered columns`);
	}
	// A copy: the stored memory is n8n's observable static data, slow to read row after row.
	return { ids: [...followed.ids], notes };
}
