/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside
	n8n (`process`, `setInterval`, `clearInterval`, `gc`) */
/**
 * The memory one operation of a measuring process needs above what the process held before it: the
 * JavaScript heap in use plus the memory of typed arrays and Buffers (which live outside V8's heap),
 * and the resident memory, sampled every 5 ms while the operation runs and once after it. Before it,
 * the garbage of earlier work is collected (the measuring processes run with --expose-gc), so that
 * the baseline is what the process keeps.
 *
 * As sampled, the peak counts garbage not yet collected, V8's young generation (a nursery of up to
 * 16 MiB by default, refilled by any work) included: how much V8 lets the heap grow, not what the
 * operation needs. `live` collects the garbage before each sample instead: what the operation keeps
 * alive (much slower: use it in a run of its own, not one that is timed). Synchronous stretches of
 * the operation are not sampled inside.
 */
const MiB = 1024 * 1024;
const SAMPLE_MS = 5;

export interface MemoryAbove {
	/** Peak of heap used + array buffers above the baseline, in MiB. */
	heapMiB: number;
	/** Peak resident memory above the baseline, in MiB. */
	rssMiB: number;
}

const heapNow = () => {
	const usage = process.memoryUsage();
	return { heap: usage.heapUsed + usage.arrayBuffers, rss: usage.rss };
};

/** Starts watching; the returned function stops and tells the peaks above the baseline. */
export function watchMemory(live = false): () => MemoryAbove {
	const collect = (globalThis as { gc?: () => void }).gc;
	if (collect === undefined) throw new Error('Memory is measured with --expose-gc: start the measuring process with it');
	collect();
	collect();
	const base = heapNow();
	const peak = { ...base };
	const sample = () => {
		if (live) collect();
		const now = heapNow();
		if (now.heap > peak.heap) peak.heap = now.heap;
		if (now.rss > peak.rss) peak.rss = now.rss;
	};
	const timer = setInterval(sample, SAMPLE_MS);
	return () => {
		sample();
		clearInterval(timer);
		return { heapMiB: (peak.heap - base.heap) / MiB, rssMiB: (peak.rss - base.rss) / MiB };
	};
}
