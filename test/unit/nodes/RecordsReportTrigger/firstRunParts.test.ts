/**
 * Anywhere's first run on a report too large for one poll (firstRunParts.ts), on a virtual clock,
 * through n8n's poll engine: the poll n8n makes on activation ends within the bound whatever n8n's
 * budget (5 minutes on n8n 2.x's cron scheduler, about 36 s on its durable one, none on 1.x), no poll
 * fails, the next polls read on until the whole report was read once, and then the mode goes on.
 */
import type { IDataObject } from 'n8n-workflow';

import { PART_MS } from '../../../../nodes/RecordsReportTrigger/firstRunParts';
import type { Memory } from '../../../../nodes/RecordsReportTrigger/memory';
import type { ReportRow } from '../../../../nodes/shared/report/rows';
import { ids, idsOf, row, rows, slowReportTrigger } from './slowReport';
import { captureWarnings, type TriggerPoll, VirtualService, VirtualTrigger } from './virtualService';

let service: VirtualService;
let restoreClock: () => void;

const logged = captureWarnings();
beforeEach(() => {
	service = new VirtualService();
	restoreClock = service.clock.install();
});
afterEach(() => restoreClock());

const trigger = (parameters: Record<string, unknown>, table?: ReportRow[]) => slowReportTrigger(service, parameters, table);
const report = () => service.reports.get('r')!.rows;

/** One poll: its result, how long it took on the virtual clock, and the warnings n8n's log got. */
async function timedPoll(t: VirtualTrigger): Promise<TriggerPoll & { ms: number; logged: string[] }> {
	const from = logged.messages.length;
	const started = service.clock.now;
	const result = await t.poll();
	return { ...result, ms: service.clock.now - started, logged: logged.messages.slice(from) };
}

/** The memory the trigger saved in the workflow's static data. */
const memoryOf = (staticData: IDataObject): Memory => (staticData[`node:Records Report Trigger`] as { reportRows: Memory }).reportRows;

/** Polls until the first run is complete (at most `max` polls); every poll's emitted IDs. */
async function pollUntilComplete(t: VirtualTrigger, max = 10, between: (poll: number) => void = () => undefined): Promise<string[][]> {
	const emitted: string[][] = [];
	for (let poll = 0; poll < max && memoryOf(t.staticData).readOnAt !== undefined; poll++) {
		between(poll);
		const next = await timedPoll(t);
		expect(next.error).toBeUndefined();
		expect(next.ms).toBeLessThanOrEqual(PART_MS);
		emitted.push(ids(next.items));
	}
	expect(memoryOf(t.staticData).readOnAt).toBeUndefined();
	// Then the mode reads the whole report every poll, which must fit n8n's budget (36 s on the durable
	// scheduler; its error says so otherwise): the service answers faster from now on.
	service.rules.latencyMs = 100;
	return emitted;
}

const budgets: Array<[string, number | null | undefined]> = [
	["n8n 2.x's cron scheduler (5 minutes a poll)", undefined],
	["n8n 2.x's durable scheduler (36 s a poll)", 36_000],
	['n8n 1.x (no budget)', null],
];

