/**
 * The Records Report Trigger's ordered modes under n8n's time budget for a poll (pollBudget.ts,
 * readReport.ts, changeDetector.ts), on a virtual clock, through n8n's poll engine: a full read that
 * does not fit is a safety net skipped (the mode goes on at its end), the way out of "does not allow"
 * works on a report too big to read in one poll, and an error names the real cause and advises only
 * what is not chosen already.
 */
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

/** One poll; the warnings n8n's log got during it. */
async function pollLogged(t: VirtualTrigger): Promise<TriggerPoll & { logged: string[] }> {
	const from = logged.messages.length;
	const result = await t.poll();
	return { ...result, logged: logged.messages.slice(from) };
}

describe('Full Check Every under the poll budget: a full check that does not fit is skipped, the mode goes on', () => {
	it.each([
		['Appended at the End', 'end'],
		['At the Top', 'top'],
	])('%s: every poll emits the rows added at its end, and says once that the full check was skipped and why', async (_mode, position) => {
		const top = position === 'top';
		const t = trigger({ newRowPosition: position, options: { fullCheckEvery: 2 } }, top ? rows(1, 2_000).reverse() : rows(1, 2_000));
		expect((await t.poll()).error).toBeUndefined();
		t.budgetMs = 40_000;
		for (let poll = 0; poll < 6; poll++) {
			const added = rows(3_000 + poll * 3, 3);
			if (top) report().unshift(...added.slice().reverse());
			else report().push(...added);
			const next = await pollLogged(t);
			expect(next.error).toBeUndefined();
			expect(ids(next.items).sort()).toEqual(idsOf(added));
			const skipped = next.logged.filter((text) => /full check/i.test(text));
			expect(skipped.length).toBeLessThanOrEqual(1);
			for (const text of skipped) expect(text).toMatch(/skipped.*time n8n gives one poll/);
		}
		expect(logged.messages.some((text) => /full check.*skipped/i.test(text))).toBe(true);
	});

	it('a first run with Full Check Every on a report too big to read in one poll remembers it at its end; later rows are emitted', async () => {
		const t = trigger({ newRowPosition: 'end', options: { fullCheckEvery: 3 } });
		t.budgetMs = 40_000;
		const first = await pollLogged(t);
		expect(first.error).toBeUndefined();
		expect(first.items).toBeNull();
		report().push(...rows(3_000, 2));
		const next = await t.poll();
		expect(next.error).toBeUndefined();
		expect(ids(next.items)).toEqual(['T03000', 'T03001']);
	});

	it("a first run's one-row requests for the report's end do not count as one slow request: the full read after them is made where it fits", async () => {
		const t = trigger({ newRowPosition: 'top', options: { fullCheckEvery: 3 } }, rows(1, 600).reverse());
		// 60 requests of a second each: its edges (a dozen of them one-row requests), then its full read.
		t.budgetMs = 65_000;
		const first = await pollLogged(t);
		expect(first.error).toBeUndefined();
		expect(first.logged.filter((text) => /skipped/.test(text))).toEqual([]);
	});

	it('a full check that fits still emits a row an ordered poll missed (added in the middle)', async () => {
		const t = trigger({ newRowPosition: 'end', options: { fullCheckEvery: 2, pageSize: 1_000 } });
		expect((await t.poll()).error).toBeUndefined();
		report().splice(100, 0, row(5_000));
		t.budgetMs = 60_000;
		const next = await t.poll();
		expect(next.error).toBeUndefined();
		expect(ids(next.items)).toEqual(['T05000']);
	});
});

