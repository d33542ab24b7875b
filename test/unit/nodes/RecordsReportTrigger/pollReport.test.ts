/**
 * One poll of the Records Report Trigger (pollReport.ts) against a service simulated in memory,
 * through n8n's poll engine, with a virtual clock: each case is one way the trigger once lost,
 * repeated or silently dropped rows where its reads meet n8n's time budget for a poll, a report
 * changing between two reads of one poll, or a report's columns changing while a poll pages.
 */
import type { INodeExecutionData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { ReportRow } from '../../../../nodes/shared/report/rows';
import { byId, type TriggerPoll, VirtualService, VirtualTrigger } from './virtualService';

const COLUMNS = [
	{ id: 'c1', name: 'ID' },
	{ id: 'c2', name: 'Amount' },
	{ id: 'c3', name: 'Text' },
];
const row = (n: number): ReportRow => ({ c1: `T${String(n).padStart(4, '0')}`, c2: `${n},00`, c3: 'Payment' });
const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => row(from + i));
const ids = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => String(item.json.ID));

let service: VirtualService;
let restoreClock: () => void;
let workflows = 0;

beforeEach(() => {
	service = new VirtualService();
	restoreClock = service.clock.install();
});
afterEach(() => restoreClock());

function trigger(parameters: Record<string, unknown>, table: ReportRow[] = rows(1, 100)): VirtualTrigger {
	service.reports.set('r', { columns: COLUMNS.map((c) => ({ ...c })), rows: table });
	return new VirtualTrigger(service, { report: byId('r'), ...parameters }, `poll-report-${++workflows}`);
}

const table = () => service.reports.get('r')!;

/** Polls until `done` or `max` polls; returns every poll. */
async function pollUntil(t: VirtualTrigger, max: number, done: (polls: TriggerPoll[]) => boolean = () => false) {
	const polls: TriggerPoll[] = [];
	while (polls.length < max && !done(polls)) polls.push(await t.poll());
	return polls;
}
const emittedBy = (polls: TriggerPoll[]) => polls.flatMap((poll) => ids(poll.items));

