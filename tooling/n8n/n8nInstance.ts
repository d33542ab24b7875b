/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error,
	@n8n/community-nodes/no-hardcoded-secrets -- tooling: runs in Node.js, not inside n8n (Node.js's
	modules, `process`); its errors are not a node's; its tokens and keys are fixed test values, not
	secrets */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { installPackage, type PackedPackage } from './package';
import { cacheDir } from '../lib/paths';
import {
	freePort,
	isRunning,
	killGroup,
	run,
	startLogged,
	stopProcess,
	tail,
	tailOfFile,
	waitFor,
	type RunResult,
} from '../lib/proc';
import { startRedis, type RedisServer } from './redis';
import type { Runtime } from './runtime';

/** A workflow as n8n exports and imports it. */
export interface WorkflowJson {
	/**
	 * At most 21 characters; kept by `import:workflow`, so tests and examples can refer to it.
	 * n8n 1.x saves a workflow's static data (what polling triggers remember) only for ids of at most 16.
	 */
	id: string;
	name: string;
	nodes: Array<{
		id?: string;
		name: string;
		type: string;
		typeVersion: number;
		position: [number, number];
		parameters: Record<string, unknown>;
		credentials?: Record<string, { id: string; name: string }>;
		webhookId?: string;
		[key: string]: unknown;
	}>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	active?: boolean;
	[key: string]: unknown;
}

/** A credential for `import:credentials`: plain data, which n8n encrypts with the instance's key. */
export interface CredentialJson {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export interface ItemJson {
	json: Record<string, unknown>;
	binary?: Record<string, unknown>;
}

export interface NodeRunJson {
	data?: { main?: Array<ItemJson[] | null> };
	error?: { message?: string; description?: string; [key: string]: unknown };
	executionStatus?: string;
}

/** The result of one execution as the CLI prints it and the public API returns it. */
export interface ExecutionRunJson {
	status?: string;
	finished?: boolean;
	mode?: string;
	data: {
		resultData: {
			runData: Record<string, NodeRunJson[]>;
			error?: { message?: string; description?: string; [key: string]: unknown };
			lastNodeExecuted?: string;
		};
	};
}

/** One entry of the public API's execution list. */
export interface ExecutionSummary {
	id: string | number;
	workflowId: string;
	mode: string;
	status: string;
	finished: boolean;
	startedAt: string;
	stoppedAt?: string | null;
	data?: ExecutionRunJson['data'];
}

/** A node type as `n8n export:nodes` lists it. */
export interface NodeTypeJson {
	name: string;
	displayName: string;
	version: number | number[];
	credentials?: Array<{ name: string; required?: boolean }>;
	properties: Array<{ name: string; [key: string]: unknown }>;
	[key: string]: unknown;
}

export interface Owner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

export const defaultOwner: Owner = {
	email: 'owner@example.com',
	firstName: 'Records',
	lastName: 'Owner',
	password: 'Records-owner-1',
};

export interface N8nInstanceOptions {
	runtime: Runtime;
	/** Throwaway folder holding the instance's database, settings, installed packages and logs. */
	userFolder?: string;
	/** The packed package, installed through the community-package route before the first command. */
	package?: PackedPackage;
	/** HTTP port of the server; a free one when omitted. */
	port?: number;
	/** Queue mode: the server enqueues executions in Redis, one `n8n worker` runs them. */
	queue?: boolean;
	/** How the queue-mode worker differs from the main instance (by default it shares the user folder). */
	worker?: WorkerOptions;
	/** Extra environment for every n8n process (it wins over the defaults). */
	env?: Record<string, string>;
	/** How long start() waits for the server to serve (default 120 s; a loaded machine needs more). */
	startTimeoutMs?: number;
}

export interface WorkerOptions {
	/**
	 * A user folder of its own (`worker` inside the main instance's), as a worker on another machine
	 * has: it shares the database and Redis with the main instance, not its nodes folder. The packed
	 * package, if given, is installed into both.
	 */
	ownFolder?: boolean;
	/** Environment of the worker's process only (it wins over `env`). */
	env?: Record<string, string>;
	/** Node.js options of the worker's process only, before n8n's script (e.g. `--require` of a file). */
	nodeOptions?: string[];
}

/** Fixed so that an instance folder can be reopened by a later process (a restart). */
const encryptionKey = 'records-e2e-fixed-encryption-key';

/** A fresh folder for one instance under .cache/e2e/instances; kept after the run for its logs. */
export function newInstanceFolder(label: string): string {
	const folder = join(cacheDir, 'e2e', 'instances', `${label}-${Date.now()}-${randomBytes(3).toString('hex')}`);
	mkdirSync(folder, { recursive: true });
	return folder;
}

/**
 * Settings that keep n8n from calling n8n's own services on the internet, which the machines this
 * runs on cannot reach (each failed call logs an ENOTFOUND) and which a local demo or test has no
 * use for. Checked against n8n 2.41.1 and 1.123.81 (their @n8n/config and community-packages module);
 * 2.x's MCP server catalogue is turned off with the runtime (see RUNTIMES.v2.env). The license
 * client stays as it is: without a license it calls nobody, and turning its renewals off only adds
 * a warning to every start.
 */
export const OFFLINE_SETTINGS: Record<string, string> = {
	// Usage statistics (PostHog and RudderStack, from the server and the editor).
	N8N_DIAGNOSTICS_ENABLED: 'false',
	// "New version available" and "What's new" (api.n8n.io/api/versions, /whats-new).
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
	// The template gallery (api.n8n.io/api/templates).
	N8N_TEMPLATES_ENABLED: 'false',
	// Announcement banners (api.n8n.io/api/banners).
	N8N_DYNAMIC_BANNERS_ENABLED: 'false',
	// The catalogue of verified community nodes the node creator lists (api.n8n.io, or
	// api-staging.n8n.io outside NODE_ENV=production): fetched when the node creator opens. Installed
	// packages, this one included, are listed without it.
	N8N_VERIFIED_PACKAGES_ENABLED: 'false',
};

/**
 * Variables of the calling process that would change how n8n behaves, left out of every n8n
 * process. NODE_ENV=test (set by jest) silences n8n's logger and with it the CLI's results. npm's
 * settings of an `npm run`/`npx` (this repository as its prefix, its .npmrc's flags) would steer the
 * npm that n8n's community-package installer runs.
 */
const inheritedN8nSettings = /^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_URL$|GENERIC_TIMEZONE$|NODE_ENV$|JEST_WORKER_ID$|npm_|INIT_CWD$)/i;

