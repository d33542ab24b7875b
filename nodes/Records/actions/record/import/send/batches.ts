/**
 * Pure parts of the import: cutting records into requests, and sending those with bounded
 * parallelism. What an answer says of each record is read by answer.ts.
 */

export interface ImportBatch {
	/** 1-based, in the order the requests are started. */
	number: number;
	recordTypeId: string;
	/** Positions of the batch's records in the list that was planned. */
	positions: number[];
}

/**
 * Groups records by record type (types in order of first appearance, records in input order within
 * a type) and cuts each group into batches of at most `batchSize`.
 */
export function planBatches(recordTypeIds: readonly string[], batchSize: number): ImportBatch[] {
	const groups = new Map<string, number[]>();
	recordTypeIds.forEach((recordTypeId, position) => {
		let group = groups.get(recordTypeId);
		if (!group) {
			group = [];
			groups.set(recordTypeId, group);
		}
		group.push(position);
	});
	const batches: ImportBatch[] = [];
	for (const [recordTypeId, positions] of groups) {
		for (let start = 0; start < positions.length; start += batchSize) {
			batches.push({
				number: batches.length + 1,
				recordTypeId,
				positions: positions.slice(start, start + batchSize),
			});
		}
	}
	return batches;
}

/**
 * Runs `task(0)`, `task(1)`, … `task(count - 1)` with at most `concurrency` running at once, each
 * started in index order. `shouldStart` is asked before each start, so a failure can stop the rest
 * while the requests already under way finish. `task` must not throw.
 */
export async function runInOrder(
	count: number,
	concurrency: number,
	task: (index: number) => Promise<void>,
	shouldStart: () => boolean = () => true,
): Promise<void> {
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < count && shouldStart()) {
			const index = next++;
			await task(index);
		}
	};
	const workers = Math.max(1, Math.min(concurrency, count));
	await Promise.all(Array.from({ length: workers }, worker));
}
