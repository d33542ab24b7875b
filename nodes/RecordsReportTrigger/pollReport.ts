/**
 * One poll of the Records Report Trigger: reads the report (in full, or only past the remembered
 * boundary in the ordered modes, see orderedRead.ts), finds the rows not emitted before, and
 * remembers the report's rows in the workflow's static data (the guard around it that keeps polls
 * exactly once is in the node file and pollClaims.ts).
 */
import type { IDataObject, INode, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { choice, wholeNumber } from '../shared/parameters/kit';
import { type PageVerdict, readReportPages } from '../shared/report/paging';
import type { ReportColumn, ReportRow } from '../shared/report/rows';
import { describeColumns, parseColumnList } from '../shared/report/rows';
import type { ReportReadSettings, ReportShaper } from '../shared/report/settings';
import { columnIndexes, reportIdFromParameter, reportReadSettings, reportShaper } from '../shared/report/settings';
import { type NewRowPosition, readOrdered } from './orderedRead';
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
	withAddedRows,
} from './rememberedRows';
import type { RememberedRows } from './rememberedRows';

/** Rows a manual test run returns at most: enough to map fields, quick to show. */
const MANUAL_SAMPLE_SIZE = 10;

type RowIdentity = 'hash' | 'columns';
type FirstRun = 'remember' | 'emit';

/** The trigger's parameters, checked. */
interface PollSettings {
	reportId: string;
	rowIdentity: RowIdentity;
	keyColumns: string[];
	firstRun: FirstRun;
	position: NewRowPosition;
	read: ReportReadSettings;
	maxRemembered: number;
	outputMode: 'row' | 'all';
}

function pollSettings(context: IPollFunctions, node: INode): PollSettings {
	const rowIdentity = choice<RowIdentity>(node, context.getNodeParameter('rowIdentity', 'hash'), {
		label: 'Row Identity',
		allowed: ['hash', 'columns'],
		fallback: 'hash',
	});
	const options = context.getNodeParameter('options', {}) as IDataObject;
	return {
		reportId: reportIdFromParameter(node, context.getNodeParameter('report')),
		rowIdentity,
		keyColumns: parseColumnList(rowIdentity === 'columns' ? context.getNodeParameter('keyColumns', '') : ''),
		firstRun: choice<FirstRun>(node, context.getNodeParameter('firstRun', 'remember'), {
			label: 'On First Run',
			allowed: ['remember', 'emit'],
			fallback: 'remember',
		}),
		position: choice<NewRowPosition>(node, context.getNodeParameter('newRowPosition', 'anywhere'), {
			label: 'New Rows Appear',
			allowed: ['anywhere', 'end', 'top'],
			fallback: 'anywhere',
		}),
		read: reportReadSettings(node, options),
		maxRemembered: wholeNumber(node, options.maxRemembered, {
			label: 'Max Remembered Rows',
			min: 1,
			max: 100_000_000,
			fallback: DEFAULT_MAX_REMEMBERED,
		}),
		outputMode: choice(node, options.outputMode, { label: 'Output Items', allowed: ['row', 'all'] as const, fallback: 'row' }),
	};
}

/** What the first page of a read tells: how rows are shaped and identified, and what is remembered. */
interface ReadSetup {
	shaper: ReportShaper;
	identityColumns: string[];
	config: string;
	remembered?: RememberedRows;
	/** Every remembered identity, oldest first. */
	previous: string[];
	known: Set<string>;
}

