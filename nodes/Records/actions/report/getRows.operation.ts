import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IPairedItemData,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readReportPages } from '../../../shared/report/paging';
import { isToolNodeType } from '../tool/use';
import { executeAsTool, toolProperties } from './getRowsAsTool';
import { forEachItem } from '../../../shared/perItem';
import { choice, wholeNumber } from '../../../shared/parameters/kit';
import { returnAllAndLimit } from '../restCommon';
import { byDisplayName, pagingOptions, reportLocator, rowOutputOptions } from '../../../shared/report/descriptions';
import type { ReportShaper } from '../../../shared/report/settings';
import { reportIdFromParameter, reportReadSettings, reportShaper } from '../../../shared/report/settings';

type OutputMode = 'row' | 'page' | 'all';

const outputItems: INodeProperties = {
	displayName: 'Output Items',
	name: 'outputMode',
	type: 'options',
	default: 'row',
	description: 'How rows are put into output items',
	options: [
		{
			name: 'One Item per Row',
			value: 'row',
			description: 'Each row becomes an item',
		},
		{
			name: 'One Item per Page',
			value: 'page',
			description:
				'Each page becomes an item with its rows in "rows"; much lighter for large reports',
		},
		{
			name: 'All Rows in One Item',
			value: 'all',
			description: 'One item per report read, with every row in "rows"',
		},
	],
};

const properties: INodeProperties[] = [
	reportLocator,
	...returnAllAndLimit,
	...toolProperties,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: byDisplayName([...rowOutputOptions, ...pagingOptions, outputItems]),
	},
];

const displayOptions = { show: { resource: ['report'], operation: ['getRows'] } };

export const description = updateDisplayOptions(displayOptions, properties);

/** What one input item asks for: the report, how many rows, the read settings and the output shape. */
function readRequest(this: IExecuteFunctions, itemIndex: number) {
	const node = this.getNode();
	const reportId = reportIdFromParameter(node, this.getNodeParameter('report', itemIndex), itemIndex);
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const maxRows = returnAll
		? undefined
		: wholeNumber(node, this.getNodeParameter('limit', itemIndex, 50), {
				label: 'Limit',
				min: 1,
				max: Number.MAX_SAFE_INTEGER,
				fallback: 50,
				itemIndex,
			});
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const settings = reportReadSettings(node, options, itemIndex);
	const outputMode = choice<OutputMode>(node, options.outputMode, {
		label: 'Output Items',
		allowed: ['row', 'page', 'all'],
		fallback: 'row',
		itemIndex,
	});
	return { reportId, maxRows, settings, outputMode };
}

/** Reads one item's report and turns its pages into output items, in the chosen shape. */
async function readItemRows(
	this: IExecuteFunctions,
	itemIndex: number,
	pairedItem: IPairedItemData,
): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const { reportId, maxRows, settings, outputMode } = readRequest.call(this, itemIndex);
	const output: INodeExecutionData[] = [];
	let shaper: ReportShaper | undefined;
	const allRows: IDataObject[] = [];
	const summary = await readReportPages.call(this, {
		reportId,
		pageSize: settings.pageSize,
		concurrency: settings.concurrency,
		maxPages: settings.maxPages,
		maxRows,
		itemIndex,
		timeoutMs: settings.request.timeoutMs,
		retry: settings.request.retry,
		onPage: (page) => {
			shaper ??= reportShaper(node, page.columns, settings, reportId, itemIndex);
			const { shape } = shaper;
			const { rows } = page;
			if (outputMode === 'row') {
				const { rowItem } = shaper;
				for (let i = 0; i < rows.length; i++) output.push({ json: rowItem(rows[i]), pairedItem });
			} else if (outputMode === 'page') {
				const json: IDataObject = { reportId, offset: page.offset, rowCount: rows.length };
				if (settings.includeColumns) json.columns = shaper.columnMetadata;
				json.rows = rows.map(shape);
				output.push({ json, pairedItem });
			} else {
				for (let i = 0; i < rows.length; i++) allRows.push(shape(rows[i]));
			}
		},
	});

	if (outputMode === 'all') {
		const json: IDataObject = { reportId, rowCount: allRows.length };
		if (settings.includeColumns) {
			json.columns = (shaper ?? reportShaper(node, summary.columns, settings, reportId, itemIndex)).columnMetadata;
		}
		json.rows = allRows;
		output.push({ json, pairedItem });
	}
	return output;
}

/**
 * Report → Get Rows: one read per input item; every output item is paired to its input item (one
 * object shared by all rows of the item: pairing 100,000 rows costs no extra objects).
 */
export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	if (isToolNodeType(this.getNode().type)) return await executeAsTool.call(this, items);
	return await forEachItem(this, items, async (itemIndex, pairedItem) =>
		await readItemRows.call(this, itemIndex, pairedItem),
	);
}
