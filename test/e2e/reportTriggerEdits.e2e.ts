/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * The Records Report Trigger edited while it is active, in a real n8n, the way the editor does it:
 * n8n 2.x saves the workflow and publishes the saved version; n8n 1.x saves it, which updates an
 * active workflow at once. Each edit runs on a workflow (and a sandbox) of its own that has emitted
 * rows before, so that n8n's process remembers what the trigger saved; all run side by side in one
 * n8n, polling every 15 seconds. After each edit the trigger must keep polling without a failed
 * execution, stay active, never refuse a poll for an older memory, and emit every row added after
 * the edit exactly once. (A trigger that starts over takes the report as it is when it does: rows
 * added between the last poll and the edit are not the question here.)
 */
import { readFileSync } from 'node:fs';

import { N8nInstance, type ExecutionSummary, type WorkflowJson } from '../../tooling/n8n/n8nInstance';
import { sleep, waitFor } from '../../tooling/lib/proc';
import { control } from '../../tooling/sandbox/control';
import { bankTransactionIds, startSandbox, type Sandbox } from '../../tooling/sandbox/server';
import { readSetup, runtimesUnderTest, workflow } from './harness';
import { betweenPolls, createReportsCredential, pollEvery15Seconds, reportRequests } from './polling';

const { packed } = readSetup();
const TRIGGER = 'New bank rows';
const KEY = 'ID transakce';
const INITIAL_ROWS = 40;

type Nodes = WorkflowJson['nodes'];

interface Edit {
	title: string;
	/** The trigger's parameters before the edit (besides the report and the poll times). */
	before?: Record<string, unknown>;
	/** Changes the trigger as the editor would (its parameters, its name). */
	change?: (trigger: Nodes[number], feed: Feed) => void;
	/** An edit that is not a change of the node: the workflow deactivated and activated again, or imported as a copy. */
	kind?: 'reactivate' | 'copy';
	/** The trigger starts over as a first run (docs/report-trigger.md, "Editing an active trigger"). */
	startsOver?: true;
}

const EDITS: Edit[] = [
	{ title: 'another report', startsOver: true, change: (trigger, feed) => void (trigger.parameters.report = byId(feed.other)) },
	{ title: 'the node renamed', startsOver: true, change: (trigger) => void (trigger.name = 'Bank rows, renamed') },
	{ title: 'Row Identity Whole Row to Key Columns', startsOver: true, change: (trigger) => Object.assign(trigger.parameters, { rowIdentity: 'columns', keyColumns: KEY }) },
	{ title: 'other Key Columns', startsOver: true, before: { rowIdentity: 'columns', keyColumns: KEY }, change: (trigger) => void (trigger.parameters.keyColumns = `${KEY}, Datum`) },
	{ title: 'New Rows Appear from the end to Anywhere', before: { newRowPosition: 'end' }, change: (trigger) => void (trigger.parameters.newRowPosition = 'anywhere') },
	{ title: 'New Rows Appear from Anywhere to the end', change: (trigger) => void (trigger.parameters.newRowPosition = 'end') },
	{ title: 'options (Full Check Every, Page Size)', before: { newRowPosition: 'end' }, change: (trigger) => void (trigger.parameters.options = { fullCheckEvery: 10, pageSize: 25 }) },
	{ title: 'deactivated and activated again', kind: 'reactivate' },
	{ title: 'the workflow imported as a copy', kind: 'copy', startsOver: true },
];

const byId = (value: string) => ({ __rl: true, mode: 'id', value });

interface Feed {
	edit: Edit;
	sandbox: Sandbox;
	report: string;
	other: string;
	/** The workflows polling: the edited one, and a copy of it where one was imported. */
	workflowIds: string[];
	/** The report the trigger reads after the edit. */
	readsAfter: string;
}

/** The workflow as the editor holds it. */
interface EditorWorkflow {
	id: string;
	name: string;
	nodes: Nodes;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	versionId: string;
	checksum?: string;
}

async function addRows(feed: Feed, report: string, count: number): Promise<string[]> {
	const before = feed.sandbox.state.reports.get(report)!.generated;
	await control(feed.sandbox, `/reports/${report}/rows`, { generate: count });
	return bankTransactionIds(before + 1, count);
}

async function startFeed(n8n: N8nInstance, edit: Edit, index: number): Promise<Feed> {
	const sandbox = await startSandbox({ port: 0, quiet: true, bankRows: 10 });
	const report = `edited-feed-${index}`;
	const other = `other-feed-${index}`;
	for (const id of [report, other]) await control(sandbox, '/reports', { id, generate: 'bank', rows: INITIAL_ROWS });
	const credential = await createReportsCredential(n8n, sandbox, report);
	const json = workflow(`edits${index}`, `Edited bank feed ${index}: ${edit.title}`, [
		{
			name: TRIGGER,
			type: 'n8n-nodes-records.recordsReportTrigger',
			parameters: { pollTimes: pollEvery15Seconds, report: byId(report), ...edit.before },
			credentials: { recordsApi: credential },
		},
	]);
	const workflowId = await n8n.createWorkflow(json, { activate: true });
	const readsAfter = edit.title === 'another report' ? other : report;
	return { edit, sandbox, report, other, workflowIds: [workflowId], readsAfter };
}

