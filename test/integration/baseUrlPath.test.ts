/**
 * A credential whose Base URL has a path (…/api/v1), saved before the connection test refused such
 * an address or used anyway: every endpoint under it is unknown, and the service answers 404 whatever
 * was asked. The nodes say to remove the path, not that the report or record type does not exist
 * (issue 48). Get Rows, Import and the Report Trigger, against the sandbox.
 */
import type { ExecutionBaseError } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { RecordsReportTrigger } from '../../nodes/RecordsReportTrigger/RecordsReportTrigger.node';
import { runNode, runPoll } from '../../tooling/harness/n8nCoreHarness';
import { RECORD_TYPES, REPORTS, TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const sandbox = useSandbox({ bankRows: 10 });

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

/** The sandbox's credential with a path after its address. */
const withPath = (path: string) => ({ ...sandbox.credentials(TOKENS.full), baseUrl: `${sandbox.baseUrl}${path}` });

function expectRemoveThePath(error: Pick<ExecutionBaseError, 'message' | 'description'> | undefined, path: string): void {
	expect(error?.message).toMatch(/\(404\)/);
	expect(error?.message).toContain(`the credential's Base URL has a path (${path})`);
	expect(error?.message).not.toMatch(/does not exist/);
	// Import adds what became of the records.
	expect(error?.description?.startsWith(
		`Enter only the address of your installation as the Base URL of the Records API credential, here ${sandbox.baseUrl}: the nodes add the API's paths themselves.`,
	)).toBe(true);
}

describe('a Base URL with a path, answered 404', () => {
	it.each(['/api/v1', '/records/'])('Report → Get Rows says to remove the path (%s)', async (path) => {
		const { error } = await runNode({
			nodeType: new Records(),
			parameters: { resource: 'report', operation: 'getRows', report: byId(REPORTS.bankTransactions), returnAll: true },
			credentials: withPath(path),
		});
		expectRemoveThePath(error, path.replace(/\/$/, ''));
	});

	it('Record → Import says to remove the path, and nothing is stored', async () => {
		const before = sandbox.state.getRecords(RECORD_TYPES.tasks).length;
		const { error } = await runNode({
			nodeType: new Records(),
			parameters: { resource: 'record', operation: 'import', recordTypeId: RECORD_TYPES.tasks },
			credentials: withPath('/api/v1'),
			input: [{ Název: 'Zavolat do ČEZ', Zadal: 'Jana Nováková', Zpracovatel: 'Petr Svoboda' }],
		});
		expectRemoveThePath(error, '/api/v1');
		expect(error?.description).toMatch(/No records were imported\.$/);
		expect(sandbox.state.getRecords(RECORD_TYPES.tasks)).toHaveLength(before);
	});

	it('the Report Trigger says to remove the path', async () => {
		const poll = runPoll({
			nodeType: new RecordsReportTrigger(),
			parameters: { report: byId(REPORTS.bankTransactions) },
			credentials: withPath('/api/v1'),
		});
		const error = (await poll.then(
			() => undefined,
			(caught: unknown) => caught,
		)) as ExecutionBaseError | undefined;
		expectRemoveThePath(error, '/api/v1');
	});

	it('a report that does not exist under an address without a path keeps its message', async () => {
		const { error } = await runNode({
			nodeType: new Records(),
			parameters: { resource: 'report', operation: 'getRows', report: byId('no-such-report'), returnAll: true },
			credentials: sandbox.credentials(TOKENS.full),
		});
		expect(error?.message).toBe('The report "no-such-report" does not exist or is not made available through the API (404)');
	});
});
