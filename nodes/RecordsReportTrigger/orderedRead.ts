/**
 * Polls that read only what changed, for reports whose new rows appear at one end: appended at the
 * end (e.g. sorted by date, oldest first) or at the top (newest first). Pure module: no n8n imports;
 * the rows come from a `RowSource` (the paging engine in the node, an array in the unit tests).
 *
 * The last poll remembered the identity of every report row in report order (rememberedRows.ts).
 * An ordered poll checks that the report still starts and ends with the rows remembered first and
 * last, at the places the new rows leave them, and reads only the rows past that boundary:
 *
 * - appended at the end: row 1 must be the row remembered first, and row N (N rows remembered) the
 *   row remembered last; the rows after row N are read and compared, as a full read would compare
 *   them. Cost: 1 request for row 1, then the pages from row N on, plus the one request that
 *   confirms the end after a short page: 3 requests when fewer than a page of rows was added.
 * - at the top: the report is read from row 1 until the row remembered first (K rows above it
 *   are new); then row K + N must be the row remembered last and nothing may follow it. Cost: the
 *   pages down to the remembered first row, plus 2 requests for the last row and the end.
 *
 * Whenever a check fails (rows deleted, re-sorted or edited, the report shrank, a row seen before
 * turns up where only new rows may be), the poll falls back to a full read and says why. A full
 * read compares every row with every remembered identity, so the fallback loses and repeats
 * nothing. Rows changed between the two boundaries without moving them are not seen by an ordered
 * poll: that is what choosing an ordered mode promises will not happen.
 */
import type { ReportRow } from '../shared/report/rows';
import type { NewRowFinder } from './rememberedRows';

export type NewRowPosition = 'anywhere' | 'end' | 'top';

/** What one poll remembered: every identity, and how many at the end are the report's rows. */
export interface RememberedOrder {
	identities: readonly string[];
	reportRows: number;
}

export interface RowSource {
	/**
	 * Reads rows from `startOffset` on, at most `maxRows` (undefined: to the end), handing them on
	 * page by page until the end or until `onRows` returns 'stop'.
	 */
	read(startOffset: number, maxRows: number | undefined, onRows: (rows: readonly ReportRow[]) => 'stop' | undefined): Promise<void>;
	/** What the last poll remembered; asked once the first rows are in (they tell the columns). */
	remembered(): RememberedOrder | undefined;
	/** A finder comparing with every remembered identity; `earlier`: identities of rows not read. */
	finder(earlier?: ReadonlySet<string>): NewRowFinder;
}

export type OrderedOutcome =
	| {
			/** The boundary held: only `newRows` are new. */
			kind: 'ordered';
			newRows: ReportRow[];
			/** Identities of the rows added at the end or top, in report order (known ones too). */
			added: string[];
			/** The finders used, for their repeated keys. */
			finders: NewRowFinder[];
	  }
	/** Read the whole report instead; `reason` says why, undefined when nothing is wrong. */
	| { kind: 'full'; reason?: string };

const fallback = (reason: string): OrderedOutcome => ({ kind: 'full', reason });

/** Whether the remembered order can serve as a boundary: known rows, all in the list. */
function usable(memory: RememberedOrder | undefined): memory is RememberedOrder {
	return (
		memory !== undefined &&
		Number.isInteger(memory.reportRows) &&
		memory.reportRows > 0 &&
		memory.reportRows <= memory.identities.length
	);
}

/** Identities of the report's rows before its last one, as the last poll remembered them. */
function beforeLast(memory: RememberedOrder): Set<string> {
	const { identities, reportRows } = memory;
	return new Set(identities.slice(identities.length - reportRows, identities.length - 1));
}

const ordinal = (index: number) => `row ${index + 1}`;

/**
 * Reads the rows from `offset` on with a finder that knows the rows before it; the first row must
 * be the row remembered last. `more`: what rows after it mean ('new' rows, or a failed check).
 */