function readSetup(node: INode, columns: ReportColumn[], poll: PollSettings, staticData: IDataObject): ReadSetup {
	const { reportId, rowIdentity, keyColumns } = poll;
	const shaper = reportShaper(node, columns, poll.read, reportId);
	if (rowIdentity === 'columns' && keyColumns.length === 0) {
		throw new NodeOperationError(node, 'Row Identity is "Key Columns", but no Key Columns are given', {
			description: `Name the columns that identify a row, by name or ID. The report's columns: ${describeColumns(columns) || 'none'}.`,
		});
	}
	const identityColumns =
		rowIdentity === 'columns'
			? columnIndexes(node, columns, keyColumns, 'Key Columns', reportId).map((index) => columns[index].id)
			: columns.map((column) => column.id);
	const config = stateConfig(reportId, rowIdentity, identityColumns);
	const remembered = readRemembered(staticData, config);
	const previous = remembered ? splitIdentities(remembered.identities) : [];
	return { shaper, identityColumns, config, remembered, previous, known: new Set(previous) };
}

function outputItems(rows: ReportRow[], shaper: ReportShaper, poll: PollSettings): INodeExecutionData[] {
	if (poll.outputMode === 'all') {
		const json: IDataObject = { reportId: poll.reportId, rowCount: rows.length };
		if (poll.read.includeColumns) json.columns = shaper.columnMetadata;
		json.rows = rows.map(shaper.shape);
		return [{ json }];
	}
	return rows.map((row) => ({ json: shaper.rowItem(row) }));
}

/** The warning naming the keys several rows shared in this read; undefined when none did. */
function repeatedKeysWarning(node: INode, reportId: string, finders: readonly NewRowFinder[]): string | undefined {
	const keys = finders.flatMap((finder) => finder.repeatedKeys);
	const count = finders.reduce((sum, finder) => sum + finder.repeatedKeyCount, 0);
	if (count === 0) return undefined;
	const listed = keys
		.map(({ key, emitted }) => `"${key}" (${emitted ? 'new: each different row emitted' : 'emitted before: the rows not emitted again'})`)
		.join(', ');
	const more = count > keys.length ? ` and ${count - keys.length} more` : '';
	return `Records Report Trigger "${node.name}": in report "${reportId}" several rows share the key ${listed}${more}. Key Columns should identify one row; a key is emitted once, so later rows with a key emitted before are not emitted. Add columns to Key Columns until each row's key is unique, or use Row Identity "Whole Row".`;
}

/** What one read found: the new rows, and the identities to remember. */
interface PollRead {
	setup: ReadSetup;
	newRows: ReportRow[];
	/** The report's row count now: the identities at the end of `next` that are its rows. */
	reportRows: number;
	next: (max: number) => string[];
	finders: NewRowFinder[];
	/** The report's last rows, for the sample of a manual run. */
	lastRows: ReportRow[];
}

