/**
 * A Records report service simulated in memory, and a Records Report Trigger polling it through
 * n8n's own poll engine (n8n-core's PollContext and TriggersAndPollers, via the harness's runPoll):
 * for tests that poll thousands of times. The report's rows are the test's to change, also between
 * two page requests of a poll; a virtual clock, which every request advances, is what the node reads
 * as the time (its poll budget, its guard); and the service can page the ways real services differ
 * from the guide: pages capped silently by rows or by bytes, a hard maximum on `limit` (refused above
 * it with 400, 413, 422 or a 200 whose body is an error object), a depth window (a request whose
 * `offset + limit` passes it refused, as search back ends with a result window do, though every row
 * up to there is served), offsets past the end answered with 404, 400 or an error object.
 */
/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (`@n8n/backend-common`, `@n8n/di`) */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { RecordsReportTrigger } from '../../../../nodes/RecordsReportTrigger/RecordsReportTrigger.node';
import type { ReportColumn, ReportRow } from '../../../../nodes/shared/report/rows';
import { prepareContainer, runPoll } from '../../../../tooling/harness/n8nCoreHarness';

export interface ReportTable {
	columns: ReportColumn[];
	rows: ReportRow[];
}

/** How the service pages; the guide's service has none of the limits. */
export interface ServiceRules {
	/** Time each request takes on the virtual clock. */
	latencyMs: number;
	/** Rows an answer holds at most, whatever `limit` asked (a silent cap). */
	rowCap?: number;
	/** Bytes of rows an answer holds at most (at least one row), whatever `limit` asked. */
	byteCap?: number;
	/** The largest `limit` the service takes; a larger one is refused (`overLimit`). */
	maxLimit?: number;
	/** How a `limit` above `maxLimit` is refused: 400 (default), 413, 422, or 200 with an error object. */
	overLimit?: Refusal;
	/** The deepest row a request may reach: one whose `offset + limit` passes it is refused (`deepAnswer`). */
	depthLimit?: number;
	/** How a request past `depthLimit` is refused: 400 (default), 422, or 200 with an error object. */
	deepAnswer?: Refusal;
	/** The answer to an offset past the last row: an empty page (the guide), or an error. */
	pastEnd?: 'empty' | 400 | 404 | 'errorObject';
}

const json = { 'content-type': 'application/json' };

/** An answer refusing a request: a status, or a 200 whose body is an error object. */
export type Refusal = 400 | 413 | 422 | 'errorObject';

function refused(how: Refusal, message: string): IN8nHttpFullResponse {
	if (how === 'errorObject') return { statusCode: 200, headers: json, body: { error: message } };
	return { statusCode: how, headers: json, body: { message } };
}

export class VirtualClock {
	now = Date.UTC(2026, 10, 27, 8, 0, 0);

	/** Makes `Date.now()` read this clock until the returned function is called. */
	install(): () => void {
		const spy = jest.spyOn(Date, 'now').mockImplementation(() => this.now);
		return () => spy.mockRestore();
	}
}

export class VirtualService {
	readonly reports = new Map<string, ReportTable>();
	rules: ServiceRules = { latencyMs: 100 };
	requests = 0;
	/** Called after each answer, with the request's number: to change a report between two requests. */
	afterAnswer: (request: number) => void = () => undefined;
	/** Awaited before each request is answered: to make a request take turns of the event loop to leave. */
	beforeAnswer: (options: IHttpRequestOptions) => Promise<void> = async () => undefined;
	/** The rows an answer hands on, as copies by default: to hand on rows that tell when they are read. */
	answerRows: (rows: ReportRow[], offset: number) => ReportRow[] = (rows) => rows.map((row) => ({ ...row }));

	constructor(readonly clock = new VirtualClock()) {}

	async request(options: IHttpRequestOptions): Promise<IN8nHttpFullResponse> {
		this.requests++;
		await this.beforeAnswer(options);
		this.clock.now += this.rules.latencyMs;
		const answer = this.answer(options);
		this.afterAnswer(this.requests);
		return answer;
	}