describe("a read that does not fit n8n's time budget for a poll", () => {
	it.each([
		['Whole Row', {}],
		['Key Columns', { rowIdentity: 'columns', keyColumns: 'ID' }],
	])('a first run under Only Remember Them (%s) never emits, however its read is cut short', async (_identity, parameters) => {
		const t = trigger({ ...parameters, options: { pageSize: 5 } }, rows(1, 30));
		service.rules.latencyMs = 1_000;
		t.budgetMs = 3_000;
		expect(emittedBy(await pollUntil(t, 12))).toEqual([]);
		t.budgetMs = undefined;
		expect((await t.poll()).items).toBeNull();
		table().rows.push(row(31));
		expect(ids((await t.poll()).items)).toEqual(['T0031']);
	});

	it('Appended at the End: a backlog longer than one poll can read is emitted over the next polls, each row once, in order', async () => {
		const t = trigger({ newRowPosition: 'end', options: { pageSize: 100 } });
		expect((await t.poll()).items).toBeNull();
		table().rows.push(...rows(101, 300));
		service.rules.latencyMs = 500;
		t.budgetMs = 2_000;
		const polls = await pollUntil(t, 20, (done) => emittedBy(done).length >= 300);
		expect(polls.filter((poll) => poll.error !== undefined)).toEqual([]);
		expect(polls.length).toBeGreaterThan(1);
		expect(emittedBy(polls)).toEqual(ids(rows(101, 300).map((json) => ({ json: { ID: json.c1 } }))));
	});

	it.each([
		['At the Top, more new rows than a poll can read', 'top', 100],
		['Anywhere, a report longer than a poll can read', 'anywhere', 100],
	])('%s: every poll fails with an error that says which setting to change, and nothing is emitted or remembered', async (_case, position, added) => {
		const t = trigger({ newRowPosition: position, firstRun: 'emit', options: { pageSize: 20 } }, rows(1, 2_000));
		if (added > 0) {
			expect((await t.poll()).error).toBeUndefined();
			const now = table().rows;
			if (position === 'top') now.unshift(...rows(2_001, added).reverse());
			else now.push(...rows(2_001, added));
		}
		const before = JSON.stringify(t.staticData);
		service.rules.latencyMs = 2_000;
		t.budgetMs = 10_000;
		const polls = await pollUntil(t, 3);
		for (const poll of polls) {
			expect(poll.items).toBeNull();
			expect(poll.error?.message).toContain('could not be read within the time n8n gives one poll');
			expect(poll.error?.description).toMatch(/Page Size/);
			expect(poll.error?.description).not.toMatch(/poll interval/);
		}
		expect(JSON.stringify(t.staticData)).toBe(before);
	});

	it("Anywhere's first run, its stopping rows with identical twins nearby: read over several polls without an error, each row emitted once (the twins one by one)", async () => {
		const fees = Array.from({ length: 40 }, (_, i) => (i % 4 === 3 ? { c1: 'FEE', c2: '-2,00', c3: 'Fee' } : row(i + 1)));
		const t = trigger({ firstRun: 'emit', options: { pageSize: 6 } }, fees);
		service.rules.latencyMs = 1_000;
		t.budgetMs = 4_000;
		const polls = await pollUntil(t, 30, (done) => emittedBy(done).length >= 40);
		expect(polls.filter((poll) => poll.error !== undefined)).toEqual([]);
		expect(polls.length).toBeGreaterThan(1);
		t.budgetMs = undefined;
		polls.push(await t.poll());
		expect(emittedBy(polls).sort()).toEqual(ids(fees.map((json) => ({ json: { ID: json.c1 } }))).sort());
		expect((await t.poll()).items).toBeNull();
	});

	it('a row moved between the polls that could not read the report is not emitted again (Whole Row), and the memory counts the rows there are', async () => {
		const t = trigger({ firstRun: 'emit', options: { pageSize: 5 } }, rows(1, 31));
		service.rules.latencyMs = 1_000;
		t.budgetMs = 3_000;
		const polls = await pollUntil(t, 3);
		const moved = table().rows.splice(2, 1)[0];
		table().rows.push(moved);
		polls.push(...(await pollUntil(t, 6)));
		t.budgetMs = undefined;
		polls.push(...(await pollUntil(t, 3)));
		const emitted = emittedBy(polls);
		expect(emitted.slice().sort()).toEqual(ids(rows(1, 31).map((json) => ({ json: { ID: json.c1 } }))));
		expect(((t.staticData['node:Records Report Trigger'] as Record<string, { count: number }>).reportRows).count).toBe(31);
	});
});

describe('changes between the reads of one ordered poll', () => {
	it('At the Top: a row added at the top between the window read and the last-row read cannot mask a deleted row', async () => {
		const t = trigger({ newRowPosition: 'top', options: { pageSize: 100 } }, rows(1, 90).reverse());
		expect((await t.poll()).items).toBeNull();
		table().rows.splice(80, 1);
		const firstRequest = service.requests;
		service.afterAnswer = (request) => {
			if (request === firstRequest + 1) table().rows.unshift(row(500));
		};
		const next = await t.poll();
		expect(next.items).toBeNull();
		expect(next.error?.message).toContain('does not allow');
	});

	it('At the Top with a full check (every row remembered): an old row moved to the top and a row inserted lower is not emitted again; the inserted row is', async () => {
		const t = trigger({ newRowPosition: 'top', options: { fullCheckEvery: 100, pageSize: 100 } }, rows(1, 100).reverse());
		expect((await t.poll()).items).toBeNull();
		// Below the 64 rows remembered at the top: the row count and the last row stay as they were.
		const moved = table().rows.splice(90, 1)[0];
		table().rows.unshift(moved);
		table().rows.splice(80, 0, row(500));
		expect(ids((await t.poll()).items)).toEqual(['T0500']);
		expect((await t.poll()).items).toBeNull();
	});

	it.each([1, 4])('At the Top with Parallel Requests %i: a poll that finds a few new rows costs 4 requests', async (concurrency) => {
		const t = trigger({ newRowPosition: 'top', options: { pageSize: 100, concurrency } }, rows(1, 1_000).reverse());
		expect((await t.poll()).items).toBeNull();
		table().rows.unshift(...rows(1_001, 3).reverse());
		const before = service.requests;
		expect(ids((await t.poll()).items)).toEqual(['T1003', 'T1002', 'T1001']);
		// The rows from the one remembered last to the end, the two requests that make sure the end is
		// the end (a service may cap its pages), and the rows down to the window at the top.
		expect(service.requests - before).toBe(4);
	});
});

