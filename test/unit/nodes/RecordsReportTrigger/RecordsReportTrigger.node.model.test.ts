/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside
	n8n (`process`) */
/**
 * The Records Report Trigger, model-based, as n8n runs it: random histories of a report, of a user
 * editing the trigger and of n8n's clock, each poll made through n8n's poll engine (n8n-core's
 * PollContext and TriggersAndPollers, by the harness's runPoll), the node's guard, pollReport, the
 * paging engine and the transport, against a service simulated in memory (virtualService.ts) whose
 * rows the history changes, also between two page requests of a poll.
 *
 * A history holds: rows added where the trigger's mode says new rows appear (copies of other rows
 * too: identical rows, at page boundaries as often as not); polls, each with n8n's time budget or
 * none, on a virtual clock that every request advances, against a service whose paging the history
 * chooses (pages capped silently by rows or bytes, a hard maximum on `limit` refused with 400, 413,
 * 422 or a 200 and an error object, a depth window that refuses any request reaching past it, offsets
 * past the end answered with errors), with a Page Size of the node's choosing or fixed, also above
 * the service's maximum; edits of the trigger between polls, each followed by the poll n8n makes when it
 * activates the edited trigger (another report, another Row Identity, New Rows Appear, Full Check
 * Every, a renamed node, renamed back, deactivated and activated); and polls handed an older copy of
 * the memory. The oracle (reportOracle.ts) judges every stretch of polls of one memory: each new row
 * emitted exactly once by the end, no errors but those the contract names where it names them (the
 * budget's; a fixed Page Size above what the service serves; a report as deep as the service's depth
 * window or deeper, which must fail naming it, never read short), a first run that only remembers
 * never emitting, and an older memory never emitted from. The first poll has a budget too, as often as
 * not: in Anywhere its first run then goes on over several polls (firstRunParts.ts), and the oracle
 * holds it to what that promises (reportOracle.ts).
 *
 * Seeded and shrinking: a failure prints its seed, the smallest history found and the command that
 * replays it (FC_SEED=<seed> FC_PATH=<path>). FC_NUM_RUNS sets how many histories each property tries.
 */
import fc from 'fast-check';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { type Change, ModelReport, type Position } from './reportModel';
import { Epoch, raise } from './reportOracle';
import { byId, type Refusal, type ReportTable, type ServiceRules, VirtualService, VirtualTrigger } from './virtualService';

// A small window, so that reports of a few dozen rows are longer than it.
jest.mock('../../../../nodes/RecordsReportTrigger/memory', () => ({ ...jest.requireActual('../../../../nodes/RecordsReportTrigger/memory'), WINDOW_ROWS: 4 }));

/** A fault put into the node's output on purpose, to see the oracle fail (below). */
let mockBroken: 'drop' | 'repeat' | 'old' | undefined;
let mockEmittedBefore: IDataObject | undefined;
jest.mock('../../../../nodes/RecordsReportTrigger/pollOutput', () => {
	const actual = jest.requireActual<typeof import('../../../../nodes/RecordsReportTrigger/pollOutput')>('../../../../nodes/RecordsReportTrigger/pollOutput');
	return {
		...actual,
		outputItems: (rows: IDataObject[], ...rest: unknown[]) => {
			let out = rows;
			if (mockBroken === 'drop') out = rows.slice(1);
			if (mockBroken === 'repeat' && rows.length > 0) out = [rows[0], ...rows];
			if (mockBroken === 'old' && mockEmittedBefore !== undefined) out = [mockEmittedBefore, ...rows];
			mockEmittedBefore = rows[rows.length - 1] ?? mockEmittedBefore;
			return (actual.outputItems as (...args: unknown[]) => unknown)(out, ...rest);
		},
	};
});

const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 2_500);
/**
 * One seed in `npm test`, so that CI runs the same histories each time; FC_SEED=random (or any
 * number) explores others, as `npm run test:model-long` does. Histories of wholly identical rows
 * still find counterexamples outside this seed (CONTRIBUTING.md, "Known model-test findings").
 */
