import type { N8nInstance } from '../../tooling/n8n/n8nInstance';
import { waitFor } from '../../tooling/lib/proc';
import { TOKENS, type Sandbox } from '../../tooling/sandbox/server';

/**
 * The Records credential that reads the sandbox's reports, its connection test reading `reportId`.
 * n8n 1.x's public API rejects it unless the fields behind display options are given too.
 */
export const reportsCredential = (sandbox: Sandbox, reportId: string) => ({
	name: 'Records reports',
	type: 'recordsApi',
	data: {
		baseUrl: sandbox.baseUrl,
		token: TOKENS.analysisAdmin,
		allowHttp: true,
		testWith: 'report',
		testReportId: reportId,
		testRecordTypeId: '',
		allowedHttpRequestDomains: 'all',
	},
});

/**
 * Creates, through n8n's public API, the Records credential a Report Trigger polls `reportId` with;
 * returns it as a node's `credentials.recordsApi` names it.
 */
export async function createReportsCredential(
	n8n: N8nInstance,
	sandbox: Sandbox,
	reportId: string,
): Promise<{ id: string; name: string }> {
	const credential = reportsCredential(sandbox, reportId);
	return { id: await n8n.createCredential(credential), name: credential.name };
}

/**
 * Poll Times of a Records Report Trigger that poll every 15 seconds. n8n refuses a poll time that
 * fires more than once a minute, so a single entry would make a test wait up to a minute per poll.
 * Poll Times takes several entries, though, each checked on its own: four custom crons at seconds
 * 0, 15, 30 and 45 are a real schedule of n8n's. (`n8n execute` does not poll at all: outside a
 * manual run, n8n hands a poll node's input on without calling it. A manual run from the editor
 * returns a sample and remembers nothing, so it cannot show rows being emitted once either.)
 */
export const pollEvery15Seconds = {
	item: [0, 15, 30, 45].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })),
};

/**
 * Requests one poll of a report with `rows` rows makes: pages of 100 rows (the trigger's default),
 * then one more past the short last page, which the node does not take for the end on its own.
 * Row counts in the tests are never a multiple of 100.
 */
export const requestsPerPoll = (rows: number): number => Math.floor(rows / 100) + 2;

/** Report reads the sandbox has answered. */
export const reportRequests = (sandbox: Sandbox): number => sandbox.state.stats.requests.report?.total ?? 0;

/**
 * For a wait's timeout message: the report reads the sandbox has answered since `from`, which tells
 * polls that stopped from polls that ran and emitted nothing.
 */
export const reportReadsSince = (sandbox: Sandbox, from: number) => (): string =>
	`report reads since then: ${reportRequests(sandbox) - from} (one poll makes ${requestsPerPoll(0)} or more)`;

/** Waits until the sandbox has answered `count` more report reads than `from`. */
export async function waitForReportRequests(sandbox: Sandbox, from: number, count: number): Promise<void> {
	await waitFor(`${count} more report requests`, () => (reportRequests(sandbox) >= from + count ? true : undefined), {
		timeoutMs: 90_000,
	});
}

/**
 * Waits until no poll is reading: at least `after` report requests so far (by default one), then none
 * for `quietMs` (polls come seconds apart and read for well under a second).
 */
export async function betweenPolls(sandbox: Sandbox, { after = 1, quietMs = 1200 } = {}): Promise<void> {
	let last = -1;
	let since = Date.now();
	await waitFor(
		`a poll of the report to end (${reportRequests(sandbox)} report requests so far)`,
		() => {
			const now = reportRequests(sandbox);
			if (now !== last) {
				last = now;
				since = Date.now();
				return undefined;
			}
			return now >= after && Date.now() - since >= quietMs ? true : undefined;
		},
		{ timeoutMs: 90_000, intervalMs: 100 },
	);
}
