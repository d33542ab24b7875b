/**
 * Column ids that move (followColumns.ts): a service that numbers its columns by position (c1…c8)
 * moves every id when a column is added at the front. The trigger follows its columns by name, in
 * both identities and every mode, or stops with an error that says what happened; through n8n's poll
 * engine against a service simulated in memory.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import { followColumns } from '../../../../nodes/RecordsReportTrigger/followColumns';
import { type Memory, readMemory } from '../../../../nodes/RecordsReportTrigger/memory';
import type { ReportColumn, ReportRow } from '../../../../nodes/shared/report/rows';
import { byId, captureWarnings, VirtualService, VirtualTrigger } from './virtualService';

const NAMES = ['ID', 'Amount', 'Text'];
/** Columns numbered by position, as the docs' own reports are. */
const positional = (names: readonly string[]): ReportColumn[] => names.map((name, i) => ({ id: `c${i + 1}`, name }));
/** A transaction by name, laid out by `names`. */
const cellsOf = (values: Record<string, string>, names: readonly string[]): ReportRow =>
	Object.fromEntries(names.map((name, i) => [`c${i + 1}`, values[name] ?? '']));
const tx = (n: number) => ({ ID: `T${String(n).padStart(4, '0')}`, Amount: `${n},00`, Text: 'Payment', Bank: 'CZ01' });

let service: VirtualService;
let restoreClock: () => void;
let workflows = 0;
let transactions: Array<ReturnType<typeof tx>>;
let names: string[];

const logged = captureWarnings();
beforeEach(() => {
	service = new VirtualService();
	restoreClock = service.clock.install();
});
afterEach(() => restoreClock());

/** Serves the transactions with the columns `names`, numbered by position. */
function serve(): void {
	service.reports.set('r', { columns: positional(names), rows: transactions.map((t) => cellsOf(t, names)) });
}

function trigger(parameters: Record<string, unknown>, count = 53): VirtualTrigger {
	transactions = Array.from({ length: count }, (_, i) => tx(i + 1));
	names = [...NAMES];
	serve();
	return new VirtualTrigger(service, { report: byId('r'), ...parameters, options: { outputKeys: 'name', pageSize: 20 } }, `follow-${++workflows}`);
}

/** The IDs a poll emitted. */
const ids = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => String(item.json.ID));

describe('followColumns: where the remembered columns stand now', () => {
	const remembered = { columns: ['c1', 'c2', 'c3'], names: ['ID', 'Amount', 'Text'] };

	it('the ids where every id still names its column; a renamed column keeps its id', () => {
		expect(followColumns(remembered, positional(['ID', 'Amount', 'Text', 'Note']))).toEqual({ ids: ['c1', 'c2', 'c3'], moved: [] });
		expect(followColumns(remembered, positional(['ID', 'Sum', 'Text']))).toEqual({ ids: ['c1', 'c2', 'c3'], moved: [] });
	});

	it('the names where a column added at the front moved every id', () => {
		const followed = followColumns(remembered, positional(['Bank', 'ID', 'Amount', 'Text']));
		expect(followed).toEqual({
			ids: ['c2', 'c3', 'c4'],
			moved: [
				{ name: 'ID', from: 'c1', to: 'c2' },
				{ name: 'Amount', from: 'c2', to: 'c3' },
				{ name: 'Text', from: 'c3', to: 'c4' },
			],
		});
	});

	it('a conflict where ids moved and a remembered column cannot be told by name', () => {
		expect(followColumns(remembered, positional(['Bank', 'ID', 'Sum', 'Text']))).toHaveProperty('conflict', expect.stringContaining('"Amount"'));
		expect(followColumns(remembered, positional(['Amount', 'Text']))).toHaveProperty('conflict', expect.stringContaining('"ID"'));
	});

	it('an older memory, without names, by its ids', () => {
		expect(followColumns({ columns: ['c1'] }, positional(['Bank', 'ID']))).toEqual({ ids: ['c1'], moved: [] });
	});
});

describe('a column added at the front of a report whose columns are numbered by position', () => {
	it.each([
		['Key Columns picked by name, Anywhere', { rowIdentity: 'columns', keyColumns: 'ID' }],
		['Key Columns picked from the list (by id), Anywhere', { rowIdentity: 'columns', keyColumns: ['c1'] }],
		['Key Columns, Appended at the End', { rowIdentity: 'columns', keyColumns: 'ID', newRowPosition: 'end' }],
		['Whole Row, Anywhere', {}],
		['Whole Row, Appended at the End', { newRowPosition: 'end' }],
		['Whole Row, Appended at the End with Full Check Every', { newRowPosition: 'end', options: { fullCheckEvery: 2 } }],
	])('%s: the row added before that poll is emitted, nothing else, and n8n\'s log says the columns were followed by name', async (_case, parameters) => {
		const t = trigger(parameters);
		expect((await t.poll()).error).toBeUndefined();
		transactions.push(tx(54));
		names = ['Bank', ...NAMES];
		serve();
		const moved = await t.poll();
		expect(moved.error).toBeUndefined();
		expect(ids(moved.items)).toEqual(['T0054']);
		const log = logged.messages.join('\n');
		expect(log).toMatch(/column ids moved.*followed by the columns' names/);
		expect(log).not.toMatch(/Key Columns changed/);
		expect(log).not.toMatch(/starts over/);
		// The next polls go on: a quiet one emits nothing, a new row is emitted once.
		expect((await t.poll()).items).toBeNull();
		transactions.push(tx(55));
		serve();
		expect(ids((await t.poll()).items)).toEqual(['T0055']);
	});

	it('Key Columns picked from the list stay the remembered column over several moves, and a real change of Key Columns still starts over', async () => {
		const t = trigger({ rowIdentity: 'columns', keyColumns: ['c1'] });
		expect((await t.poll()).error).toBeUndefined();
		for (const added of ['Bank', 'Branch']) {
			transactions.push(tx(transactions.length + 1));
			names = [added, ...names];
			serve();
			const next = await t.poll();
			expect(next.error).toBeUndefined();
			expect(ids(next.items)).toEqual([tx(transactions.length).ID]);
		}
		t.parameters = { ...t.parameters, keyColumns: 'Amount' };
		expect((await t.poll()).items).toBeNull();
		expect(logged.messages.join('\n')).toMatch(/Key Columns changed/);
	});

	it('Whole Row: ids moved and a remembered column renamed as well: an error that says so, nothing emitted', async () => {
		const t = trigger({});
		expect((await t.poll()).error).toBeUndefined();
		names = ['Bank', 'ID', 'Sum', 'Text'];
		transactions = transactions.map((t1) => ({ ...t1, Sum: t1.Amount }));
		serve();
		const next = await t.poll();
		expect(next.items).toBeNull();
		expect(next.error?.message).toMatch(/column ids moved.*"Amount"/);
	});

	it('an older memory, saved without names, is read and goes on; its next save adds the names', async () => {
		const t = trigger({});
		expect((await t.poll()).error).toBeUndefined();
		const key = Object.keys(t.staticData).find((k) => k.startsWith('node:'))!;
		const stored = (t.staticData[key] as { reportRows: Memory }).reportRows;
		delete stored.names;
		expect(readMemory(JSON.parse(JSON.stringify(stored)))).toBeDefined();
		transactions.push(tx(54));
		serve();
		expect(ids((await t.poll()).items)).toEqual(['T0054']);
		expect((t.staticData[key] as { reportRows: Memory }).reportRows.names).toEqual(NAMES);
	});
});