/**
 * One real n8n installation: its user folder, the CLI commands run against it, and the server and
 * worker processes. Every process gets its own task-broker port, so several instances (and CLI
 * commands beside a running server) never collide.
 */
export class N8nInstance {
	readonly runtime: Runtime;
	readonly userFolder: string;
	readonly port: number;
	readonly queue: boolean;
	readonly baseUrl: string;
	private readonly extraEnv: Record<string, string>;
	private readonly workerOptions: WorkerOptions;
	private readonly startTimeoutMs: number;
	private server?: ChildProcess;
	private worker?: ChildProcess;
	private redis?: RedisServer;
	private cookie?: string;
	private apiKey?: string;
	private importCounter = 0;

	private constructor(options: N8nInstanceOptions & { userFolder: string; port: number }) {
		this.runtime = options.runtime;
		this.userFolder = options.userFolder;
		this.port = options.port;
		this.queue = options.queue ?? false;
		this.extraEnv = options.env ?? {};
		this.workerOptions = options.worker ?? {};
		this.startTimeoutMs = options.startTimeoutMs ?? 120_000;
		this.baseUrl = `http://127.0.0.1:${this.port}`;
	}

	static async create(options: N8nInstanceOptions): Promise<N8nInstance> {
		const userFolder = options.userFolder ?? newInstanceFolder(`n8n-${options.runtime.spec.name}`);
		mkdirSync(join(userFolder, '.n8n'), { recursive: true });
		const port = options.port ?? (await freePort());
		// n8n's own n8n-workflow: <install>/node_modules/n8n-workflow beside <install>/node_modules/n8n/bin/n8n.
		const n8nWorkflowDir = join(dirname(dirname(dirname(options.runtime.n8nBin))), 'n8n-workflow');
		const instance = new N8nInstance({ ...options, userFolder, port });
		if (options.package) {
			for (const folder of new Set([userFolder, instance.workerUserFolder])) {
				await installPackage(options.package, folder, n8nWorkflowDir);
			}
		}
		return instance;
	}

