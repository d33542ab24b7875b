/**
 * An in-memory report service for the paging engine's tests, behind a fake n8n context: the engine
 * sends its requests through the package's transport as in a node, and this service answers them
 * with the behaviour a case chooses (pages capped in rows or bytes, a hard maximum of `limit` refused
 * with 400, 413, 422 or an error object, a limit on how deep a read may go, an offset past the end
 * answered with an empty page, 404, 400, 416, 422 or an error object) while the report
 * changes before a chosen request. It logs every request.
 */
import type { IDataObject, IN8nHttpFullResponse, IHttpRequestOptions, INode } from 'n8n-workflow';

import { readReportPages, type ReadReportOptions, type ReadReportSummary } from '../../../../../nodes/shared/report/paging';
import type { ReportRow } from '../../../../../nodes/shared/report/rows';
import type { RecordsFunctions } from '../../../../../nodes/shared/transport';

export type PastEnd = 'empty' | 404 | 400 | 416 | 422 | 'errorObject';

/** How a `limit` above `maxLimit` is refused. */
export type OverLimit = 400 | 413 | 422 | 'errorObject';

export interface ServiceBehaviour {
	/** Serve at most this many rows per answer, silently. */
	rowCap?: number;
	/** Serve rows only while the answer's JSON stays within this many bytes (at least one row). */
	byteCap?: number;
	/** Refuse a `limit` above this (with 400, or as `overLimit` says). */
	maxLimit?: number;
	overLimit?: OverLimit;
	/** Refuse (400) any request whose `offset + limit` is above this; every row up to there is served. */
	maxDepth?: number;
	/** How an offset past the last row (never offset 0) is answered. */
	pastEnd?: PastEnd;
}

export const COLUMNS = [
	{ id: 'c1', name: 'ID' },
	{ id: 'c2', name: 'Text' },
];

export interface ServiceRequest {
	offset: number;
	limit: number;
	/** What the report held when this request was answered (a copy is kept only when it changed). */
	state: ReportRow[];
}

export class ReportService {
	readonly requests: ServiceRequest[] = [];

	/** Every state the report was in while read, the first included. */
	readonly states: ReportRow[][];

	constructor(
		public rows: ReportRow[],
		readonly behaviour: ServiceBehaviour = {},
		/** Called before each request is answered, with its number (1-based): may change `rows`, and says so. */
		private readonly beforeRequest: (request: number, service: ReportService) => boolean = () => false,
	) {
		this.states = [rows.slice()];
	}

	answer(offset: number, limit: number): IN8nHttpFullResponse {
		if (this.beforeRequest(this.requests.length + 1, this)) this.states.push(this.rows.slice());
		this.requests.push({ offset, limit, state: this.states[this.states.length - 1] });
		const { rowCap, byteCap, maxLimit, overLimit = 400, maxDepth, pastEnd = 'empty' } = this.behaviour;
		if (maxDepth !== undefined && offset + limit > maxDepth) return json(400, { error: 'result_window_too_large', message: `offset + limit must be at most ${maxDepth}` });
		if (maxLimit !== undefined && limit > maxLimit) {
			const refusal = { error: 'invalid_limit', message: `limit must be at most ${maxLimit}` };
			return json(overLimit === 'errorObject' ? 200 : overLimit, refusal);
		}
		let rows = this.rows.slice(offset, offset + Math.min(limit, rowCap ?? limit));
		if (byteCap !== undefined) rows = withinBytes(rows, byteCap);
		if (rows.length === 0 && offset > 0 && pastEnd !== 'empty') {
			const error = { error: 'offset_out_of_range', message: `offset ${offset} is past the last row` };
			return pastEnd === 'errorObject' ? json(200, error) : json(pastEnd, error);
		}
		return json(200, { columns: COLUMNS, rows });
	}

	/** The fake n8n context whose HTTP helper this service answers. */
	context(): RecordsFunctions {
		const node: INode = { id: 'node-1', name: 'Records', type: 'records', typeVersion: 1, position: [0, 0], parameters: {} };
		const context = {
			getNode: () => node,
			getCredentials: async () => ({ baseUrl: 'http://records.test', token: 'token-1', allowHttp: true }),
			helpers: {
				httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
					const qs = options.qs as IDataObject;
					return this.answer(Number(qs.offset), Number(qs.limit));
				},
			},
		};
		return context as unknown as RecordsFunctions;
	}

	/** Reads the report through the engine; the rows handed on, or the error it ended in. */
	async read(options: Omit<ReadReportOptions, 'reportId' | 'onPage'> & { stopAfter?: number }): Promise<ReadOutcome> {
		const rows: ReportRow[] = [];
		try {
			const summary = await readReportPages.call(this.context(), {
				reportId: 'r',
				...options,
				onPage: (page) => {
					rows.push(...page.rows);
					return options.stopAfter !== undefined && rows.length >= options.stopAfter ? 'stop' : undefined;
				},
			});
			return { rows, summary };
		} catch (error) {
			return { rows, error: error as Error };
		}
	}
}

export interface ReadOutcome {
	rows: ReportRow[];
	summary?: ReadReportSummary;
	error?: Error;
}

function json(statusCode: number, body: unknown): IN8nHttpFullResponse {
	return { statusCode, headers: { 'content-type': 'application/json' }, body: body as IN8nHttpFullResponse['body'] };
}

function withinBytes(rows: ReportRow[], bytes: number): ReportRow[] {
	let size = JSON.stringify({ columns: COLUMNS, rows: [] }).length;
	let count = 0;
	for (const row of rows) {
		size += JSON.stringify(row).length + (count > 0 ? 1 : 0);
		if (count > 0 && size > bytes) break;
		count++;
	}
	return rows.slice(0, count);
}

/** A row: `id`, and text (identical rows share both). */
export const row = (id: string, text = ''): ReportRow => ({ c1: id, c2: text });

/** A day's bank fee: every fee the same row. */
export const FEE = row('FEE-4', '4.3.2026 -2,00 Poplatek za transakci');
