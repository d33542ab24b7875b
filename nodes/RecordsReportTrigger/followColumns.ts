/**
 * Where the columns a memory identifies rows by stand in the report now. Pure module.
 *
 * The spec calls a column's `id` only a "column key", and a service may number its columns by
 * position (c1…c8): a column added at the front then moves every id by one while the names stay. Read
 * by the old ids, every row would look new (Whole Row) or the Key Columns changed. So a memory keeps
 * its columns' names beside their ids, and a poll follows the names where they moved:
 * - every remembered id still names its column: the ids (a column renamed keeps its id);
 * - else, where every remembered name is on exactly one column now and on one remembered column: the
 *   ids those names are on now (the ids moved);
 * - else, where no remembered name is on another id now: the ids (columns were renamed or removed,
 *   which the caller judges as before);
 * - else: the ids moved and columns were renamed or removed too, so neither tells the columns: a
 *   conflict, which the caller turns into an error that says so.
 * A memory saved before names were kept has none: its ids are taken as they are.
 */
import type { ReportColumn } from '../shared/report/rows';

/** A remembered column whose id moved: its name, its id then and now. */
export interface MovedColumn {
	name: string;
	from: string;
	to: string;
}

export type Followed = { ids: string[]; moved: MovedColumn[] } | { conflict: string };

/** A column's name as compared: NFC, trimmed ('' for none). */
const nameOf = (name: unknown): string => (typeof name === 'string' ? name.normalize('NFC').trim() : '');

export function followColumns(remembered: { columns: readonly string[]; names?: readonly string[] }, columns: readonly ReportColumn[]): Followed {
	const ids = [...remembered.columns];
	const names = remembered.names?.map(nameOf);
	if (names === undefined) return { ids, moved: [] };
	const nameById = new Map(columns.map((column) => [column.id, nameOf(column.name)]));
	if (ids.every((id, i) => nameById.get(id) === names[i])) return { ids, moved: [] };
	const idsByName = new Map<string, string[]>();
	for (const column of columns) {
		const name = nameOf(column.name);
		idsByName.set(name, [...(idsByName.get(name) ?? []), column.id]);
	}
	const once = (name: string) => name !== '' && idsByName.get(name)?.length === 1 && names.filter((other) => other === name).length === 1;
	const elsewhere = names.filter((name, i) => (idsByName.get(name) ?? []).some((id) => id !== ids[i]));
	if (names.every(once)) {
		const now = names.map((name) => idsByName.get(name)![0]);
		return { ids: now, moved: now.flatMap((to, i) => (to === ids[i] ? [] : [{ name: names[i], from: ids[i], to }])) };
	}
	if (elsewhere.length === 0) return { ids, moved: [] };
	const lost = names.filter((name) => !once(name));
	return {
		conflict: `its column ids moved (the column "${elsewhere[0]}" is no longer "${ids[names.indexOf(elsewhere[0])]}"), and the column${lost.length > 1 ? 's' : ''} ${lost.map((name) => `"${name}"`).join(', ')} cannot be told by name (renamed, removed or named twice)`,
	};
}

/** The log's words for columns followed by name. */
export function movedNote(moved: readonly MovedColumn[]): string {
	const listed = moved
		.slice(0, 5)
		.map(({ name, from, to }) => `"${name}" ${from} → ${to}`)
		.join(', ');
	return `the report's column ids moved (the service numbers its columns by position, and a column was added, removed or moved); rows are followed by the columns' names: ${listed}${moved.length > 5 ? ` and ${moved.length - 5} more` : ''}`;
}
