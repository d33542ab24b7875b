/**
 * Records Report Trigger: a user editing an active trigger, through n8n-core's PollContext against
 * the sandbox, with the polls of one workflow sharing one n8n process (one guard), as in n8n. Each
 * edit is what n8n does when the editor saves and publishes a changed trigger (n8n 2.x) or saves an
 * active workflow (n8n 1.x): the trigger is registered again with the node's id kept, polled at once
 * (the activation poll) and then on its schedule; static data stays where it was (keyed by the node's
 * name, so a renamed node finds none). Every edit must leave a trigger that polls without errors and
 * emits each row added after the edit once.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { RecordsReportTrigger } from '../../nodes/RecordsReportTrigger/RecordsReportTrigger.node';
import { runPoll } from '../../tooling/harness/n8nCoreHarness';
import { control } from '../../tooling/sandbox/control';
import { BANK_COLUMNS, bankTransactionIds, generateBankRows } from '../../tooling/sandbox/server';
import { captureWarnings, useSandbox } from './fixture';

jest.setTimeout(120_000);

const sandbox = useSandbox();
const logged = captureWarnings();

const FEED = 'edited-feed';
const OTHER = 'other-feed';
const NAME = 'Records Report Trigger';
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const ids = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => String(item.json['ID transakce']));

const feed = async (id: string, rows: number) => await control(sandbox, '/reports', { id, generate: 'bank', rows });
const addRows = async (id: string, count: number, at: 'top' | 'end' = 'end') =>
	await control(sandbox, `/reports/${id}/rows`, { generate: count, at });

/**
 * One trigger as n8n holds it: its parameters, name and workflow (one n8n process: one guard), and
 * the workflow's static data as n8n stores it between polls.
 */
class Trigger {
	staticData: IDataObject = {};

	constructor(
		public parameters: IDataObject,
		public name = NAME,
		public workflowId = `edits-${expect.getState().currentTestName}`,
	) {}

	async poll(): Promise<string[]> {
		const result = await runPoll({
			nodeType: new RecordsReportTrigger(),
			parameters: { report: byId(FEED), ...this.parameters },
			credentials: sandbox.credentials(),
			staticData: this.staticData,
			nodeName: this.name,
			workflowId: this.workflowId,
		});
		this.staticData = result.staticData;
		return ids(result.items);
	}

	/** Polls `count` times; every poll must succeed. Returns what they emitted. */
	async polls(count: number): Promise<string[]> {
		const emitted: string[] = [];
		for (let i = 0; i < count; i++) emitted.push(...(await this.poll()));
		return emitted;
	}
}

/** A trigger that has polled and emitted (so that the process remembers what it saved). */
async function runningTrigger(parameters: IDataObject = {}): Promise<Trigger> {
	await feed(FEED, 120);
	const trigger = new Trigger(parameters);
	expect(await trigger.poll()).toEqual([]);
	await addRows(FEED, 2, parameters.newRowPosition === 'top' ? 'top' : 'end');
	expect((await trigger.poll()).sort()).toEqual(bankTransactionIds(121, 2).sort());
	return trigger;
}

