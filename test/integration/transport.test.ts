/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-hardcoded-secrets -- a test:
	runs in Node.js, not inside n8n (Node.js's modules, `setTimeout`); its passwords are fixed test
	values, not secrets */
/**
 * The transport (nodes/shared/transport) in n8n's real execution engine, against the Records
 * sandbox over real HTTP. A test-only node calls recordsApiRequest with the request described by
 * its parameters, so each test states one request and the policy it runs under.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	IHttpRequestMethods,
} from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import {
	recordsApiRequest,
	type RequestPurpose,
	type RetryPolicy,
} from '../../nodes/shared/transport';
import { runNode, type RecordsCredentialData, type RunNodeResult } from '../../tooling/harness/n8nCoreHarness';
import { sleep } from '../../tooling/lib/proc';
import { addFaults as addSandboxFaults, setGuesses } from '../../tooling/sandbox/control';
import { GUESS_SETS } from '../../tooling/sandbox/guesses';
import { RECORD_TYPES, REPORTS, TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const transportProbe: INodeType = {
	description: {
		displayName: 'Records Transport Probe',
		name: 'recordsTransportProbe',
		group: ['transform'],
		version: 1,
		description: 'Sends one request through the Records transport per item',
		defaults: { name: 'Transport Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'recordsApi', required: true }],
		properties: [
			{ displayName: 'Method', name: 'method', type: 'string', default: 'GET' },
			{ displayName: 'Path', name: 'path', type: 'string', default: '' },
			{ displayName: 'Purpose', name: 'purpose', type: 'string', default: 'report' },
			{ displayName: 'Subject', name: 'subject', type: 'string', default: '' },
			{ displayName: 'Body', name: 'body', type: 'json', default: '' },
			{ displayName: 'Timeout (Ms)', name: 'timeoutMs', type: 'number', default: 0 },
			{ displayName: 'Retry Policy', name: 'retry', type: 'json', default: '{}' },
		],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const output: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
			const body = this.getNodeParameter('body', itemIndex) as string;
			const subject = this.getNodeParameter('subject', itemIndex) as string;
			const timeoutMs = this.getNodeParameter('timeoutMs', itemIndex) as number;
			const response = await recordsApiRequest.call(this, {
				method: this.getNodeParameter('method', itemIndex) as IHttpRequestMethods,
				path: this.getNodeParameter('path', itemIndex) as string,
				purpose: this.getNodeParameter('purpose', itemIndex) as RequestPurpose,
				subject: subject === '' ? undefined : subject,
				body: body === '' ? undefined : (JSON.parse(body) as IDataObject),
				timeoutMs: timeoutMs === 0 ? undefined : timeoutMs,
				retry: JSON.parse(this.getNodeParameter('retry', itemIndex) as string) as Partial<RetryPolicy>,
				itemIndex,
			});
			output.push({
				json: {
					statusCode: response.statusCode,
					attempts: response.attempts,
					body: response.body as IDataObject,
				},
				pairedItem: { item: itemIndex },
			});
		}
		return [output];
	},
};

/** Short backoff so that retried tests take milliseconds; Retry-After still rules when sent. */
const FAST_RETRIES: Partial<RetryPolicy> = { baseDelayMs: 10, maxDelayMs: 50 };

const reportPath = (reportId: string) =>
	`/api/analysis/reports/${encodeURIComponent(reportId)}/data/table`;
const importPath = (recordTypeId: string) => `/api/3p/import/${encodeURIComponent(recordTypeId)}`;

const TASKS = [
	{ Název: 'Vyfakturovat duben', Zadal: 'Jana Nováková', Zpracovatel: 'Petr Svoboda' },
	{ Název: 'Uzavřít pokladnu', Zadal: 'Administrátor', Zpracovatel: 'Jana Nováková' },
];

const sandbox = useSandbox({ bankRows: 200 });

const addFaults = (...rules: IDataObject[]) => addSandboxFaults(sandbox, ...rules);

/** Requests the sandbox received on one route (import, report, …), whatever their outcome. */
function requestsTo(route: string): number {
	return sandbox.state.stats.requests[route]?.total ?? 0;
}

function allRequests(): number {
	return Object.values(sandbox.state.stats.requests).reduce((sum, entry) => sum + entry.total, 0);
}

interface ProbeRequest {
	method?: IHttpRequestMethods;
	path: string;
	purpose?: RequestPurpose;
	subject?: string;
	body?: IDataObject;
	timeoutMs?: number;
	retry?: Partial<RetryPolicy>;
	token?: string;
	credentials?: RecordsCredentialData;
}

async function send(request: ProbeRequest): Promise<RunNodeResult> {
	return await runNode({
		nodeType: transportProbe,
		parameters: {
			method: request.method ?? 'GET',
			path: request.path,
			purpose: request.purpose ?? 'report',
			subject: request.subject ?? '',
			body: request.body === undefined ? '' : JSON.stringify(request.body),
			timeoutMs: request.timeoutMs ?? 0,
			retry: JSON.stringify({ ...FAST_RETRIES, ...request.retry }),
		},
		credentials: request.credentials ?? sandbox.credentials(request.token ?? TOKENS.full),
	});
}

const getReport = async (reportId: string, extra: Partial<ProbeRequest> = {}) =>
	await send({
		path: reportPath(reportId),
		purpose: 'report',
		subject: `report "${reportId}"`,
		...extra,
	});

const importTasks = async (extra: Partial<ProbeRequest> = {}) =>
	await send({
		method: 'POST',
		path: importPath(RECORD_TYPES.tasks),
		purpose: 'import',
		subject: `record type "${RECORD_TYPES.tasks}"`,
		body: { data: TASKS },
		token: TOKENS.import,
		...extra,
	});

function succeeded(result: RunNodeResult): IDataObject {
	if (result.error) throw new Error(`The node failed: ${result.error.message}`);
	expect(result.items).toHaveLength(1);
	return result.items[0].json;
}

function apiError(result: RunNodeResult): NodeApiError {
	expect(result.error).toBeInstanceOf(NodeApiError);
	return result.error as NodeApiError;
}

/** Everything an error carries, however it is shown or stored: message, description, JSON, causes. */
function everythingIn(error: unknown): string {
	const seen = new Set<unknown>();
	const parts: string[] = [inspect(error, { depth: Infinity, showHidden: true })];
	let current: unknown = error;
	while (current && typeof current === 'object' && !seen.has(current)) {
		seen.add(current);
		const record = current as Record<string, unknown>;
		for (const key of ['message', 'description', 'stack']) {
			if (typeof record[key] === 'string') parts.push(record[key] as string);
		}
		try {
			parts.push(JSON.stringify(current));
		} catch {
			// A circular structure; inspect() above has it all.
		}
		current = record.cause;
	}
	return parts.join('\n');
}

/**
 * Waits until the sandbox has finished responses it was told to hold (slowMs): it counts a
 * request when its response ends, also when the client gave up waiting for it.
 */
async function slowResponsesFinished(slowMs: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, slowMs + 300));
}

