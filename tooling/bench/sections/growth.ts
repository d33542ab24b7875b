import { TOKENS } from '../../sandbox/seeds';
import type { BenchContext, Rendered, Section, Series } from '../lib/context';
import { markdownTable } from '../lib/markdown';
import { measure } from '../lib/measure';
import { formatCount, formatMiB, formatMs } from '../lib/stats';
import { record, summarize, type Summary } from '../lib/summary';
import { lineChartSvg } from '../lib/svg';
import type { Client } from '../lib/tasks';
import { measureImport, sharedImportKey } from './import';
import { sharedReadKey } from './report-read';

export interface GrowthData {
	sizes: number[];
	pageSize: number;
	batchSize: number;
	read: Array<{ size: number; series: Series[] }>;
	import: Array<{ size: number; series: Series[] }>;
	/** Sizes taken from the report-read and import sections' measurements of this run. */
	reused: string[];
}

function relabel({ raw, node }: { raw: Series; node: Series }): Series[] {
	return [
		{ label: CLIENT_LABEL.raw, runs: raw.runs },
		{ label: CLIENT_LABEL.node, runs: node.runs },
	];
}

const CLIENT_LABEL: Record<Client, string> = { raw: 'raw axios', node: 'Records node' };

function reportId(size: number): string {
	return `bench-growth-${size}`;
}

/** How time and memory grow with the amount of work: should be linear, with no per-item surprises. */
export const growth: Section<GrowthData> = {
	id: 'growth',
	title: 'Growth with the amount of work',
	async run(context: BenchContext): Promise<GrowthData> {
		const sizes = context.quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
		const runs = context.quick ? 1 : 3;
		const pageSize = 100;
		const batchSize = 100;
		const { sandbox } = context;
		const data: GrowthData = { sizes, pageSize, batchSize, read: [], import: [], reused: [] };
		await sandbox.reset();
		for (const size of sizes) {
			const reused = context.shared.get(sharedReadKey(size, pageSize));
			if (reused) {
				data.read.push({ size, series: relabel(reused) });
				data.reused.push(`read of ${formatCount(size)} rows`);
				continue;
			}
			await sandbox.defineBankReport(reportId(size), size);
			const series: Series[] = [];
			for (let run = 0; run < runs; run++) {
				for (const client of ['raw', 'node'] as const) {
					const measurement = await measure(
						{ kind: 'read', client, baseUrl: sandbox.baseUrl, token: TOKENS.analysisAdmin, reportId: reportId(size), pageSize, concurrency: 1 },
						{ sandbox, profileDir: context.profileDir },
					);
					context.log(`growth read ${formatCount(size)} ${client}: ${formatMs(measurement.elapsedMs)}, peak ${formatMiB(measurement.peakRssMiB)}`);
					record(series, CLIENT_LABEL[client], measurement);
				}
			}
			data.read.push({ size, series });
		}
		for (const size of sizes) {
			const reused = context.shared.get(sharedImportKey(size, batchSize));
			if (reused) {
				data.import.push({ size, series: relabel(reused) });
				data.reused.push(`import of ${formatCount(size)} records`);
				continue;
			}
			const series: Series[] = [];
			for (let run = 0; run < runs; run++) {
				for (const client of ['raw', 'node'] as const) {
					const measurement = await measureImport(context, { client, count: size, keyPrefix: `growth-${run}`, batchSize, concurrency: 1 });
					context.log(`growth import ${formatCount(size)} ${client}: ${formatMs(measurement.elapsedMs)}, peak ${formatMiB(measurement.peakRssMiB)}`);
					record(series, CLIENT_LABEL[client], measurement);
				}
			}
			data.import.push({ size, series });
		}
		await sandbox.reset();
		return data;
	},
	render(data: GrowthData): Rendered {
		const table = (entries: GrowthData['read'], unit: string) => {
			const rows: string[][] = [];
			for (const { size, series } of entries) {
				const [raw, node] = series.map(summarize);
				rows.push([
					formatCount(size),
					formatMs(raw.medianMs),
					formatMs(node.medianMs),
					formatMs(node.medianMs - raw.medianMs),
					`${((raw.medianMs * 1000) / size).toFixed(1)} µs`,
					`${((node.medianMs * 1000) / size).toFixed(1)} µs`,
					formatMiB(raw.peakRssMiB),
					formatMiB(node.peakRssMiB),
					`${((node.peakRssMiB - node.rssBeforeMiB) * 1024 / size).toFixed(2)} KiB`,
				]);
			}
			return markdownTable({
				headers: [
					`${unit}`,
					'Raw time',
					'Node time',
					'Node − raw',
					`Raw per ${unit.toLowerCase().replace(/s$/, '')}`,
					`Node per ${unit.toLowerCase().replace(/s$/, '')}`,
					'Raw peak RSS',
					'Node peak RSS',
					`Node memory growth per ${unit.toLowerCase().replace(/s$/, '')}`,
				],
				rows,
			});
		};
		const lines = (entries: GrowthData['read'], pick: (summary: Summary) => number) =>
			(['raw', 'node'] as const).map((client, index) => ({
				name: CLIENT_LABEL[client],
				dashed: client === 'raw',
				points: entries.map(({ size, series }) => ({ x: size, y: pick(summarize(series[index])) })),
			}));
		const runs = data.read[0]?.series[0]?.runs.length ?? 0;
		return {
			markdown: [
				`Sequential reads (page size ${formatCount(data.pageSize)}, no added latency) and imports (batch ${formatCount(data.batchSize)}, one request at a time) of growing size; medians of ${runs} runs. ` +
					((data.reused ?? []).length > 0 ? `The ${data.reused.join(' and the ')} are the measurements of sections 2 and 3 of the same run. ` : '') +
					'The per-item columns should stay flat as the size grows by ten. Node memory growth per item = (peak RSS − RSS before the run) / items: what holding the output items costs.',
				'',
				'**Report read**',
				'',
				table(data.read, 'Rows'),
				'',
				'**Import**',
				'',
				table(data.import, 'Records'),
			].join('\n'),
			targets: [],
			charts: [
				{
					file: 'growth-time.svg',
					alt: 'Time by size',
					svg: lineChartSvg({
						title: 'Growth: time by size (log–log)',
						xLabel: 'rows read / records imported',
						yLabel: 'median time (ms)',
						logX: true,
						logY: true,
						series: [
							...lines(data.read, (s) => s.medianMs).map((line) => ({ ...line, name: `read, ${line.name}` })),
							...lines(data.import, (s) => s.medianMs).map((line) => ({ ...line, name: `import, ${line.name}` })),
						],
					}),
				},
				{
					file: 'growth-memory.svg',
					alt: 'Peak memory by size',
					svg: lineChartSvg({
						title: 'Growth: peak RSS of the measuring process by size',
						xLabel: 'rows read / records imported',
						yLabel: 'peak RSS (MiB)',
						logX: true,
						series: [
							...lines(data.read, (s) => s.peakRssMiB).map((line) => ({ ...line, name: `read, ${line.name}` })),
							...lines(data.import, (s) => s.peakRssMiB).map((line) => ({ ...line, name: `import, ${line.name}` })),
						],
					}),
				},
			],
		};
	},
};