const SEED = process.env.FC_SEED === undefined ? 1 : process.env.FC_SEED === 'random' ? undefined : Number(process.env.FC_SEED);
const PATH = process.env.FC_PATH;
const runs = { numRuns: NUM_RUNS, seed: SEED, path: PATH };

/** fc.assert, whose failure also says how to replay it. */
async function assertReplayable<T>(property: fc.IAsyncProperty<T>, parameters: fc.Parameters<T>): Promise<void> {
	const details = await fc.check(property, parameters);
	if (!details.failed) return;
	const replay = `Replay: FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath ?? ''} npx jest ${__filename.replace(/^.*?(test\/unit\/)/, '$1')}`;
	const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
	throw new Error(`${fc.defaultReportMessage(details)}\n${cause}\n${replay}`);
}

jest.setTimeout(600_000);

// ---- Histories ----------------------------------------------------------------------------------

/** A row added where the mode in force says new rows appear (Anywhere: at `at`), a copy of another or new. */
interface Added {
	at: number;
	copyOf?: number;
}

type Edit =
	| { kind: 'report' }
	| { kind: 'identity' }
	| { kind: 'position'; to: Position }
	| { kind: 'fullCheck' }
	| { kind: 'rename'; to: number }
	| { kind: 'reactivate' };

/**
 * A change of the report: a row added where new rows appear, a column added at the front of a report
 * whose column ids are positions (every id moves, the names stay), or (Anywhere) any change.
 */
type Changed = { kind: 'added'; row: Added } | { kind: 'columnsMoved' } | { kind: 'any'; change: Change };

type Step =
	| { kind: 'change'; change: Changed }
	| { kind: 'poll'; budgetMs?: number; during: Array<{ afterRequest: number; change: Changed }> }
	| { kind: 'edit'; edit: Edit }
	| { kind: 'stale' };

interface History {
	/** The rows' first cell: a key of their own (K1, K2…), or a label from a small alphabet (identical rows). */
	keyed: boolean;
	alphabet: number;
	initial: number;
	position: Position;
	byKey: boolean;
	firstRun: 'remember' | 'emit';
	fullCheckEvery: number;
	/** Page Size: fixed (small: many page boundaries), or chosen by the node. */
	pageSize?: number;
	/** Whether a fixed Page Size above what the service serves is lowered to it (else: the error naming it). */
	fitPageSize: boolean;
	service: ServiceRules;
	/** n8n's budget for the first poll, or none. */
	firstBudgetMs?: number;
	steps: Step[];
	/** The last polls, each after a row added at the chosen end: with a budget for the ordered read; whether the column ids move before it. */
	tight: boolean[];
}

const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });
const added: fc.Arbitrary<Added> = fc.record({ at: fraction, copyOf: fc.option(fraction, { nil: undefined }) });
const positions = fc.constantFrom<Position>('anywhere', 'end', 'top');

/** Edits of the trigger; `positions`: whether New Rows Appear is among them. */
const edit = (positioned: boolean): fc.Arbitrary<Edit> =>
	fc.oneof(
		fc.constant<Edit>({ kind: 'report' }),
		fc.constant<Edit>({ kind: 'identity' }),
		{ weight: positioned ? 1 : 0, arbitrary: positions.map((to): Edit => ({ kind: 'position', to })) },
		fc.constant<Edit>({ kind: 'fullCheck' }),
		fc.integer({ min: 0, max: 2 }).map((to): Edit => ({ kind: 'rename', to })),
		fc.constant<Edit>({ kind: 'reactivate' }),
	);

