import { TOKENS } from '../../sandbox/seeds';
import type { BenchContext, Rendered, Section, Series, TargetCheck } from '../lib/context';
import { markdownTable } from '../lib/markdown';
import { measure } from '../lib/measure';
import { formatCount, formatMiB, formatMs, formatRatio } from '../lib/stats';
import { findSeries, record, sandboxShare, summarize, type Summary } from '../lib/summary';
import { barChartSvg } from '../lib/svg';
import type { Client } from '../lib/tasks';
import { readInN8n, type N8nReadData } from './n8n-read';

export const READ_REPORT_ID = 'bench-read';

/** Key of a sequential read without added latency in BenchContext.shared. */
export function sharedReadKey(rows: number, pageSize: number): string {
	return `read rows=${rows} page=${pageSize} sequential 0ms`;
}

export interface ReadData {
	rows: number;
	pageSize: number;
	concurrency: number;
	latencies: Array<{ latencyMs: number; series: Series[] }>;
	/** The same reads inside a real n8n, compared by the node execution times n8n records. */
	n8n?: N8nReadData;
	n8nSkipped?: string;
}

interface Variant {
	label: string;
	client: Client;
	concurrency: number;
	newConnectionPerRequest?: boolean;
}

/**
 * The raw client and the node, sequential and parallel; and the raw client opening a new TCP
 * connection for every request, as n8n's HTTP helper does (it builds a new http.Agent per
 * request), which shows how much of the node's time that costs. Sequentially with added latency
 * that variant is left out: it would add minutes and only the latency shows there.
 */
function variants(concurrency: number, latencyMs: number): Variant[] {
	const list: Variant[] = [
		{ label: label('raw', 1), client: 'raw', concurrency: 1 },
		{ label: label('node', 1), client: 'node', concurrency: 1 },
		{ label: label('raw', concurrency), client: 'raw', concurrency },
		{ label: label('node', concurrency), client: 'node', concurrency },
		{ label: label('raw', concurrency, true), client: 'raw', concurrency, newConnectionPerRequest: true },
	];
	if (latencyMs === 0) list.push({ label: label('raw', 1, true), client: 'raw', concurrency: 1, newConnectionPerRequest: true });
	return list;
}

/** One colour per kind of client across every chart group: the same variant is easy to follow. */
function colourOf(variantLabel: string): number {
	if (variantLabel.startsWith('HTTP Request')) return 5;
	if (variantLabel.includes('new connection per request')) return 4;
	const parallel = variantLabel.includes('in parallel') ? 2 : 0;
	return (variantLabel.startsWith('raw') ? 0 : 1) + parallel;
}

function label(client: Client, concurrency: number, newConnectionPerRequest = false): string {
	const who = client === 'raw' ? 'raw axios' : 'Get Report Rows';
	const how = concurrency === 1 ? 'sequential' : `${concurrency} in parallel`;
	return `${who}, ${how}${newConnectionPerRequest ? ', new connection per request' : ''}`;
}

