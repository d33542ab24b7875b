/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions --
	tooling: runs in Node.js, not inside n8n (Node.js's modules, `process`, `setTimeout`,
	`clearTimeout`, child processes) */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { appendFileSync, closeSync, openSync, readFileSync, statSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { delimiter } from 'node:path';

export interface RunResult {
	code: number;
	stdout: string;
	stderr: string;
}

export interface RunOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/**
	 * Also append stdout and stderr to this file as they arrive, so that a long command can be
	 * followed (`tail -f`) and a failure investigated afterwards.
	 */
	logFile?: string;
	/** Resolve with the exit code instead of rejecting when the command fails. */
	allowFailure?: boolean;
	timeoutMs?: number;
	/**
	 * Send stdout to this file instead of a pipe, and read it back. A process that ends itself
	 * right after printing (n8n's CLI calls process.exit()) can cut off output still queued for a
	 * pipe; writes to a file complete before the call returns.
	 */
	stdoutFile?: string;
	/** Called with the output (stdout and stderr, not stdoutFile) as it arrives, e.g. to show progress. */
	onOutput?: (text: string) => void;
}

/** Runs a command to completion and collects its output. */
export function run(command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
	return new Promise((resolve, reject) => {
		const stdoutFd = options.stdoutFile === undefined ? undefined : openSync(options.stdoutFile, 'w');
		const child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env ?? process.env,
			stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'],
			detached: true,
		});
		if (stdoutFd !== undefined) closeSync(stdoutFd);
		const log = (text: string) => {
			if (options.logFile) appendFileSync(options.logFile, text);
		};
		log(`$ ${command} ${args.join(' ')}\n`);
		const stdout: Buffer[] = [];
		const stderr: Buffer[] = [];
		child.stdout?.on('data', (chunk: Buffer) => {
			stdout.push(chunk);
			log(chunk.toString('utf8'));
			options.onOutput?.(chunk.toString('utf8'));
		});
		child.stderr?.on('data', (chunk: Buffer) => {
			stderr.push(chunk);
			log(chunk.toString('utf8'));
			options.onOutput?.(chunk.toString('utf8'));
		});
		const stopOnExit = () => killGroup(child, 'SIGKILL');
		process.once('exit', stopOnExit);
		const timer = options.timeoutMs
			? setTimeout(() => killGroup(child, 'SIGKILL'), options.timeoutMs)
			: undefined;
		child.on('error', (error) => {
			process.removeListener('exit', stopOnExit);
			if (timer) clearTimeout(timer);
			reject(new Error(`Could not start ${command}: ${error.message}`));
		});
		child.on('close', (code, signal) => {
			process.removeListener('exit', stopOnExit);
			if (timer) clearTimeout(timer);
			const result = {
				code: code ?? 128,
				stdout: options.stdoutFile === undefined ? Buffer.concat(stdout).toString('utf8') : readFileSync(options.stdoutFile, 'utf8'),
				stderr: Buffer.concat(stderr).toString('utf8'),
			};
			log(`${options.stdoutFile === undefined ? '' : result.stdout}\n[exit ${signal ?? result.code}]\n`);
			if (result.code !== 0 && !options.allowFailure) {
				const why = signal ? `was stopped by ${signal}` : `exited with ${result.code}`;
				reject(new Error(`${command} ${args.join(' ')} ${why}:\n${tail(result.stdout + result.stderr, 40)}`));
				return;
			}
			resolve(result);
		});
	});
}

/** The last lines of a text, for error messages that point at the cause without flooding the terminal. */
export function tail(text: string, lines: number): string {
	return text.trimEnd().split('\n').slice(-lines).join('\n');
}

export function tailOfFile(file: string, lines: number): string {
	try {
		return tail(readFileSync(file, 'utf8'), lines);
	} catch {
		return `(no log at ${file})`;
	}
}