/** The address of a local port nothing listens on. */
async function closedPortUrl(): Promise<string> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return `http://127.0.0.1:${port}`;
}

function storedTasks(title: string): number {
	const tasks = sandbox.state.recordTypes.get(RECORD_TYPES.tasks);
	return [...(tasks?.records.values() ?? [])].filter((record) => record.fields['Název'] === title).length;
}

describe('requests', () => {
	it('reads a report with the bearer token and returns the body, status and attempts', async () => {
		const output = succeeded(await getReport(REPORTS.costs, { token: TOKENS.analysisAdmin }));
		expect(output).toMatchObject({ statusCode: 200, attempts: 1 });
		expect(output.body).toEqual(
			expect.objectContaining({ columns: expect.any(Array), rows: expect.any(Array) }),
		);
		expect(requestsTo('report')).toBe(1);
	});

	it('imports records with a JSON body', async () => {
		const output = succeeded(await importTasks());
		expect(output).toMatchObject({ statusCode: 200, attempts: 1 });
		expect(storedTasks(TASKS[0]['Název'])).toBe(1);
		expect(storedTasks(TASKS[1]['Název'])).toBe(1);
	});

	it('refuses an http:// base URL without "Allow Plain HTTP" before sending anything', async () => {
		const result = await getReport(REPORTS.costs, {
			credentials: { baseUrl: sandbox.baseUrl, token: TOKENS.full },
		});
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toMatch(/plain http:\/\/.*Allow Plain HTTP \(Local Testing Only\)/);
		expect(allRequests()).toBe(0);
	});

	it('names a base URL that is not an http(s) address', async () => {
		const result = await getReport(REPORTS.costs, {
			credentials: { baseUrl: 'records.example.com', token: TOKENS.full },
		});
		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toContain('"records.example.com" is not an http(s) address');
	});

	it('accepts a base URL with trailing slashes', async () => {
		const output = succeeded(
			await getReport(REPORTS.costs, {
				credentials: { ...sandbox.credentials(TOKENS.full), baseUrl: `${sandbox.baseUrl}//` },
			}),
		);
		expect(output.statusCode).toBe(200);
	});
});

