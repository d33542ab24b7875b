/**
 * Report Trigger memory in a real n8n: an active *Anywhere* trigger polling a virtual report on
 * n8n's own schedule (n8n 2.41.1, its cron scheduler, sqlite), measured from outside. Per poll: the
 * server's peak RSS (`VmHWM`, reset through /proc/<pid>/clear_refs before the poll) above its idle
 * RSS (just before the poll, nothing running; the first poll's before the workflow is activated), and the poll's time (its first to its last
 * report request, from the sandbox's request counts). Polls: the first (activation, remembers every
 * row), one with no new rows, one after 50 rows were added. Each size runs in a fresh n8n, without
 * and with a heap cap that models the smallest n8n Cloud plan.
 */
import type { BenchContext, Rendered, Section } from '../lib/context';
import { chainWorkflow, pidListeningOn, RECORDS_CREDENTIAL, resetPeakRss, startN8n, statusKiB } from '../lib/benchN8n';
import { markdownTable } from '../lib/markdown';
import { formatCount, formatMs } from '../lib/stats';
import { sleep } from '../../lib/proc';

const REPORT_ID = 'bench-n8n-anywhere';
const ADDED_ROWS = 50;
/** Smallest n8n Cloud plan (Trial, Starter): 320 MiB for the whole instance. */
const CLOUD_CAP_MIB = 320;
/** Four poll times a minute (n8n refuses a single one more often than once a minute). */
const POLL_TIMES = { item: [0, 15, 30, 45].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })) };
/** A poll has ended when the sandbox has served no report request for this long. */
const QUIET_MS = 6_000;
const POLL_TIMEOUT_MS = 240_000;

type PollName = 'first' | 'quiet' | 'added';

interface PollFigure {
	poll: PollName;
	/** The server's RSS just before the poll (between polls, nothing running), MiB. */
	idleMiB?: number;
	/** Peak RSS above idleMiB; undefined when the poll did not end within the timeout. */
	peakAboveIdleMiB?: number;
	ms?: number;
	requests?: number;
	note?: string;
}

interface Configuration {
	rows: number;
	capMiB?: number;
	idleRssMiB: number;
	polls: PollFigure[];
	emitted?: number;
	error?: string;
}

export interface N8nPollMemoryData {
	n8nVersion: string;
	configurations: Configuration[];
}

const MiB = 1024;

async function reportRequests(context: BenchContext): Promise<number> {
	return (await context.sandbox.stats()).requests.report?.total ?? 0;
}

/**
 * Waits for the next poll: its first report request after `from`, then QUIET_MS without one (the
 * save of the memory after its last request falls in that time). Returns its time and requests.
 */
async function nextPoll(context: BenchContext, from: number): Promise<{ ms: number; requests: number } | undefined> {
	const deadline = Date.now() + POLL_TIMEOUT_MS;
	let last = from;
	let firstAt = 0;
	let lastAt = 0;
	while (Date.now() < deadline) {
		const now = await reportRequests(context);
		if (now !== last) {
			if (firstAt === 0) firstAt = Date.now();
			lastAt = Date.now();
			last = now;
		} else if (firstAt !== 0 && Date.now() - lastAt >= QUIET_MS) {
			return { ms: lastAt - firstAt, requests: last - from };
		}
		await sleep(100);
	}
	return undefined;
}

function sizes(quick: boolean): number[] {
	return quick ? [20_000] : [100_000, 999_950];
}

