import { TOKENS } from '../../sandbox/seeds';
import { BASELINE_COMMIT, buildBaseline } from '../lib/baseline-build';
import type { BenchContext, Rendered, Section, Series, TargetCheck } from '../lib/context';
import { markdownTable } from '../lib/markdown';
import { measure, type Measurement } from '../lib/measure';
import { formatCount, formatMs, formatRatio, median, range } from '../lib/stats';
import { record } from '../lib/summary';
import { barChartSvg } from '../lib/svg';
import type { PollTask } from '../lib/tasks';
import { type AnywhereRun, measureAnywhere, renderAnywhere } from './report-poll-anywhere';

const POLL_REPORT_ID = 'bench-poll';

type Mode = PollTask['mode'];

/** The three values of New Rows Appear, and the trigger before they existed (every poll a full read). */
const MODES: Mode[] = ['before', 'anywhere', 'end', 'top'];
/**
 * Requests of an ordered poll that finds no new rows (docs/report-trigger-contract.md): At the End
 * reads from its 64 rows on and checks the end in two steps (no row after, then the last rows still
 * in place); At the Top reads the end first, then its 64 rows. The exact end check costs the request
 * that makes a read never end early on a report that changes meanwhile.
 */
const QUIET_REQUESTS = { end: 3, top: 4 } as const;

function label(mode: Mode): string {
	if (mode === 'before') return `Before ordered polls (${BASELINE_COMMIT.slice(0, 7)}): full read`;
	if (mode === 'anywhere') return 'Anywhere (default): full read';
	return mode === 'end' ? 'Appended at the end' : 'At the top';
}

export interface PollData {
	rows: number;
	addedRows: number;
	pageSize: number;
	baselineCommit: string;
	latencies: Array<{ latencyMs: number; series: Series[] }>;
	/** Polls of very large reports (absent in results stored before they were measured). */
	scale?: ScaleRun[];
	/** Anywhere's memory and time against the raw client (absent in results stored before issue 36). */
	anywhere?: AnywhereRun[];
}

/** One poll configuration at scale: a measurement, or why there is none. */
export interface ScaleRun {
	mode: 'end' | 'top' | 'anywhere';
	/** Rows when the measured polls begin (the second one adds `addedRows`). */
	rows: number;
	maxRemembered: number;
	measurement?: Measurement;
	error?: string;
}

/**
 * The ordered modes on a 10,000,000-row report (the sandbox's virtual report: rows computed on
 * demand). Anywhere at scale is measured apart (report-poll-anywhere.ts); results stored before
 * that hold it here too.
 */
function scaleConfigs(quick: boolean, addedRows: number): Array<Omit<ScaleRun, 'measurement' | 'error'>> {
	const ordered = quick ? 1_000_000 : 10_000_000;
	return [
		{ mode: 'end', rows: ordered, maxRemembered: ordered + addedRows },
		{ mode: 'top', rows: ordered, maxRemembered: ordered + addedRows },
	];
}

async function measureScale(context: BenchContext, addedRows: number): Promise<ScaleRun[]> {
	const { sandbox } = context;
	const runs: ScaleRun[] = [];
	await sandbox.setFaults([]);
	for (const config of scaleConfigs(context.quick, addedRows)) {
		await sandbox.control('POST', '/reports', { id: SCALE_REPORT_ID, generate: 'bank', rows: config.rows, virtual: true });
		const task: PollTask = {
			kind: 'poll',
			client: 'node',
			baseUrl: sandbox.baseUrl,
			token: TOKENS.analysisAdmin,
			reportId: SCALE_REPORT_ID,
			mode: config.mode,
			addedRows,
			maxRemembered: config.maxRemembered,
			// Anywhere's first poll reads the whole report to remember it; large pages keep that short.
			firstPollPageSize: 5000,
		};
		const name = `${scaleLabel(config.mode)}, ${formatCount(config.rows)} rows`;
		try {
			const measurement = await measure(task, { sandbox, profileDir: context.profileDir, timeoutMs: 1_200_000 });
			const { details } = measurement;
			context.log(
				`poll at scale, ${name}: first poll ${formatMs(Number(details.firstMs))} in ${String(details.firstRequests)} requests; no new rows ${formatMs(Number(details.quietMs))} in ${String(details.quietRequests)} requests, static data ${formatBytes(Number(details.quietStaticBytes))}; ` +
					`${addedRows} new rows ${formatMs(Number(details.addedMs))} in ${String(details.addedRequests)} requests, static data ${formatBytes(Number(details.addedStaticBytes))}; peak memory ${Math.round(measurement.peakRssMiB)} MiB`,
			);
			runs.push({ ...config, measurement });
		} catch (error) {
			// The first line says how the measuring process ended; a line of its output may say why.
			const lines = (error as Error).message.split('\n');
			const cause = lines.find((line) => /out of memory|Error:/i.test(line));
			const message = [lines[0], cause?.trim()].filter(Boolean).join(' ').slice(0, 500);
			context.log(`poll at scale, ${name}: failed: ${message}`);
			runs.push({ ...config, error: message });
		}
	}
	// The virtual report holds no rows, but drop it all the same.
	await sandbox.reset();
	return runs;
}

