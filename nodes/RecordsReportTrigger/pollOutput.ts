/**
 * What a poll of the Records Report Trigger shows: its output items, and the words it gives n8n's
 * log and its errors about the rows it read. n8n glue.
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ReportRow } from '../shared/report/rows';
import type { ReportShaper } from '../shared/report/settings';
import type { Decision } from './detection';
import { partWords } from './firstRunParts';
import type { Memory } from './memory';
import type { PollSettings } from './pollSettings';
import type { NewRowFinder } from './rowFinder';

export function outputItems(rows: ReportRow[], shaper: ReportShaper, poll: PollSettings): INodeExecutionData[] {
	if (poll.outputMode === 'all') {
		const json: IDataObject = { reportId: poll.reportId, rowCount: rows.length };
		if (poll.read.includeColumns) json.columns = shaper.columnMetadata;
		json.rows = rows.map(shaper.shape);
		return [{ json }];
	}
	return rows.map((row) => ({ json: shaper.rowItem(row) }));
}

/** The warning naming the keys several rows shared in this read; undefined when none did. */
export function repeatedKeysWarning(node: INode, reportId: string, finders: readonly NewRowFinder[]): string | undefined {
	const keys = finders.flatMap((finder) => finder.repeatedKeys);
	const count = finders.reduce((sum, finder) => sum + finder.repeatedKeyCount, 0);
	if (count === 0) return undefined;
	const listed = keys
		.map(({ key, emitted }) => `"${key}" (${emitted ? 'new: each different row emitted' : 'emitted before: the rows not emitted again'})`)
		.join(', ');
	const more = count > keys.length ? ` and ${count - keys.length} more` : '';
	return `Records Report Trigger "${node.name}": in report "${reportId}" several rows share the key ${listed}${more}. Key Columns should identify one row; a key is emitted once, so later rows with a key emitted before are not emitted. Add columns to Key Columns until each row's key is unique, or use Row Identity "Whole Row".`;
}

/** The error for a report with more rows than the per-row memory may hold. */
export function tooManyRows(node: INode, poll: PollSettings, rows: number): NodeOperationError {
	const ordered = poll.position !== 'anywhere';
	return new NodeOperationError(node, `Report "${poll.reportId}" has ${rows} rows, more than Max Remembered Rows (${poll.maxRemembered})`, {
		description: `With New Rows Appear "Anywhere"${ordered ? ' or a full check' : ''} the trigger remembers every row of the report to emit each only once. Raise Max Remembered Rows to at least ${rows} in the options, narrow the report (e.g. to recent rows), or, if new rows only ever appear at one end, choose that under New Rows Appear${ordered ? ' without Full Check Every' : ''}: it remembers 64 rows whatever the report's size.`,
	});
}

/**
 * Why a poll was a first run with a memory stored: the report or the identity changed, or, where
 * both are the same, the key columns; `forget` when the guard said the stored memory must not be used.
 */
function startOverReason(poll: PollSettings, stored: Memory | undefined, forget: string | undefined): string | undefined {
	if (forget !== undefined) return forget;
	if (stored === undefined) return undefined;
	if (stored.report !== poll.reportId) return `another report was chosen (it read "${stored.report}" before)`;
	if (stored.identity !== poll.rowIdentity) return 'another Row Identity was chosen';
	return 'Key Columns changed';
}

/**
 * What n8n's log says about a first run: a new trigger's (info), or one that started over (a
 * warning: the user may want to know why no row was emitted, or why every row was).
 */
export function firstRunNote(
	poll: PollSettings,
	decision: Decision,
	stored: Memory | undefined,
	why: { forget?: string; renamedFrom?: string },
	cutShort = false,
): { warn: boolean; text: string } | undefined {
	if (!decision.firstRun) return undefined;
	const reason =
		startOverReason(poll, stored, why.forget) ??
		(why.renamedFrom === undefined ? undefined : `no memory is stored under its new name (n8n keeps what a trigger remembers under its name, and it was renamed from "${why.renamedFrom}")`);
	const goesOn = decision.memory.readOnAt === undefined ? undefined : partWords(poll.firstRun, decision.memory, decision.emit.length);
	const what =
		goesOn !== undefined
			? `${goesOn[0].toUpperCase()}${goesOn.slice(1)}`
			: poll.firstRun === 'remember'
			? `On First Run "Only Remember Them": the ${decision.memory.count} rows in the report now count as emitted, and rows added from now on are emitted`
			: cutShort
				? `On First Run "Emit All Current Rows": the report could not be read whole in the time n8n gives one poll, so its first ${decision.emit.length} rows are emitted now, and the next polls emit the rest from where this one stopped (with the rows added meanwhile), each row once`
				: `On First Run "Emit All Current Rows": the ${decision.emit.length} rows in the report are emitted`;
	return {
		warn: reason !== undefined || goesOn !== undefined || (cutShort && poll.firstRun === 'emit'),
		text: reason === undefined ? `a first run. ${what}.` : `a first run: the trigger starts over, since ${reason}. ${what}.`,
	};
}
