import type { IDataObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { plainHttpRefusal } from '../../../credentials/RecordsApi.credentials';
import { apiError } from './errors';
import { excerpt, redact } from './redaction';
import { describeTlsFailure, findTlsFailure } from './tlsFailure';
import type {
	Outcome,
	RecordsConnection,
	RecordsFunctions,
	RecordsRequest,
	RecordsResponse,
	RequestOutcome,
	RetryPolicy,
} from './types';

export type {
	Outcome,
	RecordsConnection,
	RecordsFunctions,
	RecordsRequest,
	RecordsResponse,
	RequestOutcome,
	RequestPurpose,
	RetryPolicy,
} from './types';
export { failedAnswerBody, requestOutcome } from './errors';

export const CREDENTIAL_TYPE = 'recordsApi';

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 5,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
	maxRetryAfterMs: 120_000,
	retryUnknownOutcome: false,
};

export const DEFAULT_TIMEOUT_MS = 60_000;

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * Statuses after which the service may or may not have processed the request. A gateway or load
 * balancer in front of the service answers 502, 503 and 504 itself, also after it passed the request
 * on (its own timeout, a backend that dropped the connection), so none of them proves that nothing
 * was processed; the guide (§7) lists only 200, 401, 404 and 500.
 */
const UNKNOWN_OUTCOME_STATUSES = new Set([500, 502, 503, 504]);
/** Connection failures that happen before a byte of the request reaches the service. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** Connection failures that can happen after the service received the request. */
const UNKNOWN_OUTCOME_CODES = new Set([
	'ECONNRESET',
	'EPIPE',
	'ETIMEDOUT',
	'ECONNABORTED',
	'ESOCKETTIMEDOUT',
	'ERR_SOCKET_CONNECTION_TIMEOUT',
	'ERR_BAD_RESPONSE',
	'INVALID_JSON',
]);

/**
 * A refusal: the service (or a gateway) certainly did not process the request. 429 is a rate
 * limiter's answer, given before anything is handled. A 503 counts only with Retry-After, a
 * deliberate "come back later" (maintenance, overload, a limiter); a gateway whose backend failed
 * or timed out answers 503 without one.
 */
function refusal(failure: Extract<Outcome, { kind: 'failure' }>): boolean {
	const status = failure.statusCode;
	return status === 429 || (status === 503 && failure.retryAfterMs !== undefined);
}

/** A failure after which the service may already have processed the request. */
function unknownOutcome(failure: Extract<Outcome, { kind: 'failure' }>): boolean {
	const status = failure.statusCode;
	if (refusal(failure)) return false;
	return UNKNOWN_OUTCOME_CODES.has(failure.code) || (status !== undefined && UNKNOWN_OUTCOME_STATUSES.has(status));
}

/**
 * What became of a request that failed for good: never sent (no connection, a failed TLS handshake),
 * refused (an answer that says it was not processed: 3xx, 4xx, a 503 with Retry-After), or unknown
 * (anything after which the service may have processed it, and any failure the transport cannot
 * place).
 */
function finalOutcome(failure: Extract<Outcome, { kind: 'failure' }>): RequestOutcome {
	if (failure.notSent === true || NOT_SENT_CODES.has(failure.code)) return 'notSent';
	const status = failure.statusCode;
	if (refusal(failure) || (status !== undefined && status >= 300 && status < 500)) return 'refused';
	return 'unknown';
}

/**
 * Reads and checks the credential's Base URL. n8n decrypts the stored credential on every read, so
 * a caller sending many requests (the pages of a report, the batches of an import) reads it once
 * and passes it with each request.
 */
export async function recordsConnection(this: RecordsFunctions, itemIndex?: number): Promise<RecordsConnection> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE, itemIndex);
	const baseUrl = String(credentials.baseUrl ?? '').replace(/\/+$/, '');
	const refusal = plainHttpRefusal(baseUrl, credentials.allowHttp === true);
	if (refusal) {
		throw new NodeOperationError(this.getNode(), refusal, { itemIndex });
	}
	const secrets = credentialSecrets(String(credentials.token ?? ''), baseUrl);
	if (!/^https?:\/\//i.test(baseUrl)) {
		throw new NodeOperationError(
			this.getNode(),
			`The credential's Base URL "${redact(baseUrl, secrets)}" is not an http(s) address`,
			{
				itemIndex,
				description: 'Enter the address of your installation, e.g. https://records.example.com',
			},
		);
	}
	return {
		baseUrl,
		secrets,
		ignoreSslIssues: credentials.ignoreSSLIssues === true,
	};
}

