/**
 * The measuring side of bench/lib/measure.ts, shared by the measuring processes (bench/workers/).
 * Protocol (IPC): receive a task, build its input, report `ready`; on `go`, run the operation timed,
 * check its output, report the result, exit. One fresh process per measurement, so that its peak
 * memory belongs to that measurement alone.
 */
import { performance } from 'node:perf_hooks';

import type { ParentMessage, Task, TaskResult, WorkerMessage } from './tasks';

export type Outcome = Omit<TaskResult, 'elapsedMs' | 'peakRssMiB' | 'rssBeforeMiB' | 'cpuMs'>;

export interface Prepared {
	run(): Promise<Outcome>;
}

const MiB = 1024 * 1024;

function send(message: WorkerMessage): Promise<void> {
	return new Promise((resolve) => {
		if (!process.send) throw new Error('Measuring processes are started by the benchmark (they talk over IPC)');
		process.send(message, () => resolve());
	});
}

/** Serves the protocol with `prepare` building each task's operation. */
export function serveMeasurements(prepare: (task: Task) => Promise<Prepared>): void {
	let prepared: Prepared | undefined;
	const handle = async (message: ParentMessage): Promise<void> => {
		if (message.type === 'task') {
			prepared = await prepare(message.task);
			await send({ type: 'ready' });
			return;
		}
		if (!prepared) throw new Error('"go" before a task was prepared');
		const rssBefore = process.memoryUsage().rss;
		const cpuBefore = process.cpuUsage();
		const started = performance.now();
		const outcome = await prepared.run();
		const elapsedMs = performance.now() - started;
		const cpu = process.cpuUsage(cpuBefore);
		const result: TaskResult = {
			...outcome,
			elapsedMs,
			cpuMs: (cpu.user + cpu.system) / 1000,
			rssBeforeMiB: rssBefore / MiB,
			// maxRSS is in kilobytes.
			peakRssMiB: process.resourceUsage().maxRSS / 1024,
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
