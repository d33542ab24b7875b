import type {
	IDataObject,
	IExecuteFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
	IWorkflowDataProxyData,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { serializeReply, type ReplyFormat } from '../../../shared/workflowCall/replyBody';
import {
	callToAnswer,
	isRecordsTrigger,
	responseHeaders,
	type HeaderEntry,
	type TriggerBefore,
} from '../../../shared/workflowCall/handshake';
import { choice, jsonParameter, parameterError, wholeNumber } from '../../../shared/parameters/kit';
import { asNodeError, errorItem } from '../../../shared/perItem';

const RESPOND_WITH = ['firstIncomingItem', 'json', 'text'] as const;
const FORMATS = ['sameAsCall', 'json', 'xml'] as const;
const DEFAULT_XML_ROOT = 'response';

const properties: INodeProperties[] = [
	{
		displayName: 'Respond With',
		name: 'respondWith',
		type: 'options',
		options: [
			{
				name: 'First Incoming Item',
				value: 'firstIncomingItem',
				description: "The JSON of this node's first input item",
			},
			{
				name: 'JSON',
				value: 'json',
				description: 'A JSON object you type, or build with expressions',
			},
			{
				name: 'Text',
				value: 'text',
				description: 'Text sent as it is, e.g. an XML document the workflow built',
			},
		],
		default: 'firstIncomingItem',
		description: 'What to send back to the service',
	},
	{
		displayName: 'Response Body',
		name: 'responseBody',
		type: 'json',
		default: '{\n  "status": "ok"\n}',
		displayOptions: { show: { respondWith: ['json'] } },
		description:
			'The answer, sent as JSON or XML as Format says. Expressions in it are read from the first input item.',
	},
	{
		displayName: 'Response Text',
		name: 'responseText',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		displayOptions: { show: { respondWith: ['text'] } },
		description:
			'Sent as it is, as text/plain unless Options → Response Headers sets a Content-Type (e.g. application/xml for XML)',
	},
	{
		displayName: 'Format',
		name: 'format',
		type: 'options',
		options: [
			{
				name: 'Same as the Call',
				value: 'sameAsCall',
				description:
					'XML when the call sent XML (or, without a body, asked for XML), otherwise JSON',
			},
			{ name: 'JSON', value: 'json' },
			{ name: 'XML', value: 'xml' },
		],
		default: 'sameAsCall',
		displayOptions: { hide: { respondWith: ['text'] } },
		description:
			'How the answer is written. XML uses the same mapping the Records Trigger reads XML with: attributes from "@name" fields, text from "#text".',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Response Code',
				name: 'responseCode',
				type: 'number',
				typeOptions: { minValue: 200, maxValue: 599 },
				default: 200,
				description: 'The HTTP status of the answer',
			},
			{
				displayName: 'Response Headers',
				name: 'responseHeaders',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add header',
				default: {},
				options: [
					{
						displayName: 'Header',
						name: 'entries',
						values: [
							{
								displayName: 'Name',
								name: 'name',
								type: 'string',
								default: '',
								placeholder: 'X-Status',
							},
							{
								displayName: 'Value',
								name: 'value',
								type: 'string',
								default: '',
								description: 'ASCII text only: HTTP headers cannot carry other characters',
							},
						],
					},
				],
				description: 'Headers to send with the answer. A Content-Type here replaces the one of the format.',
			},
			{
				displayName: 'XML Root Element',
				name: 'xmlRootElement',
				type: 'string',
				default: DEFAULT_XML_ROOT,
				description: 'The root element of an XML answer',
			},
		],
	},
];