describe('Anywhere, a first run too large for one poll goes on over the next polls', () => {
	it.each(budgets)(
		'Only Remember Them, %s: the activation poll ends within the bound without an error, later polls finish the first run, then exactly the rows added after activation are emitted, once',
		async (_n8n, budgetMs) => {
			const t = trigger({});
			t.budgetMs = budgetMs;
			const first = await timedPoll(t);
			expect(first.error).toBeUndefined();
			expect(first.items).toBeNull();
			expect(first.ms).toBeLessThanOrEqual(Math.min(PART_MS, budgetMs ?? Infinity));
			expect(first.logged.join('\n')).toMatch(/first run goes on over the next polls: \d+ rows read and remembered so far .*reads on from row \d+/);
			// Rows added after activation, above the point the first run reads on from.
			const added: ReportRow[] = [];
			const parts = await pollUntilComplete(t, 10, (poll) => {
				added.push(row(5_000 + poll));
				report().splice(poll * 7, 0, added[poll]);
			});
			expect(parts.length).toBeGreaterThan(0);
			expect(parts.flat()).toEqual([]);
			const next = await timedPoll(t);
			expect(next.error).toBeUndefined();
			expect(ids(next.items).sort()).toEqual(idsOf(added));
			report().push(row(6_000));
			expect(ids((await t.poll()).items)).toEqual(['T06000']);
			expect((await t.poll()).items).toBeNull();
		},
	);

	it.each(budgets)('Emit All Current Rows, %s: every row, and every row added meanwhile, is emitted exactly once over the polls', async (_n8n, budgetMs) => {
		// Identical rows in pairs, so that copies meet the point a part stops at.
		const table = rows(1, 1_000).flatMap((r) => [r, { ...r }]);
		const t = trigger({ firstRun: 'emit' }, table);
		t.budgetMs = budgetMs;
		const expected = idsOf(table);
		const first = await timedPoll(t);
		expect(first.error).toBeUndefined();
		expect(first.ms).toBeLessThanOrEqual(Math.min(PART_MS, budgetMs ?? Infinity));
		const emitted = ids(first.items);
		expect(emitted.length).toBeGreaterThan(0);
		expect(emitted.length).toBeLessThan(table.length);
		const parts = await pollUntilComplete(t, 10, (poll) => {
			// Rows added at the top (the rows read move down: read again, they are the same rows) and at the end.
			const top = row(7_000 + poll);
			const end = row(8_000 + poll);
			report().unshift(top);
			report().push(end);
			expected.push(...idsOf([top, end]));
		});
		emitted.push(...parts.flat());
		// The rows added above the read point: emitted by the first poll after the first run.
		const after = await t.poll();
		expect(after.error).toBeUndefined();
		emitted.push(...ids(after.items));
		expect((await t.poll()).items).toBeNull();
		expect(emitted.sort()).toEqual(expected.sort());
	});

	it('identical rows, a part whose time runs out while it reads the last rows again: the next part counts them on, and no row is emitted', async () => {
		// Found by the model test: the next part took its first row for a row read again that had moved.
		const t = trigger({ options: { pageSize: 1 } }, Array.from({ length: 5 }, () => row(1)));
		for (const budgetMs of [3_500, 1_500]) {
			t.budgetMs = budgetMs;
			const part = await timedPoll(t);
			expect(part.error).toBeUndefined();
			expect(part.items).toBeNull();
		}
		t.budgetMs = undefined;
		await pollUntilComplete(t);
		expect(memoryOf(t.staticData).count).toBe(5);
		expect((await t.poll()).items).toBeNull();
	});

	it('rows added above the read point, more than a part reads again: no row read before is emitted again by a later part', async () => {
		const t = trigger({ firstRun: 'emit' }, rows(1, 3_000));
		const emitted = ids((await t.poll()).items);
		// The rows read so far move down past what the next part reads (about 1,150 rows).
		const added = rows(10_000, 1_500);
		report().unshift(...added);
		emitted.push(...(await pollUntilComplete(t)).flat());
		emitted.push(...ids((await t.poll()).items));
		expect((await t.poll()).items).toBeNull();
		expect(emitted.sort()).toEqual([...idsOf(rows(1, 3_000)), ...idsOf(added)].sort());
	});

	it('a restart between two parts goes on from the memory n8n saved, not over', async () => {
		const t = trigger({}, rows(1, 4_000));
		const first = await timedPoll(t);
		expect(first.error).toBeUndefined();
		// n8n saved the memory after activation; the next part emits nothing, so n8n (cron scheduler)
		// keeps its memory in the process only, and a restart loses it.
		const saved = JSON.parse(JSON.stringify(t.staticData)) as IDataObject;
		const activation = memoryOf(saved);
		expect((await t.poll()).error).toBeUndefined();
		expect(memoryOf(t.staticData).readOnAt).toBeGreaterThan(activation.readOnAt!);
		const added = row(5_000);
		report().unshift(added);

		const restarted = new VirtualTrigger(service, t.parameters, t.workflowId);
		restarted.staticData = saved;
		const again = await timedPoll(restarted);
		expect(again.error).toBeUndefined();
		expect(again.logged.join('\n')).not.toMatch(/a first run/);
		const goneOn = memoryOf(restarted.staticData);
		expect(goneOn.lineage).toBe(activation.lineage);
		expect(goneOn.count).toBeGreaterThan(activation.count);
		await pollUntilComplete(restarted);
		expect(ids((await restarted.poll()).items)).toEqual(idsOf([added]));
		expect((await restarted.poll()).items).toBeNull();
	});

	it('Max Remembered Rows counts every row read so far: the part that passes it fails with the error that says what to choose', async () => {
		const t = trigger({ options: { maxRemembered: 1_500 } });
		expect((await t.poll()).error).toBeUndefined();
		let error: TriggerPoll['error'];
		for (let poll = 0; poll < 5 && error === undefined; poll++) error = (await t.poll()).error;
		expect(error?.message).toMatch(/more than Max Remembered Rows \(1500\)/);
	});
});

describe('An ordered mode emitting all current rows: the poll n8n makes on activation ends within the bound too', () => {
	const cases = budgets.flatMap(([n8n, budgetMs]) => (['end', 'top'] as const).map((position) => [position, n8n, budgetMs] as const));
	it.each(cases)('New Rows Appear "%s", %s: the first poll ends within the bound, and every row is emitted once over the polls', async (position, _n8n, budgetMs) => {
		const table = rows(1, 2_000);
		const t = trigger({ newRowPosition: position, firstRun: 'emit' }, position === 'top' ? table.reverse() : table);
		t.budgetMs = budgetMs;
		const expected = idsOf(report());
		const first = await timedPoll(t);
		expect(first.error).toBeUndefined();
		expect(first.ms).toBeLessThanOrEqual(Math.min(PART_MS, budgetMs ?? Infinity));
		const emitted = ids(first.items);
		expect(emitted.length).toBeGreaterThan(0);
		for (let poll = 0; poll < 10 && emitted.length < expected.length; poll++) {
			const next = await timedPoll(t);
			expect(next.error).toBeUndefined();
			emitted.push(...ids(next.items));
		}
		expect(emitted.sort()).toEqual(expected.sort());
		expect((await t.poll()).items).toBeNull();
	});
});
