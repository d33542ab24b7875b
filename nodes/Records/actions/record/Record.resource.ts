import type { INodeProperties } from 'n8n-workflow';

import * as importRecords from './import/import.operation';

export { importRecords as import };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['record'] } },
		options: [
			{
				name: 'Import',
				value: 'import',
				description: 'Create or edit records of a record type; the service decides which, record by record',
				action: 'Import records',
			},
		],
		default: 'import',
	},
	...importRecords.description,
];
