import type { FaultRule } from '../../sandbox/faults';
import { TOKENS } from '../../sandbox/seeds';
import type { ConversionTimes } from '../clients/node';
import type { BenchContext, Rendered, Section, Series, TargetCheck } from '../lib/context';
import { IMPORT_RECORD_TYPE } from '../lib/data';
import { markdownTable } from '../lib/markdown';
import { measure, type Measurement } from '../lib/measure';
import type { SandboxProcess } from '../lib/sandbox';
import { formatCount, formatMiB, formatMs, formatRatio, median, range } from '../lib/stats';
import { record, sandboxShare, summarize } from '../lib/summary';
import { barChartSvg } from '../lib/svg';
import type { Client, ConvertTask, ImportTask } from '../lib/tasks';

export interface ImportConfig {
	batchSize: number;
	concurrency: number;
	count: number;
	/** The records' values: text (the default), or typed values that the node converts (node only). */
	values?: 'typed';
}

export interface ImportData {
	configs: Array<ImportConfig & { series: Series[] }>;
	/** Import's pass over its input alone, per kind of values (absent in results from before it was measured). */
	conversions?: Array<{ values: ConvertTask['values']; count: number; keysAndTypesOnly?: boolean; runs: Measurement[] }>;
}

/** The per-import target of issue 36 where there is one; the others keep the earlier ≤ 1.2×. */
function ratioTarget(config: ImportConfig): number {
	if (config.batchSize === 1000) return config.concurrency === 1 ? 1.15 : 1.3;
	return 1.2;
}

/** Import's check and conversion of 100,000 records × 22 values of text: ≤ 150 ms. */
const CONVERSION_TARGET_MS = 150;

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
	return `batch ${formatCount(config.batchSize)}${config.concurrency > 1 ? `, ${config.concurrency} in parallel` : ''}${
		config.values === 'typed' ? ', typed values' : ''
	}`;
}

function label(variant: ImportVariant, config: ImportConfig): string {
	return `${who(variant)}, ${describeConfig(config)}${variant.newConnectionPerRequest ? ', new connection per request' : ''}`;
}

/** The client of a variant: "raw axios", "Import Records" or "n8n's HTTP helper alone". */
function who(variant: ImportVariant): string {
	if (variant.helperOnly) return "n8n's HTTP helper alone";
	return variant.client === 'raw' ? 'raw axios' : 'Import Records';
}

interface ImportVariant {
	client: Client;
	newConnectionPerRequest?: boolean;
	helperOnly?: boolean;
}

/**
 * The raw client and the node; where a run makes many requests, also the raw client opening a new
 * connection for every request, as n8n's HTTP helper does: the part of the node's time that comes
 * from the helper, not from the node. In batches of 1,000, also a node that only sends the batches
 * through n8n's helper: the least any import node can take. Series keep this order: raw, node,
 * then the other variants.
 */
