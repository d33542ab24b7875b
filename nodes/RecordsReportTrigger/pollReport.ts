/**
 * One poll of the Records Report Trigger: reads the whole report, finds the rows not emitted before,
 * and remembers the report's rows in the workflow's static data (the guard around it that keeps
 * polls exactly once is in the node file and pollClaims.ts).
 */
import type { IDataObject, INode, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ReportShaper } from '../shared/report/settings';
import {
	columnIndexes,
	reportIdFromParameter,
	reportReadSettings,
	reportShaper,
} from '../shared/report/settings';
import type { ReportColumn, ReportRow } from '../shared/report/rows';
import { describeColumns, parseColumnList } from '../shared/report/rows';
import { readReportPages } from '../shared/report/paging';
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
import { choice, wholeNumber } from '../shared/parameters/kit';

/** Rows a manual test run returns at most: enough to map fields, quick to show. */
const MANUAL_SAMPLE_SIZE = 10;

type RowIdentity = 'hash' | 'columns';
type FirstRun = 'remember' | 'emit';

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

/** The trigger's parameters, checked. */
function pollSettings(this: IPollFunctions) {
	const node = this.getNode();
	const reportId = reportIdFromParameter(node, this.getNodeParameter('report'));
	const rowIdentity = choice<RowIdentity>(node, this.getNodeParameter('rowIdentity', 'hash'), {
		label: 'Row Identity',
		allowed: ['hash', 'columns'],
		fallback: 'hash',
	});
	const keyColumns = parseColumnList(rowIdentity === 'columns' ? this.getNodeParameter('keyColumns', '') : '');
	const firstRun = choice<FirstRun>(node, this.getNodeParameter('firstRun', 'remember'), {
		label: 'On First Run',
		allowed: ['remember', 'emit'],
		fallback: 'remember',
	});
	const optionValues = this.getNodeParameter('options', {}) as IDataObject;
	const settings = reportReadSettings(node, optionValues);
	const maxRemembered = wholeNumber(node, optionValues.maxRemembered, {
		label: 'Max Remembered Rows',
		min: 1,
		max: 100_000_000,
		fallback: DEFAULT_MAX_REMEMBERED,
	});
	const outputMode = choice(node, optionValues.outputMode, {
		label: 'Output Items',
		allowed: ['row', 'all'] as const,
		fallback: 'row',
	});
	return { reportId, rowIdentity, keyColumns, firstRun, maxRemembered, outputMode, settings };
}

type PollSettings = ReturnType<typeof pollSettings>;

/** The columns whose values identify a row: the key columns, or all of them for a whole-row hash. */
function identityColumnsOf(node: INode, columns: ReportColumn[], poll: PollSettings): string[] {
	if (poll.rowIdentity !== 'columns') return columns.map((column) => column.id);
	if (poll.keyColumns.length === 0) {
		throw new NodeOperationError(node, 'Row Identity is "Key Columns", but no Key Columns are given', {
			description: `Name the columns that identify a row, by name or ID. The report's columns: ${describeColumns(columns) || 'none'}.`,
		});
	}
	return columnIndexes(node, columns, poll.keyColumns, 'Key Columns', poll.reportId).map(
		(index) => columns[index].id,
	);
}

/** What one read of the report found: its new rows, and what was remembered when it started. */
interface ReportScan {
	shaper: ReportShaper;
	finder: NewRowFinder;
	remembered: RememberedRows | undefined;
	config: string;
	storedAtStart: string | undefined;
	newRows: ReportRow[];
	/** The latest rows of the report, for the sample of a manual run. */
	lastRows: ReportRow[];
}

