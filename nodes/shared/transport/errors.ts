/**
 * What a failed request tells the user: the message and the fix by status (§7 lists only 200, 401,
 * 404 and 500; the rest is the package's reading), with the token redacted.
 */
import type { JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { baseUrlPath } from '../../../credentials/RecordsApi.credentials';
import { redact } from './redaction';
import type { Outcome, RecordsFunctions, RecordsRequest, RequestOutcome, RequestPurpose, RetryPolicy } from './types';

/** What became of the request each error of the transport ends, for callers that report it per record. */
const outcomes = new WeakMap<Error, RequestOutcome>();

/** What became of the request a transport error ends; undefined for any other error. */
export function requestOutcome(error: unknown): RequestOutcome | undefined {
	return error instanceof Error ? outcomes.get(error) : undefined;
}

/** The body of the 4xx answer each error of the transport ends with, for callers that read it. */
const answerBodies = new WeakMap<Error, unknown>();

/** The body of the 4xx answer a transport error ends with (secrets not removed); undefined for any other error. */
export function failedAnswerBody(error: unknown): unknown {
	return error instanceof Error ? answerBodies.get(error) : undefined;
}

/** How a request ended: its attempts, and what became of it. */
export interface RequestEnd {
	attempts: number;
	/** A request that is not idempotent failed after the service may have processed it. */
	mayHaveProcessed: boolean;
	final: RequestOutcome;
}

function permissionFor(purpose: RequestPurpose): string {
	if (purpose === 'import') return 'the import permission';
	if (purpose === 'report') return 'the analysis permission and be assigned to a user';
	return 'the permission this request needs';
}

/** The message and fix for a failed request, by what went wrong (status, or no answer). */
function failureText(
	request: RecordsRequest,
	failure: Extract<Outcome, { kind: 'failure' }>,
	attempts: number,
	policy: RetryPolicy,
	baseUrl: string,
): { message: string; description: string } {
	const extraPath = baseUrlPath(baseUrl);
	const subject = request.subject ?? `${request.method} ${request.path}`;
	const status = failure.statusCode;
	const tried = attempts > 1 ? ` (after ${attempts} attempts)` : '';
	const serviceSays = failure.message ? ` The service said: ${failure.message}` : '';
	let message: string;
	let description: string;

	if (status === 401) {
		message = 'The service refused the API token (401)';
		description = `The token is invalid, expired, or lacks a permission: it must have ${permissionFor(request.purpose)}. An administrator creates tokens under Settings → Import → API keys for import; update the Records API credential with a valid one.`;
	} else if (status === 404 && extraPath !== undefined) {
		// Every endpoint under a path is unknown: the ID is not the cause, the Base URL is.
		message = `Not found (404): the credential's Base URL has a path (${extraPath.path})`;
		description = `Enter only the address of your installation as the Base URL of the Records API credential, here ${extraPath.origin}: the nodes add the API's paths themselves.`;
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
		const gateway = [502, 503, 504].includes(status)
			? ' A gateway or load balancer between n8n and the service may have answered this, before or after passing the request on.'
			: '';
		description = `Try again later.${gateway}${serviceSays}`;
	} else {
		message = `${failure.message}${tried}`;
		description = failure.description ?? `No answer was received for the ${subject}.`;
	}
	if (failure.code === 'INVALID_JSON') {
		message = `${failure.message}${tried}`;
		description = `The answer for the ${subject} could not be read.`;
	}
	return { message, description };
}

/** The error a failed request ends in; the API token never appears in it. */
export function apiError(
	context: RecordsFunctions,
	request: RecordsRequest,
	failure: Extract<Outcome, { kind: 'failure' }>,
	{ attempts, mayHaveProcessed, final }: RequestEnd,
	connection: { baseUrl: string; secrets: readonly string[] },
	policy: RetryPolicy,
): NodeApiError {
	const { secrets } = connection;
	const status = failure.statusCode;
	const text = failureText(request, failure, attempts, policy, connection.baseUrl);
	const { message } = text;
	let { description } = text;
	if (mayHaveProcessed) {
		description +=
			' The service may already have processed this request, so it was not sent again. Check the records in the service before re-running; if every record carries the record type\'s key field, a repeat only edits them, and you can turn on "Retry When Outcome Unknown".';
	}

	const hidden = (text: string) => redact(text, secrets);
	const errorResponse: JsonObject = { message: hidden(message), code: failure.code };
	if (status !== undefined) errorResponse.httpCode = String(status);
	const error = new NodeApiError(context.getNode(), errorResponse, {
		message: hidden(message),
		description: hidden(description),
		httpCode: status !== undefined ? String(status) : undefined,
		itemIndex: request.itemIndex,
	});
	// n8n's durable scheduler reads why a poll failed (n8n-workflow 2.38+; older releases ignore it):
	// a rate limit makes it wait before the next poll, a refused token stops it retrying in vain.
	if (status === 429) error.failure = { cause: 'rate-limited', retryAfterMs: failure.retryAfterMs };
	else if (status === 401) error.failure = { cause: 'credential-invalid' };
	// NodeApiError swaps any message containing a system error code for a generic text, e.g. one
	// naming the record type "neexistuje" (contains EEXIST) for "The file or directory already exists".
	error.message = hidden(message);
	outcomes.set(error, final);
	if (failure.body !== undefined) answerBodies.set(error, failure.body);
	return error;
}
