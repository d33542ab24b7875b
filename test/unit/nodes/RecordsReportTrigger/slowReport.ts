/**
 * A virtual report too slow to read whole in one poll, for the tests of a poll's time
 * (pollBudget.test.ts, firstRunParts.test.ts): rows T00001, T00002… read 20 a page at a second a
 * request, so 2,000 rows take 100 s to read whole and an ordered poll a few seconds.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import type { ReportRow } from '../../../../nodes/shared/report/rows';
import { byId, type VirtualService, VirtualTrigger } from './virtualService';

const COLUMNS = [
	{ id: 'c1', name: 'ID' },
	{ id: 'c2', name: 'Amount' },
];
export const row = (n: number): ReportRow => ({ c1: `T${String(n).padStart(5, '0')}`, c2: `${n},00` });
export const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => row(from + i));
/** The IDs of the rows a poll emitted, and of report rows. */
export const ids = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => String(item.json.ID));
export const idsOf = (list: ReportRow[]) => list.map((r) => String(r.c1));

let workflows = 0;

/** A trigger on report "r" of `service`, holding `table` (2,000 rows unless given). */
export function slowReportTrigger(service: VirtualService, parameters: Record<string, unknown>, table: ReportRow[] = rows(1, 2_000)): VirtualTrigger {
	service.reports.set('r', { columns: COLUMNS.map((c) => ({ ...c })), rows: table });
	service.rules.latencyMs = 1_000;
	const options = { pageSize: 20, ...((parameters.options as object | undefined) ?? {}) };
	return new VirtualTrigger(service, { report: byId('r'), ...parameters, options }, `slow-report-${++workflows}`);
}
