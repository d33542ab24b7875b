/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `process`) */
/**
 * `npm start`: the package running inside a real n8n, next to the Records sandbox, ready to click.
 *
 * Builds and packs the package while it installs the pinned n8n and its Node.js into .cache (first
 * time only: it first checks for make, g++ and python3, which the install compiles with, and shows
 * what npm is at while it runs), installs the package through n8n's community-package folder, starts the
 * sandbox (set up for the examples), the local stand-ins for the systems the examples talk to, and
 * n8n; creates the owner account, the examples' credentials and the workflows of examples/, and
 * activates them.
 * The sandbox speaks HTTPS, as the real service does, with a CA made at each start that n8n trusts
 * through NODE_EXTRA_CA_CERTS (as n8n documents it); the credential keeps Allow Plain HTTP off.
 * n8n runs with its calls to n8n's own services turned off (OFFLINE_SETTINGS).
 * Ctrl-C stops everything. The n8n data lives in .cache/demo and survives restarts (--reset wipes it).
 *
 *   npm start -- [--port 5678] [--sandbox-port 4010] [--stand-ins-port 4011] [--reset]
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { startSandbox, TOKENS } from './sandbox/server';
import {
	EXAMPLE_CALLER_CREDENTIAL,
	EXAMPLE_CREDENTIAL,
	EXAMPLE_MCP_CREDENTIAL,
	exampleImports,
	newMcpToken,
	prepareSandboxForExamples,
} from './examples/examples';
import { defaultOwner, N8nInstance } from './n8n/n8nInstance';
import { buildPackage, packPackage } from './n8n/package';
import { cacheDir } from './lib/paths';
import { formatDuration, isPortOpen, tailOfFile, waitFor } from './lib/proc';
import { withProgress } from './lib/progress';
import { ensureRuntime, installedRuntime, RUNTIMES } from './n8n/runtime';
import { startStandIns } from './examples/stand-ins';
import { firstStartNotice, readyText } from './startOutput';

const demoDir = join(cacheDir, 'demo');
/** The sandbox's CA certificate, rewritten at each start; n8n reads it when it starts. */
const sandboxCaFile = join(demoDir, 'records-sandbox-ca.pem');

const say = (line: string) => process.stdout.write(`[start] ${line}\n`);

/** The token MCP clients of the demo send; made once per demo folder, so connected clients keep working. */
function demoMcpToken(): string {
	const file = join(demoDir, 'mcp-token');
	if (!existsSync(file)) writeFileSync(file, newMcpToken(), { mode: 0o600 });
	return readFileSync(file, 'utf8').trim();
}

function parseOptions() {
	const { values } = parseArgs({
		options: {
			port: { type: 'string', default: '5678' },
			'sandbox-port': { type: 'string', default: '4010' },
			'stand-ins-port': { type: 'string', default: '4011' },
			reset: { type: 'boolean', default: false },
		},
	});
	const port = Number(values.port);
	const sandboxPort = Number(values['sandbox-port']);
	const standInsPort = Number(values['stand-ins-port']);
	for (const [name, value] of [['--port', port], ['--sandbox-port', sandboxPort], ['--stand-ins-port', standInsPort]] as const) {
		if (!Number.isInteger(value) || value < 1 || value > 65535) throw new Error(`${name} must be a port number (1-65535).`);
	}
	return { port, sandboxPort, standInsPort, reset: values.reset };
}

async function ensurePortFree(port: number, what: string, option: string): Promise<void> {
	if (await isPortOpen(port)) {
		throw new Error(`Port ${port} for ${what} is already in use (another \`npm start\`?). Stop that process or pick another port with ${option}.`);
	}
}

/** Cleanups run in reverse order on Ctrl-C; processes still running after them are killed on exit. */
const stopOnSignal: Array<() => Promise<void>> = [];
let stopping = false;

async function stopAll(code: number): Promise<never> {
	if (!stopping) {
		stopping = true;
		say('stopping…');
		for (const stop of stopOnSignal.reverse()) await stop().catch(() => undefined);
	}
	process.exit(code);
}

