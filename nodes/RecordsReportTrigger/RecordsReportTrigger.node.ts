import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import {
	byDisplayName,
	pagingOptions,
	reportLocator,
	rowOutputOptions,
} from '../Records/actions/report/common.descriptions';
import type { ReportShaper } from '../Records/actions/report/readSettings';
import {
	choice,
	columnIndexes,
	reportIdFromParameter,
	reportReadSettings,
	reportShaper,
	wholeNumber,
} from '../Records/actions/report/readSettings';
import type { ReportRow } from '../Records/helpers/reportRows';
import { describeColumns, parseColumnList } from '../Records/helpers/reportRows';
import { readReportPages } from '../Records/transport/report';
import {
	DEFAULT_MAX_REMEMBERED,
	NewRowFinder,
	STATE_KEY,
	STATE_VERSION,
	nextRemembered,
	readRemembered,
	splitIdentities,
	storedGeneration,
	storedIdentities,
	stateConfig,
} from './rememberedRows';
import type { RememberedRows } from './rememberedRows';
import { checkMemory, claimPoll, recordMemory, releasePoll, triggerKey } from './pollClaims';

/** Rows a manual test run returns at most: enough to map fields, quick to show. */
const MANUAL_SAMPLE_SIZE = 10;

type RowIdentity = 'hash' | 'columns';
type FirstRun = 'remember' | 'emit';

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

function outputItems(
	rows: ReportRow[],
	shaper: ReportShaper,
	outputMode: 'row' | 'all',
	reportId: string,
	includeColumns: boolean,
): INodeExecutionData[] {
	if (outputMode === 'all') {
		const json: IDataObject = { reportId, rowCount: rows.length };
		if (includeColumns) json.columns = shaper.columnMetadata;
		json.rows = rows.map(shaper.shape);
		return [{ json }];
	}
	return rows.map((row) => ({ json: shaper.rowItem(row) }));
}

/** One poll: reads the report, emits the rows not emitted before and remembers the report's rows. */
async function pollReport(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const node = this.getNode();
	const reportId = reportIdFromParameter(node, this.getNodeParameter('report'));
	const rowIdentity = choice<RowIdentity>(
		node,
		this.getNodeParameter('rowIdentity', 'hash'),
		['hash', 'columns'],
		'hash',
		'Row Identity',
		undefined,
	);
	const keyColumns = parseColumnList(
		rowIdentity === 'columns' ? this.getNodeParameter('keyColumns', '') : '',
	);
	const firstRun = choice<FirstRun>(
		node,
		this.getNodeParameter('firstRun', 'remember'),
		['remember', 'emit'],
		'remember',
		'On First Run',
		undefined,
	);
	const optionValues = this.getNodeParameter('options', {}) as IDataObject;
	const settings = reportReadSettings(node, optionValues);
	const maxRemembered = wholeNumber(
		node,
		optionValues.maxRemembered,
		DEFAULT_MAX_REMEMBERED,
		'Max Remembered Rows',
		1,
		100_000_000,
		undefined,
	);
	const outputMode = choice(node, optionValues.outputMode, ['row', 'all'], 'row', 'Output Items', undefined);
	const manual = this.getMode() === 'manual';
	const staticData = this.getWorkflowStaticData('node');

	let shaper: ReportShaper | undefined;
	let finder: NewRowFinder | undefined;
	let remembered: RememberedRows | undefined;
	let config = '';
	let storedAtStart: string | undefined;
	const newRows: ReportRow[] = [];
	// The latest rows of the report, for the sample of a manual run.
	let lastRows: ReportRow[] = [];

	await readReportPages.call(this, {
		reportId,
		pageSize: settings.pageSize,
		concurrency: settings.concurrency,
		maxPages: settings.maxPages,
		timeoutMs: settings.request.timeoutMs,
		retry: settings.request.retry,
		onPage: ({ columns, rows }) => {
			if (finder === undefined) {
				shaper = reportShaper(node, columns, settings, reportId);
				if (rowIdentity === 'columns' && keyColumns.length === 0) {
					throw new NodeOperationError(node, 'Row Identity is "Key Columns", but no Key Columns are given', {
						description: `Name the columns that identify a row, by name or ID. The report's columns: ${describeColumns(columns) || 'none'}.`,
					});
				}
				const identityColumns =
					rowIdentity === 'columns'
						? columnIndexes(node, columns, keyColumns, 'Key Columns', reportId).map(
								(index) => columns[index].id,
							)
						: columns.map((column) => column.id);
				config = stateConfig(reportId, rowIdentity, identityColumns);
				storedAtStart = storedIdentities(staticData);
				remembered = readRemembered(staticData, config);
				const known = new Set(remembered ? splitIdentities(remembered.identities) : []);
				finder = new NewRowFinder(identityColumns, rowIdentity === 'columns', known);
			}
			for (let i = 0; i < rows.length; i++) {
				const row = rows[i];
				if (finder.visit(row)) newRows.push(row);
			}
			if (manual) {
				lastRows = lastRows.concat(rows.slice(-MANUAL_SAMPLE_SIZE)).slice(-MANUAL_SAMPLE_SIZE);
			}
		},
	});

	if (finder === undefined || shaper === undefined) return null;
	const current = finder.identities;
	if (current.length > maxRemembered) {
		throw new NodeOperationError(
			node,
			`Report "${reportId}" has ${current.length} rows, more than Max Remembered Rows (${maxRemembered})`,
			{
				description: `The trigger must remember every row of the report to emit each only once. Raise Max Remembered Rows to at least ${current.length} in the options (each row takes 12 bytes of the workflow's stored data), or narrow the report, e.g. to recent rows.`,
			},
		);
	}
	const firstPoll = remembered === undefined;

	if (manual) {
		// A test run shows what the trigger would emit now, or else the latest rows; it never
		// changes what is remembered, so activating the workflow afterwards starts afresh.
		const sample = (!firstPoll && newRows.length > 0 ? newRows : lastRows).slice(-MANUAL_SAMPLE_SIZE);
		return sample.length > 0 ? [outputItems(sample, shaper, outputMode, reportId, settings.includeColumns)] : null;
	}

	if (storedIdentities(staticData) !== storedAtStart) {
		// Only one poll of a trigger runs at a time in a process (pollClaims.ts); should another
		// writer still have saved rows meanwhile, its newer memory wins and this poll emits nothing:
		// the next poll reads from what that writer remembered.
		this.logger.warn(
			`Records Report Trigger "${node.name}": the remembered rows changed while this poll read report "${reportId}"; it emits nothing and keeps the newer memory. The next poll reads from it.`,
		);
		return null;
	}
	const previous = remembered ? splitIdentities(remembered.identities) : [];
	const kept = nextRemembered(previous, current, maxRemembered);
	const identities = kept.join('');
	if (remembered === undefined || identities !== remembered.identities) {
		const state: RememberedRows = {
			version: STATE_VERSION,
			config,
			identities,
			count: kept.length,
			generation: storedGeneration(staticData) + 1,
		};
		staticData[STATE_KEY] = state as unknown as IDataObject;
	}

	const emitted = firstPoll && firstRun === 'remember' ? [] : newRows;
	return emitted.length > 0 ? [outputItems(emitted, shaper, outputMode, reportId, settings.includeColumns)] : null;
}

