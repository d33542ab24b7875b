/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (reads n8n's log and database from outside) */
/**
 * Report Trigger memory in a real n8n: an active *Anywhere* trigger polling a virtual report on
 * n8n's own schedule (n8n 2.41.1, its cron scheduler, sqlite), measured from outside. Per poll: the
 * server's peak RSS (`VmHWM`, reset through /proc/<pid>/clear_refs before the poll) above its RSS
 * just before the poll (the first poll's: before the workflow is activated), and the poll's time as
 * the trigger reports it. Polls: the first (activation, remembers every row), one with no new rows,
 * one after 50 rows were added. Each size runs in a fresh n8n, without and with a heap cap that
 * models the smallest n8n Cloud plan.
 *
 * A poll's end is read from facts, not from a pause: the trigger ends every poll with a line in
 * n8n's log (debug level) giving its time, the rows it emitted and whether its memory changed; after
 * that line n8n does two things more, and the poll counts as ended once both are done where they
 * apply: the execution of the emitted rows has finished (n8n's executions), and a changed memory is
 * in n8n's database (the workflow's static data, read from the database file by another process, so
 * that reading it costs the server nothing). A poll that emits nothing and changes nothing makes no
 * execution and no save: its line is its end.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import type { BenchContext, Rendered, Section } from '../lib/context';
import { type BenchN8n, chainWorkflow, pidListeningOn, RECORDS_CREDENTIAL, resetPeakRss, startN8n, statusKiB } from '../lib/benchN8n';
import { markdownTable } from '../lib/markdown';
import { formatCount, formatMs } from '../lib/stats';
import { sleep } from '../../lib/proc';

const REPORT_ID = 'bench-n8n-anywhere';
const NODE_NAME = 'New rows';
const ADDED_ROWS = 50;
/** Smallest n8n Cloud plan (Trial, Starter): 320 MiB for the whole instance. */
const CLOUD_CAP_MIB = 320;
/** Four poll times a minute (n8n refuses a single one more often than once a minute). */
const POLL_TIMES = { item: [0, 15, 30, 45].map((second) => ({ mode: 'custom', cronExpression: `${second} * * * * *` })) };
const POLL_TIMEOUT_MS = 300_000;
/**
 * n8n 2.41.1 aborts a workflow's publication (its activation, which runs the trigger's first poll)
 * after 0.7 of its outbox lease (N8N_WORKFLOW_PUBLICATION_OUTBOX_LEASE_SECONDS, 120 s by default).
 */
const PUBLICATION_DEADLINE_MS = 0.7 * 120_000;

/** The line the trigger ends each poll with (RecordsReportTrigger.node.ts). */
const POLL_ENDED = new RegExp(
	`Records Report Trigger "${NODE_NAME}": poll ended after (\\d+) ms: (?:(\\d+) new rows, memory (?:changed \\(generation (\\d+)\\)|unchanged)|failed)`,
);

type PollName = 'first' | 'rest' | 'quiet' | 'added';

interface PollFigure {
	poll: PollName;
	/** The server's RSS just before the poll (between polls, nothing running), MiB. */
	idleMiB?: number;
	/** Peak RSS above idleMiB; undefined when the poll did not end within the timeout. */
	peakAboveIdleMiB?: number;
	/** The poll's time, as the trigger reports it. */
	ms?: number;
	/** The first poll: from the call that activates the workflow to its memory in the database. */
	activationMs?: number;
	requests?: number;
	emitted?: number;
	/** Polls the figure spans (more than one when a poll ended without the expected change). */
	polls?: number;
	note?: string;
}

interface Configuration {
	rows: number;
	capMiB?: number;
	idleRssMiB: number;
	polls: PollFigure[];
	emitted?: number;
	/** n8n's log said the publication exceeded its deadline. */
	publicationDeadlineExceeded?: boolean;
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

interface PollEnd {
	ms: number;
	emitted: number;
	/** The generation of the memory the poll changed; undefined when unchanged. */
	generation?: number;
	failed: boolean;
}

/** Reads the server log from `offset` (bytes): the poll-end lines in it and where they stop. */
function pollEndsIn(logFile: string, offset: number): { ends: PollEnd[]; offset: number } {
	const text = readFileSync(logFile).subarray(offset);
	const complete = text.lastIndexOf(10) + 1;
	const ends: PollEnd[] = [];
	for (const line of text.subarray(0, complete).toString('utf8').split('\n')) {
		const match = POLL_ENDED.exec(line);
		if (!match) continue;
		ends.push({
			ms: Number(match[1]),
			emitted: Number(match[2] ?? 0),
			generation: match[3] === undefined ? undefined : Number(match[3]),
			failed: match[2] === undefined,
		});
	}
	return { ends, offset: offset + complete };
}

/**
 * The generation of the trigger's memory as n8n's database holds it now (0: none), read by the
 * runtime's Node.js (its built-in sqlite) in a process of its own.
 */
async function storedGeneration(n8n: BenchN8n, workflowId: string): Promise<number> {
	const script = [
		"const { DatabaseSync } = require('node:sqlite');",
		'const db = new DatabaseSync(process.argv[1], { readOnly: true, timeout: 10000 });',
		`const row = db.prepare('select json_extract(staticData, ?) as generation from workflow_entity where id = ?').get('$."node:${NODE_NAME}".reportRows.generation', process.argv[2]);`,
		'process.stdout.write(String(row?.generation ?? 0));',
	].join('\n');
	const database = join(n8n.instance.userFolder, '.n8n', 'database.sqlite');
	const { stdout } = await promisify(execFile)(n8n.instance.runtime.nodeBin, ['--no-warnings', '-e', script, database, workflowId]);
	return Number(stdout);
}

/** Whether n8n's log says a publication (an activation) exceeded its deadline and was abandoned. */
function publicationAborted(n8n: BenchN8n): boolean {
	return readFileSync(n8n.instance.serverLog, 'utf8').includes('Abandoned workflow publication outbox record');
}

/** Whether the workflow has `count` executions and none of them is still running. */
async function executionsFinished(n8n: BenchN8n, workflowId: string, count: number): Promise<boolean> {
	const page = await n8n.instance.api<{ data: Array<{ status: string; stoppedAt?: string | null }> }>(
		'GET',
		`/executions?${new URLSearchParams({ workflowId, limit: '250' })}`,
	);
	return page.data.length >= count && page.data.every((execution) => execution.stoppedAt);
}

interface Watch {
	n8n: BenchN8n;
	workflowId: string;
	logOffset: number;
	/** Executions the workflow has had so far. */
	executions: number;
}

/**
 * Waits for the next poll to end (see the header): its end line, then its execution finished and its
 * memory in the database where they apply. `until` can ask for a poll that did something (the
 * polls before it, which did not, are counted in the figure). Returns the poll's end, or undefined
 * at the timeout.
 */
async function nextPollEnd(
	watch: Watch,
	until: (end: PollEnd) => boolean = () => true,
	saved: (end: PollEnd) => boolean = () => true,
): Promise<{ end: PollEnd; polls: number; unsaved?: boolean } | undefined> {
	const deadline = Date.now() + POLL_TIMEOUT_MS;
	let polls = 0;
	while (Date.now() < deadline) {
		const read = pollEndsIn(watch.n8n.instance.serverLog, watch.logOffset);
		watch.logOffset = read.offset;
		for (const end of read.ends) {
			polls++;
			if (end.emitted > 0) watch.executions++;
			if (!until(end) && !end.failed) continue;
			while (end.emitted > 0 && !(await executionsFinished(watch.n8n, watch.workflowId, watch.executions))) {
				if (Date.now() > deadline) return undefined;
				await sleep(200);
			}
			while (end.generation !== undefined && saved(end) && (await storedGeneration(watch.n8n, watch.workflowId)) < end.generation) {
				// n8n saves the activation poll's memory only when the publication did not abort: after
				// an abort it stays in the process until a poll emits (ended, but not in the database).
				if (Date.now() > deadline || publicationAborted(watch.n8n)) return { end, polls, unsaved: true };
				await sleep(200);
			}
			return { end, polls };
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
	// Debug level: the trigger's poll-end lines.
	const env: Record<string, string> = { N8N_LOG_LEVEL: 'debug', ...(capMiB === undefined ? {} : { NODE_OPTIONS: `--max-old-space-size=${capMiB}` }) };
	const n8n = await startN8n(context, [], [], env, { startTimeoutMs: 300_000 });
	const configuration: Configuration = { rows, capMiB, idleRssMiB: 0, polls: [] };
	const label = `n8n, Anywhere, ${formatCount(rows)} rows${capMiB ? `, heap cap ${capMiB} MiB` : ''}`;
	try {
		const pid = pidListeningOn(n8n.instance.port);
		await sleep(10_000);
		configuration.idleRssMiB = statusKiB(pid, 'VmRSS') / MiB;
		const workflow = chainWorkflow('benchN8nAnywhere', 'Anywhere poll', [
			{
				name: NODE_NAME,
				type: 'n8n-nodes-records.recordsReportTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: POLL_TIMES, report: { __rl: true, mode: 'id', value: REPORT_ID } },
				credentials: { recordsApi: RECORDS_CREDENTIAL },
			},
		]);
		const workflowId = await n8n.instance.createWorkflow(workflow, { activate: false });
		const watch: Watch = { n8n, workflowId, logOffset: readFileSync(n8n.instance.serverLog).length, executions: 0 };
		const measurePoll = async (poll: PollName, start: () => Promise<void>, until?: (end: PollEnd) => boolean, saved?: (end: PollEnd) => boolean) => {
			const from = await reportRequests(context);
			const idleMiB = statusKiB(pid, 'VmRSS') / MiB;
			if (!resetPeakRss(pid)) throw new Error("The n8n server's peak RSS cannot be reset (/proc/<pid>/clear_refs)");
			const startedAt = Date.now();
			await start();
			const ended = await nextPollEnd(watch, until, saved);
			const figure: PollFigure = ended
				? {
						poll,
						idleMiB,
						peakAboveIdleMiB: statusKiB(pid, 'VmHWM') / MiB - idleMiB,
						ms: ended.end.ms,
						requests: (await reportRequests(context)) - from,
						emitted: ended.end.emitted,
						polls: ended.polls,
						...(poll === 'first' ? { activationMs: Date.now() - startedAt } : {}),
						...(ended.end.failed ? { note: 'the poll failed' } : {}),
						...(ended.unsaved ? { note: "its memory not in n8n's database" } : {}),
					}
				: { poll, note: `no end within ${POLL_TIMEOUT_MS / 1000} s` };
			configuration.polls.push(figure);
			context.log(
				`${label}, ${poll} poll: ` +
					(ended
						? `+${figure.peakAboveIdleMiB?.toFixed(0)} MiB peak RSS over idle ${idleMiB.toFixed(0)} MiB, poll ${formatMs(ended.end.ms)}` +
							`${figure.activationMs === undefined ? '' : `, activation ${formatMs(figure.activationMs)}`}, ${figure.requests} requests, ${ended.end.emitted} emitted, ${ended.polls} poll(s)` +
							(ended.end.failed ? ', failed' : '') +
							(ended.unsaved ? ", memory not in n8n's database" : '')
						: (figure.note ?? '')),
			);
			return ended !== undefined && !ended.end.failed;
		};
		// Not awaited: the call may answer only once the activation (its first poll) is done.
		const activation = n8n.instance.api('POST', `/workflows/${workflowId}/activate`).catch((error: Error) => {
			configuration.error = `activation: ${error.message.split('\n')[0].slice(0, 300)}`;
		});
		const activated = await measurePoll('first', async () => undefined);
		await activation;
		configuration.publicationDeadlineExceeded = readFileSync(n8n.instance.serverLog, 'utf8').includes('exceeded its deadline');
		if (!activated) return configuration;
		// A first run too large for one poll goes on at the next polls (firstRunParts.ts); n8n saves
		// what a poll that emits nothing remembered only with the next emitting poll.
		const log = () => readFileSync(n8n.instance.serverLog, 'utf8');
		if (log().includes('its first run goes on over the next polls')) {
			if (!(await measurePoll('rest', async () => undefined, () => log().includes('the first run is complete'), (end) => end.emitted > 0))) return configuration;
		}
		if (!(await measurePoll('quiet', async () => undefined))) return configuration;
		await measurePoll(
			'added',
			async () => void (await sandbox.control('POST', `/reports/${REPORT_ID}/rows`, { generate: ADDED_ROWS })),
			(end) => end.emitted > 0,
		);
		configuration.emitted = configuration.polls.reduce((sum, poll) => sum + (poll.emitted ?? 0), 0);
	} catch (error) {
		configuration.error = (error as Error).message.split('\n')[0].slice(0, 300);
		context.log(`${label}: failed: ${configuration.error}`);
	} finally {
		configuration.publicationDeadlineExceeded ||= readFileSync(n8n.instance.serverLog, 'utf8').includes('exceeded its deadline');
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
	const names: Record<PollName, string> = {
		first: 'first poll (activation; remembers every row, or the rows it reads in 60 s)',
		rest: "the first run's later polls, until every row was read once",
		quiet: 'no new rows', added: `${ADDED_ROWS} new rows` };
	const rows: string[][] = [];
	for (const configuration of data.configurations) {
		const label = `${formatCount(configuration.rows)} rows, ${configuration.capMiB ? `heap cap ${configuration.capMiB} MiB` : 'no cap'}`;
		if (configuration.polls.length === 0) rows.push([label, `failed: ${configuration.error ?? ''}`, '', '', '', '', '']);
		configuration.polls.forEach((poll, index) =>
			rows.push([
				index === 0 ? `${label} (RSS ${configuration.idleRssMiB.toFixed(0)} MiB 10 s after start)` : '',
				names[poll.poll] + (poll.polls !== undefined && poll.polls > 1 ? ` (${poll.polls} polls)` : ''),
				poll.peakAboveIdleMiB === undefined ? (poll.note ?? '') : `+${poll.peakAboveIdleMiB.toFixed(0)} MiB (idle ${(poll.idleMiB ?? 0).toFixed(0)} MiB)`,
				poll.ms === undefined ? '' : formatMs(poll.ms),
				poll.activationMs === undefined
					? ''
					: `${formatMs(poll.activationMs)}${configuration.publicationDeadlineExceeded ? ' (publication deadline exceeded)' : ''}`,
				poll.requests === undefined ? '' : formatCount(poll.requests),
				poll.emitted === undefined ? '' : formatCount(poll.emitted) + (poll.note && poll.peakAboveIdleMiB !== undefined ? `; ${poll.note}` : ''),
			]),
		);
		if (configuration.polls.length > 0 && configuration.error !== undefined) rows.push(['', `failed: ${configuration.error}`, '', '', '', '', '']);
	}
	const markdown = [
		`**An active Anywhere trigger in a real n8n ${data.n8nVersion}** (sqlite, n8n's cron scheduler polling every 15 s; a virtual report on the sandbox, the trigger's default options): ` +
			"the n8n server's peak RSS during each poll above its RSS just before the poll (for the first poll: before the workflow was activated), " +
			"n8n's save of the memory and the execution of the emitted rows included. A poll ends with the trigger's line in n8n's log (debug level), then its execution finished and its memory in the database where they apply, not after a pause. " +
			"Poll time: as the trigger logs it. Activation: from the call that activates the workflow to the first poll's memory in the database " +
			`(n8n runs the first poll inside the activation; it aborts a publication after ${PUBLICATION_DEADLINE_MS / 1000} s). ` +
			`With a heap cap: \`NODE_OPTIONS=--max-old-space-size=${CLOUD_CAP_MIB}\`, the memory of the smallest n8n Cloud plan. A fresh n8n per configuration.`,
		'',
		markdownTable({ headers: ['n8n', 'Poll', 'Peak RSS over idle', 'Poll time', 'Activation', 'Report requests', 'Emitted'], rows }),
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