async function measureConfiguration(context: BenchContext, rows: number, capMiB: number | undefined): Promise<Configuration> {
	const { sandbox } = context;
	await sandbox.control('POST', '/reports', { id: REPORT_ID, generate: 'bank', rows, virtual: true });
	const env: Record<string, string> = capMiB === undefined ? {} : { NODE_OPTIONS: `--max-old-space-size=${capMiB}` };
	const n8n = await startN8n(context, [], [], env, { startTimeoutMs: 300_000 });
	const configuration: Configuration = { rows, capMiB, idleRssMiB: 0, polls: [] };
	try {
		const pid = pidListeningOn(n8n.instance.port);
		await sleep(10_000);
		configuration.idleRssMiB = statusKiB(pid, 'VmRSS') / MiB;
		const workflow = chainWorkflow('benchN8nAnywhere', 'Anywhere poll', [
			{
				name: 'New rows',
				type: 'n8n-nodes-records.recordsReportTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: POLL_TIMES, report: { __rl: true, mode: 'id', value: REPORT_ID } },
				credentials: { recordsApi: RECORDS_CREDENTIAL },
			},
		]);
		const measurePoll = async (poll: PollName, start: () => Promise<void>) => {
			const from = await reportRequests(context);
			const idleMiB = statusKiB(pid, 'VmRSS') / MiB;
			if (!resetPeakRss(pid)) throw new Error("The n8n server's peak RSS cannot be reset (/proc/<pid>/clear_refs)");
			await start();
			const ended = await nextPoll(context, from);
			const figure: PollFigure = ended
				? { poll, idleMiB, peakAboveIdleMiB: statusKiB(pid, 'VmHWM') / MiB - idleMiB, ...ended }
				: { poll, note: `no end within ${POLL_TIMEOUT_MS / 1000} s` };
			configuration.polls.push(figure);
			context.log(
				`n8n, Anywhere, ${formatCount(rows)} rows${capMiB ? `, heap cap ${capMiB} MiB` : ''}, ${poll} poll: ` +
					(ended ? `+${figure.peakAboveIdleMiB?.toFixed(0)} MiB peak RSS over idle ${idleMiB.toFixed(0)} MiB, ${formatMs(ended.ms)}, ${ended.requests} requests` : figure.note ?? ''),
			);
			return ended !== undefined;
		};
		const id = await n8n.instance.createWorkflow(workflow, { activate: false });
		if (!(await measurePoll('first', async () => void (await n8n.instance.api('POST', `/workflows/${id}/activate`))))) return configuration;
		if (!(await measurePoll('quiet', async () => undefined))) return configuration;
		await measurePoll('added', async () => void (await sandbox.control('POST', `/reports/${REPORT_ID}/rows`, { generate: ADDED_ROWS })));
		const executions = await n8n.instance.executions(id);
		configuration.emitted = executions
			.filter((execution) => execution.status === 'success')
			.reduce((sum, execution) => sum + (execution.data?.resultData.runData['New rows']?.[0]?.data?.main?.[0]?.length ?? 0), 0);
	} catch (error) {
		configuration.error = (error as Error).message.split('\n')[0].slice(0, 300);
		context.log(`n8n, Anywhere, ${formatCount(rows)} rows: failed: ${configuration.error}`);
	} finally {
		await n8n.stop();
		await sandbox.reset();
	}
	return configuration;
}

async function run(context: BenchContext): Promise<N8nPollMemoryData> {
	const configurations: Configuration[] = [];
	for (const rows of sizes(context.quick)) {
		for (const capMiB of [undefined, CLOUD_CAP_MIB]) configurations.push(await measureConfiguration(context, rows, capMiB));
	}
	return { n8nVersion: '2.41.1', configurations };
}

function render(data: N8nPollMemoryData): Rendered {
	const names: Record<PollName, string> = { first: 'first poll (remembers every row)', quiet: 'no new rows', added: `${ADDED_ROWS} new rows` };
	const rows: string[][] = [];
	for (const configuration of data.configurations) {
		const label = `${formatCount(configuration.rows)} rows, ${configuration.capMiB ? `heap cap ${configuration.capMiB} MiB` : 'no cap'}`;
		if (configuration.polls.length === 0) rows.push([label, `failed: ${configuration.error ?? ''}`, '', '', '']);
		configuration.polls.forEach((poll, index) =>
			rows.push([
				index === 0 ? `${label} (RSS ${configuration.idleRssMiB.toFixed(0)} MiB 10 s after start)` : '',
				names[poll.poll],
				poll.peakAboveIdleMiB === undefined ? (poll.note ?? '') : `+${poll.peakAboveIdleMiB.toFixed(0)} MiB (idle ${(poll.idleMiB ?? 0).toFixed(0)} MiB)`,
				poll.ms === undefined ? '' : formatMs(poll.ms),
				poll.poll === 'added' && configuration.emitted !== undefined ? `${configuration.emitted} rows emitted in all` : '',
			]),
		);
	}
	const markdown = [
		`**An active Anywhere trigger in a real n8n ${data.n8nVersion}** (sqlite, n8n's cron scheduler polling every 15 s; a virtual report on the sandbox, the trigger's default options): ` +
			"the n8n server's peak RSS during each poll above its RSS just before the poll (idle: nothing running), " +
			`n8n's save of the memory included; the time from the poll's first to its last report request. With a heap cap: \`NODE_OPTIONS=--max-old-space-size=${CLOUD_CAP_MIB}\`, the memory of the smallest n8n Cloud plan. A fresh n8n per row.`,
		'',
		markdownTable({ headers: ['n8n', 'Poll', 'Peak RSS over idle', 'Time', 'Emitted'], rows }),
		'',
	].join('\n');
	return { markdown, charts: [], targets: [] };
}

export const n8nPollMemory: Section<N8nPollMemoryData> = {
	id: 'n8n-poll-memory',
	title: 'Report Trigger memory in a real n8n',
	run,
	render,
};