/** Writes through the editor's API one at a time: n8n 1.x on sqlite fails overlapping writes. */
let editorWrites: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(write: () => Promise<T>): Promise<T> {
	const done = editorWrites.then(write);
	editorWrites = done.catch(() => undefined);
	return done;
}

const isV2 = (n8n: N8nInstance) => n8n.runtime.spec.name === 'v2';

/** Saves the changed workflow as the editor does, and publishes it (2.x); on 1.x saving an active workflow updates it. */
async function saveAndPublish(n8n: N8nInstance, workflowId: string, change: (nodes: Nodes) => void): Promise<void> {
	await oneAtATime(async () => {
		const current = await n8n.rest<EditorWorkflow>('GET', `/workflows/${workflowId}`);
		const nodes = structuredClone(current.nodes);
		change(nodes);
		const body = { name: current.name, nodes, connections: current.connections, settings: current.settings };
		if (isV2(n8n)) {
			const saved = await n8n.rest<EditorWorkflow>('PATCH', `/workflows/${workflowId}`, { ...body, expectedChecksum: current.checksum });
			await n8n.rest('POST', `/workflows/${workflowId}/activate`, { versionId: saved.versionId, expectedChecksum: saved.checksum });
		} else {
			await n8n.rest('PATCH', `/workflows/${workflowId}`, { ...body, active: true, versionId: current.versionId });
		}
	});
}

/** Deactivates and activates again, as the editor's switch (2.x: unpublish, publish). */
async function reactivate(n8n: N8nInstance, workflowId: string): Promise<void> {
	await oneAtATime(async () => {
		const current = await n8n.rest<EditorWorkflow>('GET', `/workflows/${workflowId}`);
		if (isV2(n8n)) {
			await n8n.rest('POST', `/workflows/${workflowId}/deactivate`, {});
			await n8n.rest('POST', `/workflows/${workflowId}/activate`, { versionId: current.versionId });
		} else {
			const off = await n8n.rest<EditorWorkflow>('PATCH', `/workflows/${workflowId}`, { active: false, versionId: current.versionId });
			await n8n.rest('PATCH', `/workflows/${workflowId}`, { active: true, versionId: off.versionId });
		}
	});
}

/** Imports the workflow as a new one, as the editor's Import from File into a new workflow, and activates it. */
async function importCopy(n8n: N8nInstance, workflowId: string): Promise<string> {
	return await oneAtATime(async () => {
		const current = await n8n.rest<EditorWorkflow>('GET', `/workflows/${workflowId}`);
		const copy: WorkflowJson = { id: '', name: `${current.name} (copy)`, nodes: current.nodes, connections: current.connections, settings: current.settings };
		return await n8n.createWorkflow(copy, { activate: true });
	});
}

async function applyEdit(n8n: N8nInstance, feed: Feed): Promise<void> {
	const [workflowId] = feed.workflowIds;
	const { edit } = feed;
	if (edit.kind === 'reactivate') await reactivate(n8n, workflowId);
	else if (edit.kind === 'copy') feed.workflowIds.push(await importCopy(n8n, workflowId));
	else await saveAndPublish(n8n, workflowId, (nodes) => edit.change!(nodes[0], feed));
}

/**
 * How often each row was emitted by each workflow of the feed (by executions started at `since` or
 * later: both reports of a feed number their rows from 1), and the executions that did not succeed.
 */
async function emitted(n8n: N8nInstance, feed: Feed, since = 0): Promise<{ counts: Array<Map<string, number>>; failed: string[] }> {
	const failed: string[] = [];
	const counts = await Promise.all(
		feed.workflowIds.map(async (workflowId) => {
			const executions: ExecutionSummary[] = await n8n.executions(workflowId);
			const count = new Map<string, number>();
			for (const execution of executions) {
				if (execution.status !== 'success') failed.push(`workflow ${workflowId} #${execution.id} ${execution.status}`);
				if (Date.parse(execution.startedAt) < since) continue;
				for (const runs of Object.values(execution.data?.resultData.runData ?? {})) {
					for (const item of runs.flatMap((run) => run.data?.main?.[0] ?? [])) {
						const id = String(item.json[KEY]);
						count.set(id, (count.get(id) ?? 0) + 1);
					}
				}
			}
			return count;
		}),
	);
	return { counts, failed };
}

async function waitForEmitted(n8n: N8nInstance, feed: Feed, ids: string[], since = 0): Promise<void> {
	const from = reportRequests(feed.sandbox);
	await waitFor(
		`rows ${ids.join(', ')} to be emitted (${feed.edit.title})`,
		async () => {
			const { counts } = await emitted(n8n, feed, since);
			return counts.every((count) => ids.every((id) => count.has(id))) ? true : undefined;
		},
		{ timeoutMs: 75_000, intervalMs: 1000 },
	).catch((error: Error) => {
		throw new Error(`${error.message}; report requests since: ${reportRequests(feed.sandbox) - from}`);
	});
}

