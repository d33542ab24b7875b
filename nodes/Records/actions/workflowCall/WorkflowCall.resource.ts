import type { INodeProperties } from 'n8n-workflow';

import * as respond from './respond.operation';

export { respond as respond };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['workflowCall'] } },
		options: [
			{
				name: 'Respond to Call',
				value: 'respond',
				description: "Answer the service's call that started the workflow (with a Records Trigger)",
				action: 'Respond to a workflow call',
			},
		],
		default: 'respond',
	},
	...respond.description,
];