/** Rows added where new rows appear, or (`any`) any change of the rows or columns but a removed column. */
const changed = (any: boolean): fc.Arbitrary<Changed> =>
	fc.oneof(
		{ weight: 3, arbitrary: added.map((row): Changed => ({ kind: 'added', row })) },
		{ weight: 1, arbitrary: fc.constant<Changed>({ kind: 'columnsMoved' }) },
		{
			weight: any ? 2 : 0,
			arbitrary: fc
				.oneof(
					fc.record({ kind: fc.constant('delete' as const), at: fraction }),
					fc.record({ kind: fc.constant('edit' as const), at: fraction }),
					fc.constantFrom<Change>({ kind: 'addColumn' }, { kind: 'reorderColumns' }),
				)
				.map((change): Changed => ({ kind: 'any', change })),
		},
	);

/** n8n's budget for a poll on the virtual clock, or none (n8n 1.x): a few requests' time. */
const budget = fc.option(fc.integer({ min: 300, max: 4_000 }), { nil: undefined, freq: 2 });

const poll = (any: boolean): fc.Arbitrary<Step> =>
	fc.record({
		kind: fc.constant('poll' as const),
		budgetMs: budget,
		// One change between two page requests at most: two would hide each other's shift.
		during: fc.uniqueArray(fc.record({ afterRequest: fc.integer({ min: 1, max: 8 }), change: changed(any) }), { maxLength: 2, selector: (d) => d.afterRequest }),
	});

const steps = (any: boolean): fc.Arbitrary<Step[]> =>
	fc.array(
		fc.oneof(
			{ weight: 4, arbitrary: changed(any).map((change): Step => ({ kind: 'change', change })) },
			{ weight: 3, arbitrary: poll(any) },
			{ weight: 1, arbitrary: edit(!any).map((e): Step => ({ kind: 'edit', edit: e })) },
			{ weight: 1, arbitrary: fc.constant<Step>({ kind: 'stale' }) },
		),
		{ maxLength: 30 },
	);

const refusals = fc.constantFrom<Refusal>(400, 413, 422, 'errorObject');

/** How the service pages: as the guide says, or with the limits services unlike it have, in any combination. */
const service: fc.Arbitrary<ServiceRules> = fc.record({
	latencyMs: fc.integer({ min: 50, max: 400 }),
	rowCap: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
	byteCap: fc.option(fc.integer({ min: 40, max: 200 }), { nil: undefined }),
	// Below a fixed Page Size, or below the node's first pages (1,000 rows, and the guide's 100).
	maxLimit: fc.option(fc.oneof(fc.integer({ min: 2, max: 8 }), fc.integer({ min: 100, max: 1_500 })), { nil: undefined }),
	overLimit: refusals,
	// One service in four, within the reports' sizes (a few dozen rows): reports grow past it, some start past it.
	depthLimit: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.integer({ min: 3, max: 40 }) }),
	// As search back ends answer a request past their result window: 400 or 422, or an error object.
	deepAnswer: fc.constantFrom<Refusal>(400, 422, 'errorObject'),
	pastEnd: fc.constantFrom<ServiceRules['pastEnd']>('empty', 400, 404, 'errorObject'),
});

/** Histories of rows added where New Rows Appear says, in every mode; or (`any`) of any change, in Anywhere. */
const history = (any: boolean): fc.Arbitrary<History> =>
	fc.record({
		keyed: fc.boolean(),
		alphabet: fc.integer({ min: 1, max: 4 }),
		initial: fc.integer({ min: 0, max: 14 }),
		position: any ? fc.constant<Position>('anywhere') : positions,
		byKey: fc.boolean(),
		firstRun: fc.constantFrom<'remember' | 'emit'>('remember', 'emit'),
		fullCheckEvery: fc.constantFrom(0, 0, 3),
		pageSize: fc.option(fc.integer({ min: 1, max: 7 }), { nil: undefined, freq: 4 }),
		fitPageSize: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
		service,
		firstBudgetMs: budget,
		steps: steps(any),
		tight: fc.array(fc.integer({ min: 0, max: 4 }).map((n) => n === 0), { maxLength: 4 }),
	})
		// A service refusing every `limit` from the guide's 100 on (a maximum or a depth window below it)
		// needs a Page Size set within it: the node's own pages fall back to 100 rows, no lower, and a
		// refusal of those is the service's error. A fixed Page Size above it is lowered to it, or (one in
		// four) stays: an error naming it.
		.map((h) => {
			const below = Math.min(h.service.maxLimit ?? Infinity, h.service.depthLimit ?? Infinity);
			if (h.pageSize === undefined) return below < 100 ? { ...h, pageSize: Math.min(below, 7) } : h;
			return h.fitPageSize && h.pageSize > below ? { ...h, pageSize: below } : h;
		});