describe("the report's columns changing while a poll pages", () => {
	it('the poll reads again and emits the new rows, without an error', async () => {
		const t = trigger({ options: { pageSize: 10 } }, rows(1, 30));
		expect((await t.poll()).items).toBeNull();
		const firstRequest = service.requests;
		service.afterAnswer = (request) => {
			if (request !== firstRequest + 1) return;
			const now = table();
			now.columns.push({ id: 'c4', name: 'Note' });
			now.rows = [...now.rows.map((r) => ({ ...r, c4: '' })), { ...row(31), c4: 'new' }];
		};
		const next = await t.poll();
		expect(next.error).toBeUndefined();
		expect(ids(next.items)).toEqual(['T0031']);
	});

	it.each([1, 2, 3, 4, 5, 6])(
		'Appended at the End with a full check: column ids moved by a column added at the front after request %i of a poll emit no old row',
		async (after) => {
			// A service numbering its columns by position: every id moves by one, the names stay.
			const t = trigger({ newRowPosition: 'end', options: { pageSize: 10, fullCheckEvery: 1 } }, rows(1, 30));
			expect((await t.poll()).items).toBeNull();
			table().rows.push(row(31));
			const firstRequest = service.requests;
			service.afterAnswer = (request) => {
				if (request !== firstRequest + after) return;
				const now = table();
				now.columns = [{ id: 'c1', name: 'Flag' }, ...COLUMNS.map((c, i) => ({ ...c, id: `c${i + 2}` }))];
				now.rows = now.rows.map((r) => ({ c1: '', c2: r.c1, c3: r.c2, c4: r.c3 }));
			};
			const polls = await pollUntil(t, 3);
			expect(emittedBy(polls)).toEqual(['T0031']);
		},
	);
});

describe("a full read's comparison and the request for the next page", () => {
	it('Anywhere compares a page while the request for the next one leaves, though leaving takes several turns of the event loop', async () => {
		const t = trigger({ options: { pageSize: 5_000 } }, rows(1, 12_000));
		const events: string[] = [];
		// A request needs three turns to leave (a new connection: connect, then write), as over a network.
		service.beforeAnswer = async (options) => {
			const offset = Number((options.qs as { offset?: unknown }).offset ?? 0);
			if (offset === 0) return;
			for (let i = 0; i < 3; i++) await sleep(0);
			events.push(`request ${offset} leaves`);
		};
		// The first page's row 4,501 tells when the comparison reaches it.
		service.answerRows = (page, offset) =>
			page.map((cells, index) => {
				const copy = { ...cells };
				if (offset !== 0 || index !== 4_500) return copy;
				const value = copy.c1;
				let told = false;
				return Object.defineProperty(copy, 'c1', {
					enumerable: true,
					get: () => {
						if (!told) events.push('row 4501 compared');
						told = true;
						return value;
					},
				});
			});
		expect((await t.poll()).error).toBeUndefined();
		expect(events.slice(0, 2)).toEqual(['request 4998 leaves', 'row 4501 compared']);
	});
});
