/**
 * One request for rows of a report (spec §4.2) and the check that its answer is a report table; and
 * which failures may mean only that the offset asked for is past the report's last row.
 *
 * The guide answers an offset past the end with an empty page. Some services answer it with 404,
 * 400 (or 416, 422), or a 200 whose body is an error object instead of a table; and some refuse a
 * `limit` above their maximum, or a request reaching deeper than they serve, the same ways. Such an
 * answer is the end of the report only where the end is proven (pageRequests.ts decides): otherwise
 * it is a reason to ask a smaller page, or the error it says.
 */
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { recordsApiRequest, type RecordsConnection, type RecordsFunctions, type RetryPolicy } from '../transport';
import type { ReportColumn, ReportRow } from './rows';

export interface TablePage {
	columns?: ReportColumn[];
	/** The rows as the service sent them, keyed by column id. */
	rows: ReportRow[];
}

/** What every request of one read shares. */
export interface TableSource {
	reportId: string;
	itemIndex?: number;
	timeoutMs?: number;
	retry?: Partial<RetryPolicy>;
	connection: RecordsConnection;
}

export function reportPath(reportId: string): string {
	return `/api/analysis/reports/${encodeURIComponent(reportId)}/data/table`;
}

/** An answer that is not a report table. `errorObject`: a JSON object without rows, or no object at all. */
export class NotATableError extends NodeOperationError {
	errorObject = false;
}

/** Statuses a service may answer an offset past the last row with; 404 says nothing about `limit`. */
const PAST_END_STATUSES = new Set([400, 404, 416, 422]);

/** What a failed request may say about the `offset` and `limit` it asked for. */
export interface Refusal {
	/** The HTTP status; 400 for a 200 whose body is an error object (a refusal all the same). */
	status: number;
	/** It may mean only that the offset asked for is past the last row. */
	pastEnd: boolean;
	/** How the service answered, for an error message. */
	answer: string;
}

/** The refusal a failed request may be; undefined for failures that say nothing about the request's rows. */
export function refusalOf(error: unknown): Refusal | undefined {
	if (error instanceof NotATableError) {
		return error.errorObject ? { status: 400, pastEnd: true, answer: 'an answer that is not a report table' } : undefined;
	}
	if (!(error instanceof NodeApiError)) return undefined;
	const status = Number(error.httpCode);
	if (!Number.isInteger(status)) return undefined;
	return { status, pastEnd: PAST_END_STATUSES.has(status), answer: `status ${status}` };
}

export async function fetchTablePage(
	this: RecordsFunctions,
	source: TableSource,
	offset: number,
	limit: number,
	finalStatuses?: readonly number[],
): Promise<TablePage> {
	const { reportId, itemIndex } = source;
	const { body } = await recordsApiRequest.call(this, {
		method: 'GET',
		path: reportPath(reportId),
		qs: { offset, limit },
		purpose: 'report',
		subject: `report "${reportId}"`,
		itemIndex,
		timeoutMs: source.timeoutMs,
		retry: finalStatuses ? { ...source.retry, finalStatuses } : source.retry,
		connection: source.connection,
	});
	const table = body as { columns?: unknown; rows?: unknown } | null;
	const problem = (what: string, errorObject = false) => {
		const error = new NotATableError(
			this.getNode(),
			`The service's answer for report "${reportId}" (offset ${offset}) is not a report table: ${what}`,
			{
				itemIndex,
				description:
					'A report table is a JSON object with a "columns" list and a "rows" list. Check that the Base URL points at the Records installation itself, not at a proxy or login page.',
			},
		);
		error.errorObject = errorObject;
		return error;
	};
	if (table === null || typeof table !== 'object' || Array.isArray(table)) {
		throw problem('it is not a JSON object', true);
	}
	if (!Array.isArray(table.rows)) throw problem('it has no "rows" list', true);
	const rows = table.rows as unknown[];
	for (let i = 0; i < rows.length; i++) {
		const row = rows[i];
		if (row === null || typeof row !== 'object' || Array.isArray(row)) {
			throw problem(`row ${offset + i} is not an object`);
		}
	}
	let columns: ReportColumn[] | undefined;
	if (table.columns !== undefined) {
		if (!Array.isArray(table.columns)) throw problem('"columns" is not a list');
		columns = (table.columns as unknown[]).map((column, index) => {
			const { id, name } = (column ?? {}) as { id?: unknown; name?: unknown };
			if (typeof id !== 'string' && typeof id !== 'number') {
				throw problem(`column ${index + 1} has no id`);
			}
			return { id: String(id), name: typeof name === 'string' ? name : String(name ?? '') };
		});
	}
	return { columns, rows: rows as ReportRow[] };
}