/**
 * Starts a long-running process in its own process group, output going to a log file. Its own group
 * lets stop() end it together with the children it starts (n8n's task runners), and keeps a Ctrl-C
 * in the terminal from reaching it before the caller has decided the order of shutdown.
 */
export function startLogged(command: string, args: string[], logFile: string, options: SpawnOptions = {}): ChildProcess {
	const fd = openSync(logFile, 'a');
	try {
		const child = spawn(command, args, { ...options, stdio: ['ignore', fd, fd], detached: true });
		const stopOnExit = () => killGroup(child, 'SIGKILL');
		process.once('exit', stopOnExit);
		child.once('exit', () => process.removeListener('exit', stopOnExit));
		return child;
	} finally {
		closeSync(fd);
	}
}

export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	if (child.pid === undefined) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		// The group is already gone.
	}
}

export function isRunning(child: ChildProcess): boolean {
	return child.exitCode === null && child.signalCode === null;
}

/** Ends a process group: a polite signal first, then SIGKILL for whatever is left after the grace period. */
export async function stopProcess(child: ChildProcess, graceMs = 20_000): Promise<void> {
	if (isRunning(child)) {
		await new Promise<void>((resolve) => {
			const timer = setTimeout(resolve, graceMs);
			child.once('exit', () => {
				clearTimeout(timer);
				resolve();
			});
			child.kill('SIGTERM');
		});
	}
	killGroup(child, 'SIGKILL');
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Binds `port` (0: any) on loopback and releases it; resolves with the port, or undefined if taken. */
function tryListen(port: number): Promise<number | undefined> {
	return new Promise((resolve) => {
		const server = createServer();
		server.unref();
		server.once('error', () => resolve(undefined));
		server.listen(port, '127.0.0.1', () => {
			const address = server.address();
			const bound = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(bound));
		});
	});
}

/** The first port the OS takes for outgoing connections (Linux), if known. */
function firstEphemeralPort(): number | undefined {
	try {
		const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
		return Number.isInteger(low) ? low : undefined;
	} catch {
		return undefined;
	}
}

/**
 * A random TCP port nothing listens on right now, for a process that binds it later (n8n binds its
 * ports seconds after it starts). Taken from the 10,000 ports below the range the OS gives
 * outgoing connections, so that a client socket opened meanwhile cannot take it; where that range
 * is unknown or starts too low, the OS picks the port.
 */
export async function freePort(): Promise<number> {
	const low = firstEphemeralPort();
	if (low !== undefined && low - 10_000 >= 1024) {
		for (let attempt = 0; attempt < 20; attempt++) {
			const port = await tryListen(low - 10_000 + Math.floor(Math.random() * 10_000));
			if (port !== undefined) return port;
		}
	}
	const port = await tryListen(0);
	if (port === undefined) throw new Error('No free TCP port on 127.0.0.1.');
	return port;
}

export function isPortOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = new Socket();
		const done = (open: boolean) => {
			socket.destroy();
			resolve(open);
		};
		socket.setTimeout(1000, () => done(false));
		socket.once('error', () => done(false));
		socket.connect(port, host, () => done(true));
	});
}

/** Polls until check() returns a value other than undefined, or fails with a message saying what was awaited. */
export async function waitFor<T>(
	what: string,
	check: () => Promise<T | undefined> | T | undefined,
	{ timeoutMs = 60_000, intervalMs = 250 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`Timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
		await sleep(intervalMs);
	}
}

/** The full path of an executable found on PATH, or undefined. */
export function findOnPath(name: string, pathVariable = process.env.PATH ?? ''): string | undefined {
	for (const dir of pathVariable.split(delimiter)) {
		if (!dir) continue;
		const candidate = `${dir}/${name}`;
		try {
			if (statSync(candidate).isFile()) return candidate;
		} catch {
			// Not in this directory.
		}
	}
	return undefined;
}

export function formatDuration(ms: number): string {
	const seconds = ms / 1000;
	if (seconds < 60) return `${seconds.toFixed(1)} s`;
	return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}
