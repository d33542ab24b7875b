import { TOKENS } from '../../sandbox/seeds';
import type { BenchContext, Rendered, Section, Series } from '../lib/context';
import { IMPORT_RECORD_TYPE } from '../lib/data';
import { markdownTable } from '../lib/markdown';
import { measure } from '../lib/measure';
import { formatCount, formatMs, formatPercent } from '../lib/stats';
import { record, summarize } from '../lib/summary';

const REPORT_ID = 'bench-ceiling';

export interface CeilingData {
	rows: number;
	records: number;
	series: Series[];
}

/**
 * How fast the sandbox itself can go: the raw client at high concurrency with no added latency.
 * Its CPU time per row gives the most the sandbox could serve on one core; every measurement of
 * the other sections also records how busy the sandbox was.
 */
export const sandboxCeiling: Section<CeilingData> = {
	id: 'sandbox-ceiling',
	title: 'Sandbox ceiling (is the server ever the bottleneck?)',
	async run(context: BenchContext): Promise<CeilingData> {
		const { sandbox } = context;
		const rows = context.quick ? 20_000 : 100_000;
		const records = context.quick ? 20_000 : 100_000;
		const runs = context.quick ? 1 : 3;
		await sandbox.reset();
		await sandbox.defineBankReport(REPORT_ID, rows);
		const series: Series[] = [];
		for (let run = 0; run < runs; run++) {
			const read = await measure(
				{ kind: 'read', client: 'raw', baseUrl: sandbox.baseUrl, token: TOKENS.analysisAdmin, reportId: REPORT_ID, pageSize: 1000, concurrency: 8 },
				{ sandbox },
			);
			context.log(`sandbox read ceiling: ${formatMs(read.elapsedMs)}, sandbox CPU ${formatPercent(read.sandboxBusy)}`);
			record(series, 'read: raw axios, page 1000, 8 in parallel', read);
			await sandbox.reset();
			const imported = await measure(
				{
					kind: 'import',
					client: 'raw',
					baseUrl: sandbox.baseUrl,
					token: TOKENS.import,
					recordTypeId: IMPORT_RECORD_TYPE,
					count: records,
					keyPrefix: `ceiling-${run}`,
					batchSize: 1000,
					concurrency: 4,
				},
				{ sandbox },
			);
			context.log(`sandbox import ceiling: ${formatMs(imported.elapsedMs)}, sandbox CPU ${formatPercent(imported.sandboxBusy)}`);
			record(series, 'import: raw axios, batch 1000, 4 in parallel', imported);
			await sandbox.reset();
			await sandbox.defineBankReport(REPORT_ID, rows);
		}
		return { rows, records, series };
	},
	render(data: CeilingData): Rendered {
		const rows = data.series.map((series) => {
			const summary = summarize(series);
			const sandboxCpu = series.runs.map((run) => run.sandboxCpuMs).sort((a, b) => a - b)[Math.floor(series.runs.length / 2)];
			return [
				series.label,
				formatMs(summary.medianMs),
				formatCount(summary.perSecond),
				formatPercent(summary.sandboxBusy),
				formatMs(sandboxCpu),
				formatCount((summary.count * 1000) / sandboxCpu),
			];
		});
		return {
			markdown: [
				`The fastest client the benchmark has (raw axios, parallel, no added latency) on ${formatCount(data.rows)} rows / ${formatCount(data.records)} records. ` +
					'"Sandbox-only ceiling" is items per second of the sandbox\'s own CPU time: what one fully busy sandbox core could serve. ' +
					'Every client measured below stays far under it, and each table there shows the sandbox\'s CPU share during the measurement.',
				'',
				markdownTable({
					headers: ['Load', 'Median time', 'Items/s (client view)', 'Sandbox CPU share', 'Sandbox CPU time', 'Sandbox-only ceiling (items/s)'],
					rows,
				}),
			].join('\n'),
			charts: [],
			targets: [],
		};
	},
};