	get n8nVersion(): string {
		return this.runtime.spec.n8nVersion;
	}

	isServerRunning(): boolean {
		return this.server !== undefined && isRunning(this.server);
	}

	get serverLog(): string {
		return join(this.userFolder, 'server.log');
	}

	/**
	 * Where n8n writes its editor's front-end at every start (its "static cache": hundreds of
	 * generated .js files, tens of MB). Removed when the server exits, so that an instance folder
	 * keeps only its data and logs, and `n8n-node lint`, which lints every .js file under the
	 * repository, finds none of n8n's there.
	 */
	get staticCacheDir(): string {
		return join(this.userFolder, '.cache', 'n8n', 'public');
	}

	/** Log of the queue-mode worker: it names each execution it runs ("Worker started execution 7"). */
	get workerLog(): string {
		return join(this.userFolder, 'worker.log');
	}

	/** The queue-mode worker's user folder: the main instance's unless the worker has its own. */
	get workerUserFolder(): string {
		return this.workerOptions.ownFolder ? join(this.userFolder, 'worker') : this.userFolder;
	}

	/** Whether the queue-mode worker, not the main instance, ran an execution (its log names it). */
	ranOnWorker(execution: { id: string | number }): boolean {
		return readFileSync(this.workerLog, 'utf8').includes(`Worker started execution ${execution.id} `);
	}

	/** The environment of one n8n process; each process needs its own task-broker port. */
	private async env(): Promise<NodeJS.ProcessEnv> {
		const inherited = Object.fromEntries(
			Object.entries(process.env).filter(([key]) => !inheritedN8nSettings.test(key)),
		);
		return {
			...inherited,
			...this.runtime.env,
			N8N_USER_FOLDER: this.userFolder,
			N8N_ENCRYPTION_KEY: encryptionKey,
			DB_TYPE: 'sqlite',
			// The CLI prints `execute --rawOutput` results through the info logger.
			N8N_LOG_LEVEL: 'info',
			...OFFLINE_SETTINGS,
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_PYTHON_ENABLED: 'false',
			N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_HOST: '127.0.0.1',
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_PORT: String(this.port),
			N8N_WEBHOOK_URL: `${this.baseUrl}/`,
			N8N_RUNNERS_BROKER_PORT: String(await freePort()),
			...(this.queue && this.redis
				? {
						EXECUTIONS_MODE: 'queue',
						QUEUE_BULL_REDIS_HOST: '127.0.0.1',
						QUEUE_BULL_REDIS_PORT: String(this.redis.port),
					}
				: {}),
			...this.extraEnv,
		};
	}

	/**
	 * Runs one n8n CLI command against this instance's folder (each command boots n8n: a few
	 * seconds). `stdoutFile` keeps a large output whole (see RunOptions).
	 */
	async cli(
		args: string[],
		{ allowFailure = false, stdoutFile }: { allowFailure?: boolean; stdoutFile?: string } = {},
	): Promise<RunResult> {
		return run(this.runtime.nodeBin, [this.runtime.n8nBin, ...args], {
			cwd: this.userFolder,
			env: await this.env(),
			logFile: join(this.userFolder, 'cli.log'),
			allowFailure,
			timeoutMs: 300_000,
			stdoutFile,
		});
	}

	/** The node types this n8n has loaded, as the editor would list them. */
	async exportNodes(): Promise<NodeTypeJson[]> {
		const output = join(this.userFolder, 'nodes.json');
		await this.cli(['export:nodes', `--output=${output}`]);
		return JSON.parse(readFileSync(output, 'utf8')) as NodeTypeJson[];
	}