/**
 * Waits until the next second of the clock begins. The sandbox's rate limits count whole seconds of
 * the clock, so readers started then arrive within one window, not two (which would let twice as
 * many through and refuse fewer than the test is about).
 */
function windowStart(): Promise<void> {
	return sleep(1000 - (Date.now() % 1000));
}

describe('retries of reads', () => {
	it('waits for Retry-After after a 429, then succeeds', async () => {
		await addFaults({ route: 'report', status: 429, retryAfter: 1, times: 1 });
		const result = await getReport(REPORTS.costs);
		expect(succeeded(result)).toMatchObject({ statusCode: 200, attempts: 2 });
		// The backoff alone would wait at most 50 ms here.
		expect(result.executionTimeMs).toBeGreaterThanOrEqual(1000);
		expect(requestsTo('report')).toBe(2);
	});

	it('spreads readers refused together by a rate limit over the next window, so that every one finishes', async () => {
		// Two requests per second per token: eight readers on one token start at once, as parallel
		// pages or two workflows would. Each waits Retry-After plus jitter, so they come back apart.
		await addFaults({ route: 'report', rateLimit: { requests: 2, windowSeconds: 1 } });
		await windowStart();
		const readers = await Promise.all(Array.from({ length: 8 }, () => getReport(REPORTS.costs, { retry: { baseDelayMs: 500, maxDelayMs: 30_000 } })));

		expect(readers.map((result) => succeeded(result).statusCode)).toEqual(Array(8).fill(200));
		const [limiter] = sandbox.state.faults;
		const arrivals = limiter.arrivals ?? [];
		const firstWave = arrivals.slice(0, 8);
		const refused = firstWave.filter((arrival) => arrival.limited).length;
		expect(refused).toBeGreaterThanOrEqual(6);
		// The first retry of each refused reader: without jitter they all arrive within a few ms.
		const retries = arrivals.slice(8, 8 + refused).map((arrival) => arrival.at);
		expect(Math.max(...retries) - Math.min(...retries)).toBeGreaterThanOrEqual(200);
	});

	it.each(GUESS_SETS)('under %s (Retry-After on a rate limit, or none), readers and an import refused by it all finish, each once', async (_label, guesses) => {
		await setGuesses(sandbox, guesses);
		await addFaults({ route: '*', rateLimit: { requests: 2, windowSeconds: 1 } });
		await windowStart();
		const readers = await Promise.all(Array.from({ length: 4 }, () => getReport(REPORTS.costs, { retry: { baseDelayMs: 300, maxDelayMs: 2_000 } })));
		const imported = await importTasks({ retry: { baseDelayMs: 300, maxDelayMs: 2_000 } });

		expect(readers.map((result) => succeeded(result).statusCode)).toEqual(Array(4).fill(200));
		expect(succeeded(imported).statusCode).toBe(200);
		expect(storedTasks(TASKS[0]['Název'])).toBe(1);
		const limited = (sandbox.state.faults[0].arrivals ?? []).filter((arrival) => arrival.limited);
		expect(limited.length).toBeGreaterThanOrEqual(2);
	});

	it.each([502, 503, 504])('retries after %d, then succeeds', async (status) => {
		await addFaults({ route: 'report', status, times: 2 });
		expect(succeeded(await getReport(REPORTS.costs))).toMatchObject({
			statusCode: 200,
			attempts: 3,
		});
		expect(requestsTo('report')).toBe(3);
	});

	it('retries after a connection reset, then succeeds', async () => {
		await addFaults({ route: 'report', reset: true, times: 2 });
		expect(succeeded(await getReport(REPORTS.costs))).toMatchObject({ attempts: 3 });
		expect(requestsTo('report')).toBe(3);
	});

	it('retries a response slower than the timeout, then succeeds', async () => {
		await addFaults({ route: 'report', slowMs: 1500, times: 1 });
		const result = await getReport(REPORTS.costs, { timeoutMs: 300 });
		expect(succeeded(result)).toMatchObject({ statusCode: 200, attempts: 2 });
		await slowResponsesFinished(1500);
		expect(requestsTo('report')).toBe(2);
	});

	it('gives up after the configured attempts with the status and the attempt count', async () => {
		await addFaults({ route: 'report', status: 503 });
		const error = apiError(await getReport(REPORTS.costs, { retry: { maxAttempts: 3 } }));
		expect(error.httpCode).toBe('503');
		expect(error.message).toContain('(503)');
		expect(error.message).toContain('after 3 attempts');
		expect(requestsTo('report')).toBe(3);
	});

	it('does not retry at all with one attempt', async () => {
		await addFaults({ route: 'report', status: 503 });
		const error = apiError(await getReport(REPORTS.costs, { retry: { maxAttempts: 1 } }));
		expect(error.httpCode).toBe('503');
		expect(error.message).not.toContain('attempts');
		expect(requestsTo('report')).toBe(1);
	});

	it('gives up after repeated timeouts, saying the service did not answer', async () => {
		await addFaults({ route: 'report', slowMs: 2000 });
		const error = apiError(
			await getReport(REPORTS.costs, { timeoutMs: 200, retry: { maxAttempts: 2 } }),
		);
		expect(error.message).toContain('did not answer within the timeout');
		expect(error.message).toContain('after 2 attempts');
		await slowResponsesFinished(2000);
		expect(requestsTo('report')).toBe(2);
	});

	it('fails at once when Retry-After asks for longer than it will wait', async () => {
		await addFaults({ route: 'report', status: 429, retryAfter: 600 });
		const result = await getReport(REPORTS.costs, { retry: { maxRetryAfterMs: 5000 } });
		const error = apiError(result);
		expect(error.httpCode).toBe('429');
		expect(error.message).toContain('rate limit');
		expect(requestsTo('report')).toBe(1);
	});

	it('retries a truncated JSON response, then succeeds', async () => {
		await addFaults({ route: 'report', truncate: true, times: 1 });
		expect(succeeded(await getReport(REPORTS.costs))).toMatchObject({
			statusCode: 200,
			attempts: 2,
		});
	});

	it('retries a response whose connection broke off mid-body, then succeeds', async () => {
		await addFaults({ route: 'report', truncate: 'connection', times: 1 });
		expect(succeeded(await getReport(REPORTS.costs))).toMatchObject({
			statusCode: 200,
			attempts: 2,
		});
	});

	it('says the response was cut off when every answer is truncated', async () => {
		await addFaults({ route: 'report', truncate: true });
		const error = apiError(await getReport(REPORTS.costs, { retry: { maxAttempts: 2 } }));
		expect(error.message).toContain('not valid JSON (it may have been cut off)');
		expect(error.message).toContain('after 2 attempts');
		expect(error.description).toContain('report "costs"');
		expect(requestsTo('report')).toBe(2);
	});
});

