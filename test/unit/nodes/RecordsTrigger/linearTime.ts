/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test helper: runs in Node.js, not inside
	n8n; reads the process's own CPU time (`process`) */
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

/**
 * How much more CPU time `run` takes at 4n than at n: about 4 when its work is linear, 16 when it
 * is quadratic. Counted as the process's CPU time (user and system), not wall time, so that other
 * work on a busy machine does not count; the least of `repeats` runs at each size, so that a
 * garbage collection or a compilation in one run does not either.
 */
export async function cpuGrowth(run: (scale: 1 | 4) => unknown, repeats = 3): Promise<{ ratio: number; ms: [number, number] }> {
	const least = async (scale: 1 | 4) => {
		let best = Number.POSITIVE_INFINITY;
		for (let attempt = 0; attempt < repeats; attempt++) {
			const before = process.cpuUsage();
			await run(scale);
			const spent = process.cpuUsage(before);
			best = Math.min(best, (spent.user + spent.system) / 1000);
		}
		return best;
	};
	await run(1); // Compiles the code on the way first, so that the first measured run does not pay for it.
	const small = await least(1);
	const large = await least(4);
	return { ratio: large / Math.max(small, 0.001), ms: [small, large] };
}

/** The growth from n to 4n above which work is taken for more than linear: halfway between 4 and 16. */
export const MAX_GROWTH_AT_4N = 8;

/**
 * cpuGrowth measured again, up to `attempts` times, while it is above MAX_GROWTH_AT_4N; the least
 * growth seen. A busy machine or a compilation can slow one measurement of a few milliseconds, but
 * work that is more than linear is more than linear in every one.
 */
export async function settledGrowth(run: (scale: 1 | 4) => unknown, attempts = 3): Promise<{ ratio: number; ms: [number, number] }> {
	let growth = await cpuGrowth(run);
	for (let attempt = 1; attempt < attempts && growth.ratio > MAX_GROWTH_AT_4N; attempt++) {
		const again = await cpuGrowth(run);
		if (again.ratio < growth.ratio) growth = again;
	}
	return growth;
}