export const reportRead: Section<ReadData> = {
	id: 'report-read',
	title: 'Report read',
	async run(context: BenchContext): Promise<ReadData> {
		const rows = context.quick ? 20_000 : 100_000;
		// The spec's default page size: what a user gets without tuning, and where per-request costs show.
		const pageSize = 100;
		const concurrency = 8;
		const runs = context.quick ? 1 : 3;
		const { sandbox } = context;
		await sandbox.reset();
		await sandbox.defineBankReport(READ_REPORT_ID, rows);
		const data: ReadData = { rows, pageSize, concurrency, latencies: [] };
		for (const latencyMs of [0, 20]) {
			await sandbox.setFaults(latencyMs > 0 ? [{ route: 'report', latencyMs }] : []);
			const series: Series[] = [];
			// Runs interleaved (A B C D A B C D ...), so that a slow phase of the machine hits every variant.
			for (let run = 0; run < runs; run++) {
				for (const variant of variants(concurrency, latencyMs)) {
					const measurement = await measure(
						{
							kind: 'read',
							client: variant.client,
							baseUrl: sandbox.baseUrl,
							token: TOKENS.analysisAdmin,
							reportId: READ_REPORT_ID,
							pageSize,
							concurrency: variant.concurrency,
							newConnectionPerRequest: variant.newConnectionPerRequest,
						},
						{ sandbox, profileDir: context.profileDir },
					);
					context.log(
						`read ${latencyMs} ms, ${variant.label}: ${formatMs(measurement.elapsedMs)}, ${formatCount(measurement.count)} rows, peak ${formatMiB(measurement.peakRssMiB)}`,
					);
					record(series, variant.label, measurement);
				}
			}
			data.latencies.push({ latencyMs, series });
			const raw = findSeries(series, label('raw', 1));
			const node = findSeries(series, label('node', 1));
			if (latencyMs === 0 && raw && node) context.shared.set(sharedReadKey(rows, pageSize), { raw, node });
		}
		await sandbox.setFaults([]);
		try {
			data.n8n = await readInN8n(context, { reportId: READ_REPORT_ID, rows, pageSize, concurrency });
		} catch (error) {
			data.n8nSkipped = (error as Error).message;
			context.log(`read in real n8n skipped: ${data.n8nSkipped}`);
		}
		return data;
	},
	render(data: ReadData): Rendered {
		const targets: TargetCheck[] = [];
		const lines: string[] = [
			`${formatCount(data.rows)} rows of a generated bank-transaction report (8 columns), page size ${formatCount(data.pageSize)}, read to the end (Return All) and keyed by column name. ` +
				`Added latency is a per-request delay in the sandbox. Each configuration ran in a fresh process; the table shows medians of the runs. ` +
				"The node's time is the execution time n8n-core records for it in the run data; the raw client's is the wall time of its read. " +
				'"Client CPU" is the measuring process\'s CPU time during the read (for the node, n8n-core\'s engine included); "Sandbox CPU" is the sandbox process\'s CPU time divided by the wall time (well below 100 % = the sandbox was not the bottleneck). ' +
				'The rows "new connection per request" are the raw client opening a new TCP connection for every request, as n8n\'s HTTP helper does: the part of the node\'s time that comes from the helper, not from the node.',
			'',
		];
		const bars: Array<{ label: string; bars: Array<{ label: string; value: number; text: string; series: number }> }> = [];
		for (const { latencyMs, series } of data.latencies) {
			const summaries = series.map(summarize);
			const byLabel = new Map(summaries.map((summary) => [summary.label, summary]));
			const concurrencyOf = (summary: Summary) => (summary.label.includes('sequential') ? 1 : data.concurrency);
			const rows = summaries.map((summary, index) => {
				const baseline = byLabel.get(label('raw', concurrencyOf(summary))) ?? summary;
				const ok = series[index].runs.every((run) => run.count === data.rows && run.details.uniqueIds === data.rows && run.details.ordered === true);
				return [
					summary.label,
					formatMs(summary.medianMs),
					`${formatMs(summary.minMs)}–${formatMs(summary.maxMs)}`,
					formatCount(summary.perSecond),
					formatRatio(summary.medianMs / baseline.medianMs),
					formatMiB(summary.peakRssMiB),
					formatMs(summary.cpuMs),
					sandboxShare(summary.sandboxBusy),
					ok ? `${formatCount(summary.count)} ✔` : `✘ ${formatCount(summary.count)}`,
				];
			});
			lines.push(
				`**${latencyMs} ms added latency** (${summaries[0].runs} runs each)`,
				'',
				markdownTable({
					headers: ['Client', 'Median time', 'Range', 'Rows/s', 'Time vs raw (kept-alive) at same concurrency', 'Peak RSS', 'Client CPU', 'Sandbox CPU', 'Rows unique, in order'],
					rows,
				}),
				'',
			);
			const limit = latencyMs === 0 ? 1.2 : 1.15;
			for (const concurrency of [1, data.concurrency]) {
				const node = byLabel.get(label('node', concurrency));
				const raw = byLabel.get(label('raw', concurrency));
				if (!node || !raw) continue;
				const ratio = node.medianMs / raw.medianMs;
				const freshConnections = byLabel.get(label('raw', concurrency, true));
				const helperShare = freshConnections
					? `; vs raw with a new connection per request, as n8n's helper makes them: ${formatRatio(node.medianMs / freshConnections.medianMs)}`
					: '';
				targets.push({
					target: `${label('node', concurrency)} at ${latencyMs} ms: ≤ ${limit}× the raw client's time`,
					measured: `${formatRatio(ratio)} (${formatMs(node.medianMs)} vs ${formatMs(raw.medianMs)}${helperShare})`,
					met: ratio <= limit,
				});
			}
			bars.push({
				label: `${latencyMs} ms added latency per request`,
				bars: summaries.map((summary) => ({
					label: summary.label,
					value: summary.perSecond,
					text: `${formatCount(summary.perSecond)} rows/s`,
					series: colourOf(summary.label),
				})),
			});
		}
		if (data.n8n) {
			const n8n = renderN8nRead(data.n8n, data, targets);
			lines.push(...n8n.lines);
			bars.push(...n8n.bars);
		} else {
			lines.push(`Real-n8n comparison not run: ${data.n8nSkipped ?? 'unknown reason'}.`, '');
		}
		return {
			markdown: lines.join('\n'),
			targets,
			charts: [
				{
					file: 'report-read.svg',
					alt: 'Report read throughput per client',
					svg: barChartSvg({
						title: `Report read: ${formatCount(data.rows)} rows, page size ${formatCount(data.pageSize)}`,
						unit: 'rows per second (higher is better)',
						groups: bars,
					}),
				},
			],
		};
	},
};