async function main(): Promise<void> {
	process.on('SIGINT', () => void stopAll(0));
	process.on('SIGTERM', () => void stopAll(0));
	const started = Date.now();
	const options = parseOptions();
	if (options.reset) rmSync(demoDir, { recursive: true, force: true });
	mkdirSync(demoDir, { recursive: true });
	await ensurePortFree(options.port, 'n8n', '--port');
	await ensurePortFree(options.sandboxPort, 'the Records sandbox', '--sandbox-port');
	await ensurePortFree(options.standInsPort, 'the stand-ins of the examples', '--stand-ins-port');

	if (!installedRuntime(RUNTIMES.v2)) say(firstStartNotice(RUNTIMES.v2));
	// Side by side: the first install of n8n waits mostly on the network and the disk, the build on the CPU.
	const [packed, runtime] = await Promise.all([
		withProgress('building and packing the package', say, () => '', async () => {
			await buildPackage();
			return await packPackage(join(cacheDir, 'package'));
		}),
		ensureRuntime(RUNTIMES.v2, (line) => say(line)),
	]);
	say(`packed ${packed.name}@${packed.version} (${packed.files.length} files)`);
	const n8n = await N8nInstance.create({
		runtime,
		userFolder: join(demoDir, 'n8n'),
		package: packed,
		port: options.port,
		env: {
			N8N_HOST: 'localhost',
			N8N_WEBHOOK_URL: `http://localhost:${options.port}/`,
			NODE_EXTRA_CA_CERTS: sandboxCaFile,
		},
	});

	const sandbox = await startSandbox({ port: options.sandboxPort, host: '127.0.0.1', quiet: true, tls: true });
	stopOnSignal.push(() => sandbox.close());
	const caPem = sandbox.ca?.certificatePem ?? '';
	writeFileSync(sandboxCaFile, caPem);
	say(`Records sandbox on ${sandbox.baseUrl} (HTTPS; n8n trusts its CA through NODE_EXTRA_CA_CERTS=${sandboxCaFile})`);
	await prepareSandboxForExamples(sandbox.baseUrl, TOKENS.import, caPem);
	const standIns = await startStandIns({ port: options.standInsPort });
	stopOnSignal.push(() => standIns.close());

	const mcpToken = demoMcpToken();
	const { credentials, workflows: examples } = exampleImports(sandbox.baseUrl, TOKENS.full, standIns.baseUrl, mcpToken);
	// Importing boots n8n's CLI twice (several seconds): only when the credentials or examples changed.
	const fingerprint = createHash('sha256').update(JSON.stringify({ credentials, examples })).digest('hex');
	const fingerprintFile = join(demoDir, 'imported.sha256');
	if (!existsSync(fingerprintFile) || readFileSync(fingerprintFile, 'utf8') !== fingerprint) {
		await withProgress(
			`importing the credentials "${EXAMPLE_CREDENTIAL.name}", "${EXAMPLE_CALLER_CREDENTIAL.name}", "${EXAMPLE_MCP_CREDENTIAL.name}" and ${examples.length} example workflow(s)`,
			say,
			() => '',
			async () => {
				await n8n.importCredentials(credentials);
				await n8n.importWorkflows(examples);
			},
		);
		writeFileSync(fingerprintFile, fingerprint);
	}

	stopOnSignal.push(() => n8n.stop());
	const nodeVersion = runtime.spec.node === 'system' ? process.versions.node : runtime.spec.node.version;
	const owner = await withProgress(`starting n8n ${runtime.spec.n8nVersion} on Node.js ${nodeVersion}`, say, () => '', async () => {
		await n8n.start();
		return await n8n.setupOwner(defaultOwner);
	});
	for (const example of examples) {
		await n8n.api('POST', `/workflows/${example.id}/activate`).catch((error: unknown) => {
			say(`could not activate the example "${example.name}": ${error instanceof Error ? error.message : String(error)}`);
		});
	}

	const url = `http://localhost:${options.port}`;
	say(`ready in ${formatDuration(Date.now() - started)}`);
	process.stdout.write(
		readyText({
			url,
			owner,
			sandboxUrl: sandbox.baseUrl,
			sandboxCaFile,
			examples: examples.length,
			standInsUrl: standIns.baseUrl,
			mcpToken,
			serverLog: n8n.serverLog,
		}),
	);

	// An n8n that dies on its own takes the demo down with it, showing why.
	await waitFor('n8n to exit', () => (n8n.isServerRunning() ? undefined : true), {
		timeoutMs: Number.MAX_SAFE_INTEGER,
		intervalMs: 1000,
	});
	process.stderr.write(`[start] n8n stopped unexpectedly:\n${tailOfFile(n8n.serverLog, 30)}\n`);
	await stopAll(1);
}

main().catch((error: unknown) => {
	process.stderr.write(`[start] ${error instanceof Error ? error.message : String(error)}\n`);
	process.exit(1);
});
