/**
 * Time and memory bounds per byte for the Records Trigger's handling of hostile input. Generous on
 * purpose (a loaded 2-core CI machine, a garbage collection in between): they catch work that
 * grows with the square of the input, which is seconds at these sizes, never a few milliseconds
 * of noise. Speed itself is measured by `npm run bench` (its hostile-input section).
 */

/** Microseconds of work allowed per byte of input, plus a fixed allowance for the run. */
export const MICROSECONDS_PER_BYTE = 5;
export const FIXED_MILLISECONDS = 200;

export const timeBoundMs = (bytes: number) => FIXED_MILLISECONDS + (bytes * MICROSECONDS_PER_BYTE) / 1000;

/**
 * The wall time of `run` in ms: the best of up to three runs when a run is over `boundMs`, so that
 * a pause of the machine is not taken for the code's time. Returns the result of the last run.
 */
export function bestTime<T>(run: () => T, boundMs: number): { ms: number; result: T } {
	let best = Number.POSITIVE_INFINITY;
	let result: T;
	let attempts = 0;
	do {
		const start = performance.now();
		result = run();
		best = Math.min(best, performance.now() - start);
		attempts++;
	} while (best > boundMs && attempts < 3);
	return { ms: best, result };
}
