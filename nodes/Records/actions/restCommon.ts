import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
} from 'n8n-workflow';
import { ExecutionBaseError, NodeOperationError } from 'n8n-workflow';

import type { RetryPolicy } from '../transport';

/**
 * Shared by the operations on the service's REST endpoints (Client, Invoice, Custom API Call).
 * Client and Invoice follow shapes the service's product overview shows as examples only (spec
 * §4.4); the notice tells users so before they build on them.
 */
export const illustrativeRestNotice: INodeProperties = {
	displayName:
		"This operation follows the REST example in the service's product overview; the service does not publish an authoritative definition of it. If your installation answers differently, use the Custom API Call resource.",
	name: 'illustrativeRestNotice',
	type: 'notice',
	default: '',
};

/** Return All / Limit, as every n8n node that lists things offers them. */
export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

export const retryAttemptsOption: INodeProperties = {
	displayName: 'Retry Attempts',
	name: 'retryAttempts',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 10 },
	default: 4,
	description:
		'How many times to repeat a request that failed for a temporary reason (rate limit, service unavailable, connection refused). A request that changes data (POST, PATCH) is not repeated after a failure where the service may already have processed it. 0 turns retries off.',
};

export const timeoutOption: INodeProperties = {
	displayName: 'Timeout (Seconds)',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 60,
	description: 'How long to wait for the service to answer one request before giving up',
};

export interface RequestSettings {
	timeoutMs: number;
	retry: Partial<RetryPolicy>;
}

/** Turns the Retry Attempts and Timeout options into what the transport takes. */
export function requestSettings(options: IDataObject): RequestSettings {
	const retries = typeof options.retryAttempts === 'number' ? options.retryAttempts : 4;
	const seconds = typeof options.timeout === 'number' ? options.timeout : 60;
	return {
		timeoutMs: Math.max(1, seconds) * 1000,
		retry: {
			maxAttempts: Math.max(0, Math.floor(retries)) + 1,
			retryUnknownOutcome: options.retryUnknownOutcome === true,
		},
	};
}

/** An error to fail the node with: n8n's own errors as they are, anything else wrapped for the UI. */
export function asNodeError(node: INode, error: unknown, itemIndex: number): ExecutionBaseError {
	if (error instanceof ExecutionBaseError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error), { itemIndex });
}

/** The output item for an input item that failed while the node continues on fail. */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const json: IDataObject = {
		error: error instanceof Error ? error.message : String(error),
	};
	const description =
		typeof error === 'object' && error !== null ? (error as JsonObject).description : undefined;
	if (typeof description === 'string' && description !== '') json.description = description;
	return { json, pairedItem: { item: itemIndex } };
}

/** Output JSON for a value of a response: objects as they are, anything else under `data`. */
export function asItemJson(value: unknown): IDataObject {
	if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as IDataObject;
	// HEAD, 204 and other answers without content.
	if (value === undefined || value === '') return {};
	return { data: value as IDataObject[keyof IDataObject] };
}