/**
 * Waits until each of the workflows has a memory in n8n's database that `done` accepts. n8n saves
 * what a trigger remembers after its activation and after an emitting poll, without waiting for the
 * save; on a busy machine a save can land seconds later, and an edit published before it reloads
 * the memory saved before (the guard then refuses to emit from it: pollGuard.ts).
 */
async function memoriesSaved(n8n: N8nInstance, workflowIds: string[], what: string, done: (memory: MemoryMark) => boolean): Promise<void> {
	await waitFor(
		what,
		async () => {
			const stored = await Promise.all(workflowIds.map(async (id) => memoriesIn((await n8n.api<{ staticData?: unknown }>('GET', `/workflows/${id}`)).staticData)));
			return stored.every((memories) => memories.some(done)) ? true : undefined;
		},
		{ timeoutMs: 75_000, intervalMs: 500 },
	);
}

interface MemoryMark {
	since: number;
	generation: number;
}

/** The trigger memories in a workflow's static data (objects with a line, its start and a generation). */
function memoriesIn(data: unknown): MemoryMark[] {
	if (typeof data === 'string') {
		try {
			return memoriesIn(JSON.parse(data));
		} catch {
			return [];
		}
	}
	if (data === null || typeof data !== 'object') return [];
	const record = data as Record<string, unknown>;
	const own = typeof record.lineage === 'string' && typeof record.since === 'number' && typeof record.generation === 'number' ? [{ since: record.since, generation: record.generation }] : [];
	return [...own, ...Object.values(record).flatMap(memoriesIn)];
}

/** One edit from start to end; returns what went wrong (all empty when nothing did). */
async function editScenario(n8n: N8nInstance, feed: Feed) {
	// The activation poll is a first run: it remembers the report. Then rows emitted by a scheduled
	// poll, and what it remembered saved (a generation past the first run's) before the edit.
	await memoriesSaved(n8n, feed.workflowIds, `the first run to be saved (${feed.edit.title})`, () => true);
	await waitForEmitted(n8n, feed, await addRows(feed, feed.report, 2));
	await memoriesSaved(n8n, feed.workflowIds, `the emitting poll's memory to be saved (${feed.edit.title})`, (memory) => memory.generation > 1);
	await betweenPolls(feed.sandbox);
	const before = reportRequests(feed.sandbox);
	const editedAt = Date.now() - 1000;
	await applyEdit(n8n, feed);
	// The poll made when the edited trigger is activated again (2.x publishes in the background). A
	// trigger that starts over takes the report as it is then, so rows are added only once every
	// workflow of the feed remembers a first run begun after the edit (a scheduled poll of the old
	// version can be the request counted here, on a busy machine).
	await betweenPolls(feed.sandbox, { after: before + 1 });
	if (feed.edit.startsOver) {
		const starting = feed.edit.kind === 'copy' ? feed.workflowIds.slice(1) : feed.workflowIds;
		await memoriesSaved(n8n, starting, `a first run after the edit to be saved (${feed.edit.title})`, (memory) => memory.since >= editedAt);
	}
	const added = await addRows(feed, feed.readsAfter, 3);
	await waitForEmitted(n8n, feed, added, editedAt);
	// Two more scheduled polls: they emit nothing more, and fail nothing.
	await sleep(31_000);
	await betweenPolls(feed.sandbox);
	const { counts, failed } = await emitted(n8n, feed, editedAt);
	const active = await Promise.all(feed.workflowIds.map(async (id) => (await n8n.api<{ active: boolean }>('GET', `/workflows/${id}`)).active));
	return {
		repeated: counts.flatMap((count) => added.filter((id) => (count.get(id) ?? 0) !== 1).map((id) => `${id} ${count.get(id) ?? 0} times`)),
		failed,
		inactive: active.filter((on) => !on).length,
	};
}

describe.each(runtimesUnderTest())('edits of an active Records Report Trigger in %s', (_title, runtime) => {
	let n8n: N8nInstance;
	const feeds: Feed[] = [];

	beforeAll(async () => {
		n8n = await N8nInstance.create({ runtime, package: packed });
		await n8n.start();
		await n8n.publicApiKey();
	});

	afterAll(async () => {
		await n8n?.stop();
		await Promise.all(feeds.map((feed) => feed.sandbox.close()));
	});

	test('after each edit the trigger keeps polling without a failed execution, and every row added after the edit is emitted exactly once', async () => {
		for (const [index, edit] of EDITS.entries()) feeds.push(await startFeed(n8n, edit, index));
		const settled = await Promise.allSettled(feeds.map(async (feed) => await editScenario(n8n, feed)));
		const outcomes = settled.map((outcome, index) => [EDITS[index].title, outcome.status === 'fulfilled' ? outcome.value : String(outcome.reason)]);
		const fine = { repeated: [], failed: [], inactive: 0 };
		expect(Object.fromEntries(outcomes)).toEqual(Object.fromEntries(EDITS.map((edit) => [edit.title, fine])));
		// The guard's protection against an older memory never fired on this one process.
		expect(readFileSync(n8n.serverLog, 'utf8')).not.toContain('handed this poll');
	});
});
