/**
 * Dropdown lists the editor loads (n8n's `loadOptions`), shared by the Records node and the Records
 * Report Trigger.
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { reportIdFromParameter } from '../report/settings';
import { columnKeys, parseColumnList } from '../report/rows';
import { readReportPages } from '../report/paging';

/** The column lists filled from getReportColumns: the trigger's keys, Get Rows' conversions. */
const COLUMN_LISTS = ['keyColumns', 'options.numberColumns', 'options.dateColumns'];

/**
 * The columns of the report in the Report parameter, from a one-row read (the columns come with
 * every page). Each is listed by the key Get Rows gives it in its output (names in Unicode NFC,
 * a repeated name numbered " (2)") and chosen by its column ID, which names exactly one column and
 * stays right when a column is renamed.
 *
 * When the report cannot be read (no credential yet, the service away), the columns already chosen
 * are listed as they are, with the reason, so that the editor keeps showing them instead of an
 * error that hides them; with none chosen, the error is shown.
 */
export async function getReportColumns(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	try {
		const reportId = reportIdFromParameter(this.getNode(), this.getCurrentNodeParameter('report'));
		const { columns } = await readReportPages.call(this, {
			reportId,
			pageSize: 1,
			maxRows: 1,
			onPage: () => undefined,
		});
		const keys = columnKeys(columns, 'name');
		return columns.map((column, index) => ({
			name: keys[index],
			value: column.id,
			description: `Column ID ${column.id}`,
		}));
	} catch (error) {
		const chosen = chosenColumns(this);
		if (chosen.length === 0) {
			throw error instanceof NodeApiError || error instanceof NodeOperationError ? error : new NodeOperationError(this.getNode(), error as Error);
		}
		const reason = `Not checked: the report's columns could not be read (${(error as Error).message})`;
		return chosen.map((id) => ({ name: id, value: id, description: reason }));
	}
}

function chosenColumns(context: ILoadOptionsFunctions): string[] {
	const chosen = COLUMN_LISTS.flatMap((path) => {
		try {
			return parseColumnList(context.getCurrentNodeParameter(path));
		} catch {
			return [];
		}
	});
	// A list given by an expression is not a choice the dropdown shows.
	return [...new Set(chosen)].filter((id) => !id.startsWith('='));
}