export async function recordsApiRequest<T = unknown>(
	this: RecordsFunctions,
	request: RecordsRequest,
): Promise<RecordsResponse<T>> {
	const { baseUrl, secrets, ignoreSslIssues } =
		request.connection ?? (await recordsConnection.call(this, request.itemIndex));

	const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...request.retry };
	const idempotent = IDEMPOTENT_METHODS.has(request.method);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		qs: request.qs,
		body: request.serializedBody ?? request.body,
		...(request.serializedBody ? { headers: { 'Content-Type': 'application/json' } } : {}),
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// n8n repeats the Authorization header on redirects, to any host: the token must not follow.
		disableFollowRedirect: true,
		timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		// Off unless the user chose it; protocols older than TLS 1.2 stay refused either way.
		skipSslCertificateValidation: ignoreSslIssues === true,
	};

	let afterUnknownOutcome = false;
	for (let attempt = 1; ; attempt++) {
		const outcome = await send.call(this, options, secrets);
		if (outcome.kind === 'response') {
			return {
				body: outcome.response.body as T,
				statusCode: outcome.response.statusCode,
				headers: outcome.response.headers as IDataObject,
				attempts: attempt,
				...(afterUnknownOutcome ? { afterUnknownOutcome } : {}),
			};
		}

		const final = outcome.statusCode !== undefined && policy.finalStatuses?.includes(outcome.statusCode) === true;
		const retryable =
			!final &&
			(NOT_SENT_CODES.has(outcome.code) ||
				refusal(outcome) ||
				((idempotent || policy.retryUnknownOutcome) && unknownOutcome(outcome)));
		const retryAfterTooLong =
			outcome.retryAfterMs !== undefined && outcome.retryAfterMs > policy.maxRetryAfterMs;
		if (!retryable || attempt >= policy.maxAttempts || retryAfterTooLong) {
			// After an attempt whose outcome was unknown, a refusal of the last one does not undo it.
			const mayHaveProcessed = !idempotent && (unknownOutcome(outcome) || afterUnknownOutcome);
			const final = afterUnknownOutcome ? 'unknown' : finalOutcome(outcome);
			throw apiError(this, request, outcome, { attempts: attempt, mayHaveProcessed, final }, { baseUrl, secrets }, policy);
		}
		if (!idempotent && unknownOutcome(outcome)) afterUnknownOutcome = true;
		await sleep(
			outcome.retryAfterMs === undefined
				? backoffDelay(attempt, policy.baseDelayMs, policy.maxDelayMs)
				: retryAfterDelay(outcome.retryAfterMs, attempt, policy),
		);
	}
}

async function send(this: RecordsFunctions, options: IHttpRequestOptions, secrets: readonly string[]): Promise<Outcome> {
	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_TYPE,
			{ ...options },
		)) as IN8nHttpFullResponse;
	} catch (error) {
		const tls = findTlsFailure(error);
		if (tls) {
			const { message, description } = describeTlsFailure(tls, new URL(options.url).host);
			return { kind: 'failure', code: tls.code, message, description, notSent: true };
		}
		const code = findErrorCode(error);
		if (code === 'ERR_CANCELED') {
			throw new NodeOperationError(this.getNode(), 'The execution was cancelled');
		}
		return { kind: 'failure', code: code ?? 'UNKNOWN', message: describeConnectionFailure(code) };
	}

	const { statusCode } = response;
	if (statusCode >= 200 && statusCode < 300) {
		const body = parseBody(response);
		if (body === INVALID_JSON) {
			return {
				kind: 'failure',
				code: 'INVALID_JSON',
				statusCode,
				message: 'The service sent a response that is not valid JSON (it may have been cut off)',
			};
		}
		return { kind: 'response', response: { ...response, body: body as IN8nHttpFullResponse['body'] } };
	}
	if (statusCode >= 300 && statusCode < 400) {
		return {
			kind: 'failure',
			code: `HTTP_${statusCode}`,
			statusCode,
			message: headerValue(response.headers, 'location') ?? 'no address given',
		};
	}
	return {
		kind: 'failure',
		code: `HTTP_${statusCode}`,
		statusCode,
		message: serviceMessage(response.body, secrets),
		retryAfterMs: parseRetryAfter(headerValue(response.headers, 'retry-after')),
		...(statusCode < 500 ? { body: response.body } : {}),
	};
}