	private importFolder(kind: string): string {
		const folder = join(this.userFolder, 'import', `${++this.importCounter}-${kind}`);
		mkdirSync(folder, { recursive: true });
		return folder;
	}

	async importCredentials(credentials: CredentialJson[]): Promise<void> {
		const file = join(this.importFolder('credentials'), 'credentials.json');
		writeFileSync(file, JSON.stringify(credentials, null, '\t'));
		await this.cli(['import:credentials', `--input=${file}`]);
	}

	/** Imports workflows in one command; their ids are kept. */
	async importWorkflows(workflows: WorkflowJson[]): Promise<void> {
		if (workflows.length === 0) return;
		const folder = this.importFolder('workflows');
		for (const workflow of workflows) {
			writeFileSync(join(folder, `${workflow.id}.json`), JSON.stringify(workflow, null, '\t'));
		}
		await this.cli(['import:workflow', '--separate', `--input=${folder}`]);
	}

	/** Makes an imported workflow active; the server registers its triggers and webhooks at its next start. */
	async activate(workflowId: string): Promise<void> {
		await this.cli(this.runtime.spec.activateArgs(workflowId));
	}

	/**
	 * Runs a workflow once from the CLI, the way a manual run would, and returns the execution's
	 * result. A failed execution is returned too (with its error), so tests can assert on it.
	 */
	async execute(workflowId: string): Promise<{ exitCode: number; run: ExecutionRunJson; output: string }> {
		// Through a file: n8n exits right after printing, and a result of megabytes could be cut off in a pipe.
		const result = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], {
			allowFailure: true,
			stdoutFile: join(this.userFolder, `execute-${workflowId}.out`),
		});
		const output = result.stdout + result.stderr;
		const json = extractJsonBlock(result.stdout);
		if (json === undefined) {
			throw new Error(`n8n execute --id=${workflowId} printed no execution result (exit ${result.code}):\n${tail(output, 40)}`);
		}
		return { exitCode: result.code, run: JSON.parse(json) as ExecutionRunJson, output };
	}

	/** Like execute(), but fails with the execution's own error message unless the run succeeded. */
	async executeSuccessfully(workflowId: string): Promise<ExecutionRunJson> {
		const { exitCode, run: execution, output } = await this.execute(workflowId);
		if (exitCode !== 0 || executionError(execution)) {
			throw new Error(
				`Workflow ${workflowId} failed (exit ${exitCode}): ${executionError(execution) ?? tail(output, 30)}`,
			);
		}
		return execution;
	}

	/** Starts the server (and in queue mode Redis and one worker) and waits until it serves requests. */
	async start(): Promise<void> {
		if (this.server && isRunning(this.server)) return;
		if (this.queue) {
			this.redis ??= await startRedis(join(this.userFolder, 'redis'));
		}
		this.server = startLogged(this.runtime.nodeBin, [this.runtime.n8nBin, 'start'], this.serverLog, {
			cwd: this.userFolder,
			env: await this.env(),
		});
		const server = this.server;
		server.once('exit', () => rmSync(this.staticCacheDir, { recursive: true, force: true }));
		const logLength = () => readFileSync(this.serverLog, 'utf8').length;
		const startOffset = logLength();
		await waitFor(`n8n ${this.n8nVersion} to serve on ${this.baseUrl}`, async () => {
			if (!isRunning(server)) {
				throw new Error(`n8n start exited (code ${server.exitCode}):\n${tailOfFile(this.serverLog, 40)}`);
			}
			const log = readFileSync(this.serverLog, 'utf8').slice(startOffset);
			if (!log.includes('Editor is now accessible')) return undefined;
			const response = await fetch(`${this.baseUrl}/healthz/readiness`).catch(() => undefined);
			return response?.ok ? true : undefined;
		}, { timeoutMs: this.startTimeoutMs });
		if (this.queue) await this.startWorker();
	}

	/** Stops the queue-mode worker and starts it again (the server keeps running). */
	async restartWorker(): Promise<void> {
		if (this.worker) await stopProcess(this.worker);
		this.worker = undefined;
		await this.startWorker();
	}

	private async startWorker(): Promise<void> {
		if (this.worker && isRunning(this.worker)) return;
		const logFile = this.workerLog;
		writeFileSync(logFile, '', { flag: 'a' });
		const startOffset = readFileSync(logFile, 'utf8').length;
		const folder = this.workerUserFolder;
		mkdirSync(join(folder, '.n8n'), { recursive: true });
		const ownFolderEnv = folder === this.userFolder ? {} : {
			N8N_USER_FOLDER: folder,
			// The main instance's database (sqlite's file is in its user folder).
			DB_SQLITE_DATABASE: join(this.userFolder, '.n8n', 'database.sqlite'),
		};
		const args = [...(this.workerOptions.nodeOptions ?? []), this.runtime.n8nBin, 'worker'];
		this.worker = startLogged(this.runtime.nodeBin, args, logFile, {
			cwd: folder,
			env: { ...(await this.env()), ...ownFolderEnv, ...this.workerOptions.env },
		});
		const worker = this.worker;
		await waitFor(`n8n worker of ${this.baseUrl}`, () => {
			if (!isRunning(worker)) throw new Error(`n8n worker exited:\n${tailOfFile(logFile, 40)}`);
			return /worker is now ready/i.test(readFileSync(logFile, 'utf8').slice(startOffset)) ? true : undefined;
		}, { timeoutMs: 120_000 });
	}

	/**
	 * Waits until a production webhook path is registered for `method`, without starting an
	 * execution: it asks with a method the webhook does not take, which n8n answers (404) "not
	 * registered for <probe> requests. Did you mean to make a GET or POST request?" for a
	 * registered path and "is not registered" for an unknown one. A node taking several methods
	 * has them registered one after another, so the list must name `method` itself.
	 */
	async waitForWebhook(path: string, { method = 'POST', timeoutMs = 60_000 } = {}): Promise<void> {
		const url = `${this.baseUrl}/webhook/${path.replace(/^\//, '')}`;
		const wanted = method.toUpperCase();
		const probe = wanted === 'PATCH' ? 'PUT' : 'PATCH';
		await waitFor(`webhook ${wanted} ${url} to be registered`, async () => {
			const response = await fetch(url, { method: probe }).catch(() => undefined);
			if (!response) return undefined;
			const body = await response.text();
			if (response.status !== 404) return true;
			const offered = /Did you mean to make an? (.+?) request\?/.exec(body)?.[1]?.split(/, | or /) ?? [];
			return offered.includes(wanted) ? true : undefined;
		}, { timeoutMs });
	}

	/** Creates the owner account (first start only) and signs in as it for the internal REST API. */
	async setupOwner(owner: Owner = defaultOwner): Promise<Owner> {
		const settings = (await (await fetch(`${this.baseUrl}/rest/settings`)).json()) as {
			data?: { userManagement?: { showSetupOnFirstLoad?: boolean } };
		};
		const needsSetup = settings.data?.userManagement?.showSetupOnFirstLoad !== false;
		const response = needsSetup
			? await this.post('/rest/owner/setup', owner)
			: await this.post('/rest/login', { emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password });
		if (!response.ok) {
			throw new Error(`${needsSetup ? 'Owner setup' : 'Sign-in'} failed with HTTP ${response.status}: ${await response.text()}`);
		}
		const cookie = response.headers.getSetCookie().find((value) => value.startsWith('n8n-auth='));
		if (!cookie) throw new Error('n8n set no n8n-auth cookie after the owner signed in.');
		this.cookie = cookie.split(';')[0];
		return owner;
	}

	private post(path: string, body: unknown): Promise<Response> {
		return fetch(`${this.baseUrl}${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...(this.cookie ? { cookie: this.cookie } : {}) },
			body: JSON.stringify(body),
		});
	}

	/** Requests a path of the editor's backend (/rest/..., /types/...) as the signed-in owner. */
	async editorRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
		if (!this.cookie) await this.setupOwner();
		const response = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers: { 'content-type': 'application/json', cookie: this.cookie ?? '' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} ${path} answered HTTP ${response.status}: ${text.slice(0, 2000)}`);
		return JSON.parse(text) as T;
	}

	/** Calls the internal REST API the editor uses (/rest/...), unwrapping its { data } envelope. */
	async rest<T>(method: string, path: string, body?: unknown): Promise<T> {
		return (await this.editorRequest<{ data: T }>(method, `/rest${path}`, body)).data;
	}

	/** An API key with every scope, for the public API (created once per instance object). */
	async publicApiKey(): Promise<string> {
		if (this.apiKey) return this.apiKey;
		const scopes = await this.rest<string[]>('GET', '/api-keys/scopes');
		const created = await this.rest<{ rawApiKey?: string; apiKey?: string }>('POST', '/api-keys', {
			label: `e2e-${Date.now()}`,
			scopes,
			expiresAt: null,
		});
		const key = created.rawApiKey ?? created.apiKey;
		if (!key) throw new Error('n8n created an API key but did not return it.');
		this.apiKey = key;
		return key;
	}

	/**
	 * Calls the public API (/api/v1/...), the interface users automate n8n with. Calls that change
	 * something go one at a time: n8n 1.x on sqlite fails a write that overlaps another one
	 * ("SQLITE_ERROR: no such savepoint"), as when two scenarios set up their workflows side by side.
	 */
	async api<T>(method: string, path: string, body?: unknown): Promise<T> {
		if (method === 'GET') return await this.callApi<T>(method, path, body);
		const call = this.writes.then(async () => await this.callApi<T>(method, path, body));
		this.writes = call.catch(() => undefined);
		return await call;
	}

	private writes: Promise<unknown> = Promise.resolve();

	private async callApi<T>(method: string, path: string, body?: unknown): Promise<T> {
		const key = await this.publicApiKey();
		const response = await fetch(`${this.baseUrl}/api/v1${path}`, {
			method,
			headers: { 'content-type': 'application/json', 'X-N8N-API-KEY': key },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} /api/v1${path} answered HTTP ${response.status}: ${text}`);
		return JSON.parse(text) as T;
	}

	/** Creates a credential through the public API on the running server; returns its new id. */
	async createCredential(credential: Omit<CredentialJson, 'id'>): Promise<string> {
		const { name, type, data } = credential;
		return (await this.api<{ id: string }>('POST', '/credentials', { name, type, data })).id;
	}

	/**
	 * Creates a workflow through the public API on the running server and, if asked, activates it
	 * (its triggers and webhooks register without a restart). Returns the new workflow id.
	 */
	async createWorkflow(workflow: WorkflowJson, { activate = false } = {}): Promise<string> {
		const { name, nodes, connections, settings } = workflow;
		const { id } = await this.api<{ id: string }>('POST', '/workflows', {
			name,
			nodes,
			connections,
			settings: settings ?? { executionOrder: 'v1' },
		});
		if (activate) await this.api('POST', `/workflows/${id}/activate`);
		return id;
	}

	/** Executions of a workflow, oldest first (n8n's API lists them newest first), with their data. */
	async executions(workflowId: string): Promise<ExecutionSummary[]> {
		const executions: ExecutionSummary[] = [];
		let cursor: string | undefined;
		do {
			const query = new URLSearchParams({ workflowId, includeData: 'true', limit: '250' });
			if (cursor) query.set('cursor', cursor);
			const page = await this.api<{ data: ExecutionSummary[]; nextCursor?: string | null }>('GET', `/executions?${query}`);
			executions.push(...page.data);
			cursor = page.nextCursor ?? undefined;
		} while (cursor);
		return executions.sort((a, b) => Number(a.id) - Number(b.id));
	}

	/**
	 * Waits until a workflow has at least `count` finished executions (any status) and returns them.
	 * On a timeout the error lists every execution seen, what `explain` adds (e.g. what the service
	 * answered meanwhile), and the tails of the server's and the worker's logs, so that a failure in
	 * CI, where the instance folder is gone, can be read.
	 */
	async waitForExecutions(
		workflowId: string,
		count: number,
		{ timeoutMs = 60_000, explain }: { timeoutMs?: number; explain?: () => string } = {},
	): Promise<ExecutionSummary[]> {
		let seen: ExecutionSummary[] = [];
		try {
			return await waitFor(`${count} finished execution(s) of workflow ${workflowId}`, async () => {
				seen = await this.executions(workflowId);
				const finished = seen.filter((execution) => !['new', 'running', 'waiting'].includes(execution.status));
				return finished.length >= count ? finished : undefined;
			}, { timeoutMs, intervalMs: 500 });
		} catch (error) {
			const executions = seen
				.map((execution) => `  #${execution.id} ${execution.mode} ${execution.status}, started ${execution.startedAt}, stopped ${execution.stoppedAt ?? '-'}`)
				.join('\n');
			const logs = [`n8n server log (last 60 lines):\n${tailOfFile(this.serverLog, 60)}`];
			if (this.queue) logs.push(`n8n worker log (last 60 lines):\n${tailOfFile(this.workerLog, 60)}`);
			throw new Error(
				[
					`${(error as Error).message} at ${new Date().toISOString()}`,
					`executions seen:\n${executions || '  none'}`,
					...(explain ? [explain()] : []),
					...logs,
				].join('\n'),
			);
		}
	}

	/**
	 * Ends the server (and a worker) at once with SIGKILL, as a crash or the kernel's OOM killer
	 * does: n8n gets no chance to save or deactivate anything. start() reopens the same database.
	 */
	async kill(): Promise<void> {
		for (const child of [this.worker, this.server]) {
			if (!child) continue;
			const exited = isRunning(child) ? new Promise<void>((resolve) => child.once('exit', () => resolve())) : Promise.resolve();
			killGroup(child, 'SIGKILL');
			await exited;
		}
		this.worker = undefined;
		this.server = undefined;
		this.cookie = undefined;
		this.apiKey = undefined;
	}

	/** Stops the worker, the server and Redis; the user folder stays, so start() can reopen it. */
	async stop(): Promise<void> {
		if (this.worker) await stopProcess(this.worker);
		if (this.server) await stopProcess(this.server);
		if (this.redis) await this.redis.stop();
		this.worker = undefined;
		this.server = undefined;
		this.redis = undefined;
		this.cookie = undefined;
		this.apiKey = undefined;
	}
}