function variantsOf(config: ImportConfig): ImportVariant[] {
	// The raw client sends records as they are; typed values would need a conversion it does not make.
	if (config.values === 'typed') return [{ client: 'node' }];
	const variants: ImportVariant[] = [{ client: 'raw' }, { client: 'node' }];
	if (config.count / config.batchSize >= 1000) variants.push({ client: 'raw', newConnectionPerRequest: true });
	if (config.batchSize === 1000) variants.push({ client: 'node', helperOnly: true });
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
			// When the first request leaves, against the conversion of every record (the conversion table).
			{ batchSize: 1000, concurrency: 1, count: full, values: 'typed' },
		];
		const data: ImportData = {
			configs: configs.map((config) => ({ ...config, series: [] })),
			conversions: [
				...(['text', 'parsed', 'typed'] as const).map((values) => ({ values, count: full, runs: [] })),
				{ values: 'text', count: full, keysAndTypesOnly: true, runs: [] },
			],
		};
		for (let run = 0; run < runs; run++) {
			for (const conversion of data.conversions ?? []) {
				const measurement = await measure(
					{ kind: 'convert', client: 'node', count: conversion.count, values: conversion.values, keysAndTypesOnly: conversion.keysAndTypesOnly },
					{ sandbox: context.sandbox, profileDir: context.profileDir },
				);
				const times = measurement.details as unknown as ConversionTimes;
				context.log(
					`import conversion, ${conversionName(conversion)}: ${formatCount(times.records)} records checked in ${formatMs(times.checkMs)}, converted in ${formatMs(times.convertMs)} (CPU ${formatMs(times.cpuMs)})`,
				);
				conversion.runs.push(measurement);
			}
			for (const config of data.configs) {
				for (const variant of variantsOf(config)) {
					const measurement = await measureImport(context, {
						...variant,
						count: config.count,
						keyPrefix: `import-${run}`,
						batchSize: config.batchSize,
						concurrency: config.concurrency,
						values: config.values,
					});
					const name = label(variant, config);
					context.log(
						`import ${name}: ${formatCount(config.count)} in ${formatMs(measurement.elapsedMs)}, peak ${formatMiB(measurement.peakRssMiB)}`,
					);
					record(config.series, name, measurement);
				}
			}
		}
		await context.sandbox.reset();
		for (const config of data.configs) {
			if (config.concurrency === 1 && config.values === undefined) {
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
		const conversions = conversionSummaries(data);
		for (const config of data.configs) {
			const variants = variantsOf(config);
			const summaries = config.series.map(summarize);
			const raw = variants[0].client === 'raw' ? summaries[0] : undefined;
			const node = summaries[variants.findIndex((variant) => variant.client === 'node' && !variant.helperOnly)];
			const rawNewConnections = summaries[variants.findIndex((variant) => variant.newConnectionPerRequest)];
			const helperOnly = summaries[variants.findIndex((variant) => variant.helperOnly)];
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
					raw ? formatRatio(summary.medianMs / raw.medianMs) : '–',
					formatMs(firstRequestMs(runs)),
					formatCount(views[0]?.requests ?? Number.NaN),
					`${formatMiB(summary.peakRssMiB)} (${formatMiB(summary.rssBeforeMiB)} before)`,
					formatMs(summary.cpuMs),
					sandboxShare(summary.sandboxBusy),
					ok ? 'yes' : '**no**',
				]);
			}
			const typed = conversions.find((conversion) => conversion.values === 'typed' && conversion.count === config.count);
			if (raw) {
				const ratio = node.medianMs / raw.medianMs;
				targets.push({
					target: `${label({ client: 'node' }, config)}: ≤ ${ratioTarget(config)}× the raw client's time`,
					measured: `${formatRatio(ratio)} (${formatMs(node.medianMs)} vs ${formatMs(raw.medianMs)}${
						rawNewConnections
							? `; vs raw with a new connection per request, as n8n's helper makes them: ${formatRatio(node.medianMs / rawNewConnections.medianMs)}`
							: ''
					}${
						helperOnly
							? `; n8n's HTTP helper alone, the least any import node can take: ${formatRatio(helperOnly.medianMs / raw.medianMs)} (${formatMs(helperOnly.medianMs)})`
							: ''
					})`,
					met: ratio <= ratioTarget(config),
				});
			} else if (typed) {
				const first = firstRequestMs(config.series[0].runs);
				targets.push({
					target: `${label({ client: 'node' }, config)}: the first request leaves before the records are converted (batch by batch)`,
					measured: `first request after ${formatMs(first)}; checking all ${formatCount(config.count)} records takes ${formatMs(typed.checkMs)}, converting them ${formatMs(typed.convertMs)} more (medians)`,
					met: first < typed.checkMs + typed.convertMs,
				});
			}
			groups.push({
				label: `${describeConfig(config)} (${formatCount(config.count)} records)`,
				bars: summaries.map((summary, index) => {
					const variant = variants[index];
					return {
						label: `${who(variant)}${variant.newConnectionPerRequest ? ', new connection per request' : ''}`,
						value: summary.perSecond,
						text: `${formatCount(summary.perSecond)} records/s`,
						series: variant.helperOnly ? 3 : variant.client === 'node' ? 1 : variant.newConnectionPerRequest ? 2 : 0,
					};
				}),
			});
		}
		const text = conversions.find((conversion) => conversion.values === 'text' && !conversion.keysAndTypesOnly);
		const least = conversions.find((conversion) => conversion.keysAndTypesOnly);
		if (text) {
			targets.push({
				target: `Import's check and conversion of ${formatCount(text.count)} records × 22 values of text: ≤ ${CONVERSION_TARGET_MS} ms`,
				measured: `${formatMs(text.togetherMs)} (check ${formatMs(text.checkMs)}, conversion ${formatMs(text.convertMs)}; medians${
					least ? `; listing the keys and asking each value's type, of the same records, alone: ${formatMs(least.togetherMs)}` : ''
				})`,
				met: text.togetherMs <= CONVERSION_TARGET_MS,
			});
		}
		const runs = data.configs[0]?.series[0]?.runs.length ?? 0;
		return {
			markdown: [
				`Received-invoice records (22 Czech-named string fields, spec §2.2), each with a unique key, imported into an emptied record type. ` +
					`Batch size 1 sends one request per record, so it runs on ${formatCount(data.configs[0]?.count ?? 0)} records only. ` +
					`Medians of ${runs} runs. "Requests" and "all stored once" come from the sandbox's own statistics: every record stored exactly once, none twice. ` +
					'"First request" is the time from the start of the operation (for the node: of its execution, as n8n-core records it) to the first request it sends (Node.js\'s `http.client.request.start` event in the measuring process). ' +
					'Peak RSS includes the input items, built before the measured operation ("before"). ' +
					'The rows "new connection per request" are the raw client opening a new TCP connection for every request, as n8n\'s HTTP helper does (runs of 1,000 requests or more): the part of the node\'s time that comes from the helper, not from the node. ' +
					'The rows "n8n\'s HTTP helper alone" are a node that does nothing but send the same batches as JSON through n8n\'s HTTP helper with the Records credential and output its input: the least any import node can take under n8n\'s rules for community nodes. ' +
					'The row "typed values" imports the same records with amounts and the VAT rate as numbers, dates as Dates and empty fields as null, which the node converts (node only: the raw client sends records as they are). ' +
					"The node's time is the execution time n8n-core records for it in the run data (the test harness copying the input items into the engine is left out); its CPU time covers the whole engine run.",
				'',
				markdownTable({
					headers: [
						'Client',
						'Records',
						'Median time',
						'Range',
						'Records/s',
						'Time vs raw',
						'First request',
						'Requests',
						'Peak RSS',
						'Client CPU',
						'Sandbox CPU',
						'All stored once',
					],
					rows,
				}),
				...conversionTable(conversions),
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

