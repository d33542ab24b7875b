/**
 * The Records Report Trigger's exactly-once promise under real-world timing, in a real n8n: a bank
 * report whose poll takes longer than the poll interval (slow pages, 429s with Retry-After, a silent
 * page-size cap), rows added between polls, and every new row emitted by exactly one execution.
 * Each n8n setting a bank pull can run on gets its own n8n: n8n's own scheduler (cron per poll time,
 * which does not wait for a running poll) on 2.x and 1.x, and on 2.x the durable scheduler with
 * durable poll cursors. Each n8n polls the report in full and, in a second workflow beside it, only
 * past the remembered rows (New Rows Appear: Appended at the End). Queue mode runs the full-read
 * scenario in queue.e2e.ts. The same n8n then runs the trigger with its defaults (Row Identity: Whole
 * Row) while rows are inserted at the top of the report in the middle of a poll (insertedRows.ts), At
 * the Top and Anywhere; under durable poll cursors also across a SIGKILL of n8n between polls.
 */
import { N8nInstance } from '../../tooling/n8n/n8nInstance';
import { startSandbox, type Sandbox } from '../../tooling/sandbox/server';
import { readSetup, runtimesUnderTest } from './harness';
import { insertedWhilePagingScenario } from './insertedRows';
import { DURABLE_POLLING_ENV, slowPollScenario } from './slowPoll';

const { packed } = readSetup();

const settings = runtimesUnderTest().flatMap(([title, runtime]) => {
	const rows: Array<[string, typeof runtime, Record<string, string>]> = [[`${title}, n8n's cron scheduler`, runtime, {}]];
	if (runtime.spec.name === 'v2') {
		rows.push([`${title}, durable scheduler and durable poll cursors`, runtime, DURABLE_POLLING_ENV]);
	}
	return rows;
});

describe.each(settings)('a slow report poll in %s', (_title, runtime, env) => {
	let sandbox: Sandbox;
	// The ordered mode's report has a sandbox of its own, so that each scenario counts its own reads.
	let orderedSandbox: Sandbox;
	let n8n: N8nInstance;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, quiet: true, bankRows: 10 });
		orderedSandbox = await startSandbox({ port: 0, quiet: true, bankRows: 10 });
		n8n = await N8nInstance.create({ runtime, package: packed, env });
		await n8n.start();
	});

	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.close();
		await orderedSandbox?.close();
	});

	test('polls that outlast the poll interval emit every new row exactly once, reading the whole report or only past the remembered rows', async () => {
		// Both workflows poll side by side in the one n8n: the ordered mode adds no n8n and little time.
		// The owner and the API key are set up once first: two scenarios setting them up at once race.
		await n8n.publicApiKey();
		await Promise.all([
			slowPollScenario(n8n, sandbox),
			slowPollScenario(n8n, orderedSandbox, 'slow-bank-feed-end', 'end'),
		]);
	});

	const kill = env === DURABLE_POLLING_ENV;
	test(`rows inserted at the top while a poll pages: Row Identity Whole Row emits every new row exactly once, New Rows Appear At the Top and Anywhere${kill ? ', also across a SIGKILL of n8n between polls' : ''}`, async () => {
		await insertedWhilePagingScenario(n8n, { kill });
	});
});
