/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (`@n8n/backend-common`, `@n8n/di`) */
/**
 * Records Report Trigger: the line each poll ends with in n8n's log (debug level), which tells an
 * operator, and the benchmark that measures a real n8n, when a poll has ended: a poll that emits
 * nothing makes no execution and may save nothing, so nothing else in n8n marks its end.
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject } from 'n8n-workflow';

import { RecordsReportTrigger } from '../../nodes/RecordsReportTrigger/RecordsReportTrigger.node';
import { prepareContainer, runPoll } from '../../tooling/harness/n8nCoreHarness';
import { control } from '../../tooling/sandbox/control';
import { REPORTS, TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

jest.setTimeout(120_000);

const sandbox = useSandbox();

/** Every message n8n's logger receives, with its level, in order. */
let logged: Array<{ level: string; message: string }> = [];

beforeEach(() => {
	logged = [];
	prepareContainer();
	const logger = Container.get(Logger);
	for (const level of ['debug', 'info', 'warn'] as const) {
		jest.spyOn(logger, level).mockImplementation((...[message]: [string, ...unknown[]]) => void logged.push({ level, message }));
	}
});
afterEach(() => jest.restoreAllMocks());

async function poll(staticData: IDataObject | undefined, workflowId: string) {
	logged = [];
	return await runPoll({
		nodeType: new RecordsReportTrigger(),
		parameters: { report: { __rl: true, mode: 'id', value: REPORTS.bankTransactions } },
		credentials: sandbox.credentials(TOKENS.analysisAdmin),
		staticData,
		workflowId,
	});
}

/** The poll's last message, with the figures it names. */
function lastLine() {
	const last = logged.at(-1)!;
	const match = /^Records Report Trigger "Records Report Trigger": poll ended after (\d+) ms: (.*)$/.exec(last.message);
	return { level: last.level, ms: match ? Number(match[1]) : undefined, what: match?.[2] };
}

describe('Records Report Trigger: the end of a poll in the log', () => {
	it('ends every poll with its time, the rows it emitted and whether the memory changed', async () => {
		const first = await poll(undefined, 'poll-end-log');
		expect(first.items).toBeNull();
		expect(lastLine()).toMatchObject({ level: 'debug', what: '0 new rows, memory changed (generation 1)' });
		expect(lastLine().ms).toBeGreaterThanOrEqual(0);

		const quiet = await poll(first.staticData, 'poll-end-log');
		expect(quiet.items).toBeNull();
		expect(lastLine()).toMatchObject({ level: 'debug', what: '0 new rows, memory unchanged' });

		await control(sandbox, `/reports/${REPORTS.bankTransactions}/rows`, { generate: 3 });
		const added = await poll(quiet.staticData, 'poll-end-log');
		expect(added.items).toHaveLength(3);
		expect(lastLine()).toMatchObject({ level: 'debug', what: '3 new rows, memory changed (generation 2)' });
	});

	it('ends a poll that fails with the line too', async () => {
		await expect(
			runPoll({
				nodeType: new RecordsReportTrigger(),
				parameters: { report: { __rl: true, mode: 'id', value: 'no-such-report' } },
				credentials: sandbox.credentials(TOKENS.analysisAdmin),
				workflowId: 'poll-end-failed',
			}),
		).rejects.toThrow();
		expect(lastLine()).toMatchObject({ level: 'debug', what: 'failed' });
	});
});
