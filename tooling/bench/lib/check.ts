/** The column holding each generated bank row's unique, increasing id, by name (the node's default keys). */
export const ROW_ID_COLUMN = 'ID transakce';

/** Unique and increasing ids: no row duplicated, none out of order. Gaps show in the count. */
export function checkRows(
	rows: Array<Record<string, unknown>>,
	idKey = ROW_ID_COLUMN,
): { uniqueIds: number; ordered: boolean; firstId: unknown; lastId: unknown } {
	let ordered = true;
	const ids = new Set<string>();
	let previous = '';
	for (const row of rows) {
		const id = String(row[idKey]);
		if (id <= previous) ordered = false;
		ids.add(id);
		previous = id;
	}
	return { uniqueIds: ids.size, ordered, firstId: rows[0]?.[idKey], lastId: rows[rows.length - 1]?.[idKey] };
}
