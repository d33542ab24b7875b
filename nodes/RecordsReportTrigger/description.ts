/** The Records Report Trigger's parameters (polls a report, §4.2, and emits rows not emitted before). */
import type { INodeProperties } from 'n8n-workflow';

import {
	byDisplayName,
	pagingOptions,
	reportLocator,
	rowOutputOptions,
} from '../shared/report/descriptions';
import { DEFAULT_MAX_REMEMBERED } from './rememberedRows';

const options: INodeProperties[] = byDisplayName([
	...rowOutputOptions,
	...pagingOptions,
	{
		displayName: 'Max Remembered Rows',
		name: 'maxRemembered',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: DEFAULT_MAX_REMEMBERED,
		description:
			'How many row identities the trigger keeps in the workflow (12 bytes each). Rows gone from the report the longest are forgotten first; a report with more rows than this is refused, since its forgotten rows would be emitted again.',
	},
	{
		displayName: 'Output Items',
		name: 'outputMode',
		type: 'options',
		default: 'row',
		description: 'How new rows are put into output items',
		options: [
			{ name: 'One Item per Row', value: 'row', description: 'Each new row becomes an item' },
			{
				name: 'All New Rows in One Item',
				value: 'all',
				description: 'One item per poll, with the new rows in "rows"',
			},
		],
	},
]);

export const properties: INodeProperties[] = [
	{
		displayName:
			'On each poll the whole report is read and only rows not emitted before are output. The rows already seen are remembered in the workflow, so an edited row counts as new unless Row Identity uses key columns.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	reportLocator,
	{
		displayName: 'Row Identity',
		name: 'rowIdentity',
		type: 'options',
		default: 'hash',
		description: 'What makes a row the same row on the next poll',
		options: [
			{
				name: 'Whole Row',
				value: 'hash',
				description:
					'A hash of all cells: any change to a row, or to the report\'s columns, makes it new',
			},
			{
				name: 'Key Columns',
				value: 'columns',
				description: 'The values of the columns you name, e.g. a transaction ID',
			},
		],
	},
	{
		displayName: 'Key Columns',
		name: 'keyColumns',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. ID transakce',
		displayOptions: { show: { rowIdentity: ['columns'] } },
		description:
			'Columns (names or IDs, separated by commas) whose values together identify a row. A row with the same key on a later poll is not emitted again, even if its other cells changed. (In the example, "ID transakce" is a Czech column name: "transaction ID".)',
	},
	{
		displayName: 'On First Run',
		name: 'firstRun',
		type: 'options',
		default: 'remember',
		description:
			'What the first poll does with the rows already in the report (also after the report or the row identity is changed)',
		options: [
			{
				name: 'Only Remember Them',
				value: 'remember',
				description: 'Emit nothing; later polls emit only rows added after activation',
			},
			{
				name: 'Emit All Current Rows',
				value: 'emit',
				description: 'Emit every row of the report once',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options,
	},
];