async function readFromLast(
	source: RowSource,
	memory: RememberedOrder,
	offset: number,
	more: 'new' | 'unexpected',
): Promise<{ finder: NewRowFinder; newRows: ReportRow[]; problem?: string }> {
	const finder = source.finder(beforeLast(memory));
	const last = memory.identities[memory.identities.length - 1];
	const newRows: ReportRow[] = [];
	let problem: string | undefined;
	await source.read(offset, more === 'new' ? undefined : 2, (rows) => {
		for (const row of rows) {
			const isNew = finder.visit(row);
			if (finder.identities.length === 1) {
				if (finder.lastIdentity !== last) {
					problem = `${ordinal(offset)} is not the row remembered last (rows were deleted, re-sorted or edited)`;
					return 'stop';
				}
			} else if (more === 'unexpected') {
				problem = `rows follow the row remembered last, at ${ordinal(offset + 1)}, where new rows are expected only at the top`;
				return 'stop';
			} else if (isNew) {
				newRows.push(row);
			}
		}
		return undefined;
	});
	if (problem === undefined && finder.identities.length === 0) {
		problem = `the report has fewer than the ${offset + 1} rows expected (rows were deleted)`;
	}
	return { finder, newRows, problem };
}

/** An ordered poll of a report whose new rows are appended at the end. */
async function readAppended(source: RowSource): Promise<OrderedOutcome> {
	let memory: RememberedOrder | undefined;
	let firstIdentity: string | undefined;
	await source.read(0, 1, (rows) => {
		memory = source.remembered();
		if (rows.length === 0 || !usable(memory)) return 'stop';
		const finder = source.finder();
		finder.visit(rows[0]);
		firstIdentity = finder.lastIdentity;
		return undefined;
	});
	memory ??= source.remembered();
	if (!usable(memory)) return { kind: 'full' };
	if (firstIdentity === undefined) return fallback(`the report has no rows now, ${memory.reportRows} were remembered`);
	const { identities, reportRows } = memory;
	if (firstIdentity !== identities[identities.length - reportRows]) {
		return fallback('row 1 is not the row remembered first (rows were deleted, re-sorted or edited)');
	}
	const tail = await readFromLast(source, memory, reportRows - 1, 'new');
	if (tail.problem !== undefined) return fallback(tail.problem);
	return { kind: 'ordered', newRows: tail.newRows, added: tail.finder.identities.slice(1), finders: [tail.finder] };
}

/** An ordered poll of a report whose new rows appear at the top. */
async function readTop(source: RowSource): Promise<OrderedOutcome> {
	let memory: RememberedOrder | undefined;
	let finder: NewRowFinder | undefined;
	let firstAt: number | undefined;
	let problem: string | undefined;
	const newRows: ReportRow[] = [];
	await source.read(0, undefined, (rows) => {
		if (finder === undefined) {
			memory = source.remembered();
			if (!usable(memory)) return 'stop';
			finder = source.finder();
		}
		const first = memory!.identities[memory!.identities.length - memory!.reportRows];
		for (const row of rows) {
			const isNew = finder.visit(row);
			if (finder.lastIdentity === first) {
				firstAt = finder.identities.length - 1;
				return 'stop';
			}
			if (!isNew) {
				problem = `${ordinal(finder.identities.length - 1)} was seen before but stands above the row remembered first (rows were deleted, re-sorted or edited)`;
				return 'stop';
			}
			newRows.push(row);
		}
		return undefined;
	});
	memory ??= source.remembered();
	if (!usable(memory)) return { kind: 'full' };
	if (problem !== undefined) return fallback(problem);
	if (firstAt === undefined || finder === undefined) {
		return fallback('the row remembered first is no longer in the report (rows were deleted, re-sorted or edited)');
	}
	const tail = await readFromLast(source, memory, firstAt + memory.reportRows - 1, 'unexpected');
	if (tail.problem !== undefined) return fallback(tail.problem);
	return { kind: 'ordered', newRows, added: finder.identities.slice(0, firstAt), finders: [finder, tail.finder] };
}

/**
 * One ordered poll: the new rows past the remembered boundary, or a full read to do instead (with
 * the reason, for the log). The `anywhere` mode always reads in full.
 */
export async function readOrdered(position: NewRowPosition, source: RowSource): Promise<OrderedOutcome> {
	if (position === 'end') return await readAppended(source);
	if (position === 'top') return await readTop(source);
	return { kind: 'full' };
}
