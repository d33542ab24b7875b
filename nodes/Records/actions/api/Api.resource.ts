import type { INodeProperties } from 'n8n-workflow';

import * as createInvoice from './createInvoice.operation';
import * as listClients from './listClients.operation';
import * as request from './request.operation';

export { createInvoice, listClients, request };

/** The operations to check that the installation has the illustrative endpoints (spec §4.4). */
const ILLUSTRATIVE = "An example endpoint from the service's overview: check that your installation has it";

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['api'] } },
		// Any endpoint first; the two illustrative ones after it.
		options: [
			{
				name: 'Custom API Call',
				value: 'request',
				description: 'Send a request to any endpoint of the API, with the credential',
				action: 'Make a custom API call',
			},
			{
				name: 'List Clients (Illustrative)',
				value: 'listClients',
				description: ILLUSTRATIVE,
				action: 'List clients',
			},
			{
				name: 'Create an Invoice (Illustrative)',
				value: 'createInvoice',
				description: ILLUSTRATIVE,
				action: 'Create an invoice',
			},
		],
		default: 'request',
	},
	...request.description,
	...listClients.description,
	...createInvoice.description,
];
