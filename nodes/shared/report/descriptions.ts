import type { INodeProperties } from 'n8n-workflow';

import { REPORT_ID_REGEX, REPORT_URL_REGEX } from './rows';
import { DEFAULT_MAX_PAGES } from './readOptions';
import { MAX_CONCURRENCY, retryAttemptsOption, timeoutOption } from '../requestOptions';

/** The report, by ID or by the URL from its sharing dialog; shared by Get Rows and the trigger. */
export const reportLocator: INodeProperties = {
	displayName: 'Report',
	name: 'report',
	type: 'resourceLocator',
	default: { mode: 'id', value: '' },
	required: true,
	description:
		"The report to read. It must be made available through the API in the report's sharing dialog, which shows its ID and URL.",
	modes: [
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. bank-transactions',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: `^${REPORT_ID_REGEX}$`,
						errorMessage: 'A report ID has no spaces and none of / ? #',
					},
				},
			],
		},
		{
			displayName: 'By URL',
			name: 'url',
			type: 'string',
			placeholder: 'e.g. https://records.example.com/analysis/reports/bank-transactions',
			extractValue: { type: 'regex', regex: REPORT_URL_REGEX },
			validation: [
				{
					type: 'regex',
					properties: {
						regex: `.*${REPORT_URL_REGEX}.*`,
						errorMessage: 'The URL must contain /reports/ followed by the report ID',
					},
				},
			],
		},
	],
};

/** How pages are requested; shared by Get Rows and the trigger. */
export const pagingOptions: INodeProperties[] = [
	retryAttemptsOption,
	timeoutOption,
	{
		displayName: 'Max Pages',
		name: 'maxPages',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: DEFAULT_MAX_PAGES,
		description:
			'Safety cap on page requests per read. Reaching it before the end of the report fails the read instead of returning part of it.',
	},
	{
		displayName: 'Page Size',
		name: 'pageSize',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		hint: '0: the node chooses (1,000 rows at first, up to 5,000; fewer where the service serves or accepts fewer)',
		description:
			'Rows asked for per request. Set it only if the service needs a fixed page size; a service that serves fewer rows than asked is noticed either way, and no row is lost.',
	},
	{
		displayName: 'Parallel Requests',
		name: 'concurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
		default: 1,
		description:
			'Pages requested at the same time. Rows are still output in report order, each exactly once. Higher values read large reports faster but put more load on the service.',
	},
];

/**
 * A list of the report's columns, picked from the list the report's first page gives (the values are
 * column IDs); an expression may give names or IDs, as text separated by commas or as a list.
 */
export function columnPicker(parameter: Omit<INodeProperties, 'type' | 'default' | 'typeOptions'>): INodeProperties {
	return {
		...parameter,
		type: 'multiOptions',
		default: [],
		typeOptions: { loadOptionsMethod: 'getReportColumns', loadOptionsDependsOn: ['report.value'] },
	};
}

/** How rows are output; shared by Get Rows and the trigger. */
export const rowOutputOptions: INodeProperties[] = [
	{
		displayName: 'Convert Czech Formats',
		name: 'conversion',
		type: 'options',
		default: 'none',
		description: 'Whether to turn cells written in Czech format into JSON numbers and ISO dates',
		options: [
			{
				name: 'No',
				value: 'none',
				description: 'Output every cell exactly as the service sends it',
			},
			{
				name: 'In Columns I Name',
				value: 'columns',
				description:
					'Convert the columns listed in Number Columns and Date Columns; an empty cell there becomes null',
			},
			{
				name: 'In All Columns, Unambiguous Values Only',
				value: 'auto',
				description:
					'Convert numbers with a decimal comma (-1 234,50) and dates d.m.yyyy in any column. Whole numbers stay text, since codes such as variable symbols look the same.',
			},
		],
	},
	columnPicker({
		displayName: 'Date Column Names or IDs',
		name: 'dateColumns',
		displayOptions: { show: { conversion: ['columns'] } },
		description:
			'Columns whose d.m.yyyy dates become ISO dates yyyy-mm-dd, chosen from the report\'s columns. A value that is not such a date stays as it is. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	}),
	{
		displayName: 'Include Column Metadata',
		name: 'includeColumns',
		type: 'boolean',
		default: false,
		description:
			'Whether to add the report\'s columns (ID, name, and output key of each) to the output, under "_columns" on each row or "columns" on a page item',
	},
	columnPicker({
		displayName: 'Number Column Names or IDs',
		name: 'numberColumns',
		displayOptions: { show: { conversion: ['columns'] } },
		description:
			'Columns whose numbers, such as 1 234,50, become JSON numbers, chosen from the report\'s columns. A value that is not a number, or has more than 15 digits, stays as it is. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	}),
	{
		displayName: 'Output Keys',
		name: 'outputKeys',
		type: 'options',
		default: 'name',
		description: 'What the keys of each output row are',
		options: [
			{
				name: 'Column Names',
				value: 'name',
				description:
					'E.g. "Amount". When several columns share a name, the later ones get " (2)", " (3)", and so on.',
			},
			{
				name: 'Column IDs',
				value: 'id',
				description: 'The column keys the service uses, e.g. "c3"; stable when columns are renamed',
			},
		],
	},
];

/** Options of a collection in the alphabetical order n8n lists them in. */
export function byDisplayName(options: INodeProperties[]): INodeProperties[] {
	return [...options].sort((a, b) => a.displayName.localeCompare(b.displayName));
}