/**
 * The errors the contract names for the service's limits: a fixed Page Size above what it serves at
 * the first row, and a report as deep as its depth window or deeper (`deepest`: the most rows the
 * report had during the poll), which must fail naming the row past which it cannot be read.
 */
function limitError(h: History, message: string, deepest: number): boolean {
	const { maxLimit = Infinity, depthLimit = Infinity } = h.service;
	if (h.pageSize !== undefined && h.pageSize > Math.min(maxLimit, depthLimit) && /The service refused a page of \d+ rows/.test(message)) return true;
	return deepest >= depthLimit && /cannot be read past row \d+: the service refuses to serve rows beyond it/.test(message);
}

// ---- Running a history -------------------------------------------------------------------------

const NAMES = ['Records Report Trigger', 'Bank rows', 'Fees'];
const REPORTS = ['A', 'B'];
let workflows = 0;

/** A model report as the service serves it. */
const table = (report: ModelReport, front: () => number): ReportTable => ({
	get columns() {
		return served(report, front()).columns;
	},
	get rows() {
		return served(report, front()).rows;
	},
});

/**
 * The report as a service serves it whose column ids are positions, after `front` columns were added
 * at the front: every column's id is its position (c1…), the model's own ids only where none was added
 * (and `front` is 0, as the model numbers its columns).
 */
function served(report: ModelReport, front: number): ReportTable {
	if (front === 0) return { columns: report.columns, rows: report.rows.map((row) => row.cells) };
	const added = Array.from({ length: front }, (_, i) => ({ id: `front${i}`, name: `Bank ${i + 1}` }));
	const all = [...added, ...report.columns];
	return {
		columns: all.map((column, i) => ({ id: `c${i + 1}`, name: column.name })),
		rows: report.rows.map((row) => Object.fromEntries(all.map((column, i) => [`c${i + 1}`, column.id.startsWith('front') ? 'CZ01' : row.cells[column.id]]))),
	};
}

/** A row as the trigger emits it (its cells by column name), in the model's column ids. */
const modelCells = (json: IDataObject): IDataObject => ({ c1: json.Key, c2: json.Amount });

/**
 * Requests beyond three times a quiet poll's that the budget of the last polls of a history allows: time for
 * an ordered poll with a new row, not (as often as not) for a full read.
 */
const TIGHT_EXTRA = 24;

/** Whether the memory stored under the node's name says a first run goes on (firstRunParts.ts). */
const readsOn = (staticData: IDataObject, name: string): boolean =>
	(staticData[`node:${name}`] as { reportRows?: { readOnAt?: number } } | undefined)?.reportRows?.readOnAt !== undefined;

/** What the trigger remembers under one node name, for the oracle: the memory's stretch of polls. */
interface Stored {
	epoch: Epoch;
	report: number;
	byKey: boolean;
}

class Run {
	readonly service = new VirtualService();
	readonly reports: ModelReport[];
	readonly trigger: VirtualTrigger;
	readonly epochs: Epoch[] = [];
	report = 0;
	/** Columns added at the front of the reports so far (their ids are positions). */
	front = 0;
	position: Position;
	byKey: boolean;
	fullCheckEvery: number;
	name = 0;
	/** The epoch of the memory stored under each name. */
	private readonly stored = new Map<number, Stored>();
	/** The memory the last emitting poll saved (the guard's), and the static data before that poll. */
	private lastEmitted: Stored | undefined;
	private beforeEmitting: IDataObject | undefined;

