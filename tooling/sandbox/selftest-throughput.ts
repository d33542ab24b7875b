/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions,
	no-console -- tooling: runs in Node.js, not inside n8n (Node.js's modules, `process`,
	`__dirname`, child processes, the console) */
/**
 * Measures the sandbox's own throughput, to show it is never the bottleneck of a benchmark.
 *
 *   npx tsx tooling/sandbox/selftest-throughput.ts [--concurrency 8] [--in-process | --url <running sandbox>]
 *
 * The sandbox runs in a child process (so the client's work does not share its event loop) unless
 * --in-process is given. The client is plain node:http with a keep-alive agent; every request count
 * is bounded. Prints requests/s, rows/s and records/s per scenario and, for the child process, the
 * sandbox CPU time used and what one fully used core of it serves (rows or records per CPU-second):
 * that capacity figure holds whatever else the machine is doing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { INVOICE_KEY_FIELD, RECORD_TYPES, TOKENS, startSandbox } from './server';

interface Scenario {
	name: string;
	requests: number;
	/** Items per request (rows or records) for the per-item rate. */
	itemsPerRequest: number;
	unit: 'rows' | 'records';
	send: (agent: http.Agent, index: number) => Promise<number>;
}

function option(name: string, fallback: number): number {
	const index = process.argv.indexOf(`--${name}`);
	return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

function send(agent: http.Agent, baseUrl: string, method: string, urlPath: string, body?: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const headers: Record<string, string> = { authorization: `Bearer ${TOKENS.full}` };
		if (body !== undefined) {
			headers['content-type'] = 'application/json';
			headers['content-length'] = String(Buffer.byteLength(body));
		}
		const req = http.request(`${baseUrl}${urlPath}`, { method, agent, headers }, (res) => {
			let bytes = 0;
			res.on('data', (chunk: Buffer) => (bytes += chunk.length));
			res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${urlPath}: HTTP ${res.statusCode}`))));
		});
		req.on('error', reject);
		req.end(body);
	});
}

/** User + system CPU milliseconds a process has used (Linux /proc; 100 clock ticks per second). */
function cpuMsOf(pid: number): number | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return (Number(fields[11]) + Number(fields[12])) * 10;
	} catch {
		return undefined;
	}
}

async function run(scenario: Scenario, concurrency: number, serverPid?: number): Promise<Record<string, string | number>> {
	const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
	const cpuBefore = serverPid === undefined ? undefined : cpuMsOf(serverPid);
	let next = 0;
	let bytes = 0;
	const started = performance.now();
	const worker = async (): Promise<void> => {
		while (next < scenario.requests) {
			const index = next++;
			const received = await scenario.send(agent, index);
			bytes += received;
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	const seconds = (performance.now() - started) / 1000;
	agent.destroy();
	const cpuAfter = serverPid === undefined ? undefined : cpuMsOf(serverPid);
	const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
	// What one core of sandbox CPU can serve: a capacity figure that does not depend on the client.
	const capacity: Record<string, number> =
		cpuMs === undefined || cpuMs === 0
			? {}
			: {
					'sandbox CPU ms': cpuMs,
					[`${scenario.unit}/CPU-s`]: Math.round((scenario.requests * scenario.itemsPerRequest * 1000) / cpuMs),
				};
	return {
		scenario: scenario.name,
		requests: scenario.requests,
		'req/s': Math.round(scenario.requests / seconds),
		[`${scenario.unit}/s`]: Math.round((scenario.requests * scenario.itemsPerRequest) / seconds),
		'MB/s': Math.round((bytes / seconds / 1e6) * 10) / 10,
		seconds: Math.round(seconds * 100) / 100,
		...capacity,
	};
}

async function startChild(bankRows: number): Promise<{ baseUrl: string; child: ChildProcess }> {
	const cli = path.join(__dirname, 'cli.ts');
	const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--bank-rows', String(bankRows), '--quiet'], {
		stdio: ['ignore', 'pipe', 'inherit'],
		// `--import tsx` resolves tsx from the working directory: the repository root.
		cwd: path.join(__dirname, '..', '..'),
	});
	const baseUrl = await new Promise<string>((resolve, reject) => {
		let output = '';
		child.stdout?.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			const match = /listening on (http:\/\/\S+)/.exec(output);
			if (match) resolve(match[1]);
		});
		child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
	});
	return { baseUrl, child };
}

function importBodies(count: number, batchSize: number, prefix: string): string[] {
	const bodies: string[] = [];
	for (let b = 0; b < count; b++) {
		const data = [];
		for (let i = 0; i < batchSize; i++) {
			const n = b * batchSize + i;
			data.push({
				[INVOICE_KEY_FIELD]: `${prefix}-${n}`,
				'Číslo dokladu': String(2026000000 + n),
				Partner: 'Kancelářské potřeby Novák s.r.o.',
				Stav: 'Nová',
				Popis: `Položka ${n}`,
				'Datum splatnosti': '31.12.2026',
				'Datum vystavení': '1.12.2026',
				'Variabilní symbol': String(n),
				'Kolik to stálo': `${n % 100000},50`,
				'Sazba DPH': '21',
			});
		}
		bodies.push(JSON.stringify({ data }));
	}
	return bodies;
}

async function main(): Promise<void> {
	const concurrency = option('concurrency', 8);
	const bankRows = 100_000;
	const inProcess = process.argv.includes('--in-process');
	let baseUrl: string;
	let stop: () => Promise<void>;
	let serverPid: number | undefined;
	const externalUrl = process.argv[process.argv.indexOf('--url') + 1];
	if (process.argv.includes('--url')) {
		// An already running sandbox (e.g. one started with --cpu-prof); it needs --bank-rows 100000.
		baseUrl = externalUrl.replace(/\/$/, '');
		stop = async () => {};
	} else if (inProcess) {
		const sandbox = await startSandbox({ port: 0, bankRows, quiet: true });
		baseUrl = sandbox.baseUrl;
		stop = () => sandbox.close();
	} else {
		const started = await startChild(bankRows);
		baseUrl = started.baseUrl;
		serverPid = started.child.pid;
		stop = async () => {
			started.child.kill('SIGTERM');
		};
	}
	const report = `/api/analysis/reports/bank-transactions/data/table`;
	const pages100 = bankRows / 100;
	const pages1000 = bankRows / 1000;
	const imports100 = importBodies(1000, 100, 'B100');
	const imports1000 = importBodies(100, 1000, 'B1000');
	const scenarios: Scenario[] = [
		{
			name: 'report pages, limit 100',
			requests: 20_000,
			itemsPerRequest: 100,
			unit: 'rows',
			send: (agent, i) => send(agent, baseUrl, 'GET', `${report}?offset=${(i % pages100) * 100}&limit=100`),
		},
		{
			name: 'report pages, limit 1000',
			requests: 2_000,
			itemsPerRequest: 1000,
			unit: 'rows',
			send: (agent, i) => send(agent, baseUrl, 'GET', `${report}?offset=${(i % pages1000) * 1000}&limit=1000`),
		},
		{
			name: 'import, 100 records/request',
			requests: imports100.length,
			itemsPerRequest: 100,
			unit: 'records',
			send: (agent, i) => send(agent, baseUrl, 'POST', `/api/3p/import/${RECORD_TYPES.receivedInvoices}`, imports100[i]),
		},
		{
			name: 'import, 1000 records/request',
			requests: imports1000.length,
			itemsPerRequest: 1000,
			unit: 'records',
			send: (agent, i) => send(agent, baseUrl, 'POST', `/api/3p/import/${RECORD_TYPES.receivedInvoices}`, imports1000[i]),
		},
	];
	const results: Array<Record<string, string | number>> = [];
	try {
		for (const scenario of scenarios) {
			await send(new http.Agent(), baseUrl, 'POST', '/__sandbox/reset', '{}');
			results.push(await run(scenario, concurrency, serverPid));
		}
	} finally {
		await stop();
	}
	console.log(
		`Sandbox throughput (${inProcess ? 'in-process' : 'separate process'}, concurrency ${concurrency}, keep-alive, Node ${process.version}):`,
	);
	console.table(results);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