function renderN8nRead(
	n8n: N8nReadData,
	data: ReadData,
	targets: TargetCheck[],
): { lines: string[]; bars: Array<{ label: string; bars: Array<{ label: string; value: number; text: string; series: number }> }> } {
	const lines: string[] = [
		`**Inside n8n ${n8n.n8nVersion}** (real n8n on Node.js ${n8n.nodeVersion}, \`n8n start\`, workflows started by a webhook call, run data read back through the public API). ` +
			`Times are the node execution times n8n records in the run data. Each run is one workflow with one branch per variant, run one after the other; the branch order rotates between runs; medians of ${n8n.runs} runs. ` +
			'At 20 ms the sequential Get Report Rows is left out here: it adds most of the time and little news (the in-process tables above cover it). ' +
			`The HTTP Request node uses its built-in pagination (offset = \`$pageCount * ${data.pageSize}\`, complete when a page has fewer than ${data.pageSize} rows), which requests one page after the other and outputs one item per page; ` +
			'to get one item per row like Get Report Rows, a Split Out node follows it, and its time is added. ' +
			'Peak RSS: of a freshly started n8n server running the variant alone (no added latency), with its RSS just before the run in brackets.',
		'',
	];
	const bars: Array<{ label: string; bars: Array<{ label: string; value: number; text: string; series: number }> }> = [];
	for (const latency of n8n.latencies) {
		const byLabel = new Map(latency.variants.map((variant) => [variant.label, variant]));
		const http = byLabel.get('HTTP Request (pagination) + Split Out');
		const rows = latency.variants.map((variant) => [
			variant.label,
			formatMs(variant.medianMs),
			formatCount((data.rows * 1000) / variant.medianMs),
			http ? formatRatio(http.medianMs / variant.medianMs) : '–',
			`${formatMiB(variant.peakRssMiB)} (${formatMiB(variant.rssBeforeMiB)} before)`,
			variant.ok ? `${formatCount(variant.rows)} ✔` : `✘ ${formatCount(variant.rows)}`,
		]);
		lines.push(
			`*${latency.latencyMs} ms added latency, inside n8n*`,
			'',
			markdownTable({
				headers: ['Node', 'Median node time (run data)', 'Rows/s', 'Speed-up vs HTTP Request + Split Out', 'Peak RSS of n8n', 'Rows unique, in order'],
				rows,
			}),
			'',
		);
		const parallel = latency.variants.find((variant) => variant.label.startsWith('Get Report Rows') && variant.label.includes('parallel'));
		if (latency.latencyMs === 20 && http && parallel) {
			const speedUp = http.medianMs / parallel.medianMs;
			targets.push({
				target: "Get Report Rows at 20 ms: ≥ 5× the HTTP Request node's throughput (inside n8n)",
				measured: `${formatRatio(speedUp)} (${formatMs(parallel.medianMs)} vs ${formatMs(http.medianMs)})`,
				met: speedUp >= 5,
			});
		}
		bars.push({
			label: `inside n8n, ${latency.latencyMs} ms added latency`,
			bars: latency.variants.map((variant) => ({
				label: variant.label,
				value: (data.rows * 1000) / variant.medianMs,
				text: `${formatCount((data.rows * 1000) / variant.medianMs)} rows/s`,
				series: colourOf(variant.label),
			})),
		});
	}
	return { lines, bars };
}