const SCALE_REPORT_ID = 'bench-poll-scale';

function scaleLabel(mode: ScaleRun['mode']): string {
	return mode === 'anywhere' ? 'Anywhere' : mode === 'end' ? 'Appended at the end' : 'At the top';
}

function formatBytes(bytes: number): string {
	if (!Number.isFinite(bytes)) return '–';
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The table and targets of the polls at scale. */
function renderScale(runs: ScaleRun[], addedRows: number): { lines: string[]; targets: TargetCheck[] } {
	const targets: TargetCheck[] = [];
	const rows = runs.map((run) => {
		const label = `${scaleLabel(run.mode)}, ${formatCount(run.rows)} rows`;
		if (!run.measurement) return [label, formatCount(run.maxRemembered), `failed: ${run.error ?? ''}`, '', '', '', '', '', '', '', '', ''];
		const { details, count, peakRssMiB } = run.measurement;
		const once = count === addedRows && details.emittedUnique === addedRows && details.quietEmitted === 0;
		return [
			label,
			formatCount(run.maxRemembered),
			details.firstRequests === undefined ? '–' : formatCount(Number(details.firstRequests)),
			details.firstMs === undefined ? '–' : formatMs(Number(details.firstMs)),
			formatCount(Number(details.quietRequests)),
			formatMs(Number(details.quietMs)),
			formatBytes(Number(details.quietStaticBytes)),
			formatCount(Number(details.addedRequests)),
			formatMs(Number(details.addedMs)),
			formatBytes(Number(details.addedStaticBytes)),
			`${Math.round(peakRssMiB)} MiB`,
			once ? `0, then ${addedRows} ✔` : '✘',
		];
	});
	for (const run of runs) {
		const details = run.measurement?.details;
		if (run.mode === 'anywhere') {
			const once = run.measurement !== undefined && run.measurement.count === addedRows && details?.emittedUnique === addedRows && details.quietEmitted === 0;
			targets.push({
				target: `Report Trigger, Anywhere at its ceiling: a report reaching ${formatCount(run.rows + addedRows)} rows polls, every new row emitted once`,
				measured: run.measurement
					? `${formatMs(Number(details?.quietMs))} and ${formatCount(Number(details?.quietRequests))} requests per poll, peak ${Math.round(run.measurement.peakRssMiB)} MiB, static data ${formatBytes(Number(details?.addedStaticBytes))}`
					: `failed: ${run.error ?? ''}`,
				met: once,
			});
		} else {
			const requests = Number(details?.quietRequests);
			const bytes = Math.max(Number(details?.quietStaticBytes), Number(details?.addedStaticBytes));
			targets.push({
				target: `Report Trigger, ${scaleLabel(run.mode)}, ${formatCount(run.rows)} rows: a poll with no new rows ≤ ${QUIET_REQUESTS[run.mode]} requests, static data < 64 KB`,
				measured: run.measurement ? `${formatCount(requests)} requests, static data ${formatBytes(bytes)}` : `failed: ${run.error ?? ''}`,
				met: run.measurement !== undefined && requests <= QUIET_REQUESTS[run.mode] && bytes < 64 * 1024,
			});
		}
	}
	const withAnywhere = runs.some((run) => run.mode === 'anywhere');
	const lines = [
		`**At scale** (one run each): the ordered modes on a ${formatCount(runs.find((run) => run.mode !== 'anywhere')?.rows ?? 0)}-row report (the sandbox's virtual report, rows computed on demand)${withAnywhere ? `, and Anywhere on a report that reaches its ceiling with the ${addedRows} added rows` : ''}. ` +
			"Max Remembered Rows is raised to the report's size after the added rows, so that the trigger runs at all. The first poll only remembers the report (On First Run: Only Remember Them), with pages of 5,000, 4 at a time: " +
			`${withAnywhere ? 'Anywhere reads it in full, ' : ''}the ordered modes only its edges. ` +
			"Static data: the length of the workflow static data as JSON after the poll (what n8n stores with the workflow). Peak memory: the measuring process's peak resident memory over its life, the first poll included.",
		'',
		markdownTable({
			headers: ['New Rows Appear, report', 'Max Remembered Rows', 'Requests, first poll', 'Time, first poll', 'Requests, no new rows', 'Time, no new rows', 'Static data', `Requests, ${addedRows} new rows`, `Time, ${addedRows} new rows`, 'Static data', 'Peak memory', 'Rows emitted once'],
			rows,
		}),
		'',
	];
	return { lines, targets };
}

/** Medians of one mode's runs: the poll with no new rows, and the poll after rows were added. */
function pollSummary(runs: Measurement[]) {
	const figure = (key: string) => runs.map((run) => Number(run.details[key]));
	const quietMs = figure('quietMs');
	const addedMs = figure('addedMs');
	return {
		quietMs: median(quietMs),
		quietRange: range(quietMs),
		addedMs: median(addedMs),
		addedRange: range(addedMs),
		// The most any run needed: the targets are limits, not typical values.
		quietRequests: Math.max(...figure('quietRequests')),
		addedRequests: Math.max(...figure('addedRequests')),
	};
}

export const reportPoll: Section<PollData> = {
	id: 'report-poll',
	title: 'Report Trigger polls',
	async run(context: BenchContext): Promise<PollData> {
		const rows = context.quick ? 20_000 : 100_000;
		const addedRows = 50;
		const runs = context.quick ? 1 : 3;
		const { sandbox } = context;
		context.log(`building the baseline (${BASELINE_COMMIT.slice(0, 7)}) for the report-poll section`);
		await buildBaseline();
		await sandbox.reset();
		const data: PollData = { rows, addedRows, pageSize: 100, baselineCommit: BASELINE_COMMIT, latencies: [] };
		for (const latencyMs of [0, 20]) {
			await sandbox.setFaults(latencyMs > 0 ? [{ route: 'report', latencyMs }] : []);
			const series: Series[] = [];
			// Runs interleaved (A B C D A B C D ...), so that a slow phase of the machine hits every mode.
			for (let run = 0; run < runs; run++) {
				for (const mode of MODES) {
					// A fresh report each time: the measured polls add rows to it.
					await sandbox.defineBankReport(POLL_REPORT_ID, rows);
					const task: PollTask = { kind: 'poll', client: 'node', baseUrl: sandbox.baseUrl, token: TOKENS.analysisAdmin, reportId: POLL_REPORT_ID, mode, addedRows };
					const measurement = await measure(task, { sandbox, profileDir: context.profileDir });
					const { details } = measurement;
					context.log(
						`poll ${latencyMs} ms, ${label(mode)}: no new rows ${formatMs(Number(details.quietMs))} in ${String(details.quietRequests)} requests; ${addedRows} new rows ${formatMs(Number(details.addedMs))} in ${String(details.addedRequests)} requests, ${measurement.count} emitted`,
					);
					record(series, label(mode), measurement);
				}
			}
			data.latencies.push({ latencyMs, series });
		}
		await sandbox.setFaults([]);
		data.scale = await measureScale(context, addedRows);
		data.anywhere = await measureAnywhere(context, addedRows);
		return data;
	},
	render(data: PollData): Rendered {
		const targets: TargetCheck[] = [];
		const lines: string[] = [
			`A Records Report Trigger polling a generated bank-transaction report of ${formatCount(data.rows)} rows (8 columns) with the default options (Page Size ${data.pageSize}, one request at a time, Row Identity "Whole Row"; Max Remembered Rows 200,000, as the report grows past the default 100,000), once for each value of New Rows Appear, ` +
				`and the trigger as it was before that option (commit ${data.baselineCommit.slice(0, 7)}, built from its sources in the same run). ` +
				"Each configuration ran in a fresh process, polled through n8n-core's PollContext: a first poll remembers the report (not measured), then a poll with no new rows, " +
				`then one after ${data.addedRows} rows were added where the mode expects them (at the end; at the top for "At the top"). ` +
				'Requests are the report requests the sandbox answered during the poll (the most any run needed); times are the wall time of the poll, medians of the runs. Added latency is a per-request delay in the sandbox.',
			'',
		];
		const groups: Array<{ label: string; bars: Array<{ label: string; value: number; text: string; series: number }> }> = [];
		for (const { latencyMs, series } of data.latencies) {
			const summaries = new Map(series.map((entry) => [entry.label, pollSummary(entry.runs)]));
			const before = summaries.get(label('before'));
			const rows = series.map((entry) => {
				const summary = summaries.get(entry.label)!;
				const ok = entry.runs.every(
					(run) => run.count === data.addedRows && run.details.emittedUnique === data.addedRows && run.details.quietEmitted === 0,
				);
				return [
					entry.label,
					formatCount(summary.quietRequests),
					formatMs(summary.quietMs),
					`${formatMs(summary.quietRange[0])}–${formatMs(summary.quietRange[1])}`,
					formatCount(summary.addedRequests),
					formatMs(summary.addedMs),
					before ? formatRatio(summary.quietMs / before.quietMs) : '–',
					ok ? `0, then ${data.addedRows} ✔` : '✘',
				];
			});
			lines.push(
				`**${latencyMs} ms added latency** (${series[0]?.runs.length ?? 0} runs each)`,
				'',
				markdownTable({
					headers: ['New Rows Appear', 'Requests, no new rows', 'Time, no new rows', 'Range', `Requests, ${data.addedRows} new rows`, `Time, ${data.addedRows} new rows`, 'Time vs before (no new rows)', 'Rows emitted once'],
					rows,
				}),
				'',
			);
			for (const mode of ['end', 'top'] as const) {
				const summary = summaries.get(label(mode));
				if (!summary) continue;
				targets.push({
					target: `Report Trigger, ${label(mode)}, ${formatCount(data.rows)} rows at ${latencyMs} ms: a poll with no new rows ≤ ${QUIET_REQUESTS[mode]} requests, with ${data.addedRows} new rows ≤ 4`,
					measured: `${summary.quietRequests} and ${summary.addedRequests} requests (${formatMs(summary.quietMs)} and ${formatMs(summary.addedMs)})`,
					met: summary.quietRequests <= QUIET_REQUESTS[mode] && summary.addedRequests <= 4,
				});
			}
			const anywhere = summaries.get(label('anywhere'));
			if (anywhere && before) {
				// Runs of the same full read vary by a few per cent on a shared machine.
				const ratio = anywhere.quietMs / before.quietMs;
				targets.push({
					target: `Report Trigger, full read (Anywhere) at ${latencyMs} ms: no slower than before the ordered polls (≤ 1.05× its time)`,
					measured: `${formatRatio(ratio)} (${formatMs(anywhere.quietMs)} vs ${formatMs(before.quietMs)}; ${formatCount(anywhere.quietRequests)} vs ${formatCount(before.quietRequests)} requests)`,
					met: ratio <= 1.05,
				});
			}
			groups.push({
				label: `${latencyMs} ms added latency per request, no new rows`,
				bars: series.map((entry, index) => {
					const summary = summaries.get(entry.label)!;
					return { label: entry.label, value: summary.quietMs, text: `${formatMs(summary.quietMs)}, ${formatCount(summary.quietRequests)} requests`, series: index };
				}),
			});
		}
		if (data.scale) {
			const scale = renderScale(data.scale, data.addedRows);
			lines.push(...scale.lines);
			targets.push(...scale.targets);
		}
		if (data.anywhere) {
			const anywhere = renderAnywhere(data.anywhere, data.addedRows);
			lines.push(...anywhere.lines);
			targets.push(...anywhere.targets);
		}
		return {
			markdown: lines.join('\n'),
			targets,
			charts: [
				{
					file: 'report-poll.svg',
					alt: 'Report Trigger: time per poll for each New Rows Appear mode',
					svg: barChartSvg({
						title: `Report Trigger: one poll of a ${formatCount(data.rows)}-row report`,
						unit: 'time per poll, ms (lower is better)',
						groups,
					}),
				},
			],
		};
	},
};
