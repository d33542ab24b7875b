import type { FaultRule } from '../../sandbox/faults';
import { TOKENS } from '../../sandbox/seeds';
import type { BenchContext, Rendered, Section, Series, TargetCheck } from '../lib/context';
import { IMPORT_RECORD_TYPE } from '../lib/data';
import { markdownTable } from '../lib/markdown';
import { measure, type Measurement } from '../lib/measure';
import type { SandboxProcess } from '../lib/sandbox';
import { formatCount, formatMiB, formatMs, formatRatio } from '../lib/stats';
import { record, sandboxShare, summarize } from '../lib/summary';
import { barChartSvg } from '../lib/svg';
import type { Client, ImportTask } from '../lib/tasks';

export interface ImportConfig {
	batchSize: number;
	concurrency: number;
	count: number;
}

export interface ImportData {
	configs: Array<ImportConfig & { series: Series[] }>;
}

/** What the sandbox saw of one import run: requests, records stored, keys stored more than once. */
export interface SandboxImportView {
	requests: number;
	recordsStored: number;
	recordsInType: number;
	duplicateKeys: number;
}

export async function sandboxImportView(sandbox: SandboxProcess): Promise<SandboxImportView> {
	const stats = await sandbox.stats();
	return {
		requests: stats.imports.requests,
		recordsStored: stats.imports.recordsStored,
		recordsInType: await sandbox.recordCount(IMPORT_RECORD_TYPE),
		duplicateKeys: stats.imports.duplicateKeyCount,
	};
}

/** Runs one import in a fresh measuring process against an emptied sandbox, and adds what the sandbox saw. */
export async function measureImport(
	context: BenchContext,
	task: Omit<ImportTask, 'kind' | 'baseUrl' | 'token' | 'recordTypeId'>,
	faults: FaultRule[] = [],
): Promise<Measurement> {
	const { sandbox } = context;
	await sandbox.reset();
	await sandbox.setFaults(faults);
	const seeded = await sandbox.recordCount(IMPORT_RECORD_TYPE);
	const measurement = await measure(
		{ kind: 'import', baseUrl: sandbox.baseUrl, token: TOKENS.import, recordTypeId: IMPORT_RECORD_TYPE, ...task },
		{ sandbox, profileDir: context.profileDir },
	);
	const view = await sandboxImportView(sandbox);
	measurement.details.sandbox = { ...view, recordsInType: view.recordsInType - seeded };
	await sandbox.setFaults([]);
	return measurement;
}

/** Key of a one-request-at-a-time import in BenchContext.shared. */
export function sharedImportKey(count: number, batchSize: number): string {
	return `import records=${count} batch=${batchSize} sequential`;
}

/** "batch 1,000, 4 in parallel" */
function describeConfig(config: ImportConfig): string {
	return `batch ${formatCount(config.batchSize)}${config.concurrency > 1 ? `, ${config.concurrency} in parallel` : ''}`;
}

function label(client: Client, config: ImportConfig, newConnectionPerRequest = false): string {
	const who = client === 'raw' ? 'raw axios' : 'Import Records';
	return `${who}, ${describeConfig(config)}${newConnectionPerRequest ? ', new connection per request' : ''}`;
}

interface ImportVariant {
	client: Client;
	newConnectionPerRequest?: boolean;
}

/**
 * The raw client and the node; where a run makes many requests, also the raw client opening a new
 * connection for every request, as n8n's HTTP helper does: the part of the node's time that comes
 * from the helper, not from the node. Series keep this order: raw, node, then the raw variant.
 */
function variantsOf(config: ImportConfig): ImportVariant[] {
	const variants: ImportVariant[] = [{ client: 'raw' }, { client: 'node' }];
	if (config.count / config.batchSize >= 1000) variants.push({ client: 'raw', newConnectionPerRequest: true });
	return variants;
}