/**
 * The pretty-printed JSON document in CLI output that also holds log lines: from a line that is
 * exactly "{" to the next line that is exactly "}" (nested lines are indented).
 */
export function extractJsonBlock(output: string): string | undefined {
	const lines = output.split('\n').map((line) => line.replace(/\r$/, ''));
	const start = lines.indexOf('{');
	if (start === -1) return undefined;
	const end = lines.indexOf('}', start + 1);
	if (end === -1) return undefined;
	return lines.slice(start, end + 1).join('\n');
}

/** The execution's error message (workflow-level or of the node that failed), if any. */
export function executionError(execution: ExecutionRunJson): string | undefined {
	const { resultData } = execution.data;
	if (resultData.error) return [resultData.error.message, resultData.error.description].filter(Boolean).join(': ');
	for (const [node, runs] of Object.entries(resultData.runData)) {
		for (const nodeRun of runs) {
			if (nodeRun.error) return `${node}: ${[nodeRun.error.message, nodeRun.error.description].filter(Boolean).join(': ')}`;
		}
	}
	return undefined;
}

/** The items a node emitted on one output of one of its runs (of a CLI result or an API execution). */
export function nodeOutput(
	execution: { data?: ExecutionRunJson['data'] },
	nodeName: string,
	{ run = 0, output = 0 } = {},
): ItemJson[] {
	if (!execution.data) throw new Error('The execution carries no data (list executions with includeData).');
	const runs = execution.data.resultData.runData[nodeName];
	if (!runs) {
		throw new Error(`Node "${nodeName}" did not run; nodes that ran: ${Object.keys(execution.data.resultData.runData).join(', ')}`);
	}
	return runs[run]?.data?.main?.[output] ?? [];
}
