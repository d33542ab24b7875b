import type { Series } from './context';
import type { Measurement } from './measure';
import { formatPercent, median, perSecond, range } from './stats';

export interface Summary {
	label: string;
	runs: number;
	medianMs: number;
	minMs: number;
	maxMs: number;
	count: number;
	perSecond: number;
	peakRssMiB: number;
	rssBeforeMiB: number;
	cpuMs: number;
	sandboxBusy: number;
	n8nExecutionTimeMs?: number;
}

/**
 * The time of one run: for the node, the execution time n8n-core recorded for it in the run data
 * (what n8n shows users; the harness's own work, such as copying the input items, is left out);
 * for the raw client, the wall time of its operation.
 */
export function runTime(run: Measurement): number {
	return run.n8nExecutionTimeMs ?? run.elapsedMs;
}

/** Medians over the runs of one configuration (memory too: the median run's peak, not the worst). */
export function summarize(series: Series): Summary {
	const runs = series.runs;
	const times = runs.map(runTime);
	const [minMs, maxMs] = range(times);
	const medianMs = median(times);
	const count = median(runs.map((run) => run.count));
	const execution = runs.map((run) => run.n8nExecutionTimeMs).filter((value): value is number => value !== undefined);
	return {
		label: series.label,
		runs: runs.length,
		medianMs,
		minMs,
		maxMs,
		count,
		perSecond: perSecond(count, medianMs),
		peakRssMiB: median(runs.map((run) => run.peakRssMiB)),
		rssBeforeMiB: median(runs.map((run) => run.rssBeforeMiB)),
		cpuMs: median(runs.map((run) => run.cpuMs)),
		sandboxBusy: median(runs.map((run) => run.sandboxBusy)),
		n8nExecutionTimeMs: execution.length > 0 ? median(execution) : undefined,
	};
}

export function findSeries(list: Series[], label: string): Series | undefined {
	return list.find((series) => series.label === label);
}

/** Adds a measurement to the series of its label, creating the series on first use. */
export function record(list: Series[], label: string, measurement: Measurement): void {
	let series = findSeries(list, label);
	if (!series) {
		series = { label, runs: [] };
		list.push(series);
	}
	series.runs.push(measurement);
}

/**
 * The sandbox's CPU share during a measurement, flagged when the sandbox, not the client, set the
 * pace (its one core nearly busy): then the client's figure is a floor, not its own speed.
 */
export function sandboxShare(busy: number): string {
	return busy >= 0.8 ? `${formatPercent(busy)} (sandbox-bound)` : formatPercent(busy);
}
