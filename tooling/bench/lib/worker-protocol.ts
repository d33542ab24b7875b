/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `process`) */
/**
 * The measuring side of bench/lib/measure.ts, shared by the measuring processes (bench/workers/).
 * Protocol (IPC): receive a task, build its input, report `ready`; on `go`, run the operation timed,
 * check its output, report the result, exit. One fresh process per measurement, so that its peak
 * memory belongs to that measurement alone.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import type { ParentMessage, Task, TaskResult, WorkerMessage } from './tasks';

export type Outcome = Omit<TaskResult, 'elapsedMs' | 'peakRssMiB' | 'rssBeforeMiB' | 'cpuMs'>;

export interface Prepared {
	run(): Promise<Outcome>;
}

const MiB = 1024 * 1024;

/**
 * This process's peak resident memory. VmHWM belongs to the process's own address space, which
 * starts afresh at exec; getrusage's maxRSS does not: Linux carries the peak of the forked copy
 * of the parent over the exec, so a small measuring process would report the benchmark's own size.
 */
function peakRssMiB(): number {
	const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
	if (!match) throw new Error('No VmHWM in /proc/self/status: peak memory can only be measured on Linux');
	return Number(match[1]) / 1024;
}

function send(message: WorkerMessage): Promise<void> {
	return new Promise((resolve) => {
		if (!process.send) throw new Error('Measuring processes are started by the benchmark (they talk over IPC)');
		process.send(message, () => resolve());
	});
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
	return new Promise((resolve, reject) => {
		session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T)));
	});
}

/**
 * A V8 CPU profile of the measured operation alone (not of start-up or input building), when the
 * benchmark asks for one with BENCH_PROFILE_DIR.
 */
async function startProfile(): Promise<((name: string) => Promise<void>) | undefined> {
	const dir = process.env.BENCH_PROFILE_DIR;
	if (!dir) return undefined;
	const session = new Session();
	session.connect();
	await post(session, 'Profiler.enable');
	await post(session, 'Profiler.setSamplingInterval', { interval: 200 });
	await post(session, 'Profiler.start');
	return async (name: string) => {
		const { profile } = await post<{ profile: unknown }>(session, 'Profiler.stop');
		session.disconnect();
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
	};
}

function profileName(task: Task): string {
	if (task.kind === 'poll') return `poll-${task.mode}-${Date.now()}`;
	if (task.kind === 'convert') return `convert-${task.values}-n${task.count}-${Date.now()}`;
	const shape = task.kind === 'read' ? `page${task.pageSize}` : `batch${task.batchSize}-n${task.count}`;
	return `${task.kind}-${task.client}-${shape}-c${task.concurrency}-${Date.now()}`;
}

/** Serves the protocol with `prepare` building each task's operation. */
export function serveMeasurements(prepare: (task: Task) => Promise<Prepared>): void {
	let prepared: Prepared | undefined;
	let task: Task | undefined;
	const handle = async (message: ParentMessage): Promise<void> => {
		if (message.type === 'task') {
			task = message.task;
			prepared = await prepare(message.task);
			await send({ type: 'ready' });
			return;
		}
		if (!prepared || !task) throw new Error('"go" before a task was prepared');
		const stopProfile = await startProfile();
		const rssBefore = process.memoryUsage().rss;
		const cpuBefore = process.cpuUsage();
		const started = performance.now();
		const outcome = await prepared.run();
		const elapsedMs = performance.now() - started;
		const cpu = process.cpuUsage(cpuBefore);
		await stopProfile?.(profileName(task));
		const result: TaskResult = {
			...outcome,
			elapsedMs,
			cpuMs: (cpu.user + cpu.system) / 1000,
			rssBeforeMiB: rssBefore / MiB,
			peakRssMiB: peakRssMiB(),
		};
		await send({ type: 'result', result });
		process.exit(0);
	};
	process.on('message', (message: ParentMessage) => {
		handle(message).catch(async (error: unknown) => {
			const text = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
			await send({ type: 'error', message: text });
			process.exit(1);
		});
	});
}
