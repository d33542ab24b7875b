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
			'={{ {"import": "Import records", "getRows": "Read report rows", "respond": "Respond to call", "request": "Custom API call", "getMany": "List clients", "create": "Create invoice"}[$parameter["operation"]] || $parameter["operation"] }}',
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
				// Alphabetical, as n8n's verification scan requires of every option list; the guide's
				// illustrative endpoints are marked as such, and Record is the default.
				options: [
					{
						name: 'Client (Illustrative)',
						value: 'client',
						description: "An illustrative endpoint from the service's overview: check that your installation has it",
					},
					{ name: 'Custom API Call', value: 'customApi', description: 'Any endpoint of the API, with the credential' },
					{
						name: 'Invoice (Illustrative)',
						value: 'invoice',
						description: "An illustrative endpoint from the service's overview: check that your installation has it",
					},
					{ name: 'Record', value: 'record', description: 'Import records into a record type' },
					{ name: 'Report', value: 'report', description: 'Read the rows of a report' },
					{ name: 'Workflow Call', value: 'workflowCall', description: "Answer the service's call to a Records Trigger" },
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

	methods = { loadOptions: { getReportColumns } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
