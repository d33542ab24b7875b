import type { INodeProperties } from 'n8n-workflow';

import * as getRows from './getRows.operation';

export { getRows as getRows };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['report'] } },
		options: [
			{
				name: 'Get Rows',
				value: 'getRows',
				description: 'Read the rows of a report',
				action: 'Read the rows of a report',
			},
		],
		default: 'getRows',
	},
	...getRows.description,
];
