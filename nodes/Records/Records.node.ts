import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as client from './actions/client/Client.resource';
import * as customApi from './actions/customApi/CustomApi.resource';
import * as invoice from './actions/invoice/Invoice.resource';
import * as record from './actions/record/Record.resource';
import * as report from './actions/report/Report.resource';
import { router } from './actions/router';
import * as workflowCall from './actions/workflowCall/WorkflowCall.resource';

export class Records implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Records',
		name: 'records',
		icon: { light: 'file:records.svg', dark: 'file:records.dark.svg' },
		group: ['transform'],
		// 1.1: dates n8n turned into text are sent as dates, and every date-time gets its calendar
		// day in the workflow's time zone (Import and Invoice alike). 1 keeps its behaviour.
		version: [1, 1.1],
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Import records into, read reports from, and answer workflow calls of a Records installation',
		defaults: { name: 'Records' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'recordsApi',
				required: true,
				// Answering the service's call sends nothing to its API.
				displayOptions: { hide: { resource: ['workflowCall'] } },
			},
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Client', value: 'client' },
					{ name: 'Custom API Call', value: 'customApi' },
					{ name: 'Invoice', value: 'invoice' },
					{ name: 'Record', value: 'record' },
					{ name: 'Report', value: 'report' },
					{ name: 'Workflow Call', value: 'workflowCall' },
				],
				default: 'record',
			},
			...record.description,
			...report.description,
			...client.description,
			...invoice.description,
			...customApi.description,
			...workflowCall.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
