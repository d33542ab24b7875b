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
				description: 'Answer the call that started the workflow, from a Records Trigger set to respond "Using a Respond Node"',
				action: 'Respond to a workflow call',
			},
		],
		default: 'respond',
	},
	...respond.description,
];
