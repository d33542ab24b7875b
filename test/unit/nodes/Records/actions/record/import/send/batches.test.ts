/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside
	n8n (`setImmediate`) */
import { planBatches, runInOrder } from '../../../../../../../../nodes/Records/actions/record/import/send/batches';

describe('planBatches', () => {
	it('cuts 250 records into 100 + 100 + 50, in order', () => {
		const batches = planBatches(new Array(250).fill('ukoly'), 100);
		expect(batches.map((batch) => batch.positions.length)).toEqual([100, 100, 50]);
		expect(batches.map((batch) => batch.number)).toEqual([1, 2, 3]);
		expect(batches.flatMap((batch) => batch.positions)).toEqual([...Array(250).keys()]);
	});

	it('makes one batch of exactly batch-size records, and none of nothing', () => {
		expect(planBatches(new Array(100).fill('x'), 100)).toHaveLength(1);
		expect(planBatches([], 100)).toEqual([]);
	});

	it('groups records by record type, types in order of first appearance', () => {
		const batches = planBatches(['ukoly', 'faktury', 'ukoly', 'faktury', 'ukoly'], 2);
		expect(batches).toEqual([
			{ number: 1, recordTypeId: 'ukoly', positions: [0, 2] },
			{ number: 2, recordTypeId: 'ukoly', positions: [4] },
			{ number: 3, recordTypeId: 'faktury', positions: [1, 3] },
		]);
	});
});

describe('runInOrder', () => {
	it('runs one task at a time in order with concurrency 1', async () => {
		const log: string[] = [];
		await runInOrder(4, 1, async (index) => {
			log.push(`start ${index}`);
			await Promise.resolve();
			log.push(`end ${index}`);
		});
		expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
	});

	it('never runs more than the concurrency at once, and runs every task exactly once', async () => {
		let running = 0;
		let peak = 0;
		const seen: number[] = [];
		const gates: Array<() => void> = [];
		const done = runInOrder(10, 3, async (index) => {
			running++;
			peak = Math.max(peak, running);
			seen.push(index);
			await new Promise<void>((resolve) => gates.push(resolve));
			running--;
		});
		// Release the tasks one by one, most recent first, so they finish out of order.
		while (seen.length < 10 || gates.length > 0) {
			await Promise.resolve();
			gates.pop()?.();
			await new Promise((resolve) => setImmediate(resolve));
		}
		await done;
		expect(peak).toBe(3);
		expect([...seen].sort((a, b) => a - b)).toEqual([...Array(10).keys()]);
		expect(seen.slice(0, 3)).toEqual([0, 1, 2]);
	});

	it('starts nothing more once told to stop, and lets running tasks finish', async () => {
		const started: number[] = [];
		let stop = false;
		await runInOrder(
			10,
			2,
			async (index) => {
				started.push(index);
				if (index === 3) stop = true;
				await Promise.resolve();
			},
			() => !stop,
		);
		expect(started).toEqual([0, 1, 2, 3]);
	});

	it('does nothing for no tasks', async () => {
		const task = jest.fn(async () => undefined);
		await runInOrder(0, 4, task);
		expect(task).not.toHaveBeenCalled();
	});
});