/** Reads the whole report, sorting its rows into new and known; undefined for a report without pages. */
async function scanReport(
	this: IPollFunctions,
	poll: PollSettings,
	staticData: IDataObject,
	manual: boolean,
): Promise<ReportScan | undefined> {
	const node = this.getNode();
	const { reportId, settings } = poll;
	let scan: ReportScan | undefined;
	await readReportPages.call(this, {
		reportId,
		pageSize: settings.pageSize,
		concurrency: settings.concurrency,
		maxPages: settings.maxPages,
		timeoutMs: settings.request.timeoutMs,
		retry: settings.request.retry,
		onPage: ({ columns, rows }) => {
			if (scan === undefined) {
				const shaper = reportShaper(node, columns, settings, reportId);
				const identityColumns = identityColumnsOf(node, columns, poll);
				const config = stateConfig(reportId, poll.rowIdentity, identityColumns);
				const storedAtStart = storedIdentities(staticData);
				const remembered = readRemembered(staticData, config);
				const known = new Set(remembered ? splitIdentities(remembered.identities) : []);
				const finder = new NewRowFinder(identityColumns, poll.rowIdentity === 'columns', known);
				scan = { shaper, finder, remembered, config, storedAtStart, newRows: [], lastRows: [] };
			}
			for (let i = 0; i < rows.length; i++) {
				const row = rows[i];
				if (scan.finder.visit(row)) scan.newRows.push(row);
			}
			if (manual) {
				scan.lastRows = scan.lastRows.concat(rows.slice(-MANUAL_SAMPLE_SIZE)).slice(-MANUAL_SAMPLE_SIZE);
			}
		},
	});
	return scan;
}

/** Stores the identities to remember after this poll, when they changed. */
function remember(staticData: IDataObject, scan: ReportScan, current: string[], maxRemembered: number): void {
	const { remembered } = scan;
	const previous = remembered ? splitIdentities(remembered.identities) : [];
	const kept = nextRemembered(previous, current, maxRemembered);
	const identities = kept.join('');
	if (remembered === undefined || identities !== remembered.identities) {
		const state: RememberedRows = {
			version: STATE_VERSION,
			config: scan.config,
			identities,
			count: kept.length,
			generation: storedGeneration(staticData) + 1,
		};
		staticData[STATE_KEY] = state as unknown as IDataObject;
	}
}

/** One poll: reads the report, emits the rows not emitted before and remembers the report's rows. */
export async function pollReport(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const node = this.getNode();
	const poll = pollSettings.call(this);
	const { reportId, maxRemembered, outputMode, settings } = poll;
	const manual = this.getMode() === 'manual';
	const staticData = this.getWorkflowStaticData('node');

	const scan = await scanReport.call(this, poll, staticData, manual);
	if (scan === undefined) return null;
	const current = scan.finder.identities;
	if (current.length > maxRemembered) {
		throw new NodeOperationError(
			node,
			`Report "${reportId}" has ${current.length} rows, more than Max Remembered Rows (${maxRemembered})`,
			{
				description: `The trigger must remember every row of the report to emit each only once. Raise Max Remembered Rows to at least ${current.length} in the options (each row takes 12 bytes of the workflow's stored data), or narrow the report, e.g. to recent rows.`,
			},
		);
	}
	const firstPoll = scan.remembered === undefined;
	const output = (rows: ReportRow[]) =>
		rows.length > 0 ? [outputItems(rows, scan.shaper, outputMode, reportId, settings.includeColumns)] : null;

	if (manual) {
		// A test run shows what the trigger would emit now, or else the latest rows; it never
		// changes what is remembered, so activating the workflow afterwards starts afresh.
		return output((!firstPoll && scan.newRows.length > 0 ? scan.newRows : scan.lastRows).slice(-MANUAL_SAMPLE_SIZE));
	}

	if (storedIdentities(staticData) !== scan.storedAtStart) {
		// Only one poll of a trigger runs at a time in a process (pollClaims.ts); should another
		// writer still have saved rows meanwhile, its newer memory wins and this poll emits nothing:
		// the next poll reads from what that writer remembered.
		this.logger.warn(
			`Records Report Trigger "${node.name}": the remembered rows changed while this poll read report "${reportId}"; it emits nothing and keeps the newer memory. The next poll reads from it.`,
		);
		return null;
	}
	remember(staticData, scan, current, maxRemembered);
	return output(firstPoll && poll.firstRun === 'remember' ? [] : scan.newRows);
}
