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
			'With New Rows Appear at the end or at the top: every this many polls, read the whole report, compare every row with what was emitted, emit any row the ordered polls missed (rows added elsewhere) and log what the check found. 0: never. With a full check the trigger remembers every row, as with "Anywhere", and a failed check reads the whole report instead of stopping with an error.',
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
			'How many rows the trigger remembers where it remembers every row (New Rows Appear "Anywhere", or a full check). Rows gone from the report the longest are forgotten first; a report with more rows than this is refused, since its forgotten rows would be emitted again.',
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
			'Only rows not emitted before are output. The rows already seen are remembered in the workflow, so an edited row counts as new unless Row Identity uses key columns.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		displayName:
			'On each poll the whole report is read: about rows ÷ Page Size + 1 requests per poll (1,011 for 100,000 rows at Page Size 100: each page after the first repeats the row before it, so that a report changing under the read is noticed). Suggested poll interval: 1–5 minutes up to 1,000 rows, 5–10 minutes up to 10,000, 15–30 minutes up to 100,000; at least twice as long as a test fetch takes. If new rows only ever appear at the end or at the top of the report, choose that under New Rows Appear: polls then cost 2–3 requests, whatever the report\'s size.',
		name: 'noticeAnywhere',
		type: 'notice',
		default: '',
		displayOptions: { show: { newRowPosition: ['anywhere'] } },
	},
	{
		displayName:
			'Each poll reads from the 64 rows remembered last to the end of the report: 2 requests when fewer than a page of rows was added, whatever the report\'s size, so polling every minute suits any report; the trigger remembers 64 rows, not every row. The 64 rows must still stand where they stood: if rows above them were deleted or inserted, or they were edited or re-sorted, the poll stops with an error that names the change and says how to go on, and emits nothing.',
		name: 'noticeEndBounded',
		type: 'notice',
		default: '',
		displayOptions: { show: { newRowPosition: ['end'] } },
	},
	{
		displayName:
			'Each poll reads the end of the report, where the row remembered last must still be, then the rows above the 64 rows remembered first: 3 requests when fewer than a page of rows was added, whatever the report\'s size, so polling every minute suits any report; the trigger remembers 65 rows, not every row. If rows were deleted, edited, inserted below the top or re-sorted, the poll stops with an error that names the change and says how to go on, and emits nothing.',
		name: 'noticeTopBounded',
		type: 'notice',
		default: '',
		displayOptions: { show: { newRowPosition: ['top'] } },
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
	columnPicker({
		displayName: 'Key Column Names or IDs',
		name: 'keyColumns',
		required: true,
		displayOptions: { show: { rowIdentity: ['columns'] } },
		description:
			'Columns whose values together identify a row, chosen from the report\'s columns. A row with the same key on a later poll is not emitted again, even if its other cells changed. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	}),
	{
		displayName: 'New Rows Appear',
		name: 'newRowPosition',
		type: 'options',
		default: 'anywhere',
		description:
			'Where the report puts rows added since the last poll. At one end, a poll reads only the rows past the ones it remembers.',
		options: [
			{
				name: 'Anywhere',
				value: 'anywhere',
				description: 'Read the whole report on every poll',
			},
			{
				name: 'Appended at the End',
				value: 'end',
				description: 'For a report sorted oldest first (by date, say): only the rows after the last one remembered are read',
			},
			{
				name: 'At the Top',
				value: 'top',
				description: 'For a report sorted newest first (by date, say): only the rows above the first one remembered are read',
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
		displayName:
			'With n8n\'s durable scheduler, n8n does not keep what the poll made on activation remembered when it emitted nothing: rows added between activating and the first scheduled poll (one poll interval at most) then count as already there. Where those rows matter, choose "Emit All Current Rows" and filter old rows out in the workflow, or activate before the rows can arrive.',
		name: 'noticeActivation',
		type: 'notice',
		default: '',
		displayOptions: { show: { firstRun: ['remember'] } },
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
