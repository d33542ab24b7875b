import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { plainHttpRefusal } from '../../../credentials/RecordsApi.credentials';

export const CREDENTIAL_TYPE = 'recordsApi';

export type RecordsFunctions =
	| IExecuteFunctions
	| IPollFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions;

/** What a request is for; it chooses the permission named in a 401 and the wording of a 404. */
export type RequestPurpose = 'import' | 'report' | 'api';

export interface RetryPolicy {
	/** Attempts in all, the first included. 1 turns retries off. */
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** Longest Retry-After the node will wait for; a longer one fails the request at once. */
	maxRetryAfterMs: number;
	/**
	 * For requests that are not idempotent (imports): also retry failures after which the service
	 * may already have processed the request (500, 502, 504, a connection reset, a response
	 * timeout). Off by default, because a retried import of records without the record type's
	 * key field would create them twice.
	 */
	retryUnknownOutcome: boolean;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxAttempts: 5,
	baseDelayMs: 500,
	maxDelayMs: 30_000,
	maxRetryAfterMs: 120_000,
	retryUnknownOutcome: false,
};

export const DEFAULT_TIMEOUT_MS = 60_000;

export interface RecordsRequest {
	method: IHttpRequestMethods;
	/** Path under the base URL, starting with a slash; path segments must already be encoded. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject | IDataObject[];
	/**
	 * A JSON body serialized by the caller (JsonListBody), sent as it is instead of `body`: an import
	 * serializes its next batch while the current one is on the wire.
	 */
	serializedBody?: Buffer;
	purpose: RequestPurpose;
	/** Names what the request is about in messages, e.g. `record type "ukoly"`. */
	subject?: string;
	timeoutMs?: number;
	retry?: Partial<RetryPolicy>;
	itemIndex?: number;
	/** The credential's address, read once by a caller that sends many requests (recordsConnection). */
	connection?: RecordsConnection;
}

/** What the transport needs from the credential besides what its authenticate function adds. */
export interface RecordsConnection {
	baseUrl: string;
	/** Only to redact it from error messages. */
	secret: string;
}

export interface RecordsResponse<T = unknown> {
	body: T;
	statusCode: number;
	headers: IDataObject;
	/** How many attempts it took; more than 1 means the request was retried. */
	attempts: number;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** Statuses after which the service certainly did not process the request. */
const REFUSED_STATUSES = new Set([429, 503]);
/** Statuses after which the service may or may not have processed the request. */
const UNKNOWN_OUTCOME_STATUSES = new Set([500, 502, 504]);
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

type Outcome =
	| { kind: 'response'; response: IN8nHttpFullResponse }
	| { kind: 'failure'; code: string; message: string; statusCode?: number; retryAfterMs?: number };

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
	if (!/^https?:\/\//i.test(baseUrl)) {
		throw new NodeOperationError(
			this.getNode(),
			`The credential's Base URL "${baseUrl}" is not an http(s) address`,
			{
				itemIndex,
				description: 'Enter the address of your installation, e.g. https://records.example.com',
			},
		);
	}
	return { baseUrl, secret: String(credentials.token ?? '') };
}

export async function recordsApiRequest<T = unknown>(
	this: RecordsFunctions,
	request: RecordsRequest,
): Promise<RecordsResponse<T>> {
	const { baseUrl, secret } = request.connection ?? (await recordsConnection.call(this, request.itemIndex));

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
	};

	for (let attempt = 1; ; attempt++) {
		const outcome = await send.call(this, options);
		if (outcome.kind === 'response') {
			return {
				body: outcome.response.body as T,
				statusCode: outcome.response.statusCode,
				headers: outcome.response.headers as IDataObject,
				attempts: attempt,
			};
		}

		const retryable =
			NOT_SENT_CODES.has(outcome.code) ||
			(outcome.statusCode !== undefined && REFUSED_STATUSES.has(outcome.statusCode)) ||
			((idempotent || policy.retryUnknownOutcome) &&
				(UNKNOWN_OUTCOME_CODES.has(outcome.code) ||
					(outcome.statusCode !== undefined && UNKNOWN_OUTCOME_STATUSES.has(outcome.statusCode))));
		const retryAfterTooLong =
			outcome.retryAfterMs !== undefined && outcome.retryAfterMs > policy.maxRetryAfterMs;
		if (!retryable || attempt >= policy.maxAttempts || retryAfterTooLong) {
			throw apiError(this, request, outcome, attempt, idempotent, secret, policy);
		}
		await sleep(
			outcome.retryAfterMs === undefined
				? backoffDelay(attempt, policy.baseDelayMs, policy.maxDelayMs)
				: retryAfterDelay(outcome.retryAfterMs, attempt, policy),
		);
	}
}