/** One poll: reads the report, emits the rows not emitted before and remembers the report's rows. */
export async function pollReport(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const node = this.getNode();
	const poll = pollSettings(this, node);
	const { reportId, read: settings } = poll;
	const manual = this.getMode() === 'manual';
	const staticData = this.getWorkflowStaticData('node');
	const storedAtStart = storedIdentities(staticData);

	let setup: ReadSetup | undefined;
	const readPages = async (
		startOffset: number,
		maxRows: number | undefined,
		concurrency: number,
		onRows: (rows: ReportRow[], setup: ReadSetup) => PageVerdict,
	) =>
		await readReportPages.call(this, {
			reportId,
			startOffset,
			maxRows,
			pageSize: settings.pageSize,
			concurrency,
			maxPages: settings.maxPages,
			timeoutMs: settings.request.timeoutMs,
			retry: settings.request.retry,
			onPage: ({ columns, rows }) => {
				setup ??= readSetup(node, columns, poll, staticData);
				return onRows(rows, setup);
			},
		});

	const fullRead = async (): Promise<PollRead | undefined> => {
		let finder: NewRowFinder | undefined;
		const newRows: ReportRow[] = [];
		let lastRows: ReportRow[] = [];
		await readPages(0, undefined, settings.concurrency, (rows, { identityColumns, known }) => {
			finder ??= new NewRowFinder(identityColumns, poll.rowIdentity === 'columns', known);
			for (let i = 0; i < rows.length; i++) {
				if (finder.visit(rows[i])) newRows.push(rows[i]);
			}
			if (manual) lastRows = lastRows.concat(rows.slice(-MANUAL_SAMPLE_SIZE)).slice(-MANUAL_SAMPLE_SIZE);
		});
		if (finder === undefined || setup === undefined) return undefined;
		const current = finder.identities;
		const { previous } = setup;
		return { setup, newRows, reportRows: current.length, next: (max) => nextRemembered(previous, current, max), finders: [finder], lastRows };
	};

	const orderedRead = async (position: 'end' | 'top'): Promise<PollRead | undefined> => {
		// Ordered reads go one page at a time: they mostly need a page or two.
		const outcome = await readOrdered(position, {
			read: async (start, maxRows, onRows) => void (await readPages(start, maxRows, 1, (rows) => onRows(rows))),
			remembered: () =>
				setup?.remembered?.reportRows === undefined
					? undefined
					: { identities: setup.previous, reportRows: setup.remembered.reportRows },
			finder: (earlier) =>
				new NewRowFinder(setup!.identityColumns, poll.rowIdentity === 'columns', setup!.known, earlier),
		});
		if (outcome.kind === 'full') {
			if (outcome.reason !== undefined) {
				this.logger.warn(
					`Records Report Trigger "${node.name}": report "${reportId}" is read in full this poll, since ${outcome.reason}. Its rows are compared with every remembered row, so none is lost or emitted twice.`,
					{ workflowId: this.getWorkflow().id, nodeId: node.id },
				);
			}
			return await fullRead();
		}
		const { previous, remembered } = setup!;
		const reportRows = remembered!.reportRows! + outcome.added.length;
		return {
			setup: setup!,
			newRows: outcome.newRows,
			reportRows,
			next: (max) => withAddedRows(previous, remembered!.reportRows!, outcome.added, position, max),
			finders: outcome.finders,
			lastRows: [],
		};
	};

	const result = manual || poll.position === 'anywhere' ? await fullRead() : await orderedRead(poll.position);
	if (result === undefined) return null;
	const { shaper, remembered, config } = result.setup;
	if (result.reportRows > poll.maxRemembered) {
		throw new NodeOperationError(
			node,
			`Report "${reportId}" has ${result.reportRows} rows, more than Max Remembered Rows (${poll.maxRemembered})`,
			{
				description: `The trigger must remember every row of the report to emit each only once. Raise Max Remembered Rows to at least ${result.reportRows} in the options (each row takes 12 bytes of the workflow's stored data), or narrow the report, e.g. to recent rows.`,
			},
		);
	}
	const warning = repeatedKeysWarning(node, reportId, result.finders);
	if (warning !== undefined) this.logger.warn(warning, { workflowId: this.getWorkflow().id, nodeId: node.id });
	const firstPoll = remembered === undefined;

	if (manual) {
		// A test run shows what the trigger would emit now, or else the latest rows; it never
		// changes what is remembered, so activating the workflow afterwards starts afresh.
		const sample = (!firstPoll && result.newRows.length > 0 ? result.newRows : result.lastRows).slice(-MANUAL_SAMPLE_SIZE);
		return sample.length > 0 ? [outputItems(sample, shaper, poll)] : null;
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
	const kept = result.next(poll.maxRemembered);
	const identities = kept.join('');
	if (remembered === undefined || identities !== remembered.identities || remembered.reportRows !== result.reportRows) {
		const state: RememberedRows = {
			version: STATE_VERSION,
			config,
			identities,
			count: kept.length,
			generation: storedGeneration(staticData) + 1,
			reportRows: result.reportRows,
		};
		staticData[STATE_KEY] = state as unknown as IDataObject;
	}

	const emitted = firstPoll && poll.firstRun === 'remember' ? [] : result.newRows;
	return emitted.length > 0 ? [outputItems(emitted, shaper, poll)] : null;
}
