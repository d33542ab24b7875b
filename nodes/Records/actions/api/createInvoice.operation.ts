import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { recordsApiRequest } from '../../../shared/transport';
import { formatDueDate, parseAmount, parseClientId, parseCurrency } from './invoiceFields';
import { forEachItem } from '../../../shared/perItem';
import { parameterError } from '../../../shared/parameters/kit';
import { requestSettings, retryAttemptsOption, timeoutOption } from '../../../shared/requestOptions';

export const INVOICES_PATH = '/invoices';

const properties: INodeProperties[] = [
	{
		displayName: 'Client ID',
		name: 'clientId',
		type: 'number',
		required: true,
		default: 0,
		description: 'ID of the client the invoice is for (a whole number, as List Clients lists it)',
	},
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'number',
		required: true,
		typeOptions: { numberPrecision: 2 },
		default: 0,
		description: 'Amount of the invoice, as a number (e.g. 1234.5)',
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		required: true,
		default: 'CZK',
		placeholder: 'CZK',
		description: 'Three-letter ISO 4217 currency code, e.g. CZK or EUR',
	},
	{
		displayName: 'Due Date',
		name: 'dueDate',
		type: 'dateTime',
		required: true,
		default: '',
		description:
			'When the invoice is due. Sent as yyyy-mm-dd; from a date-time the calendar date as written is used, without converting time zones. Also accepts d.m.yyyy.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [retryAttemptsOption, timeoutOption],
	},
];

const displayOptions = { show: { resource: ['api'], operation: ['createInvoice'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	const timezone = this.getTimezone();
	return await forEachItem(this, items, async (i) => {
		const invoice = readInvoice.call(this, i, timezone);
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		const response = await recordsApiRequest.call(this, {
			method: 'POST',
			path: INVOICES_PATH,
			body: invoice,
			purpose: 'api',
			subject: 'new invoice',
			itemIndex: i,
			...requestSettings(options),
		});
		const created = response.body;
		// The spec shows only the status 201; when the body is not the invoice, output what was sent.
		const json =
			created !== null && typeof created === 'object' && !Array.isArray(created)
				? (created as IDataObject)
				: { ...invoice };
		return [{ json }];
	});
}

function readInvoice(this: IExecuteFunctions, itemIndex: number, timezone: string): IDataObject {
	const fields: Array<[string, string, (value: unknown) => string | number]> = [
		['client_id', 'clientId', parseClientId],
		['amount', 'amount', parseAmount],
		['currency', 'currency', parseCurrency],
		['due_date', 'dueDate', (value) => formatDueDate(value, timezone)],
	];
	const invoice: IDataObject = {};
	for (const [key, parameter, parse] of fields) {
		const value = this.getNodeParameter(parameter, itemIndex, '') as unknown;
		try {
			invoice[key] = parse(value);
		} catch (error) {
			const displayName = properties.find((property) => property.name === parameter)?.displayName;
			throw parameterError(this.getNode(), `Invalid "${displayName ?? parameter}": ${(error as Error).message}`, itemIndex);
		}
	}
	return invoice;
}