export const importRecords: Section<ImportData> = {
	id: 'import',
	title: 'Import',
	async run(context: BenchContext): Promise<ImportData> {
		const full = context.quick ? 10_000 : 100_000;
		const runs = context.quick ? 1 : 3;
		const configs: ImportConfig[] = [
			// One request per record: capped, or it alone would take minutes per run.
			{ batchSize: 1, concurrency: 1, count: context.quick ? 1_000 : 5_000 },
			{ batchSize: 100, concurrency: 1, count: full },
			{ batchSize: 1000, concurrency: 1, count: full },
			{ batchSize: 1000, concurrency: 4, count: full },
		];
		const data: ImportData = { configs: configs.map((config) => ({ ...config, series: [] })) };
		for (let run = 0; run < runs; run++) {
			for (const config of data.configs) {
				for (const { client, newConnectionPerRequest } of variantsOf(config)) {
					const measurement = await measureImport(context, {
						client,
						count: config.count,
						keyPrefix: `import-${run}`,
						batchSize: config.batchSize,
						concurrency: config.concurrency,
						newConnectionPerRequest,
					});
					const name = label(client, config, newConnectionPerRequest);
					context.log(
						`import ${name}: ${formatCount(config.count)} in ${formatMs(measurement.elapsedMs)}, peak ${formatMiB(measurement.peakRssMiB)}`,
					);
					record(config.series, name, measurement);
				}
			}
		}
		await context.sandbox.reset();
		for (const config of data.configs) {
			if (config.concurrency === 1) {
				const [raw, node] = config.series;
				context.shared.set(sharedImportKey(config.count, config.batchSize), { raw, node });
			}
		}
		return data;
	},
	render(data: ImportData): Rendered {
		const targets: TargetCheck[] = [];
		const rows: string[][] = [];
		const groups = [];
		for (const config of data.configs) {
			const summaries = config.series.map(summarize);
			const [raw, node, rawNewConnections] = summaries;
			for (const [index, summary] of summaries.entries()) {
				const runs = config.series[index].runs;
				const views = runs.map((run) => run.details.sandbox as SandboxImportView);
				const ok = views.every(
					(view) => view.recordsInType === config.count && view.recordsStored === config.count && view.duplicateKeys === 0,
				);
				rows.push([
					summary.label,
					formatCount(config.count),
					formatMs(summary.medianMs),
					`${formatMs(summary.minMs)}–${formatMs(summary.maxMs)}`,
					formatCount(summary.perSecond),
					formatRatio(summary.medianMs / raw.medianMs),
					formatCount(views[0]?.requests ?? Number.NaN),
					`${formatMiB(summary.peakRssMiB)} (${formatMiB(summary.rssBeforeMiB)} before)`,
					formatMs(summary.cpuMs),
					sandboxShare(summary.sandboxBusy),
					ok ? 'yes' : '**no**',
				]);
			}
			const ratio = node.medianMs / raw.medianMs;
			targets.push({
				target: `${label('node', config)}: ≤ 1.2× the raw client's time`,
				measured: `${formatRatio(ratio)} (${formatMs(node.medianMs)} vs ${formatMs(raw.medianMs)}${
					rawNewConnections
						? `; vs raw with a new connection per request, as n8n's helper makes them: ${formatRatio(node.medianMs / rawNewConnections.medianMs)}`
						: ''
				})`,
				met: ratio <= 1.2,
			});
			groups.push({
				label: `${describeConfig(config)} (${formatCount(config.count)} records)`,
				bars: summaries.map((summary, index) => ({
					label: ['raw axios', 'Import Records', 'raw axios, new connection per request'][index],
					value: summary.perSecond,
					text: `${formatCount(summary.perSecond)} records/s`,
					series: index,
				})),
			});
		}
		const runs = data.configs[0]?.series[0]?.runs.length ?? 0;
		return {
			markdown: [
				`Received-invoice records (22 Czech-named string fields, spec §2.2), each with a unique key, imported into an emptied record type. ` +
					`Batch size 1 sends one request per record, so it runs on ${formatCount(data.configs[0]?.count ?? 0)} records only. ` +
					`Medians of ${runs} runs. "Requests" and "all stored once" come from the sandbox's own statistics: every record stored exactly once, none twice. ` +
					'Peak RSS includes the input items, built before the measured operation ("before"). ' +
					'The rows "new connection per request" are the raw client opening a new TCP connection for every request, as n8n\'s HTTP helper does (runs of 1,000 requests or more): the part of the node\'s time that comes from the helper, not from the node. ' +
					"The node's time is the execution time n8n-core records for it in the run data (the test harness copying the input items into the engine is left out); its CPU time covers the whole engine run.",
				'',
				markdownTable({
					headers: ['Client', 'Records', 'Median time', 'Range', 'Records/s', 'Time vs raw', 'Requests', 'Peak RSS', 'Client CPU', 'Sandbox CPU', 'All stored once'],
					rows,
				}),
			].join('\n'),
			targets,
			charts: [
				{
					file: 'import.svg',
					alt: 'Import throughput per batch size',
					svg: barChartSvg({ title: 'Import: records per second by batch size', unit: 'records per second (higher is better)', groups }),
				},
			],
		};
	},
};
