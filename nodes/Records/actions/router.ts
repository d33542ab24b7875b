import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isToolNodeType } from './tool/use';
import * as api from './api/Api.resource';
import type { RecordsType } from './node.type';
import * as record from './record/Record.resource';
import * as report from './report/Report.resource';
import { toolError } from './tool/error';
import * as workflowCall from './workflowCall/WorkflowCall.resource';

/** Every operation's parameters, to name the field behind an argument in a tool's error. */
const allProperties = [
	...record.description,
	...report.description,
	...api.description,
	...workflowCall.description,
];

/**
 * Every operation takes all input items at once: imports batch many items into one request,
 * the others handle `continueOnFail` per item themselves and pair each output to its input.
 * Used as a tool, a failure reaches the agent as a short text naming the arguments to correct.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	if (!isToolNodeType(this.getNode().type)) return [await runOperation.call(this)];
	try {
		return [await runOperation.call(this)];
	} catch (error) {
		const operationKey = `${String(this.getNodeParameter('resource', 0))}.${String(this.getNodeParameter('operation', 0))}`;
		throw toolError.call(this, error, allProperties, operationKey);
	}
}

async function runOperation(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as RecordsType['resource'];
	const operation = this.getNodeParameter('operation', 0);
	const recordsNodeData = { resource, operation } as RecordsType;

	let returnData: INodeExecutionData[];
	switch (recordsNodeData.resource) {
		case 'record':
			returnData = await record[recordsNodeData.operation].execute.call(this, items);
			break;
		case 'report':
			returnData = await report[recordsNodeData.operation].execute.call(this, items);
			break;
		case 'api':
			returnData = await api[recordsNodeData.operation].execute.call(this, items);
			break;
		case 'workflowCall':
			returnData = await workflowCall[recordsNodeData.operation].execute.call(this, items);
			break;
		default:
			throw new NodeOperationError(
				this.getNode(),
				`The resource "${resource as string}" is not known to this node`,
			);
	}
	return returnData;
}