	private answer(options: IHttpRequestOptions): IN8nHttpFullResponse {
		const match = /\/api\/analysis\/reports\/([^/]+)\/data\/table$/.exec(options.url);
		const report = match ? this.reports.get(decodeURIComponent(match[1])) : undefined;
		if (report === undefined) return { statusCode: 404, headers: json, body: { message: 'Report not found' } };
		const qs = (options.qs ?? {}) as IDataObject;
		const offset = Number(qs.offset ?? 0);
		const limit = Number(qs.limit ?? 100);
		const { rowCap, byteCap, maxLimit, depthLimit, pastEnd = 'empty' } = this.rules;
		if (maxLimit !== undefined && limit > maxLimit) return refused(this.rules.overLimit ?? 400, `limit must be at most ${maxLimit}`);
		if (depthLimit !== undefined && offset + limit > depthLimit) return refused(this.rules.deepAnswer ?? 400, `offset + limit must be at most ${depthLimit}`);
		if (offset > 0 && offset >= report.rows.length && pastEnd !== 'empty') {
			if (pastEnd === 'errorObject') return { statusCode: 200, headers: json, body: { error: 'offset is out of range' } };
			return { statusCode: pastEnd, headers: json, body: { message: 'offset is out of range' } };
		}
		let rows = report.rows.slice(offset, offset + Math.min(limit, rowCap ?? Infinity));
		if (byteCap !== undefined) {
			let bytes = 0;
			const fitting = rows.findIndex((row) => (bytes += JSON.stringify(row).length) > byteCap);
			if (fitting >= 0) rows = rows.slice(0, Math.max(1, fitting));
		}
		return {
			statusCode: 200,
			headers: json,
			body: { columns: report.columns.map((column) => ({ ...column })), rows: this.answerRows(rows, offset) },
		};
	}
}

export interface TriggerPoll {
	items: INodeExecutionData[] | null;
	error?: Error & { description?: string | null };
}

/**
 * One Records Report Trigger in one n8n process (its polls share the node's guard) polling the
 * virtual service: its parameters, name, node id and workflow, and the workflow's static data as n8n
 * stores it between polls (JSON). Edit them between polls as the editor would.
 */
export class VirtualTrigger {
	staticData: IDataObject = {};
	name = 'Records Report Trigger';
	nodeId = 'report-trigger';
	/** n8n's budget for one poll (`getPollBudgetMs()`), on the virtual clock; null: none asked for (n8n 1.x). */
	budgetMs: number | null | undefined;

	constructor(
		readonly service: VirtualService,
		public parameters: INodeParameters,
		public workflowId: string,
	) {}

	/** One poll as n8n's poll engine makes it (mode `manual`: Fetch Test Event). */
	async poll(mode: 'trigger' | 'manual' = 'trigger', staticData = this.staticData): Promise<TriggerPoll> {
		try {
			const result = await runPoll({
				nodeType: new RecordsReportTrigger(),
				parameters: this.parameters,
				credentials: { baseUrl: 'https://records.example.test', token: 'virtual-token' },
				staticData,
				mode,
				nodeName: this.name,
				nodeId: this.nodeId,
				workflowId: this.workflowId,
				pollBudgetMs: this.budgetMs,
				httpRequest: async (options) => await this.service.request(options),
			});
			if (mode === 'trigger') this.staticData = result.staticData;
			return { items: result.items };
		} catch (error) {
			return { items: null, error: error as TriggerPoll['error'] };
		}
	}
}

export const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** The warnings n8n's log gets, test by test (registers jest hooks: call at a file's top level). */
export function captureWarnings(): { messages: string[] } {
	const captured = { messages: [] as string[] };
	beforeEach(() => {
		captured.messages = [];
		prepareContainer();
		jest.spyOn(Container.get(Logger), 'warn').mockImplementation((message: string) => void captured.messages.push(String(message)));
	});
	afterEach(() => jest.restoreAllMocks());
	return captured;
}