describe('an edit of an active trigger never stops it, and rows added after it are emitted once', () => {
	it('another report: the activation poll starts over (a first run, said in the log), then new rows of that report', async () => {
		const trigger = await runningTrigger();
		await feed(OTHER, 30);
		trigger.parameters = { report: byId(OTHER) };
		expect(await trigger.poll()).toEqual([]);
		expect(logged.messages.join('\n')).toContain('first run');
		await addRows(OTHER, 3);
		expect(await trigger.polls(4)).toEqual(bankTransactionIds(31, 3));
	});

	it('a renamed node: its memory stays under the old name, so it starts over; then every new row once', async () => {
		const trigger = await runningTrigger();
		trigger.name = 'Bank rows';
		expect(await trigger.poll()).toEqual([]);
		expect(logged.messages.join('\n')).toContain('first run');
		await addRows(FEED, 3);
		expect(await trigger.polls(4)).toEqual(bankTransactionIds(123, 3));
	});

	it('renamed and renamed back: the memory left under the old name is older than what the trigger emitted since, so it starts over instead of emitting those rows again', async () => {
		const trigger = await runningTrigger();
		trigger.name = 'Bank rows';
		expect(await trigger.poll()).toEqual([]);
		await addRows(FEED, 3);
		expect(await trigger.poll()).toEqual(bankTransactionIds(123, 3));
		trigger.name = NAME;
		expect(await trigger.poll()).toEqual([]);
		await addRows(FEED, 1);
		expect(await trigger.polls(3)).toEqual(bankTransactionIds(126, 1));
	});

	it.each([
		['Row Identity Whole Row to Key Columns', {}, { rowIdentity: 'columns', keyColumns: 'ID transakce' }],
		['other Key Columns', { rowIdentity: 'columns', keyColumns: 'ID transakce' }, { rowIdentity: 'columns', keyColumns: 'ID transakce, Datum' }],
		['New Rows Appear from the end to Anywhere', { newRowPosition: 'end' }, { newRowPosition: 'anywhere' }],
		['New Rows Appear from the end to the top', { newRowPosition: 'end' }, { newRowPosition: 'top' }],
		['New Rows Appear from Anywhere to the end', {}, { newRowPosition: 'end' }],
		['Full Check Every set', { newRowPosition: 'end' }, { newRowPosition: 'end', options: { fullCheckEvery: 10 } }],
		['the options (page size, output)', {}, { options: { pageSize: 7, outputMode: 'row' } }],
	])('%s: polls go on without an error, and rows added after the edit are emitted once', async (_edit, before: IDataObject, after: IDataObject) => {
		const trigger = await runningTrigger(before);
		trigger.parameters = after;
		expect(await trigger.poll()).toEqual([]);
		const top = after.newRowPosition === 'top';
		await addRows(FEED, 3, top ? 'top' : 'end');
		expect((await trigger.polls(4)).sort()).toEqual(bankTransactionIds(123, 3).sort());
	});

	it.each([
		['New Rows Appear from the end to Anywhere', { newRowPosition: 'end' }, { newRowPosition: 'anywhere' }],
		['New Rows Appear from the end to the top', { newRowPosition: 'end' }, { newRowPosition: 'top' }],
		['New Rows Appear from the top to the end', { newRowPosition: 'top' }, { newRowPosition: 'end' }],
		['New Rows Appear from Anywhere to the top', {}, { newRowPosition: 'top' }],
		['Full Check Every set', { newRowPosition: 'top' }, { newRowPosition: 'top', options: { fullCheckEvery: 10 } }],
	])('%s keeps the memory: rows added before the edit are emitted by the poll after it', async (_edit, before: IDataObject, after: IDataObject) => {
		const trigger = await runningTrigger(before);
		await addRows(FEED, 2, before.newRowPosition === 'top' ? 'top' : 'end');
		trigger.parameters = after;
		expect((await trigger.poll()).sort()).toEqual(bankTransactionIds(123, 2).sort());
		expect(logged.messages.join('\n')).not.toContain('first run');
		expect(await trigger.polls(2)).toEqual([]);
	});

	it('deactivated and activated again: the activation poll goes on from the memory, rows added meanwhile too', async () => {
		const trigger = await runningTrigger();
		await addRows(FEED, 2);
		expect(await trigger.polls(3)).toEqual(bankTransactionIds(123, 2));
	});

	it('the workflow imported as a copy (another workflow id), with its static data or without: each copy emits the new rows once', async () => {
		const trigger = await runningTrigger();
		const copy = new Trigger({}, NAME, `${trigger.workflowId}-copy`);
		copy.staticData = structuredClone(trigger.staticData);
		const bare = new Trigger({}, NAME, `${trigger.workflowId}-bare`);
		expect(await bare.poll()).toEqual([]);
		await addRows(FEED, 2);
		for (const each of [trigger, copy, bare]) expect(await each.polls(2)).toEqual(bankTransactionIds(123, 2));
	});
});

describe('the way out of an ordered mode\'s error loses no row added after the user acts', () => {
	/** The feed with exactly these bank rows (by number), in this order. */
	const feedOf = async (numbers: number[]) =>
		await control(sandbox, '/reports', { id: FEED, columns: BANK_COLUMNS, rows: numbers.map((n) => generateBankRows(1, n - 1)[0]) });
	const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

	it.each([
		['Full Check Every', { options: { fullCheckEvery: 100 } }],
		['Anywhere', { newRowPosition: 'anywhere' }],
	])('a row deleted stops Appended at the End, saying what to do and what happens to rows added meanwhile; with %s the next poll takes the report as it is, and every later row is emitted', async (_way, wayOut: IDataObject) => {
		const trigger = await runningTrigger({ newRowPosition: 'end' });
		const kept = range(1, 122).filter((n) => n !== 11);
		await feedOf(kept);
		const failed = await trigger.poll().then(
			() => undefined,
			(error: unknown) => error as Error & { description: string },
		);
		expect(failed?.message).toContain('does not allow');
		expect(failed?.description).toContain('rows added since the last successful poll are not emitted');
		expect(failed?.description).toContain('set Full Check Every');
		// A row added before the user chooses cannot be told from old rows.
		await feedOf([...kept, 123]);
		trigger.parameters = { newRowPosition: 'end', ...wayOut };
		expect(await trigger.poll()).toEqual([]);
		expect(logged.messages.join('\n')).toContain('cannot be told from old rows');
		await feedOf([...kept, 123, 124, 125]);
		expect(await trigger.polls(2)).toEqual(bankTransactionIds(124, 2));
	});
});