	constructor(readonly h: History) {
		this.position = h.position;
		this.byKey = h.byKey;
		this.fullCheckEvery = h.fullCheckEvery;
		this.reports = REPORTS.map(() => new ModelReport(h.initial, h.alphabet, h.keyed));
		REPORTS.forEach((id, index) =>
			this.service.reports.set(
				id,
				table(this.reports[index], () => this.front),
			),
		);
		this.service.rules = h.service;
		this.trigger = new VirtualTrigger(this.service, {}, `model-${++workflows}`);
	}

	private get model(): ModelReport {
		return this.reports[this.report];
	}

	private rows(byKey = this.byKey): Array<[string, string]> {
		return this.model.rows.map((row) => [this.model.contentOf(row.cells, byKey), this.model.cellsOf(row.cells)]);
	}

	private parameters(): void {
		this.trigger.name = NAMES[this.name];
		this.trigger.parameters = {
			report: byId(REPORTS[this.report]),
			rowIdentity: this.byKey ? 'columns' : 'hash',
			keyColumns: 'Key',
			newRowPosition: this.position,
			firstRun: this.h.firstRun,
			options: { outputKeys: 'name', ...(this.h.pageSize === undefined ? {} : { pageSize: this.h.pageSize }), fullCheckEvery: this.fullCheckEvery },
		};
	}

	/** Changes the report (a row added where the mode in force says new rows appear); notes it in the epochs of its memories. */
	change(changed: Changed): void {
		if (changed.kind === 'columnsMoved') this.front = Math.min(3, this.front + 1);
		else if (changed.kind === 'any') this.model.apply(changed.change);
		else this.model.apply({ kind: 'add', at: this.position === 'anywhere' ? changed.row.at : this.position, duplicateOf: changed.row.copyOf });
		// A memory left under another name may be gone on from again (renamed back): its epoch sees it too.
		for (const stored of new Set(this.stored.values())) {
			if (stored.report !== this.report) continue;
			stored.epoch.saw(this.rows(stored.byKey));
			stored.epoch.spread ||= stored.epoch.partial;
		}
	}

	private current(): Stored | undefined {
		const stored = this.stored.get(this.name);
		return stored !== undefined && stored.report === this.report && stored.byKey === this.byKey ? stored : undefined;
	}

	/**
	 * The memory a poll under the current name goes on from: the one stored there, unless it belongs to
	 * another report or identity, or is older than what the last emitting poll saved under another name
	 * (the node was renamed back): then the poll starts over.
	 */
	private goesOnFrom(): Stored | undefined {
		const stored = this.current();
		if (stored === undefined || this.lastEmitted === undefined) return stored;
		return this.epochs.indexOf(stored.epoch) < this.epochs.indexOf(this.lastEmitted.epoch) ? undefined : stored;
	}

	/** Whether every row of the report differs from every other. */
	private distinct(): boolean {
		return new Set(this.model.rows.map((row) => this.model.cellsOf(row.cells))).size === this.model.rows.length;
	}