export class RecordsReportTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Records Report Trigger',
		name: 'recordsReportTrigger',
		icon: { light: 'file:records.svg', dark: 'file:records.dark.svg' },
		group: ['trigger'],
		version: 1,
		// The editor hands a resource locator to the subtitle as its plain value, a run as an object.
		subtitle:
			'={{"Report " + (typeof $parameter["report"] === "object" ? $parameter["report"].value : $parameter["report"])}}',
		description: 'Starts the workflow when a Records report has rows it has not emitted before',
		defaults: { name: 'Records Report Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'recordsApi', required: true }],
		properties: [
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
					'Columns (names or IDs, separated by commas) whose values together identify a row. A row with the same key on a later poll is not emitted again, even if its other cells changed.',
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
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// A manual test run only shows rows and remembers nothing: it may run beside the active poll.
		if (this.getMode() === 'manual') return await pollReport.call(this);
		const key = triggerKey(this.getWorkflow().id, this.getNode().id);
		const claim = claimPoll(key, Date.now());
		if (!claim.claimed) {
			const seconds = Math.round((Date.now() - (claim.runningSince ?? Date.now())) / 1000);
			this.logger.warn(
				`Records Report Trigger "${this.getNode().name}": poll skipped, the previous poll is still reading the report (for ${seconds} s). Its new rows are emitted by that poll; the next poll reads from what it remembered. If this happens often, choose a longer poll interval.`,
				{ workflowId: this.getWorkflow().id, nodeId: this.getNode().id },
			);
			return null;
		}
		try {
			const staticData = this.getWorkflowStaticData('node');
			const startedFrom = storedGeneration(staticData);
			const memory = checkMemory(key, startedFrom);
			if (memory === 'stale') {
				this.logger.warn(
					`Records Report Trigger "${this.getNode().name}": poll skipped, n8n handed it an older memory than the last poll left (n8n's durable scheduler can start a poll from a copy read before the previous poll was saved). The next poll reads the saved memory.`,
				);
				return null;
			}
			if (memory === 'unsaved') {
				this.logger.warn(
					`Records Report Trigger "${this.getNode().name}": n8n did not save what the last poll remembered (its result was discarded); this poll reads from the saved memory.`,
				);
			}
			const result = await pollReport.call(this);
			// Only a poll that emits can make a later poll emit twice; n8n does not save what its
			// activation poll remembered when that poll emits nothing, and no later poll should wait on it.
			const savedAs = storedGeneration(staticData);
			if (result !== null && savedAs > startedFrom) recordMemory(key, savedAs);
			return result;
		} finally {
			releasePoll(key);
		}
	}

}
