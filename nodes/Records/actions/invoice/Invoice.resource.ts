import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';

export { create as create };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['invoice'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create an invoice',
				action: 'Create an invoice',
			},
		],
		default: 'create',
	},
	...create.description,
];
