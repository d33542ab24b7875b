import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';

export { getMany as getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['client'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List clients',
				action: 'List clients',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
