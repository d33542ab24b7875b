/** The transport's types: what a request, its connection, its answer and its outcome are. */
import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

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
	/**
	 * Statuses that end the request at once, without retries, whatever the rest of the policy says:
	 * an adaptive report read gives up a page size the service refused instead of asking for it
	 * again (pageSize.ts).
	 */
	finalStatuses?: readonly number[];
}

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
	/** Only to redact them from error messages: the token, and a password in the Base URL. */
	secrets: readonly string[];
	/** The credential's "Ignore SSL Issues (Insecure)": accept any certificate. */
	ignoreSslIssues?: boolean;
}

export interface RecordsResponse<T = unknown> {
	body: T;
	statusCode: number;
	headers: IDataObject;
	/** How many attempts it took; more than 1 means the request was retried. */
	attempts: number;
	/**
	 * An earlier attempt failed after the service may have processed it (sent again only with
	 * `retryUnknownOutcome`): this answer describes the last attempt, not what the earlier one did.
	 */
	afterUnknownOutcome?: boolean;
}

export type Outcome =
	| { kind: 'response'; response: IN8nHttpFullResponse }
	| {
			kind: 'failure';
			code: string;
			message: string;
			/** Replaces the generic description of a failure without an answer (a TLS failure). */
			description?: string;
			statusCode?: number;
			retryAfterMs?: number;
			/** The request never left n8n (a failed TLS handshake). */
			notSent?: boolean;
			/** A 4xx answer's body, for a caller that reads what it says of the request (an import's records). */
			body?: unknown;
	  };

/**
 * What became of a request that failed: `notSent`, it never reached the service; `refused`, the
 * answer says it was not processed; `unknown`, the service may have processed it.
 */
export type RequestOutcome = 'notSent' | 'refused' | 'unknown';