/** Median time to the first request over the runs that measured it. */
function firstRequestMs(runs: Measurement[]): number {
	return median(runs.map((run) => run.details.firstRequestMs).filter((ms): ms is number => typeof ms === 'number'));
}

interface ConversionSummary {
	values: ConvertTask['values'];
	keysAndTypesOnly?: boolean;
	count: number;
	checkMs: number;
	convertMs: number;
	togetherMs: number;
	runs: ConversionTimes[];
}

function conversionSummaries(data: ImportData): ConversionSummary[] {
	return (data.conversions ?? [])
		.filter((conversion) => conversion.runs.length > 0)
		.map((conversion) => {
			const runs = conversion.runs.map((run) => run.details as unknown as ConversionTimes);
			return {
				values: conversion.values,
				keysAndTypesOnly: conversion.keysAndTypesOnly,
				count: conversion.count,
				checkMs: median(runs.map((run) => run.checkMs)),
				convertMs: median(runs.map((run) => run.convertMs)),
				togetherMs: median(runs.map((run) => run.checkMs + run.convertMs)),
				runs,
			};
		});
}

/** The table of Import's pass over its input alone. */
function conversionTable(conversions: ConversionSummary[]): string[] {
	if (conversions.length === 0) return [];
	const spread = (values: number[]) => range(values).map(formatMs).join('–');
	return [
		'',
		"Import's own work on its input, timed inside the node as n8n-core runs it (a fresh process per run, no request sent): " +
			'the check of every record, which the node makes before its first request (a bad item anywhere stops the run before anything is sent), ' +
			'and the conversion of every record, which it makes batch by batch as it sends them. ' +
			'"Text" are the records above, "parsed" the same records parsed from their JSON (as an HTTP Request or a webhook gives them), "typed" the same records with the values of the row "typed values". ' +
			'The records above get their 22 fields one at a time, which makes V8 keep each as a dictionary (past 19 fields); parsed ones are quicker to walk. ' +
			'"Text, keys and value types only" lists the keys of each text record and asks each value\'s type, nothing else: the least any check of every record can take, since a check must know what each value is.',
		'',
		markdownTable({
			headers: ['Values', 'Records', 'Check of every record', 'Range', 'Conversion of every record', 'Range', 'Together', 'CPU'],
			rows: conversions.map((conversion) => [
				conversionName(conversion),
				formatCount(conversion.count),
				formatMs(conversion.checkMs),
				spread(conversion.runs.map((run) => run.checkMs)),
				formatMs(conversion.convertMs),
				spread(conversion.runs.map((run) => run.convertMs)),
				formatMs(conversion.togetherMs),
				formatMs(median(conversion.runs.map((run) => run.cpuMs ?? Number.NaN))),
			]),
		}),
	];
}

function conversionName(conversion: { values: ConvertTask['values']; keysAndTypesOnly?: boolean }): string {
	return conversion.keysAndTypesOnly ? `${conversion.values}, keys and value types only` : conversion.values;
}
