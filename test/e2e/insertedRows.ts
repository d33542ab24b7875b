import { nodeOutput, type N8nInstance } from '../../tooling/n8n/n8nInstance';
import { sleep, waitFor } from '../../tooling/lib/proc';
import { control } from '../../tooling/sandbox/control';
import { bankTransactionIds, startSandbox, type Sandbox } from '../../tooling/sandbox/server';
import { workflow } from './harness';
import { betweenPolls, createReportsCredential } from './polling';

/**
 * The Records Report Trigger with its default Row Identity (Whole Row) polling a bank report every 5
 * seconds in pages of 10 rows, while the report gets rows at the top in the middle of a poll: the
 * sandbox's insertRows fault adds 3 new transactions right after the first page of a read was
 * served, so every later page of that read is shifted by 3 rows and the rows at its page boundaries
 * are served twice. Every row (the first poll's, those added between polls and those inserted
 * mid-read) must come out of exactly one execution, and nothing else.
 *
 * On First Run is Emit All Current Rows: the first poll's execution shows that the trigger's memory
 * is stored before rows are added (with Only Remember Them nothing shows it, and rows added before
 * the first scheduled poll are a different question: the activation gap).
 */

const KEY = 'ID transakce';
const INITIAL_ROWS = 30;
const PAGE_SIZE = 10;
/** Rows inserted at the top after the first page of a read. */
const INSERTED_MID_READ = 3;
const POLL_INTERVAL_MS = 5000;

/** Poll Times that poll every 5 seconds: twelve custom crons, each firing once a minute. */
const pollEvery5Seconds = {
	item: Array.from({ length: 12 }, (_, index) => ({ mode: 'custom', cronExpression: `${index * 5} * * * * *` })),
};

type Position = 'top' | 'anywhere';

interface Feed {
	position: Position;
	sandbox: Sandbox;
	report: string;
	workflowId: string;
	/** The report's first rows and every row the test added: each must be emitted once. */
	added: string[];
	/** The insertRows rules armed so far. */
	ruleIds: string[];
}

async function startFeed(n8n: N8nInstance, sandbox: Sandbox, position: Position): Promise<Feed> {
	const report = `bank-feed-${position}`;
	await control(sandbox, '/reports', { id: report, generate: 'bank', rows: INITIAL_ROWS });
	const credential = await createReportsCredential(n8n, sandbox, report);
	const workflowId = await n8n.createWorkflow(
		workflow(`insertedRows-${position}`, `New bank transactions (rows inserted while a poll pages, new rows ${position})`, [
			{
				name: 'New bank rows',
				type: 'n8n-nodes-records.recordsReportTrigger',
				// Row Identity keeps its default: Whole Row.
				parameters: {
					pollTimes: pollEvery5Seconds,
					report: { __rl: true, mode: 'id', value: report },
					newRowPosition: position,
					firstRun: 'emit',
					options: { pageSize: PAGE_SIZE },
				},
				credentials: { recordsApi: credential },
			},
		]),
		{ activate: true },
	);
	return { position, sandbox, report, workflowId, added: bankTransactionIds(1, INITIAL_ROWS), ruleIds: [] };
}

/**
 * Arms the fault (3 new rows at the top right after the first page of the next read) and adds
 * `count` rows at the top. Called between polls, so that the next poll reads the added rows over
 * several pages and the insertion lands in the middle of that read.
 */
async function addRowsAndInsertMidRead(feed: Feed, count: number): Promise<void> {
	const rule = { route: 'report', reportId: feed.report, pageOffset: 0, times: 1, insertRows: { at: 'top', count: INSERTED_MID_READ } };
	const { faults } = await control<{ faults: Array<{ id: string }> }>(feed.sandbox, '/faults', [rule]);
	feed.ruleIds.push(faults[0].id);
	const before = feed.sandbox.state.reports.get(feed.report)!.generated;
	await control(feed.sandbox, `/reports/${feed.report}/rows`, { generate: count, at: 'top' });
	feed.added.push(...bankTransactionIds(before + 1, count));
}

/** The rules that inserted rows, and every row to be emitted: the report's first rows, and those added by the test or by a rule. */
function newRows(feed: Feed): { expected: string[]; notFired: string[] } {
	const rules = feed.sandbox.state.faults.filter((rule) => feed.ruleIds.includes(rule.id));
	const inserted = rules.flatMap((rule) => (rule.inserted ?? []).map((row) => row.c1));
	const notFired = rules.filter((rule) => (rule.inserted ?? []).length === 0).map((rule) => rule.id);
	return { expected: [...feed.added, ...inserted], notFired };
}

