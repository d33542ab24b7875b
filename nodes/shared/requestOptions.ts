/**
 * The request options every operation and trigger offers (Retry Attempts, Timeout, Parallel
 * Requests), with one set of defaults and limits, and what they become for the transport.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { DEFAULT_RETRY_POLICY, DEFAULT_TIMEOUT_MS, type RetryPolicy } from './transport';

/** Retries after the first attempt; the transport counts attempts in all. */
export const DEFAULT_RETRY_ATTEMPTS = DEFAULT_RETRY_POLICY.maxAttempts - 1;
export const MAX_RETRY_ATTEMPTS = 10;
export const DEFAULT_TIMEOUT_SECONDS = DEFAULT_TIMEOUT_MS / 1000;
/** Most requests one node sends at the same time (import batches, report pages). */
export const MAX_CONCURRENCY = 32;

export const retryAttemptsOption: INodeProperties = {
	displayName: 'Retry Attempts',
	name: 'retryAttempts',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: MAX_RETRY_ATTEMPTS },
	default: DEFAULT_RETRY_ATTEMPTS,
	description:
		'How many times to repeat a request that failed for a temporary reason (rate limit, service unavailable, connection refused). A request that changes data (POST, PATCH) is not repeated after a failure where the service may already have processed it. 0 turns retries off.',
};

export const timeoutOption: INodeProperties = {
	displayName: 'Timeout (Seconds)',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: DEFAULT_TIMEOUT_SECONDS,
	description: 'How long to wait for the service to answer one request before giving up',
};

export interface RequestSettings {
	timeoutMs: number;
	retry: Partial<RetryPolicy>;
}

/** Turns the Retry Attempts and Timeout options into what the transport takes. */
export function requestSettings(options: IDataObject): RequestSettings {
	const retries = typeof options.retryAttempts === 'number' ? options.retryAttempts : DEFAULT_RETRY_ATTEMPTS;
	const seconds = typeof options.timeout === 'number' ? options.timeout : DEFAULT_TIMEOUT_SECONDS;
	return {
		timeoutMs: Math.max(1, seconds) * 1000,
		retry: {
			maxAttempts: Math.max(0, Math.floor(retries)) + 1,
			retryUnknownOutcome: options.retryUnknownOutcome === true,
		},
	};
}
