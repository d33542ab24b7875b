/**
 * What Get Rows and the Records Report Trigger share around the paging engine: the report id from the
 * Report parameter, the read and output options, and the row shaper built from them once per report.
 */
import type { IDataObject, INode, INodeParameterResourceLocator } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { CzechConversion, OutputKeys, ReportColumn, RowShaper } from './rows';
import {
	createRowShaper,
	describeColumns,
	parseColumnList,
	reportIdFromReference,
	resolveColumns,
} from './rows';
import { DEFAULT_MAX_PAGES, DEFAULT_PAGE_SIZE } from './readOptions';
import type { PageSizeSetting } from './pageSize';
import { choice, wholeNumber } from '../parameters/kit';
import { MAX_CONCURRENCY, type RequestSettings, requestSettings } from '../requestOptions';

export interface ReportReadSettings {
	pageSize: PageSizeSetting;
	concurrency: number;
	maxPages: number;
	outputKeys: OutputKeys;
	includeColumns: boolean;
	conversion: CzechConversion;
	numberColumns: string[];
	dateColumns: string[];
	/** Timeout and retries of each page request. */
	request: RequestSettings;
}

/** The report id of the Report parameter (a resource locator, or a plain string from older JSON). */
export function reportIdFromParameter(node: INode, parameter: unknown, itemIndex?: number): string {
	const locator =
		parameter !== null && typeof parameter === 'object'
			? (parameter as INodeParameterResourceLocator)
			: { __rl: true as const, mode: 'id', value: parameter as string };
	try {
		return reportIdFromReference(String(locator.mode ?? 'id'), locator.value);
	} catch (error) {
		throw new NodeOperationError(node, (error as Error).message, { itemIndex });
	}
}

/** A Page Size above 0 fixes the page size; without one (or 0), reads choose it (see PageSizer). */
function pageSizeSetting(node: INode, value: unknown, itemIndex: number | undefined): PageSizeSetting {
	if (value === undefined || value === null || value === '' || value === 0) return 'adaptive';
	return wholeNumber(node, value, { label: 'Page Size', min: 1, max: 1_000_000, fallback: DEFAULT_PAGE_SIZE, itemIndex });
}

/** The options collection of Get Rows or the trigger, checked. */
export function reportReadSettings(
	node: INode,
	options: IDataObject,
	itemIndex?: number,
): ReportReadSettings {
	return {
		pageSize: pageSizeSetting(node, options.pageSize, itemIndex),
		concurrency: wholeNumber(node, options.concurrency, {
			label: 'Parallel Requests',
			min: 1,
			max: MAX_CONCURRENCY,
			fallback: 1,
			itemIndex,
		}),
		maxPages: wholeNumber(node, options.maxPages, {
			label: 'Max Pages',
			min: 1,
			max: 100_000_000,
			fallback: DEFAULT_MAX_PAGES,
			itemIndex,
		}),
		outputKeys: choice(node, options.outputKeys, {
			label: 'Output Keys',
			allowed: ['name', 'id'] as const,
			fallback: 'name',
			itemIndex,
		}),
		includeColumns: options.includeColumns === true,
		conversion: choice(node, options.conversion, {
			label: 'Convert Czech Formats',
			allowed: ['none', 'auto', 'columns'] as const,
			fallback: 'none',
			itemIndex,
		}),
		numberColumns: parseColumnList(options.numberColumns),
		dateColumns: parseColumnList(options.dateColumns),
		request: requestSettings(options),
	};
}

/**
 * The indexes of the columns a list of references names; an unknown reference is an error that lists
 * the report's columns, so the user can correct it.
 */
export function columnIndexes(
	node: INode,
	columns: readonly ReportColumn[],
	references: readonly string[],
	label: string,
	reportId: string,
	itemIndex?: number,
): number[] {
	const { indexes, unknown } = resolveColumns(columns, references);
	if (unknown.length > 0) {
		throw new NodeOperationError(
			node,
			`${label}: report "${reportId}" has no column ${unknown.map((u) => `"${u}"`).join(', ')}`,
			{
				itemIndex,
				description: `Name columns by name or ID, separated by commas. The report's columns: ${describeColumns(columns) || 'none'}.`,
			},
		);
	}
	return indexes;
}

export interface ReportShaper extends RowShaper {
	/** The report's columns with the output key of each, for the column metadata option. */
	columnMetadata: IDataObject[];
	/** The JSON of a one-row output item: the shaped row, with `_columns` when metadata is wanted. */
	rowItem: (row: IDataObject) => IDataObject;
}

/** Built once per report read, when the first page has told the columns. */
export function reportShaper(
	node: INode,
	columns: readonly ReportColumn[],
	settings: ReportReadSettings,
	reportId: string,
	itemIndex?: number,
): ReportShaper {
	const converting = settings.conversion === 'columns';
	if (converting && settings.numberColumns.length === 0 && settings.dateColumns.length === 0) {
		throw new NodeOperationError(
			node,
			'"Convert Czech Formats" is set to "In Columns I Name", but no Number Columns or Date Columns are given',
			{
				itemIndex,
				description: `List the columns to convert, by name or ID. The report's columns: ${describeColumns(columns) || 'none'}.`,
			},
		);
	}
	const shaper = createRowShaper(columns, {
		outputKeys: settings.outputKeys,
		conversion: settings.conversion,
		numberColumns: converting
			? columnIndexes(node, columns, settings.numberColumns, 'Number Columns', reportId, itemIndex)
			: undefined,
		dateColumns: converting
			? columnIndexes(node, columns, settings.dateColumns, 'Date Columns', reportId, itemIndex)
			: undefined,
	});
	const columnMetadata = columns.map((column, index) => ({
		id: column.id,
		name: column.name,
		key: shaper.keys[index],
	}));
	const { shape } = shaper;
	const rowItem = settings.includeColumns
		? (row: IDataObject) => {
				const json = shape(row);
				// Raw rows are never changed: the paging engine compares them with later pages.
				return json === row ? { ...row, _columns: columnMetadata } : Object.assign(json, { _columns: columnMetadata });
			}
		: shape;
	return { ...shaper, columnMetadata, rowItem };
}
