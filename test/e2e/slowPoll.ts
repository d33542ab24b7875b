import { nodeOutput, type ExecutionSummary, type N8nInstance } from '../../tooling/n8n/n8nInstance';
import { waitFor } from '../../tooling/lib/proc';
import { addFaults, control } from '../../tooling/sandbox/control';
import { bankTransactionIds, type Sandbox } from '../../tooling/sandbox/server';
import { workflow } from './harness';
import { createReportsCredential, reportReadsSince, reportRequests } from './polling';

/**
 * n8n 2.x's durable scheduler running poll triggers, with each poll's cursor (the trigger's static
 * data) committed in the same transaction as the execution it emitted.
 */
export const DURABLE_POLLING_ENV: Record<string, string> = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

const ROWS = 120;
/** Pages the service serves silently capped at 20 rows: one poll is 6 pages and the empty one past them. */
const PAGE_CAP = 20;
const REQUESTS_PER_POLL = ROWS / PAGE_CAP + 1;
/** An ordered poll with nothing new: the first row, the last remembered row's page, the empty page after it. */
const REQUESTS_PER_ORDERED_POLL = 3;
const KEY = 'ID transakce';

/**
 * Poll Times that poll every 5 seconds: twelve custom crons, each firing once a minute (n8n refuses
 * a single poll time that fires more often), so that polls longer than the interval come quickly.
 */
const pollEvery5Seconds = {
	item: Array.from({ length: 12 }, (_, index) => ({ mode: 'custom', cronExpression: `${index * 5} * * * * *` })),
};

/**
 * Bank rows polled every 5 seconds from a report that answers each request after 1 s, caps its
 * pages silently and answers about one request in four with 429 and Retry-After: 1. One poll takes
 * about 8-12 s, so n8n's next poll time comes while a poll is still reading. The first poll emits
 * the rows already there, rows are added twice, and after both were emitted two more polls' worth of
 * reads must emit nothing. Every row must come out of exactly one execution, and every execution must
 * succeed. With `position` 'end' the trigger reads only past the rows it remembers (New Rows Appear:
 * Appended at the End), which must keep the same promise. Returns the executions.
 */
export async function slowPollScenario(
	n8n: N8nInstance,
	sandbox: Sandbox,
	report = 'slow-bank-feed',
	position: 'anywhere' | 'end' = 'anywhere',
): Promise<ExecutionSummary[]> {
	const requestsPerPoll = position === 'anywhere' ? REQUESTS_PER_POLL : REQUESTS_PER_ORDERED_POLL;
	await control(sandbox, '/reports', { id: report, generate: 'bank', rows: ROWS });
	await addFaults(
		sandbox,
		{ route: 'report', reportId: report, limitCap: PAGE_CAP },
		{ route: 'report', reportId: report, latencyMs: 1000 },
		{ route: 'report', reportId: report, status: 429, retryAfter: 1, probability: 0.25, seed: 17 },
	);
	const credential = await createReportsCredential(n8n, sandbox, report);
	const workflowId = await n8n.createWorkflow(
		workflow(position === 'anywhere' ? 'slowBankFeed' : 'slowBankFeedEnd', `New bank transactions (slow report, new rows ${position})`, [
			{
				name: 'New bank rows',
				type: 'n8n-nodes-records.recordsReportTrigger',
				parameters: {
					pollTimes: pollEvery5Seconds,
					report: { __rl: true, mode: 'id', value: report },
					rowIdentity: 'columns',
					keyColumns: KEY,
					newRowPosition: position,
					firstRun: 'emit',
				},
				credentials: { recordsApi: credential },
			},
		]),
		{ activate: true },
	);

	const emitted = async (): Promise<unknown[]> =>
		(await n8n.executions(workflowId)).flatMap((execution) =>
			execution.status === 'success' ? nodeOutput(execution, 'New bank rows').map((item) => item.json[KEY]) : [],
		);
	const waitForEmitted = async (ids: string[]): Promise<void> => {
		const from = reportRequests(sandbox);
		await waitFor(
			`rows ${ids.join(', ')} to be emitted`,
			async () => {
				const seen = new Set(await emitted());
				return ids.every((id) => seen.has(id)) ? true : undefined;
			},
			{ timeoutMs: 150_000, intervalMs: 1000 },
		).catch((error: Error) => {
			throw new Error(`${error.message}; ${reportReadsSince(sandbox, from)()}`);
		});
	};
	const waitForWholePolls = async (polls: number): Promise<void> => {
		const from = reportRequests(sandbox);
		await waitFor(`${polls} more polls of ${report}`, () => (reportRequests(sandbox) >= from + polls * requestsPerPoll ? true : undefined), {
			timeoutMs: 60_000 * polls,
			intervalMs: 1000,
		});
	};

	// The poll made when the workflow is activated emits the rows already there (On First Run: Emit All Current Rows).
	await waitForEmitted(bankTransactionIds(1, ROWS));
	await control(sandbox, `/reports/${report}/rows`, { generate: 3 });
	await waitForEmitted(bankTransactionIds(ROWS + 1, 3));
	await control(sandbox, `/reports/${report}/rows`, { generate: 2 });
	await waitForEmitted(bankTransactionIds(ROWS + 4, 2));
	// Polls that were reading while the rows were emitted, and the ones after them, emit nothing more.
	await waitForWholePolls(2);

	const executions = await n8n.executions(workflowId);
	expect(executions.map((execution) => execution.status)).toEqual(executions.map(() => 'success'));
	expect(await emitted()).toEqual(bankTransactionIds(1, ROWS + 5));
	return executions;
}