describe('errors that are not retried', () => {
	it('does not retry a 400', async () => {
		await addFaults({ route: 'report', status: 400 });
		const error = apiError(await getReport(REPORTS.costs));
		expect(error.httpCode).toBe('400');
		expect(error.message).toBe('The service rejected the request for the report "costs" (400)');
		expect(requestsTo('report')).toBe(1);
	});

	it.each([
		['an invalid', 'rk_this_token_does_not_exist_at_all'],
		['an expired', TOKENS.expired],
		['a missing', ''],
	])('does not retry a 401 for %s token', async (_kind, token) => {
		const error = apiError(await getReport(REPORTS.costs, { token }));
		expect(error.httpCode).toBe('401');
		expect(requestsTo('report')).toBe(1);
	});

	it('does not retry a 404', async () => {
		const error = apiError(await getReport(REPORTS.notShared));
		expect(error.httpCode).toBe('404');
		expect(requestsTo('report')).toBe(1);
	});
});

describe('error messages', () => {
	it('401 on a report read names the analysis permission and where tokens are made', async () => {
		const error = apiError(await getReport(REPORTS.costs, { token: TOKENS.import }));
		expect(error.message).toBe('The service refused the API token (401)');
		expect(error.description).toContain('the analysis permission and be assigned to a user');
		expect(error.description).toContain('Settings → Import → API keys for import');
	});

	it('401 on an import names the import permission and where tokens are made', async () => {
		const error = apiError(await importTasks({ token: TOKENS.analysisAdmin }));
		expect(error.httpCode).toBe('401');
		expect(error.description).toContain('the import permission');
		expect(error.description).not.toContain('analysis');
		expect(error.description).toContain('Settings → Import → API keys for import');
		expect(requestsTo('import')).toBe(1);
	});

	it('404 on a report says it does not exist or is not made available through the API', async () => {
		const error = apiError(await getReport(REPORTS.notShared));
		expect(error.message).toBe(
			'The report "not-shared" does not exist or is not made available through the API (404)',
		);
		expect(error.description).toContain('enable availability through the API');
	});

	it('404 on an import says the record type does not exist', async () => {
		const error = apiError(
			await importTasks({
				path: importPath('no-such-type'),
				subject: 'record type "no-such-type"',
			}),
		);
		expect(error.httpCode).toBe('404');
		expect(error.message).toBe('The record type "no-such-type" does not exist (404)');
		expect(error.description).toContain('Record Type ID');
	});

	it('500 says the service failed, with what the service said', async () => {
		await addFaults({ route: 'report', status: 500 });
		const error = apiError(await getReport(REPORTS.costs, { retry: { maxAttempts: 2 } }));
		expect(error.httpCode).toBe('500');
		expect(error.message).toBe(
			'The service failed while processing the request for the report "costs" (500) (after 2 attempts)',
		);
		expect(error.description).toContain('internal error of the service');
		expect(error.description).toContain('Internal server error (fault injected by the sandbox)');
	});

	it('describes a request without a subject by its method and path', async () => {
		await addFaults({ route: 'clients', status: 400 });
		const error = apiError(await send({ path: '/api/v1/clients', purpose: 'api' }));
		expect(error.message).toBe('The service rejected the request for the GET /api/v1/clients (400)');
	});
});

