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

/** The growth from n to 4n above which work is taken for more than linear: halfway between 4 and 16. */
export const MAX_GROWTH_AT_4N = 8;

/** The process's CPU time (user and system) in ms that `run` takes. */
async function cpuMs(run: () => unknown): Promise<number> {
	const before = process.cpuUsage();
	await run();
	const spent = process.cpuUsage(before);
	return (spent.user + spent.system) / 1000;
}

/**
 * How much more CPU time `run` takes at 4n than at n: about 4 when its work is linear, 16 when it
 * is quadratic. Counted as the process's CPU time, not wall time, so that other work on a busy
 * machine does not count. A garbage collection or a compilation can slow one run, so the least
 * time counts: at n, of three runs (after one that compiles the code on the way); at 4n, of runs
 * made one after another until one is within MAX_GROWTH_AT_4N of that, at most three. Above the
 * bound, all of it is measured again, up to three times, and the least growth counts. Linear work
 * is done after one run at 4n. Work above the bound is run at 4n up to 9 times while that is cheap
 * (where noise weighs most), and no more once the runs at 4n have taken 5 seconds: no pause of the
 * machine makes linear work take seconds more, and work that is more than linear takes seconds to
 * half a minute a run at the sizes the scaling tests use.
 */
export async function settledGrowth(run: (scale: 1 | 4) => unknown): Promise<{ ratio: number; ms: [number, number] }> {
	let growth = { ratio: Number.POSITIVE_INFINITY, ms: [0, 0] as [number, number] };
	let runsAt4n = 0;
	let spentAt4n = 0;
	const mayRunAt4n = () => runsAt4n < 9 && spentAt4n < 5000;
	for (let attempt = 0; attempt < 3 && growth.ratio > MAX_GROWTH_AT_4N && mayRunAt4n(); attempt++) {
		await run(1);
		let small = Number.POSITIVE_INFINITY;
		for (let repeat = 0; repeat < 3; repeat++) small = Math.min(small, await cpuMs(() => run(1)));
		small = Math.max(small, 0.001);
		let large = Number.POSITIVE_INFINITY;
		for (let repeat = 0; repeat < 3 && large / small > MAX_GROWTH_AT_4N && mayRunAt4n(); repeat++) {
			const ms = await cpuMs(() => run(4));
			runsAt4n++;
			spentAt4n += ms;
			large = Math.min(large, ms);
		}
		if (large / small < growth.ratio) growth = { ratio: large / small, ms: [small, large] };
	}
	return growth;
}
