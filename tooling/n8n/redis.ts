/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `process`) */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { findOnPath, freePort, isPortOpen, isRunning, startLogged, stopProcess, tailOfFile, waitFor } from '../lib/proc';

export const redisInstallHint =
	'Queue mode needs redis-server. On Debian/Ubuntu: sudo apt-get install -y redis-server (the service need not run; each test starts its own server).';

export function redisServerPath(): string | undefined {
	return findOnPath('redis-server', `${process.env.PATH ?? ''}:/usr/bin:/usr/sbin:/usr/local/bin`);
}

export interface RedisServer {
	port: number;
	stop(): Promise<void>;
}

/** Starts a private, non-persistent redis-server on a free loopback port. */
export async function startRedis(dir: string): Promise<RedisServer> {
	const binary = redisServerPath();
	if (!binary) throw new Error(`redis-server was not found. ${redisInstallHint}`);
	mkdirSync(dir, { recursive: true });
	const port = await freePort();
	const logFile = join(dir, 'redis.log');
	const child: ChildProcess = startLogged(
		binary,
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
		logFile,
	);
	await waitFor(`redis-server on port ${port}`, async () => {
		if (!isRunning(child)) throw new Error(`redis-server exited at start:\n${tailOfFile(logFile, 20)}`);
		return (await isPortOpen(port)) ? true : undefined;
	}, { timeoutMs: 20_000 });
	return { port, stop: () => stopProcess(child, 5000) };
}
