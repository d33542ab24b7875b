import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as api from './actions/api/Api.resource';
import * as record from './actions/record/Record.resource';
import * as report from './actions/report/Report.resource';
import { router } from './actions/router';
import { getReportColumns } from '../shared/methods/loadOptions';
import { toolDescriptionProperties } from './actions/tool/description';
import * as workflowCall from './actions/workflowCall/WorkflowCall.resource';


export class Records implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Records',
		name: 'records',
		icon: { light: 'file:../../icons/records.svg', dark: 'file:../../icons/records.dark.svg' },
		group: ['transform'],
		// One version, the first published. A change of behaviour comes as an option or a new version.
		version: 1,
		// What the node does, in words, under its name on the canvas (each resource has one operation).
		subtitle:
			'={{ {"import": "Import records", "getRows": "Read report rows", "respond": "Respond to call", "request": "Custom API call", "listClients": "List clients", "createInvoice": "Create invoice"}[$parameter["operation"]] || $parameter["operation"] }}',
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
			...toolDescriptionProperties,
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				// In the order of use, which n8n's editor keeps for the actions it lists (a list of five or
				// more would have to be alphabetical): the guide's resources first, then any other endpoint.
				options: [
					{ name: 'Record', value: 'record', description: 'Import records into a record type' },
					{ name: 'Report', value: 'report', description: 'Read the rows of a report' },
					{ name: 'Workflow Call', value: 'workflowCall', description: "Answer the service's call to a Records Trigger" },
					{ name: 'Other Endpoint', value: 'api', description: 'Any other endpoint of the API' },
				],
				default: 'record',
			},
			...record.description,
			...report.description,
			...api.description,
			...workflowCall.description,
		],
	};

	methods = { loadOptions: { getReportColumns } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