describe('imports and the risk of sending records twice', () => {
	it('does not resend an import after a 500, and says the records may have been processed', async () => {
		await addFaults({ route: 'import', status: 500, afterProcessing: true });
		const error = apiError(await importTasks());
		expect(error.httpCode).toBe('500');
		expect(error.description).toContain('may already have processed this request');
		expect(error.description).toContain('Retry When Outcome Unknown');
		expect(requestsTo('import')).toBe(1);
		expect(storedTasks(TASKS[0]['Název'])).toBe(1);
	});

	it('does not resend an import after the connection was reset during processing', async () => {
		await addFaults({ route: 'import', reset: true, afterProcessing: true });
		const error = apiError(await importTasks());
		expect(error.message).toContain('The connection to the service was reset');
		expect(error.description).toContain('may already have processed this request');
		expect(requestsTo('import')).toBe(1);
		expect(sandbox.state.stats.importLog).toHaveLength(1);
		expect(storedTasks(TASKS[0]['Název'])).toBe(1);
	});

	it('does not resend an import that timed out', async () => {
		await addFaults({ route: 'import', slowMs: 1000, times: 1 });
		const error = apiError(await importTasks({ timeoutMs: 200 }));
		expect(error.message).toContain('did not answer within the timeout');
		expect(error.description).toContain('may already have processed this request');
		await slowResponsesFinished(1000);
		expect(requestsTo('import')).toBe(1);
		expect(storedTasks(TASKS[0]['Název'])).toBe(1);
	});

	it('does not resend an import after a connection reset, which may have come after processing', async () => {
		// The client cannot tell a reset before processing from one after it.
		await addFaults({ route: 'import', reset: true, times: 1 });
		const error = apiError(await importTasks());
		expect(error.description).toContain('may already have processed this request');
		expect(requestsTo('import')).toBe(1);
	});

	it('resends an import that never reached the service (connection refused)', async () => {
		const error = apiError(
			await importTasks({
				credentials: { baseUrl: await closedPortUrl(), token: TOKENS.import, allowHttp: true },
				retry: { maxAttempts: 3 },
			}),
		);
		expect(error.message).toBe(
			'The service refused the connection; check the Base URL and that the service is running (after 3 attempts)',
		);
		expect(error.description).not.toContain('may already have processed');
	});

	it.each([
		['429', { status: 429, retryAfter: 0 }],
		['503 and Retry-After', { status: 503, retryAfter: 0 }],
	])('resends an import the service refused with %s', async (_kind, fault) => {
		await addFaults({ route: 'import', times: 1, ...fault });
		expect(succeeded(await importTasks())).toMatchObject({ statusCode: 200, attempts: 2 });
		expect(requestsTo('import')).toBe(2);
		expect(storedTasks(TASKS[0]['Název'])).toBe(1);
	});

	it('does not resend an import after a 503 without Retry-After, which a gateway also answers after passing it on', async () => {
		await addFaults({ route: 'import', status: 503, afterProcessing: true, times: 1 });
		const error = apiError(await importTasks());
		expect(error.httpCode).toBe('503');
		expect(error.description).toContain('may already have processed this request');
		expect(requestsTo('import')).toBe(1);
		expect(storedTasks(TASKS[0]['Název'])).toBe(1);
	});

	it('with "retry when outcome unknown", resends an import after a 500', async () => {
		await addFaults({ route: 'import', status: 500, times: 1 });
		const output = succeeded(await importTasks({ retry: { retryUnknownOutcome: true } }));
		expect(output).toMatchObject({ statusCode: 200, attempts: 2 });
		expect(requestsTo('import')).toBe(2);
	});

	it('with "retry when outcome unknown", resends an import after a reset during processing', async () => {
		await addFaults({ route: 'import', reset: true, afterProcessing: true, times: 1 });
		const output = succeeded(await importTasks({ retry: { retryUnknownOutcome: true } }));
		expect(output).toMatchObject({ statusCode: 200, attempts: 2 });
		// Both requests were processed: the records carry the key field, so the second one edited them.
		expect(sandbox.state.stats.importLog.filter((entry) => entry.processed)).toHaveLength(2);
		expect(storedTasks(TASKS[0]['Název'])).toBe(1);
	});
});

