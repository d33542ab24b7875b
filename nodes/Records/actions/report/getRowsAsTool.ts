/**
 * Report → Get Rows used as a tool (the Records Tool, under an AI Agent or an MCP Server Trigger):
 * one page of rows per call, sized for a model's context, with where the next page starts, and
 * n8n's Simplified / Raw / Selected Fields output. The parameters here exist only in the tool
 * variant (`@tool`); the node used in a workflow reads and outputs rows as before.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { choice, parameterError, wholeNumber } from '../../../shared/parameters/kit';
import { readReportPages } from '../../../shared/report/paging';
import { parseColumnList, type ToolRowOutput, toolRowProjection } from '../../../shared/report/rows';
import { columnIndexes, reportIdFromParameter, reportReadSettings, reportShaper } from '../../../shared/report/settings';

const inTool = { '@tool': [true] };

export const toolProperties: INodeProperties[] = [
	{
		displayName: 'Offset',
		name: 'offset',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		displayOptions: { show: { ...inTool, returnAll: [false] } },
		description:
			'Rows to skip before the first row returned. With Limit, the agent reads a long report page by page: each answer gives the offset of the next page (nextOffset).',
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'simple',
		displayOptions: { show: inTool },
		options: [
			{ name: 'Simplified', value: 'simple', description: 'Each row without its empty cells' },
			{ name: 'Raw', value: 'raw', description: 'Each row with every cell' },
			{ name: 'Selected Fields', value: 'fields', description: 'Only the columns listed below' },
		],
		description: 'What the agent gets of each row',
	},
	{
		displayName: 'Columns',
		name: 'outputColumns',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Date, Amount, Message',
		displayOptions: { show: { ...inTool, output: ['fields'] } },
		description:
			'The columns to return, by name or ID, separated by commas (in the example, Czech column names: date, amount, message)',
	},
];

/** The answer to one tool call: a page of rows and where the next one starts. */
async function readPage(this: IExecuteFunctions, itemIndex: number): Promise<IDataObject> {
	const node = this.getNode();
	const reportId = reportIdFromParameter(node, this.getNodeParameter('report', itemIndex), itemIndex);
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const whole = (name: string, label: string, min: number, fallback: number) =>
		wholeNumber(node, this.getNodeParameter(name, itemIndex, fallback), {
			label,
			min,
			max: Number.MAX_SAFE_INTEGER,
			fallback,
			itemIndex,
			where: 'in the node',
		});
	const limit = returnAll ? undefined : whole('limit', 'Limit', 1, 50);
	const offset = returnAll ? 0 : whole('offset', 'Offset', 0, 0);
	const output = choice<ToolRowOutput>(node, this.getNodeParameter('output', itemIndex, 'simple'), {
		label: 'Output',
		allowed: ['simple', 'raw', 'fields'],
		fallback: 'simple',
		itemIndex,
	});
	const settings = reportReadSettings(node, this.getNodeParameter('options', itemIndex, {}) as IDataObject, itemIndex);
	const selected = output === 'fields' ? parseColumnList(this.getNodeParameter('outputColumns', itemIndex, '')) : [];
	if (output === 'fields' && selected.length === 0) {
		throw parameterError(
			node,
			'"Columns" names no column',
			itemIndex,
			'List the columns to return, by name or ID, separated by commas, or choose another Output.',
		);
	}

	const rows: IDataObject[] = [];
	let columns: IDataObject[] | undefined;
	let project: ((row: IDataObject) => IDataObject) | undefined;
	await readReportPages.call(this, {
		reportId,
		pageSize: settings.pageSize,
		concurrency: settings.concurrency,
		maxPages: settings.maxPages,
		startOffset: offset,
		// One row more than asked tells whether another page follows.
		maxRows: limit === undefined ? undefined : limit + 1,
		itemIndex,
		timeoutMs: settings.request.timeoutMs,
		retry: settings.request.retry,
		onPage: (page) => {
			if (project === undefined) {
				const shaper = reportShaper(node, page.columns, settings, reportId, itemIndex);
				const indexes = columnIndexes(node, page.columns, selected, 'Columns', reportId, itemIndex);
				const keys = indexes.map((index) => shaper.keys[index]);
				const projection = toolRowProjection(output, keys);
				project = (row) => projection(shaper.shape(row));
				if (settings.includeColumns) columns = shaper.columnMetadata;
			}
			for (const row of page.rows) rows.push(project(row));
		},
	});

	const hasMore = limit !== undefined && rows.length > limit;
	if (hasMore) rows.length = limit;
	const json: IDataObject = { reportId, offset, rowCount: rows.length };
	if (columns) json.columns = columns;
	json.rows = rows;
	json.hasMore = hasMore;
	if (hasMore) json.nextOffset = offset + rows.length;
	return json;
}

/** One output item per call (per input item): what the agent reads. */
export async function executeAsTool(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		returnData.push({ json: await readPage.call(this, itemIndex), pairedItem: { item: itemIndex } });
	}
	return returnData;
}
