/** The Records Report Trigger's parameters (polls a report, §4.2, and emits rows not emitted before). */
import type { INodeProperties } from 'n8n-workflow';

import {
	byDisplayName,
	columnPicker,
	pagingOptions,
	reportLocator,
	rowOutputOptions,
} from '../shared/report/descriptions';
import { DEFAULT_MAX_REMEMBERED } from './pollSettings';

const options: INodeProperties[] = byDisplayName([
	{
		displayName: 'Full Check Every',
		name: 'fullCheckEvery',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 0 },
		default: 0,
		description:
			'Every this many polls, read the whole report and emit any row the ordered polls missed; 0: never. With it the trigger remembers every row, and a failed check reads the whole report instead of stopping with an error.',
		displayOptions: { show: { '/newRowPosition': ['end', 'top'] } },
	},
	...rowOutputOptions,
	...pagingOptions,
	{
		displayName: 'Max Remembered Rows',
		name: 'maxRemembered',
		type: 'number',
		typeOptions: { minValue: 1, numberPrecision: 0 },
		default: DEFAULT_MAX_REMEMBERED,
		description:
			'Where the trigger remembers every row (Anywhere, or a full check): at most this many. A report with more rows is refused, since rows it forgot would be emitted again.',
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
	reportLocator,
	{
		displayName: 'Row Identity',
		name: 'rowIdentity',
		type: 'options',
		default: 'hash',
		description:
			'What makes a row the same row on the next poll. Rows with an ID, such as bank transactions, are best identified by it: choose Key Columns.',
		options: [
			{
				name: 'Whole Row',
				value: 'hash',
				description: 'Every cell: a row edited in any way is new and emitted again',
			},
			{
				name: 'Key Columns',
				value: 'columns',
				description: 'The columns you pick, e.g. a transaction ID: a row is emitted once, even if edited later',
			},
		],
	},
	columnPicker({
		displayName: 'Key Column Names or IDs',
		name: 'keyColumns',
		required: true,
		displayOptions: { show: { rowIdentity: ['columns'] } },
		description:
			'Columns whose values together identify a row, chosen from the report\'s columns. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	}),
	{
		displayName: 'New Rows Appear',
		name: 'newRowPosition',
		type: 'options',
		default: 'anywhere',
		description:
			'Anywhere, the safe default, reads the whole report on every poll. If rows are only ever added at one end, choose that end: a poll then reads a few rows, whatever the report\'s size.',
		options: [
			{
				name: 'Anywhere',
				value: 'anywhere',
				description: 'Read the whole report on every poll; rows may be added, edited or deleted anywhere',
			},
			{
				name: 'Appended at the End',
				value: 'end',
				description: 'For a report sorted oldest first: only the rows after the last one remembered are read',
			},
			{
				name: 'At the Top',
				value: 'top',
				description: 'For a report sorted newest first: only the rows above the first one remembered are read',
			},
		],
	},
	{
		displayName: 'On First Run',
		name: 'firstRun',
		type: 'options',
		default: 'remember',
		description:
			'What the first poll does with the rows already in the report (also after the report, Row Identity or Key Columns are changed)',
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