const displayOptions = { show: { resource: ['workflowCall'], operation: ['respond'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/**
 * Answers through n8n's `sendResponse`, as n8n's Respond to Webhook node does, once, with the first
 * input item; the items pass through unchanged. Everything is checked before the answer is sent.
 * A mistake fails the node and answers the waiting call with 500 and what went wrong: without
 * that, n8n 1.x would answer a failed workflow with an empty 200, which the service takes for
 * success. Under On Error → Continue, the workflow handles the error and may still answer.
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const call = callToAnswer(triggersBefore.call(this));
	let response: IN8nHttpFullResponse;
	try {
		if ('problem' in call) throw new NodeOperationError(node, call.problem, { description: call.hint });
		response = buildResponse.call(this, items, call.replyFormat);
	} catch (error) {
		if (this.continueOnFail()) {
			return [{ ...errorItem(error, 0), pairedItem: items.map((_, item) => ({ item })) }];
		}
		const failure = asNodeError(node, error, 0);
		if (!('problem' in call)) await this.sendResponse(refusal(failure.message, call.replyFormat));
		throw failure;
	}
	await this.sendResponse(response);
	return items.map((item, index) => ({ ...item, pairedItem: { item: index } }));
}

/** The answer to a call the node could not answer as set up: `{code, message}`, as the trigger refuses calls. */
function refusal(message: string, format: ReplyFormat): IN8nHttpFullResponse {
	const { body, contentType } = serializeReply(
		{ code: 'respond_failed', message: `The workflow could not answer the call: ${message}` },
		format,
		'error',
	);
	return { body, headers: { 'content-type': contentType }, statusCode: 500 };
}

function buildResponse(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	callFormat: ReplyFormat,
): IN8nHttpFullResponse {
	const node = this.getNode();
	const respondWith = choice(node, this.getNodeParameter('respondWith', 0), {
		label: 'Respond With',
		allowed: RESPOND_WITH,
		fallback: 'firstIncomingItem',
	});
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	// Not 1xx: an interim answer HTTP sends before the real one; written as the answer, it left the
	// caller failing while the execution succeeded.
	const statusCode = wholeNumber(node, options.responseCode, {
		label: 'Response Code',
		min: 200,
		max: 599,
		fallback: 200,
	});
	const entries = ((options.responseHeaders as IDataObject | undefined)?.entries ?? []) as HeaderEntry[];
	const checked = responseHeaders(Array.isArray(entries) ? entries : []);
	if ('problem' in checked) {
		throw new NodeOperationError(node, `Response Headers: ${checked.problem}`, { itemIndex: 0 });
	}

	let body: string;
	let contentType: string;
	if (respondWith === 'text') {
		body = String(this.getNodeParameter('responseText', 0, '') ?? '');
		contentType = 'text/plain; charset=utf-8';
	} else {
		const value = respondWith === 'json' ? jsonBody.call(this) : (items[0]?.json ?? {});
		const chosen = choice(node, this.getNodeParameter('format', 0), {
			label: 'Format',
			allowed: FORMATS,
			fallback: 'sameAsCall',
		});
		const format = chosen === 'sameAsCall' ? callFormat : chosen;
		// Made a name by the writer, which keeps a prefix only where the answer declares it.
		const root = String(options.xmlRootElement ?? '').trim() || DEFAULT_XML_ROOT;
		({ body, contentType } = serializeReply(value, format, root));
	}
	return { body, headers: { 'content-type': contentType, ...checked.headers }, statusCode };
}

/** The enabled Records Triggers before this node, each with what it emitted in this execution. */
function triggersBefore(this: IExecuteFunctions): TriggerBefore[] {
	const data = this.getWorkflowDataProxy(0);
	return this.getParentNodes(this.getNode().name, { includeNodeParameters: true })
		.filter((node) => !node.disabled && isRecordsTrigger(node))
		.map((node) => ({ node, emitted: emittedBy(data, node.name) }));
}

function emittedBy(data: IWorkflowDataProxyData, nodeName: string): IDataObject | undefined {
	try {
		return data.$items(nodeName)[0]?.json;
	} catch {
		// n8n throws for a node that has not run in this execution.
		return undefined;
	}
}

/** The Response Body of Respond With: JSON (a node-level setting, read once). */
function jsonBody(this: IExecuteFunctions): unknown {
	const node = this.getNode();
	const value = jsonParameter(node, this.getNodeParameter('responseBody', 0, '') as unknown, {
		label: 'Response Body',
		example: '{ "status": "ok" }',
	});
	if (value === undefined) {
		throw parameterError(
			node,
			'"Response Body" is empty',
			undefined,
			'Enter a JSON object such as { "status": "ok" }, or choose Respond With: Text to send no JSON.',
		);
	}
	return value;
}