const INVALID_JSON = Symbol('invalid JSON');

function parseBody(response: IN8nHttpFullResponse): unknown {
	const { body } = response;
	const contentType = headerValue(response.headers, 'content-type') ?? '';
	if (typeof body !== 'string' || !contentType.includes('json')) return body;
	// The HTTP client hands back the raw text when it cannot parse a JSON body.
	if (body.trim() === '') return {};
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return INVALID_JSON;
	}
}

function headerValue(headers: unknown, name: string): string | undefined {
	if (!headers || typeof headers !== 'object') return undefined;
	for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
		if (key.toLowerCase() === name) return Array.isArray(value) ? String(value[0]) : String(value);
	}
	return undefined;
}

/** Retry-After is either a number of seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	const seconds = Number(value);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with full jitter, so that parallel requests do not retry in lockstep. */
export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs: number): number {
	const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
	return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/**
 * The wait after an answer with Retry-After: never less than the service asked, plus a random part
 * as long as that wait (at least the backoff of this attempt, at most maxDelayMs). Readers refused
 * together (parallel pages, workflows sharing a token) then come back spread over the next window
 * instead of all at its first moment, where most of them would be refused again.
 */
export function retryAfterDelay(
	retryAfterMs: number,
	attempt: number,
	policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
	random: number = Math.random(),
): number {
	const backoff = policy.baseDelayMs * 2 ** (attempt - 1);
	const spread = Math.min(policy.maxDelayMs, Math.max(retryAfterMs, backoff));
	return retryAfterMs + Math.round(random * spread);
}

/**
 * Error codes sit on the HTTP client's error, which n8n wraps once or twice: n8n 2.x keeps it as
 * `cause`, n8n 1.x keeps only its code, as the wrapping error's `httpCode`.
 */
export function findErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const { code, httpCode } = current as { code?: unknown; httpCode?: unknown };
		for (const candidate of [code, httpCode]) {
			if (typeof candidate === 'string' && /^E[A-Z_]+$|^ERR_/.test(candidate)) return candidate;
		}
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

function describeConnectionFailure(code: string | undefined): string {
	switch (code) {
		case 'ECONNREFUSED':
			return 'The service refused the connection; check the Base URL and that the service is running';
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return "The service's host name could not be resolved; check the Base URL";
		case 'ECONNRESET':
		case 'EPIPE':
			return 'The connection to the service was reset';
		case 'ETIMEDOUT':
		case 'ECONNABORTED':
		case 'ESOCKETTIMEDOUT':
		case 'ERR_SOCKET_CONNECTION_TIMEOUT':
			return 'The service did not answer within the timeout';
		default:
			return `The request to the service failed${code ? ` (${code})` : ''}`;
	}
}

/** Characters of a service's error message shown in an error. */
const MESSAGE_LENGTH = 500;

/**
 * The spec does not define an error body; take a message from the usual places, its secrets
 * redacted before it is cut to length.
 */
function serviceMessage(body: unknown, secrets: readonly string[]): string {
	if (typeof body === 'string') return excerpt(body, secrets, MESSAGE_LENGTH);
	if (body && typeof body === 'object') {
		const { message, error, detail } = body as Record<string, unknown>;
		for (const candidate of [message, detail, error]) {
			if (typeof candidate === 'string' && candidate !== '') return excerpt(candidate, secrets, MESSAGE_LENGTH);
		}
	}
	return '';
}

/**
 * What is redacted from the texts of failed requests: the token, and the password of a Base URL
 * written with user information (`https://user:password@host`), which a redirect or an echo may
 * carry.
 */
export function credentialSecrets(token: string, baseUrl: string): string[] {
	const secrets = [token];
	try {
		const { password } = new URL(baseUrl);
		if (password !== '') secrets.push(password, decodeURIComponent(password));
	} catch {
		// Not a URL: recordsConnection refuses it before any request.
	}
	return secrets;
}