async function emittedCounts(n8n: N8nInstance, feed: Feed): Promise<{ counts: Map<string, number>; failed: string[] }> {
	const executions = await n8n.executions(feed.workflowId);
	const counts = new Map<string, number>();
	for (const execution of executions) {
		if (execution.status !== 'success') continue;
		for (const item of nodeOutput(execution, 'New bank rows')) {
			const id = String(item.json[KEY]);
			counts.set(id, (counts.get(id) ?? 0) + 1);
		}
	}
	const failed = executions.filter((execution) => execution.status !== 'success').map((execution) => `#${execution.id} ${execution.status}`);
	return { counts, failed };
}

/**
 * Waits until every new row was emitted at least once. On a timeout it returns all the same: the
 * outcome then names the rows missing, which says more than the timeout.
 */
async function waitForNewRowsEmitted(n8n: N8nInstance, feed: Feed): Promise<void> {
	await waitFor(
		`the new rows of ${feed.report} to be emitted`,
		async () => {
			const { expected, notFired } = newRows(feed);
			if (notFired.length > 0) return undefined;
			const { counts } = await emittedCounts(n8n, feed);
			return expected.every((id) => counts.has(id)) ? true : undefined;
		},
		{ timeoutMs: 60_000, intervalMs: 1000 },
	).catch(() => undefined);
}

/** What went wrong: all empty when every new row came out of exactly one execution and nothing else did. */
async function outcome(n8n: N8nInstance, feed: Feed) {
	const { expected, notFired } = newRows(feed);
	const { counts, failed } = await emittedCounts(n8n, feed);
	const wanted = new Set(expected);
	return {
		/** insertRows rules that never fired: the scenario did not happen as planned. */
		notFired,
		missing: expected.filter((id) => !counts.has(id)),
		/** Rows emitted more than once (by several executions, or twice by one), with how often. */
		repeated: Object.fromEntries([...counts].filter(([, times]) => times > 1)),
		/** Rows emitted that the report never had (a broken row, say). */
		unknown: [...counts.keys()].filter((id) => !wanted.has(id)),
		failed,
	};
}

/**
 * Two triggers in one n8n, New Rows Appear At the Top and Anywhere, each on its own sandbox. After
 * the first poll emitted the report's 30 rows, At the Top gets 25 rows at the top (three pages) and
 * Anywhere 5, each with 3 more inserted after the first page of the next read. With `kill`, n8n is
 * then killed with SIGKILL between polls, more rows are added and armed to be inserted mid-read while
 * it is down, and the restarted n8n must emit them once too.
 */
export async function insertedWhilePagingScenario(n8n: N8nInstance, { kill }: { kill: boolean }): Promise<void> {
	const positions: Position[] = ['top', 'anywhere'];
	// The owner and the API key are set up once first: two feeds setting them up at once race.
	await n8n.publicApiKey();
	const sandboxes = await Promise.all(positions.map(() => startSandbox({ port: 0, quiet: true, bankRows: 10 })));
	try {
		const feeds = await Promise.all(positions.map((position, index) => startFeed(n8n, sandboxes[index], position)));
		// The first poll emits the report's rows (On First Run: Emit All Current Rows).
		await Promise.all(feeds.map((feed) => waitForNewRowsEmitted(n8n, feed)));
		await Promise.all(feeds.map((feed) => betweenPolls(feed.sandbox)));
		await Promise.all(feeds.map((feed) => addRowsAndInsertMidRead(feed, feed.position === 'top' ? 25 : 5)));
		await Promise.all(feeds.map((feed) => waitForNewRowsEmitted(n8n, feed)));
		if (kill) {
			await Promise.all(feeds.map((feed) => betweenPolls(feed.sandbox)));
			await n8n.kill();
			await Promise.all(feeds.map((feed) => addRowsAndInsertMidRead(feed, feed.position === 'top' ? 12 : 4)));
			await n8n.start();
			await Promise.all(feeds.map((feed) => waitForNewRowsEmitted(n8n, feed)));
		}
		// The polls after the last new row was emitted emit nothing more.
		await sleep(2 * POLL_INTERVAL_MS);
		await Promise.all(feeds.map((feed) => betweenPolls(feed.sandbox)));

		const outcomes = Object.fromEntries(await Promise.all(feeds.map(async (feed) => [feed.position, await outcome(n8n, feed)])));
		const exactlyOnce = { notFired: [], missing: [], repeated: {}, unknown: [], failed: [] };
		expect(outcomes).toEqual({ top: exactlyOnce, anywhere: exactlyOnce });
	} finally {
		await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
	}
}
