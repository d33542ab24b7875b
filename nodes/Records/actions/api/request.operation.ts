import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { buildCustomApiPath, type QueryParameter } from './path';
import { recordsApiRequest, type RecordsResponse } from '../../../shared/transport';
import { forEachItem } from '../../../shared/perItem';
import { isUnset, jsonParameter, parameterError } from '../../../shared/parameters/kit';
import { asItemJson } from '../restCommon';
import { requestSettings, retryAttemptsOption, timeoutOption } from '../../../shared/requestOptions';

const METHODS_WITH_BODY = ['PATCH', 'POST', 'PUT'];

const properties: INodeProperties[] = [
	{
		displayName: 'Method',
		name: 'method',
		type: 'options',
		options: [
			{ name: 'DELETE', value: 'DELETE' },
			{ name: 'GET', value: 'GET' },
			{ name: 'HEAD', value: 'HEAD' },
			{ name: 'PATCH', value: 'PATCH' },
			{ name: 'POST', value: 'POST' },
			{ name: 'PUT', value: 'PUT' },
		],
		default: 'GET',
		description: 'The HTTP method of the request',
	},
	{
		displayName: 'Path',
		name: 'path',
		type: 'string',
		required: true,
		default: '',
		placeholder: '/api/v1/records/tasks',
		hint: 'E.g. GET /api/v1/records/{record type ID} lists the records of a register, if your installation offers it',
		description:
			"Path after the credential's Base URL, starting with /. Absolute URLs are refused, so that the API token is never sent to another host.",
	},
	{
		displayName: 'Query Parameters',
		name: 'queryParameters',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add query parameter',
		default: {},
		options: [
			{
				displayName: 'Parameter',
				name: 'parameter',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
					},
				],
			},
		],
	},
	{
		displayName: 'JSON Body',
		name: 'jsonBody',
		type: 'json',
		default: '',
		placeholder: '{ "Title": "Order toner" }',
		description:
			'The request body, a JSON object or array. Leave empty to send no body.',
		displayOptions: { show: { method: METHODS_WITH_BODY } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Array Field',
				name: 'arrayField',
				type: 'string',
				default: '',
				placeholder: 'data',
				description:
					'With Split Into Items: the field of the response body that holds the array, e.g. data. Leave empty when the body itself is an array.',
			},
			{
				displayName: 'Full Response',
				name: 'fullResponse',
				type: 'boolean',
				default: false,
				description:
					'Whether to output the status code and headers of the response along with its body',
			},
			retryAttemptsOption,
			{
				displayName: 'Retry When Outcome Unknown',
				name: 'retryUnknownOutcome',
				type: 'boolean',
				default: false,
				description:
					'Whether to also repeat a POST or PATCH after a failure where the service may already have processed it (500, 502, 504, a reset connection, a timeout). Turn on only when repeating the request cannot create anything twice.',
			},
			{
				displayName: 'Split Into Items',
				name: 'splitIntoItems',
				type: 'boolean',
				default: false,
				description:
					'Whether to output one item per element when the response is an array (or its Array Field is), instead of one item holding the whole response',
			},
			timeoutOption,
		],
	},
];

const displayOptions = { show: { resource: ['api'], operation: ['request'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem(this, items, async (i) => {
		const method = this.getNodeParameter('method', i) as IHttpRequestMethods;
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		const query = this.getNodeParameter('queryParameters.parameter', i, []) as QueryParameter[];
		let path: string;
		try {
			path = buildCustomApiPath(this.getNodeParameter('path', i, ''), query);
		} catch (error) {
			throw new NodeOperationError(this.getNode(), `${(error as Error).message} [item ${i}]`, {
				itemIndex: i,
			});
		}
		const body = METHODS_WITH_BODY.includes(method) ? readBody.call(this, i) : undefined;

		const response = await recordsApiRequest.call(this, {
			method,
			path,
			body,
			purpose: 'api',
			itemIndex: i,
			...requestSettings(options),
		});
		return outputsOf.call(this, response, options, i).map((json) => ({ json }));
	});
}

function readBody(this: IExecuteFunctions, itemIndex: number): IDataObject | IDataObject[] | undefined {
	const raw = this.getNodeParameter('jsonBody', itemIndex, '') as unknown;
	if (isUnset(raw)) return undefined;
	const value = jsonParameter(this.getNode(), raw, {
		label: 'JSON Body',
		itemIndex,
		example: '{ "Title": "Order toner" }',
	});
	if (value === null || typeof value !== 'object') {
		throw parameterError(
			this.getNode(),
			`"JSON Body" must be a JSON object or array (got ${JSON.stringify(value)})`,
			itemIndex,
		);
	}
	return value as IDataObject | IDataObject[];
}

function outputsOf(
	this: IExecuteFunctions,
	response: RecordsResponse,
	options: IDataObject,
	itemIndex: number,
): IDataObject[] {
	const wrap = (body: unknown): IDataObject =>
		options.fullResponse === true
			? { statusCode: response.statusCode, headers: response.headers, body: asBody(body) }
			: asItemJson(body);
	if (options.splitIntoItems !== true) return [wrap(response.body)];

	const field = typeof options.arrayField === 'string' ? options.arrayField.trim() : '';
	const list =
		field === ''
			? response.body
			: response.body !== null && typeof response.body === 'object'
				? (response.body as IDataObject)[field]
				: undefined;
	if (!Array.isArray(list)) {
		throw new NodeOperationError(
			this.getNode(),
			field === ''
				? `The response to item ${itemIndex} is not an array, so it cannot be split into items`
				: `The response to item ${itemIndex} has no array in the field "${field}", so it cannot be split into items`,
			{
				itemIndex,
				description: `The response was: ${JSON.stringify(response.body)?.slice(0, 200) ?? 'empty'}. Set Array Field to the field that holds the array, or turn off Split Into Items.`,
			},
		);
	}
	return list.map((element) => wrap(element));
}

function asBody(value: unknown): IDataObject[keyof IDataObject] {
	return value === undefined ? '' : (value as IDataObject[keyof IDataObject]);
}