	/** One poll; what it emitted, or its error. */
	async poll(
		budgetMs: number | undefined,
		during: Array<{ afterRequest: number; change: Changed }> = [],
		stale?: IDataObject,
	): Promise<{ emitted: number; error?: string; limited?: boolean }> {
		this.parameters();
		this.trigger.budgetMs = budgetMs;
		const from = this.goesOnFrom();
		const first = this.service.requests;
		let lastServed: Map<string, number> | undefined;
		let changedDuring = false;
		let deepest = this.model.rows.length;
		this.service.afterAnswer = (request) => {
			lastServed = this.model.counts(this.byKey);
			deepest = Math.max(deepest, this.model.rows.length);
			// Identical rows can hide a change between the ranges of an ordered poll (the contract's limit).
			if (this.position !== 'anywhere' && !this.distinct()) return;
			for (const change of during) {
				if (change.afterRequest !== request - first) continue;
				changedDuring = true;
				this.change(change.change);
			}
		};
		const before = this.trigger.staticData;
		const atStart = this.model.counts(this.byKey);
		const partBefore = readsOn(stale ?? before, this.trigger.name);
		const started = this.service.clock.now;
		const result = await this.trigger.poll('trigger', stale ?? before);
		this.service.afterAnswer = () => undefined;
		// n8n abandons a poll at its timeout (a budget and a fifth) and throws its result away.
		if (budgetMs !== undefined && this.service.clock.now - started > budgetMs * 1.25) {
			this.trigger.staticData = before;
			return { emitted: 0, error: 'abandoned by n8n at its timeout' };
		}
		if (stale !== undefined) {
			this.trigger.staticData = before;
			if (result.items !== null) throw new Error('a poll handed an older memory emitted rows');
			return { emitted: 0 };
		}
		if (result.error !== undefined) {
			// The errors a poll may end with here: its time ran out (nothing emitted or remembered), or a
			// limit of the service the contract names.
			if (budgetMs !== undefined && /could not be read within the time|changed while it was being read/.test(result.error.message)) return { emitted: 0, error: result.error.message };
			if (limitError(this.h, result.error.message, Math.max(deepest, this.model.rows.length))) return { emitted: 0, error: result.error.message, limited: true };
			throw new Error(`an error the contract does not name: ${result.error.message}`);
		}
		let stored = from;
		if (stored === undefined) {
			const epoch = new Epoch(this.byKey, this.model.madeFor(this.byKey));
			// Rows added while a first run reads may be read by it (there before) or not (new).
			const served = lastServed ?? this.model.counts(this.byKey);
			epoch.begin(this.h.firstRun === 'remember' ? (changedDuring ? atStart : served) : undefined);
			if (this.h.firstRun === 'remember' && changedDuring) epoch.readOn(served);
			epoch.saw(this.rows());
			this.epochs.push(epoch);
			stored = { epoch, report: this.report, byKey: this.byKey };
			if (this.h.firstRun === 'remember' && (result.items ?? []).length > 0) throw new Error('a first run that only remembers emitted rows');
		}
		this.stored.set(this.name, stored);
		const { epoch } = stored;
		// Anywhere, a first run going on over several polls: what it reads counts as there (Only Remember Them).
		epoch.partial = readsOn(this.trigger.staticData, this.trigger.name);
		if (this.h.firstRun === 'remember' && (partBefore || epoch.partial)) {
			if (partBefore && (result.items ?? []).length > 0) throw new Error('a first run that only remembers emitted rows in a later poll');
			epoch.readOn(lastServed ?? this.model.counts(this.byKey));
		}
		epoch.emit((result.items ?? []).map((item: INodeExecutionData) => this.model.contentOf(modelCells(item.json), this.byKey)));
		// The ordered modes emit rows by position (each row made once at most), as does a read the
		// report changed under. A poll with a budget may be cut short: only others show what was there.
		epoch.byPosition ||= changedDuring || this.position !== 'anywhere';
		// A poll of a first run going on over several polls reads the rows from where it reads on only.
		if (!changedDuring && budgetMs === undefined && !partBefore && !epoch.partial) raise(epoch.mostRead, this.model.counts(this.byKey));
		if (result.items !== null) {
			this.lastEmitted = stored;
			this.beforeEmitting = before;
		}
		return { emitted: (result.items ?? []).length };
	}

