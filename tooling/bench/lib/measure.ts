/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions --
	tooling: runs in Node.js, not inside n8n (Node.js's modules, `process`, `clearTimeout`,
	`setTimeout`, child processes) */
import { fork } from 'node:child_process';
import { join } from 'node:path';

import { repoRoot } from '../../lib/paths';
import type { SandboxProcess } from './sandbox';
import type { ParentMessage, Task, TaskResult, WorkerMessage } from './tasks';

export interface Measurement extends TaskResult {
	/** CPU time the sandbox process used during the operation, in ms. */
	sandboxCpuMs: number;
	/** sandboxCpuMs / elapsedMs: near 1 would mean the sandbox, not the client, set the pace. */
	sandboxBusy: number;
}

export interface MeasureOptions {
	sandbox: SandboxProcess;
	/** Write a V8 CPU profile of each measured operation here. */
	profileDir?: string;
	/** The measuring process is killed after this long; a hung run fails instead of stalling the benchmark. */
	timeoutMs?: number;
}

/** Runs one task in a fresh measuring process (bench/workers/<client>.ts) and returns what it measured. */
export function measure(task: Task, options: MeasureOptions): Promise<Measurement> {
	const child = fork(join(repoRoot, 'tooling', 'bench', 'workers', `${task.client}.ts`), [], {
		cwd: repoRoot,
		// --expose-gc: a measurement of memory collects the garbage of earlier work first (lib/memory-watch.ts).
		execArgv: ['--import', 'tsx', '--expose-gc'],
		env: { ...process.env, NODE_OPTIONS: '', BENCH_PROFILE_DIR: options.profileDir ?? '' },
		stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
	});
	let stderr = '';
	child.stderr?.on('data', (chunk: Buffer) => {
		stderr = (stderr + chunk.toString('utf8')).slice(-8000);
	});
	const sandbox = options.sandbox;
	let sandboxCpuBefore = 0;
	return new Promise<Measurement>((resolve, reject) => {
		let settled = false;
		const finish = (error: Error | undefined, value?: Measurement) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			if (child.exitCode === null) child.kill('SIGKILL');
			if (error) reject(error);
			else resolve(value as Measurement);
		};
		const timer = setTimeout(
			() => finish(new Error(`Measurement of ${describeTask(task)} did not finish within ${(options.timeoutMs ?? 600_000) / 1000} s`)),
			options.timeoutMs ?? 600_000,
		);
		const post = (message: ParentMessage) => child.send(message);
		child.on('message', (message: WorkerMessage) => {
			if (message.type === 'ready') {
				sandboxCpuBefore = sandbox.cpuMs();
				post({ type: 'go' });
			} else if (message.type === 'result') {
				const sandboxCpuMs = sandbox.cpuMs() - sandboxCpuBefore;
				settled = true;
				clearTimeout(timer);
				child.once('exit', () =>
					resolve({ ...message.result, sandboxCpuMs, sandboxBusy: sandboxCpuMs / message.result.elapsedMs }),
				);
			} else {
				finish(new Error(`Measurement of ${describeTask(task)} failed: ${message.message}`));
			}
		});
		child.on('exit', (code) => {
			if (!settled) finish(new Error(`The measuring process for ${describeTask(task)} exited with ${code}:\n${stderr}`));
		});
		child.on('error', (error) => finish(error));
		post({ type: 'task', task });
	});
}

export function describeTask(task: Task): string {
	if (task.kind === 'poll') return `${task.mode} polls of ${task.reportId}`;
	if (task.kind === 'convert') return `conversion of ${task.count} records (${task.values})`;
	if (task.kind === 'read') {
		return `${task.client} read of ${task.reportId} (page ${task.adaptivePages === true ? 'adaptive' : task.pageSize}, concurrency ${task.concurrency})`;
	}
	return `${task.client} import of ${task.count} records (batch ${task.batchSize}, concurrency ${task.concurrency})`;
}