describe('the token stays secret', () => {
	const token = TOKENS.full;

	it('is taken out of what a service says when it echoes the token back', async () => {
		const echo = createServer((req, res) => {
			req.resume();
			res.writeHead(req.url?.startsWith('/bad') ? 400 : 500, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: `Rejected header: ${req.headers.authorization ?? ''}` }));
		});
		await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
		const { port } = echo.address() as AddressInfo;
		try {
			for (const path of ['/bad-request', '/server-error']) {
				const result = await send({
					path,
					purpose: 'api',
					credentials: { baseUrl: `http://127.0.0.1:${port}`, token, allowHttp: true },
					retry: { maxAttempts: 1 },
				});
				const error = apiError(result);
				expect(`${error.message} ${error.description ?? ''}`).toContain('Rejected header: Bearer ***');
				expect(everythingIn(error)).not.toContain(token);
				expect(JSON.stringify(result.run.data.resultData)).not.toContain(token);
			}
		} finally {
			await new Promise((resolve) => echo.close(resolve));
		}
	});

	it('takes out the password of a Base URL with user information, and a token cut off past the 500th character', async () => {
		const password = 'gate-pa55-word-7731';
		const echo = createServer((req, res) => {
			req.resume();
			if (req.url?.startsWith('/moved')) {
				res.writeHead(302, { location: `http://gate:${password}@127.0.0.1/login` });
				res.end();
				return;
			}
			res.writeHead(400, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: `${'x'.repeat(480)} ${req.headers.authorization ?? ''}` }));
		});
		await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
		const { port } = echo.address() as AddressInfo;
		try {
			for (const path of ['/moved', '/bad-request']) {
				const result = await send({
					path,
					purpose: 'api',
					credentials: { baseUrl: `http://gate:${password}@127.0.0.1:${port}`, token, allowHttp: true },
					retry: { maxAttempts: 1 },
				});
				const seen = everythingIn(apiError(result));
				expect(seen).not.toContain(password);
				expect(seen).not.toContain(token.slice(0, 8));
				expect(JSON.stringify(result.run.data.resultData)).not.toContain(password);
			}
		} finally {
			await new Promise((resolve) => echo.close(resolve));
		}
	});

	it.each([
		['a 401', { route: 'report', status: 401 }, 'report'],
		['an exhausted 503', { route: 'report', status: 503 }, 'report'],
		['a 500 on an import', { route: 'import', status: 500 }, 'import'],
		['a connection reset', { route: 'report', reset: true }, 'report'],
		['a timeout', { route: 'report', slowMs: 600 }, 'report'],
		['truncated JSON', { route: 'report', truncate: true }, 'report'],
	])('is in no part of the error after %s', async (_kind, fault, route) => {
		await addFaults(fault);
		const result =
			route === 'import'
				? await importTasks({ token, retry: { maxAttempts: 2 } })
				: await getReport(REPORTS.costs, { token, timeoutMs: 200, retry: { maxAttempts: 2 } });
		expect(result.error).toBeDefined();
		expect(everythingIn(result.error)).not.toContain(token);
		expect(JSON.stringify(result.run.data.resultData)).not.toContain(token);
		if ('slowMs' in fault) await slowResponsesFinished(fault.slowMs);
	});
});
