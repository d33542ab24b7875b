/**
 * The change check at a page boundary (detectChanges: Get Rows' "Read Again, Then Fail", the Report
 * Trigger): the rows after a boundary are taken only where the rows before it are still the ones read
 * (TrailingRun: the last row, the identical rows before it, the different row before those), or the
 * report changed in between (ReportChangedError): rows added or removed above the rows not read yet
 * move them, and a row would be read twice or skipped.
 *
 * In one answer: the page after the boundary is asked for from those rows on, within the page size.
 * That is exact, whatever changes between two requests (up to the limit TrailingRun states).
 *
 * In two steps, where no answer can hold those rows and a new row: the service capped the page (in
 * rows or bytes; a row larger than its page comes alone), the check's rows do not fit the page size
 * (a run of identical rows longer than a page), or the answer had no new row (the end, or a cap).
 * First the rows after the boundary are asked for on their own (and, where they are fewer than asked,
 * the offset after them: most likely the end); then the check's rows, in as few answers as the page
 * size allows, on through those rows. Asking in this order makes the end exact too: no row at the
 * boundary, then the rows before it still in place, is one state of the report that ends there. Two
 * steps are exact when the report changes at most once between them; a change made and undone
 * between the two requests (a row added and deleted again within a second) can escape them.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ReportRow } from './rows';
import type { TrailingRun } from './trailingRun';

/** The report changed between two page requests of a read (detectChanges): `row` had moved. */
export class ReportChangedError extends NodeOperationError {
	constructor(
		node: INode,
		reportId: string,
		readonly row: number,
		itemIndex: number | undefined,
	) {
		super(node, `Report "${reportId}" changed while it was read: row ${row} is no longer the one read last`, {
			itemIndex,
			description: 'Rows were added or removed above the rows not read yet, so a row would be read twice or skipped.',
		});
	}
}

/** What one request brought, and the `limit` it was sent with. */
export interface Answer {
	rows: ReportRow[];
	limit: number;
	/** Proven by the check that asked: the report ends right after these rows. */
	last?: boolean;
}

/** What the check needs from the read. */
export interface CheckPort {
	/**
	 * One request of at most `want` rows (and the page size; `served`: as many as the service has served
	 * in one answer, when more); undefined when answered as past the end.
	 */
	fetch(offset: number, want: number, served?: boolean): Promise<Answer | undefined>;
	/** Fails the read: the rows before `offset` moved (the offset probe first, where not done yet). */
	changed(offset: number): Promise<never>;
	/** Fails the read: rows before `offset` are gone (after checking that the report is there). */
	shrank(offset: number): Promise<never>;
}

/**
 * The new rows of an answer asked from `overlap` rows before a boundary: 'changed' when the check's
 * rows among them differ, and no row when the answer holds none past the overlap (the two-step check
 * then decides). The check's rows are the last `check.length` of the overlap.
 */
export function rowsAfterOverlap(check: TrailingRun, rows: ReportRow[], overlap: number): ReportRow[] | 'changed' {
	const skip = overlap - check.length;
	if (skip < 0) throw new RangeError('The overlap must hold the rows of the change check');
	if (!check.agrees(rows.slice(skip, overlap))) return 'changed';
	return rows.slice(overlap);
}

function sameRows(a: readonly ReportRow[], b: readonly ReportRow[]): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The two-step check at the boundary before row `at`: the rows from `at` (at most `want`), then the
 * check's rows again. Undefined at the end of the report.
 */
export async function readInTwoSteps(port: CheckPort, check: TrailingRun, at: number, want: number): Promise<Answer | undefined> {
	const after = await port.fetch(at, want);
	const rows = after?.rows ?? [];
	// Rows, but fewer than asked: most likely the end. The offset after them asked now, one answer of
	// the check's rows and these shows the end after them too (the same two steps, one boundary on).
	let lastNext = false;
	if (after !== undefined && rows.length > 0 && rows.length < Math.min(after.limit, want)) {
		const next = await port.fetch(at + rows.length, 1);
		lastNext = next === undefined || next.rows.length === 0;
	}
	const length = check.length;
	let checked = 0;
	let beyond: ReportRow[] = [];
	while (checked < length) {
		// Asking on past the check's rows lets one answer show the boundary whole where it can.
		const page = await port.fetch(at - length + checked, length - checked + rows.length, true);
		if (page === undefined || page.rows.length === 0) return await port.shrank(at);
		const inCheck = Math.min(page.rows.length, length - checked);
		if (!check.agrees(page.rows.slice(0, inCheck), checked)) return await port.changed(at);
		checked += inCheck;
		beyond = page.rows.slice(inCheck);
	}
	if (!sameRows(beyond, rows.slice(0, beyond.length))) return await port.changed(at);
	if (after === undefined || rows.length === 0) return undefined;
	return { ...after, last: lastNext && beyond.length === rows.length };
}
