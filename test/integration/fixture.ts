/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (`@n8n/backend-common`, `@n8n/di`) */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

import { prepareContainer, type RecordsCredentialData } from '../../tooling/harness/n8nCoreHarness';
import { startWebhookHost, type WebhookHost, type WebhookHostOptions } from '../../tooling/harness/webhook';
import { startSandbox, TOKENS, type Sandbox } from '../../tooling/sandbox/server';

/**
 * The integration tests' one set-up: a Records sandbox per test file (started before its tests,
 * back to its seeds before each test, closed after them) and the Records API credential pointing
 * at it. Call at a test file's top level; it registers the jest hooks.
 */

export interface SandboxFixture extends Sandbox {
	/**
	 * The Records API credential for this sandbox with `token` (default: the fixture's token). Usable
	 * at a file's top level: its base URL is the running sandbox's, read when the credential is used.
	 */
	credentials(token?: string): RecordsCredentialData;
}

export interface SandboxFixtureOptions {
	/** Rows of the seeded bank report; the sandbox's default (10,000) when not given. */
	bankRows?: number;
	/** The token `credentials()` carries by default; TOKENS.full when not given. */
	token?: string;
}

export function useSandbox(options: SandboxFixtureOptions = {}): SandboxFixture {
	let running: Sandbox | undefined;
	beforeAll(async () => {
		running = await startSandbox({ port: 0, quiet: true, bankRows: options.bankRows });
	});
	afterAll(async () => await running?.close());
	beforeEach(() => running?.reset());
	const sandbox = (): Sandbox => {
		if (!running) throw new Error('The sandbox runs only inside a test file\'s tests and hooks');
		return running;
	};
	return {
		get baseUrl() {
			return sandbox().baseUrl;
		},
		get port() {
			return sandbox().port;
		},
		get state() {
			return sandbox().state;
		},
		reset: () => sandbox().reset(),
		close: () => sandbox().close(),
		credentials: (token = options.token ?? TOKENS.full) => ({
			get baseUrl() {
				return sandbox().baseUrl;
			},
			token,
			allowHttp: true,
		}),
	};
}

/** One sandbox and the webhook host a test starts against it; see `hostWebhooksAgainstSandbox`. */
export interface SandboxWebhookHosting {
	readonly sandbox: Sandbox;
	/** The host the running test started, if any. */
	readonly host: WebhookHost | undefined;
	start(options: WebhookHostOptions): Promise<WebhookHost>;
}

/**
 * For tests that each host a trigger against the sandbox (tooling/harness/webhook.ts): the
 * sandbox of `useSandbox`; after every test the host is closed, and the test fails if the node
 * threw while handling a call, since every refusal must be an answer of the node's own.
 */
export function hostWebhooksAgainstSandbox(): SandboxWebhookHosting {
	const sandbox = useSandbox({ bankRows: 10 });
	let host: WebhookHost | undefined;
	afterEach(async () => {
		const errors = host?.webhookErrors ?? [];
		await host?.close();
		host = undefined;
		expect(errors).toEqual([]);
	});
	return {
		sandbox,
		get host() {
			return host;
		},
		async start(options) {
			host = await startWebhookHost(options);
			return host;
		},
	};
}

/**
 * The warnings n8n's logger receives during each test (the Report Trigger says there what it
 * noticed), emptied before each test. Call at a test file's top level; it registers the jest hooks.
 */
export function captureWarnings(): { messages: string[] } {
	const captured = { messages: [] as string[] };
	beforeEach(() => {
		captured.messages = [];
		// n8n's logger as the harness sets it up (silent unless N8N_LOG_LEVEL asks), before it is made.
		prepareContainer();
		jest.spyOn(Container.get(Logger), 'warn').mockImplementation((message: string) => void captured.messages.push(message));
	});
	afterEach(() => jest.restoreAllMocks());
	return captured;
}
