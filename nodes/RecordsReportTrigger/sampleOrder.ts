/**
 * Whether the rows of a Fetch Test Event sample look oldest first or newest first, read from their
 * values: a column whose values all rise (or all fall) row by row through the sample, compared as
 * dates (d.m.yyyy or ISO), numbers (a decimal comma too) or texts that end in a number under one
 * prefix (INV-0012). It helps choose New Rows Appear, the one setting the screen cannot settle.
 * Pure, without n8n.
 *
 * No claim unless it is one: fewer than 3 rows, no such column, or columns that disagree give
 * nothing. Equal neighbours are allowed (several rows of one day), as long as the column moves.
 */

/** A value made comparable, with its kind: only values of one kind (and one prefix) are compared. */
interface Ordinal {
	kind: string;
	value: number;
}

export type SampleOrder = { direction: 'rising' | 'falling'; column: string };

/** Rows fewer than this prove no order: 2 values rise or fall half the time. */
const MIN_ROWS = 3;

const DAY_MONTH_YEAR = /^(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const NUMBER = /^[+-]?\d+(?:[.,]\d+)?$/;
// The prefix ends in neither a digit nor a separator: "1 234,50" is a number written with spaces.
const NUMBERED_TEXT = /^(.*[^\d\s.,])(\d+)$/;

/** A cell as something to compare, or undefined when it is none of the kinds above. */
export function ordinal(cell: unknown): Ordinal | undefined {
	if (typeof cell === 'number') return Number.isFinite(cell) ? { kind: 'number', value: cell } : undefined;
	if (typeof cell !== 'string') return undefined;
	const text = cell.trim();
	const dmy = DAY_MONTH_YEAR.exec(text);
	if (dmy) {
		const [, day, month, year, hours = '0', minutes = '0', seconds = '0'] = dmy;
		const value = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hours), Number(minutes), Number(seconds));
		return { kind: 'date', value };
	}
	if (ISO_DATE.test(text)) {
		const value = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
		return Number.isNaN(value) ? undefined : { kind: 'date', value };
	}
	if (NUMBER.test(text)) return { kind: 'number', value: Number(text.replace(',', '.')) };
	const numbered = NUMBERED_TEXT.exec(text);
	if (numbered) return { kind: `text:${numbered[1]}`, value: Number(numbered[2]) };
	return undefined;
}

/** How one column's values move through the rows: rising, falling, or neither (undefined). */
function columnDirection(cells: unknown[]): SampleOrder['direction'] | undefined {
	const values = cells.map(ordinal);
	const first = values[0];
	if (first === undefined || values.some((value) => value === undefined || value.kind !== first.kind)) return undefined;
	let rises = false;
	let falls = false;
	for (let index = 1; index < values.length; index++) {
		const step = values[index]!.value - values[index - 1]!.value;
		if (step > 0) rises = true;
		if (step < 0) falls = true;
	}
	if (rises === falls) return undefined;
	return rises ? 'rising' : 'falling';
}

/**
 * The order the sample's rows look sorted in, with the first column that shows it; undefined when
 * the sample says nothing sure (too few rows, no ordered column, or columns that disagree).
 */
export function sampleOrder(rows: ReadonlyArray<Record<string, unknown>>): SampleOrder | undefined {
	if (rows.length < MIN_ROWS) return undefined;
	let found: SampleOrder | undefined;
	for (const column of Object.keys(rows[0])) {
		const direction = columnDirection(rows.map((row) => row[column]));
		if (direction === undefined) continue;
		if (found !== undefined && found.direction !== direction) return undefined;
		found ??= { direction, column };
	}
	return found;
}

/** One plain line on what the sample suggests for New Rows Appear; undefined when it suggests nothing. */
export function sampleOrderAdvice(rows: ReadonlyArray<Record<string, unknown>>): string | undefined {
	const order = sampleOrder(rows);
	if (order === undefined) return undefined;
	return order.direction === 'rising'
		? `"${order.column}" rises row by row through the sample: the report looks oldest first, so New Rows Appear "Appended at the End" may fit, if rows are only ever added at the end.`
		: `"${order.column}" falls row by row through the sample: the report looks newest first, so New Rows Appear "At the Top" may fit, if rows are only ever added at the top.`;
}