describe('the way out of "does not allow" on a report too big to read in one poll', () => {
	it("following the error's advice works: the next poll takes the report as it is at the end, and every row added after it is emitted", async () => {
		const t = trigger({ newRowPosition: 'end' });
		expect((await t.poll()).error).toBeUndefined();
		t.budgetMs = 40_000;
		report().splice(1_990, 1);
		report().push(...rows(3_000, 2));
		const stopped = await t.poll();
		expect(stopped.error?.message).toContain('does not allow');
		expect(stopped.error?.description).toContain('Full Check Every');
		expect(stopped.error?.description).not.toMatch(/choose "Appended at the End"/);

		t.parameters = { ...t.parameters, options: { pageSize: 20, fullCheckEvery: 100 } };
		const taken = await pollLogged(t);
		expect(taken.error).toBeUndefined();
		expect(taken.logged.join('\n')).toMatch(/as it is/);
		for (let poll = 0; poll < 4; poll++) {
			const added = rows(4_000 + poll * 2, 2);
			report().push(...added);
			const next = await t.poll();
			expect(next.error).toBeUndefined();
			expect(ids(next.items)).toEqual(idsOf(added));
		}
	});

	it('At the Top: the same', async () => {
		const t = trigger({ newRowPosition: 'top' }, rows(1, 2_000).reverse());
		expect((await t.poll()).error).toBeUndefined();
		t.budgetMs = 40_000;
		report().splice(10, 1);
		expect((await t.poll()).error?.message).toContain('does not allow');
		t.parameters = { ...t.parameters, options: { pageSize: 20, fullCheckEvery: 100 } };
		expect((await t.poll()).error).toBeUndefined();
		for (let poll = 0; poll < 3; poll++) {
			const added = rows(4_000 + poll * 2, 2);
			report().unshift(...added.slice().reverse());
			const next = await t.poll();
			expect(next.error).toBeUndefined();
			expect(ids(next.items).sort()).toEqual(idsOf(added));
		}
	});
});

describe('the words of a poll whose time runs out', () => {
	it('Appended at the End, out of time before it has read the rows it remembers: the error names that, not rows added at the top', async () => {
		const t = trigger({ newRowPosition: 'end' }, rows(1, 200));
		expect((await t.poll()).error).toBeUndefined();
		report().push(row(300));
		t.budgetMs = 2_500;
		const next = await t.poll();
		expect(next.items).toBeNull();
		expect(next.error?.message).toContain('could not be read within the time n8n gives one poll');
		expect(`${next.error?.message} ${next.error?.description}`).not.toMatch(/added at the top/);
		expect(next.error?.description).toMatch(/64 rows/);
		expect(next.error?.description).toMatch(/Page Size/);
	});

});

describe('Emit All Current Rows on a report too big to read in one poll: its rows are emitted over several polls', () => {
	it.each([
		['Appended at the End', 'end', 0],
		['At the Top', 'top', 0],
		['Appended at the End, Full Check Every', 'end', 3],
		['At the Top, Full Check Every', 'top', 3],
	])('%s: every row of the report and every row added meanwhile is emitted once, in report order within a poll, and no poll fails', async (_mode, position, fullCheckEvery) => {
		const top = position === 'top';
		const table = rows(1, 2_000);
		const t = trigger({ newRowPosition: position, firstRun: 'emit', options: { fullCheckEvery } }, top ? table.reverse() : table);
		t.budgetMs = 40_000;
		const emitted: string[] = [];
		const expected = idsOf(report());
		let polls = 0;
		for (; polls < 80 && emitted.length < expected.length; polls++) {
			if (polls % 3 === 1) {
				const added = rows(3_000 + polls * 2, 2);
				if (top) report().unshift(...added.slice().reverse());
				else report().push(...added);
				expected.push(...idsOf(added));
			}
			const next = await t.poll();
			expect(next.error).toBeUndefined();
			const got = ids(next.items);
			// In report order within a poll.
			const order = idsOf(report());
			expect(got).toEqual(order.filter((id) => got.includes(id)));
			emitted.push(...got);
		}
		expect(polls).toBeGreaterThan(2);
		expect(emitted.slice().sort()).toEqual(expected.slice().sort());
		// Then the mode: a quiet poll emits nothing, a row added at its end is emitted.
		expect((await t.poll()).items).toBeNull();
		const last = row(9_000);
		if (top) report().unshift(last);
		else report().push(last);
		expect(ids((await t.poll()).items)).toEqual(['T09000']);
	});

	it('a row emitted, the first run goes on from where it stopped even where n8n restarts the trigger between polls', async () => {
		const t = trigger({ newRowPosition: 'top', firstRun: 'emit' }, rows(1, 2_000).reverse());
		t.budgetMs = 40_000;
		const first = await pollLogged(t);
		expect(first.error).toBeUndefined();
		const count = ids(first.items).length;
		expect(count).toBeGreaterThan(0);
		expect(count).toBeLessThan(2_000);
		expect(first.logged.join('\n')).toMatch(/next polls/);
		// The memory is JSON between polls; a fresh trigger object with it goes on.
		const again = new VirtualTrigger(service, t.parameters, t.workflowId);
		again.staticData = JSON.parse(JSON.stringify(t.staticData));
		again.budgetMs = 40_000;
		const next = await again.poll();
		expect(next.error).toBeUndefined();
		expect(ids(next.items)[0]).toBe(idsOf(report())[count]);
	});
});
