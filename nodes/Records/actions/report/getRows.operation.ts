import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	IPairedItemData,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { readReportPages, ReportChangedError } from '../../../shared/report/paging';
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

type ChangedReport = 'reread' | 'accept';

/** Reads of one report at most, when it keeps changing under them. */
export const MAX_READS = 3;

const changedReport: INodeProperties = {
	displayName: 'If the Report Changes While Read',
	name: 'changedReport',
	type: 'options',
	default: 'reread',
	description:
		'What to do when rows are added or removed while the report is read, which would make a row read twice or skipped',
	options: [
		{
			name: 'Read Again, Then Fail',
			value: 'reread',
			description: `Read the report again, up to ${MAX_READS} reads in all; fail if it changed during each`,
		},
		{
			name: 'Output the Rows Read',
			value: 'accept',
			description: 'Do not check: output the rows as read, even if a row was read twice or skipped',
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
		options: byDisplayName([...rowOutputOptions, ...pagingOptions, outputItems, changedReport]),
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
	const changed = choice<ChangedReport>(node, options.changedReport, {
		label: 'If the Report Changes While Read',
		allowed: ['reread', 'accept'],
		fallback: 'reread',
		itemIndex,
	});
	return { reportId, maxRows, settings, outputMode, changed };
}

/**
 * Reads one item's report; with "Read Again, Then Fail", every page after the first overlaps the
 * page before by a row (the engine's detectChanges), and a read the report changed under is
 * started again, MAX_READS reads at most.
 */
async function readItemRows(
	this: IExecuteFunctions,
	itemIndex: number,
	pairedItem: IPairedItemData,
): Promise<INodeExecutionData[]> {
	const request = readRequest.call(this, itemIndex);
	for (let read = 1; ; read++) {
		try {
			return await readOnce.call(this, pairedItem, itemIndex, request);
		} catch (error) {
			if (!(error instanceof ReportChangedError)) {
				throw error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			}
			if (read >= MAX_READS) {
				throw new NodeOperationError(
					this.getNode(),
					`Report "${request.reportId}" changed during each of ${MAX_READS} reads: the rows read would not be one state of the report`,
					{
						itemIndex,
						description: `In the last read, row ${error.row} was no longer the one read last: rows were added or removed above the rows not read yet, so a row would have been read twice or skipped. Read the report when it is not being changed, or set "If the Report Changes While Read" in the options to "Output the Rows Read" to accept such a read (a row may then be output twice or not at all).`,
					},
				);
			}
		}
	}
}

/** Reads one item's report once and turns its pages into output items, in the chosen shape. */
async function readOnce(
	this: IExecuteFunctions,
	pairedItem: IPairedItemData,
	itemIndex: number,
	request: ReturnType<typeof readRequest>,
): Promise<INodeExecutionData[]> {
	const node = this.getNode();
	const { reportId, maxRows, settings, outputMode } = request;
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
		fallBackOnServerErrors: true,
		detectChanges: request.changed === 'reread',
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