	/**
	 * Liveness, in an ordered mode: after a poll that reads what is there, polls whose budget fits the
	 * mode's read but not, as often as not, a full read, each after a row added at the chosen end. No
	 * configuration stops for good on a report it can read at that end: each poll emits its row, also
	 * where a full check falls due or the column ids move.
	 */
	async tight(moves: readonly boolean[]): Promise<void> {
		if (this.position === 'anywhere') return;
		await this.poll(undefined);
		// A quiet poll's requests on this service: three times as many, and some for the new row (pages of
		// one row cost three requests a row), fit an ordered poll.
		const before = this.service.requests;
		await this.poll(undefined);
		const budgetMs = this.h.service.latencyMs * (3 * (this.service.requests - before) + TIGHT_EXTRA);
		for (const move of moves) {
			this.change({ kind: 'added', row: { at: 0 } });
			if (move) this.change({ kind: 'columnsMoved' });
			const result = await this.poll(budgetMs);
			// A limit of the service: the contract's error, for this poll and every later one.
			if (result.limited === true) return;
			// By key, rows of a small alphabet repeat a key emitted before: not emitted (the oracle counts them).
			const expected = this.byKey && !this.h.keyed ? result.emitted : 1;
			if (result.error !== undefined || result.emitted !== expected) {
				throw new Error(`a poll with time for New Rows Appear "${this.position}" emitted ${result.emitted} of 1 new rows${result.error === undefined ? '' : `: ${result.error}`}`);
			}
		}
	}

	async stale(): Promise<void> {
		// n8n hands a poll a copy of the memory from before the last emitting poll saved.
		if (this.beforeEmitting !== undefined && this.lastEmitted === this.current()) await this.poll(undefined, [], this.beforeEmitting);
	}

	async edit(change: Edit): Promise<void> {
		// An edit while a first run goes on over several polls: rows it had not read may come as new.
		const going = this.current();
		if (going !== undefined) going.epoch.spread ||= going.epoch.partial;
		if (change.kind === 'report') this.report = 1 - this.report;
		else if (change.kind === 'identity') this.byKey = !this.byKey;
		else if (change.kind === 'position') this.position = change.to;
		else if (change.kind === 'fullCheck') this.fullCheckEvery = this.fullCheckEvery > 0 ? 0 : 3;
		else if (change.kind === 'rename') this.name = change.to;
		// n8n polls the edited trigger when it activates it again.
		await this.poll(undefined);
	}
}

async function runHistory(h: History): Promise<Epoch[]> {
	const run = new Run(h);
	const restore = run.service.clock.install();
	try {
		await run.poll(h.firstBudgetMs);
		for (const s of h.steps) {
			if (s.kind === 'change') run.change(s.change);
			else if (s.kind === 'poll') await run.poll(s.budgetMs, s.during);
			else if (s.kind === 'edit') await run.edit(s.edit);
			else await run.stale();
		}
		await run.tight(h.tight);
		// Quiet polls without a budget: every row added by now is emitted by them.
		await run.poll(undefined);
		await run.poll(undefined);
		return run.epochs;
	} finally {
		restore();
	}
}

const property = (histories: fc.Arbitrary<History>) =>
	fc.asyncProperty(histories, async (h) => {
		mockEmittedBefore = undefined;
		for (const epoch of await runHistory(h)) epoch.check(true);
	});

describe('Records Report Trigger through n8n\'s poll engine, model-based: every row added emitted exactly once, whatever the user edits and whatever the time', () => {
	it.each<[string, fc.Arbitrary<History>]>([
		['every mode and its edits, rows added where New Rows Appear says, identical ones at page boundaries too, budgets, older memories', history(false)],
		['Anywhere: any change of rows and columns, also while a poll pages, edits, budgets, older memories', history(true)],
	])('%s', async (_title, histories) => {
		await assertReplayable(property(histories), runs);
	});

	// The oracle itself: a node that drops a row of what it emits, emits one twice, or emits again a
	// row it emitted before, fails it.
	it.each(['drop', 'repeat', 'old'] as const)('the oracle fails a node that breaks its output (%s)', async (broken) => {
		mockBroken = broken;
		try {
			const outcome = await fc.check(property(history(false)), { numRuns: 300, seed: SEED });
			expect(outcome.failed).toBe(true);
		} finally {
			mockBroken = undefined;
		}
	});
});
