/**
 * Dropdown lists the editor loads (n8n's `loadOptions`), shared by the Records node and the Records
 * Report Trigger.
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { reportIdFromParameter } from '../report/settings';
import { columnKeys } from '../report/rows';
import { readReportPages } from '../report/paging';

/**
 * The columns of the report in the Report parameter, from a one-row read (the columns come with
 * every page). Each is listed by the key Get Rows gives it in its output (names in Unicode NFC,
 * a repeated name numbered " (2)") and chosen by its column ID, which names exactly one column and
 * stays right when a column is renamed.
 */
export async function getReportColumns(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
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
}
