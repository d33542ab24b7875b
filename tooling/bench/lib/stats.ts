/** Summaries of repeated measurements and the number formats the report prints them in. */

export function median(values: number[]): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Smallest and largest value, to show how much the runs spread around their median. */
export function range(values: number[]): [number, number] {
	return [Math.min(...values), Math.max(...values)];
}

/** Percentile by nearest rank (p in 0..100) of already collected samples. */
export function percentile(values: number[], p: number): number {
	if (values.length === 0) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
	return sorted[rank - 1];
}

/** 12,345 */
export function formatCount(value: number): string {
	if (!Number.isFinite(value)) return '–';
	return Math.round(value).toLocaleString('en-US');
}

/** Milliseconds as "812 ms" or "12.3 s". */
export function formatMs(ms: number): string {
	if (!Number.isFinite(ms)) return '–';
	if (ms < 1000) return `${Math.round(ms)} ms`;
	if (ms < 100_000) return `${(ms / 1000).toFixed(2)} s`;
	return `${(ms / 1000).toFixed(0)} s`;
}

export function formatMiB(mib: number): string {
	if (!Number.isFinite(mib)) return '–';
	return `${Math.round(mib)} MiB`;
}

/** A ratio such as time(node) / time(baseline), printed "1.07×". */
export function formatRatio(value: number): string {
	if (!Number.isFinite(value)) return '–';
	return `${value >= 10 ? value.toFixed(1) : value.toFixed(2)}×`;
}

export function formatPercent(fraction: number): string {
	if (!Number.isFinite(fraction)) return '–';
	return `${Math.round(fraction * 100)} %`;
}

/** Items per second from a count and a duration in milliseconds. */
export function perSecond(count: number, ms: number): number {
	return ms > 0 ? (count * 1000) / ms : Number.NaN;
}
