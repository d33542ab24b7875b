import type { INodeProperties } from 'n8n-workflow';

import * as request from './request.operation';

export { request as request };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['customApi'] } },
		options: [
			{
				name: 'Make a Request',
				value: 'request',
				description: 'Send a request to the API',
				action: 'Send a request to the API',
			},
		],
		default: 'request',
	},
	...request.description,
];