async function send(this: RecordsFunctions, options: IHttpRequestOptions): Promise<Outcome> {
	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_TYPE,
			{ ...options },
		)) as IN8nHttpFullResponse;
	} catch (error) {
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
		message: serviceMessage(response.body),
		retryAfterMs: parseRetryAfter(headerValue(response.headers, 'retry-after')),
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

/** Error codes sit on the HTTP client's error, which n8n wraps once or twice. */
export function findErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
		const { code } = current as { code?: unknown };
		if (typeof code === 'string' && /^E[A-Z_]+$|^ERR_/.test(code)) return code;
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

/** The spec does not define an error body; take a message from the usual places. */
function serviceMessage(body: unknown): string {
	if (typeof body === 'string') return body.slice(0, 500);
	if (body && typeof body === 'object') {
		const { message, error, detail } = body as Record<string, unknown>;
		for (const candidate of [message, detail, error]) {
			if (typeof candidate === 'string' && candidate !== '') return candidate.slice(0, 500);
		}
	}
	return '';
}

function permissionFor(purpose: RequestPurpose): string {
	if (purpose === 'import') return 'the import permission';
	if (purpose === 'report') return 'the analysis permission and be assigned to a user';
	return 'the permission this request needs';
}

function apiError(
	context: RecordsFunctions,
	request: RecordsRequest,
	failure: Extract<Outcome, { kind: 'failure' }>,
	attempts: number,
	idempotent: boolean,
	secret: string,
	policy: RetryPolicy,
): NodeApiError {
	const subject = request.subject ?? `${request.method} ${request.path}`;
	const status = failure.statusCode;
	const tried = attempts > 1 ? ` (after ${attempts} attempts)` : '';
	const serviceSays = failure.message ? ` The service said: ${failure.message}` : '';
	const mayHaveProcessed =
		!idempotent &&
		(UNKNOWN_OUTCOME_CODES.has(failure.code) ||
			(status !== undefined && UNKNOWN_OUTCOME_STATUSES.has(status)));
	let message: string;
	let description: string;

	if (status === 401) {
		message = 'The service refused the API token (401)';
		description = `The token is invalid, expired, or lacks a permission: it must have ${permissionFor(request.purpose)}. An administrator creates tokens under Settings → Import → API keys for import; update the Records API credential with a valid one.`;
	} else if (status === 404) {
		if (request.purpose === 'import') {
			message = `The ${subject} does not exist (404)`;
			description =
				"Check the Record Type ID: it is shown in the record type's settings, next to the API documentation generated for it.";
		} else if (request.purpose === 'report') {
			message = `The ${subject} does not exist or is not made available through the API (404)`;
			description =
				"Open the report's sharing dialog, enable availability through the API, and copy the report ID (or URL) shown there.";
		} else {
			message = `Not found (404): ${subject}`;
			description = 'Check the path and the IDs in it.';
		}
		description += serviceSays;
	} else if (status === 500) {
		message = `The service failed while processing the request for the ${subject} (500)${tried}`;
		description = `This is an internal error of the service.${serviceSays}`;
	} else if (status === 429) {
		message = `The service's rate limit was still exceeded${tried}`;
		description =
			failure.retryAfterMs !== undefined && attempts < policy.maxAttempts
				? `The service asked to wait ${Math.ceil(failure.retryAfterMs / 1000)} s before retrying, longer than the node waits (${Math.round(policy.maxRetryAfterMs / 1000)} s). Run the workflow later or less often.${serviceSays}`
				: `Lower the batch size or concurrency, or raise the number of attempts.${serviceSays}`;
	} else if (status !== undefined && status >= 300 && status < 400) {
		message = `The service redirected the request for the ${subject} to another address (${status})`;
		description = `It points to: ${failure.message}. Redirects are not followed, so that the API token is sent only to the credential's Base URL. If the installation has moved (for example from http:// to https://), enter its new address as the Base URL.`;
	} else if (status !== undefined && status >= 400 && status < 500) {
		message = `The service rejected the request for the ${subject} (${status})`;
		description = `${failure.message || 'No reason was given.'}`;
	} else if (status !== undefined && status >= 500) {
		message = `The service is unavailable or failed (${status})${tried}`;
		description = `Try again later.${serviceSays}`;
	} else {
		message = `${failure.message}${tried}`;
		description = `No answer was received for the ${subject}.`;
	}
	if (failure.code === 'INVALID_JSON') {
		message = `${failure.message}${tried}`;
		description = `The answer for the ${subject} could not be read.`;
	}
	if (mayHaveProcessed) {
		description +=
			' The service may already have processed this request, so it was not sent again. Check the records in the service before re-running; if every record carries the record type\'s key field, a repeat only edits them, and you can turn on "Retry When Outcome Unknown".';
	}

	const redact = (text: string) => (secret.length >= 4 ? text.split(secret).join('***') : text);
	const errorResponse: JsonObject = { message: redact(message), code: failure.code };
	if (status !== undefined) errorResponse.httpCode = String(status);
	const error = new NodeApiError(context.getNode(), errorResponse, {
		message: redact(message),
		description: redact(description),
		httpCode: status !== undefined ? String(status) : undefined,
		itemIndex: request.itemIndex,
	});
	// NodeApiError swaps any message containing a system error code for a generic text, e.g. one
	// naming the record type "neexistuje" (contains EEXIST) for "The file or directory already exists".
	error.message = redact(message);
	return error;
}
