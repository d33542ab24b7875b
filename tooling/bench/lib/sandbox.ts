/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `process`) */
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from '../../lib/paths';
import { isRunning, startLogged, stopProcess, tailOfFile, waitFor } from '../../lib/proc';
import { requestText } from '../../lib/request';
import type { FaultRule } from '../../sandbox/faults';
import { processCpuMs } from './process-stats';

/** Scratch output of a run: logs, profiles, quick runs' results (git-ignored). */
export const BENCH_TMP = join(repoRoot, 'tooling', 'bench', 'results', 'tmp');

/**
 * The code a run compiles or packs (the package, the baseline, the tarball for n8n): in
 * node_modules/.cache, where tools keep their caches, because the lint (ESLint lints every file
 * below the package but node_modules) and the type check leave it alone. One folder per checkout:
 * checkouts sharing one node_modules (git worktrees) would otherwise compile into the same folder
 * and swap each other's code under a running measurement.
 */
export const BENCH_BUILDS = join(
	repoRoot,
	'node_modules',
	'.cache',
	`n8n-nodes-records-bench-${createHash('sha256').update(repoRoot).digest('hex').slice(0, 8)}`,
);

export interface SandboxStatsSummary {
	requests: Record<string, { total: number; byStatus: Record<string, number> }>;
	faults: { total: number; byRule: Record<string, number>; byKind: Record<string, number> };
	imports: {
		requests: number;
		processedRequests: number;
		recordsReceived: number;
		recordsStored: number;
		batchSizes: number[];
		duplicateKeyCount: number;
		duplicateKeys: Array<{ recordTypeId: string; key: string; times: number }>;
	};
}

export interface StoredRecords {
	recordTypeId: string;
	created: number;
	edited: number;
	records: Array<{ id: string; fields: Record<string, string | number> }>;
}

/**
 * The Records sandbox in its own process, so that it never shares an event loop (or a CPU's worth of
 * time slices) with the client being measured. Its CPU time is read from /proc, to show it was not
 * the bottleneck of a measurement.
 */
export class SandboxProcess {
	private constructor(
		private readonly child: ChildProcess,
		readonly baseUrl: string,
		readonly logFile: string,
		/** With `tls`: the CA certificate (PEM file) that clients must trust. */
		readonly caFile?: string,
	) {}

	static async start({ bankRows = 1000, tls = false }: { bankRows?: number; tls?: boolean } = {}): Promise<SandboxProcess> {
		mkdirSync(BENCH_TMP, { recursive: true });
		const stamp = Date.now();
		const logFile = join(BENCH_TMP, `sandbox-${stamp}.log`);
		const caFile = tls ? join(BENCH_TMP, `sandbox-ca-${stamp}.pem`) : undefined;
		const child = startLogged(
			process.execPath,
			[
				'--import',
				'tsx',
				join('tooling', 'sandbox', 'cli.ts'),
				'--port',
				'0',
				'--quiet',
				'--bank-rows',
				String(bankRows),
				...(caFile ? ['--tls', '--ca-file', caFile] : []),
			],
			logFile,
			{ cwd: repoRoot, env: { ...process.env, NODE_OPTIONS: '' } },
		);
		const baseUrl = await waitFor(
			'the Records sandbox to listen',
			() => {
				if (!isRunning(child)) throw new Error(`The sandbox exited:\n${tailOfFile(logFile, 20)}`);
				const match = /listening on (https?:\/\/127\.0\.0\.1:\d+)/.exec(readFileSync(logFile, 'utf8'));
				return match?.[1];
			},
			{ timeoutMs: 30_000, intervalMs: 100 },
		);
		return new SandboxProcess(child, baseUrl, logFile, caFile);
	}

	get pid(): number {
		return this.child.pid ?? -1;
	}

	/** User + system CPU time the sandbox process has used so far, in milliseconds. */
	cpuMs(): number {
		return processCpuMs(this.pid);
	}

	/** Resident memory of the sandbox process now, in MiB. */
	rssMiB(): number {
		const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
		const match = /VmRSS:\s+(\d+) kB/.exec(status);
		return match ? Number(match[1]) / 1024 : Number.NaN;
	}

	async control<T>(method: string, path: string, body?: unknown): Promise<T> {
		const { status, text } = await requestText(`${this.baseUrl}/__sandbox${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
			ca: this.caFile ? readFileSync(this.caFile, 'utf8') : undefined,
		});
		if (status < 200 || status >= 300) throw new Error(`Sandbox ${method} ${path} answered ${status}: ${text}`);
		return JSON.parse(text) as T;
	}

	/** Back to the seeds (records, reports, tokens), no faults, empty statistics. */
	async reset(): Promise<void> {
		await this.control('POST', '/reset');
	}

	async resetStats(): Promise<void> {
		await this.control('POST', '/stats/reset');
	}

	async stats(): Promise<SandboxStatsSummary> {
		return this.control<SandboxStatsSummary>('GET', '/stats');
	}

	async setFaults(rules: FaultRule[]): Promise<void> {
		await this.control('DELETE', '/faults');
		if (rules.length > 0) await this.control('POST', '/faults', rules);
	}

	/** A report of generated bank rows (unique increasing ids in column c1). */
	async defineBankReport(id: string, rows: number): Promise<void> {
		await this.control('POST', '/reports', { id, name: id, generate: 'bank', rows });
	}

	/** Records a record type holds, without fetching them. */
	async recordCount(recordTypeId: string): Promise<number> {
		const types = await this.control<Array<{ id: string; recordCount: number }>>('GET', '/record-types');
		const type = types.find((entry) => entry.id === recordTypeId);
		if (!type) throw new Error(`The sandbox has no record type "${recordTypeId}"`);
		return type.recordCount;
	}

	async records(recordTypeId: string): Promise<StoredRecords> {
		return this.control<StoredRecords>('GET', `/records/${encodeURIComponent(recordTypeId)}`);
	}

	async stop(): Promise<void> {
		await stopProcess(this.child, 5_000);
	}
}
