/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside
	n8n (`process`) */
/**
 * The change detector against a model of how reports change (reportModel.ts): random histories of a
 * report (rows added at either end and in the middle, deleted, edited, duplicated; columns added,
 * reordered, removed; changes between two page requests of a poll; page caps; polls whose time runs
 * out; the memory stored as JSON between polls, as after a restart) are polled through the detector,
 * and an oracle checks the contract (docs/report-trigger-contract.md):
 *
 * - nothing repeated: no content is emitted more often than rows of it were added since the first
 *   poll (at most max over time of its count, less its count at the first poll);
 * - nothing lost: every row that a poll read while nothing changed is emitted by then;
 * - errors only where the contract names them: a removed column (Whole Row), and in the bounded
 *   ordered modes a change other than rows added at the chosen end.
 *
 * Seeded and shrinking: a failure prints its seed and the smallest history found; replay it with
 * FC_SEED=<seed> (and FC_PATH). FC_NUM_RUNS sets how many histories each property tries (default
 * 2,000 each, 44,000 in all; `npm run test:model-long` tries 100,000 each).
 */
import fc from 'fast-check';

import type { DetectorSettings } from '../../../../nodes/RecordsReportTrigger/detection';
import type { Memory } from '../../../../nodes/RecordsReportTrigger/memory';
import { type Change, ModelReport, pollModel, type PollPlan, type Position, type Step } from './reportModel';
import { Epoch, raise } from './reportOracle';

const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 2_000);
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const PATH = process.env.FC_PATH;
const runs = { numRuns: NUM_RUNS, seed: SEED, path: PATH };

jest.setTimeout(300_000);

// ---- Histories ----------------------------------------------------------------------------------

const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });

/** Any change a report can go through; `columns`: also changes of its columns; `copies`: rows copied. */
const anyChange = (columns: boolean, copies = true): fc.Arbitrary<Change> =>
	fc.oneof(
		{ weight: 4, arbitrary: fc.record({ kind: fc.constant('add' as const), at: fc.oneof(fc.constantFrom('top' as const, 'end' as const), fraction) }) },
		{ weight: copies ? 2 : 0, arbitrary: fc.record({ kind: fc.constant('add' as const), at: fc.oneof(fc.constantFrom('top' as const, 'end' as const), fraction), duplicateOf: fraction }) },
		{ weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fraction }) },
		{ weight: 2, arbitrary: fc.record({ kind: fc.constant('edit' as const), at: fraction }) },
		{ weight: columns ? 1 : 0, arbitrary: fc.constantFrom<Change>({ kind: 'addColumn' }, { kind: 'reorderColumns' }, { kind: 'removeColumn' }) },
	);

/**
 * Only what the ordered modes allow: rows added at their end; by whole row also copies of other rows
 * (by key a copy repeats a key, which a key must not).
 */
const appendAt = (end: 'top' | 'end', copies: boolean): fc.Arbitrary<Change> =>
	copies
		? fc.oneof(fc.constant<Change>({ kind: 'add', at: end }), fraction.map((duplicateOf): Change => ({ kind: 'add', at: end, duplicateOf })))
		: fc.constant<Change>({ kind: 'add', at: end });

/**
 * A poll: its page size and cap, changes between its page requests (`during`: at most that many), and
 * a budget of pages after which its time is up.
 */
const pollPlan = (change: fc.Arbitrary<Change>, budgets: boolean, during: number): fc.Arbitrary<PollPlan> =>
	fc.record({
		pageSize: fc.integer({ min: 1, max: 6 }),
		cap: fc.integer({ min: 1, max: 8 }),
		// One change at most between two page requests: two would hide each other's shift.
		during: fc.uniqueArray(fc.record({ afterPage: fc.integer({ min: 1, max: 8 }), change }), { maxLength: during, selector: (d) => d.afterPage }),
		budgetPages: budgets ? fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }) : fc.constant(undefined),
	});

const history = (change: fc.Arbitrary<Change>, budgets: boolean, during = 3): fc.Arbitrary<Step[]> =>
	fc.array(
		fc.oneof(
			{ weight: 3, arbitrary: change.map((c): Step => ({ kind: 'change', change: c })) },
			{ weight: 2, arbitrary: pollPlan(change, budgets, during).map((plan): Step => ({ kind: 'poll', plan })) },
		),
		{ maxLength: 25 },
	);

interface Scenario {
	position: Position;
	byKey: boolean;
	firstRun: 'remember' | 'emit';
	/** Full Check Every: 0 (the ordered modes remember their window only), or every row remembered. */
	fullCheckEvery: number;
	initial: number;
	alphabet: number;
	windowRows: number;
	/** Every row different from every other. */
	distinct: boolean;
}

const scenario = (position: Position, bounded: boolean, distinct = false) =>
	fc.record({
		distinct: fc.constant(distinct),
		position: fc.constant(position),
		byKey: fc.boolean(),
		firstRun: fc.constantFrom<'remember' | 'emit'>('remember', 'emit'),
		fullCheckEvery: bounded ? fc.constant(0) : fc.integer({ min: 2, max: 8 }),
		initial: fc.integer({ min: 0, max: 12 }),
		alphabet: fc.integer({ min: 1, max: 6 }),
		windowRows: fc.integer({ min: 1, max: 4 }),
	});

// ---- Running a history and the oracle ----------------------------------------------------------

const QUIET: PollPlan = { pageSize: 3, cap: 100, during: [] };

/** The detector's settings for a scenario. */
const settingsOf = (s: Scenario): DetectorSettings => ({
	report: 'model',
	identity: s.byKey ? 'columns' : 'hash',
	position: s.position,
	firstRun: s.firstRun,
	maxRemembered: 1_000_000,
	fullCheckEvery: s.fullCheckEvery,
	keyColumns: () => ['c1'],
	lineage: { id: 'model', since: 0 },
	windowRows: s.windowRows,
});

/** `first`: the plan of the first poll; by default a quiet one, so that what it reads is what is there. */
function runHistory(s: Scenario, steps: Step[], first: PollPlan = QUIET): Epoch {
	const report = new ModelReport(s.initial, s.alphabet, s.byKey, s.distinct);
	const settings = settingsOf(s);
	const epoch = new Epoch(s.byKey, report.made);
	// The ordered modes emit rows by position: each row made once at most.
	epoch.byPosition = s.position !== 'anywhere';
	const rows = () => report.rows.map((row): [string, string] => [report.contentOf(row.cells), report.cellsOf(row.cells)]);
	let memory: Memory | undefined;
	// Whether the report went through a change the chosen mode does not allow since the last read.
	let unexpected = false;
	const allowed = (change: Change) =>
		s.position === 'anywhere' || s.fullCheckEvery > 0 || (change.kind === 'add' && change.at === (s.position === 'top' ? 'top' : 'end'));
	let unexpectedDuring = false;
	const apply = (change: Change) => {
		report.apply(change);
		if (!allowed(change)) unexpected = unexpectedDuring = true;
		if (epoch.started) epoch.saw(rows());
	};
	const all: Step[] = [{ kind: 'poll', plan: first }, ...steps, { kind: 'poll', plan: QUIET }, { kind: 'poll', plan: QUIET }];
	for (const step of all) {
		if (step.kind === 'change') {
			apply(step.change);
			continue;
		}
		unexpectedDuring = false;
		let changedDuring = false;
		// The report as the poll's last request saw it: a first run remembers no more than that.
		let lastServed: Map<string, number> | undefined;
		const outcome = pollModel(
			report,
			memory,
			settings,
			step.plan,
			(change) => {
				changedDuring = true;
				apply(change);
			},
			() => (lastServed = report.counts()),
		);
		if (outcome.kind === 'error') {
			const columnGone = !report.columns.some((c) => c.id === 'c2');
			epoch.errors.push({ message: outcome.error.message, allowed: unexpected || (columnGone && !s.byKey) });
			return epoch;
		}
		// A poll whose time ran out before it could decide emits and remembers nothing.
		if (outcome.kind !== 'emitted') continue;
		if (!epoch.started) {
			epoch.begin(s.firstRun === 'remember' ? (lastServed ?? report.counts()) : undefined);
			epoch.saw(rows());
		}
		if (memory === undefined && s.firstRun === 'remember' && outcome.rows.length > 0) {
			throw new Error('a first run that only remembers emitted rows');
		}
		epoch.emit(outcome.rows.map((row) => report.contentOf(row)));
		// A poll cut short read only part of the report: the next polls emit the rest.
		if (!changedDuring && !outcome.cutShort) raise(epoch.mostRead, report.counts());
		// A read the report changed under sees each part as it was then: it may count a row edited
		// away in one part and a copy of it added in another, so each row made is emitted once at most.
		epoch.byPosition ||= changedDuring;
		// A change the mode does not allow, made while this poll read, shows in the next one.
		unexpected = unexpectedDuring;
		memory = outcome.memory;
	}
	return epoch;
}

const property = (
	scenarios: fc.Arbitrary<Scenario>,
	steps: (s: Scenario) => fc.Arbitrary<Step[]>,
	complete = true,
	first: fc.Arbitrary<PollPlan> = fc.constant(QUIET),
) =>
	fc.property(
		scenarios.chain((s) => fc.tuple(fc.constant(s), steps(s), first)),
		([s, h, plan]) => runHistory(s, h, plan).check(complete),
	);

/** A first run of a report that does not change, as a Decision's memory. */
function firstMemory(s: Scenario, firstRun: 'remember' | 'emit'): Memory {
	const report = new ModelReport(s.initial, s.alphabet, s.byKey, s.distinct);
	const outcome = pollModel(report, undefined, settingsOf({ ...s, firstRun }), QUIET);
	if (outcome.kind !== 'emitted') throw new Error(`the first run ended with ${outcome.kind}`);
	return outcome.memory;
}

describe('change detector, model-based: every new row exactly once, or the error the contract names', () => {
	it('Anywhere, identical rows: any history (rows and columns changed, changes during reads)', () => {
		fc.assert(property(scenario('anywhere', true), () => history(anyChange(true), false)), runs);
	});

	it('Anywhere: any history, with polls whose time runs out (they emit and remember nothing)', () => {
		fc.assert(property(scenario('anywhere', true), () => history(anyChange(true), true)), runs);
	});

	// An ordered poll reads a few ranges; rows added between two of them shift the next one as a
	// whole, which identical rows can hide (a limit the contract states): identical rows are tried with changes
	// between polls, changes during a poll with different rows. A poll reads again when its check
	// fails, 3 times at most: two changes during a poll at most, for "never an error".
	it.each([
		['end', 'a full check, every row remembered', false],
		['top', 'a full check, every row remembered', false],
		['end', 'bounded memory', true],
		['top', 'bounded memory', true],
	] as const)('%s (%s): rows added at that end, identical ones too, exactly once and never an error', (position, _memory, bounded) => {
		fc.assert(property(scenario(position, bounded), (sc) => history(appendAt(position, !sc.byKey), false, 0)), runs);
	});

	it.each([
		['end', 'a full check, every row remembered', false],
		['top', 'a full check, every row remembered', false],
		['end', 'bounded memory', true],
		['top', 'bounded memory', true],
	] as const)('%s (%s): rows added at that end, also during polls, exactly once and never an error', (position, _memory, bounded) => {
		fc.assert(property(scenario(position, bounded, true), () => history(appendAt(position, false), false, 2)), runs);
	});

	// A first run that only remembers reads a bounded ordered mode's edges, not every row: what it
	// remembers must be what a full read would, and rows added while it looks must not be lost.
	it.each(['end', 'top'] as const)('%s (bounded memory): a first run that reads only the edges remembers what a full read remembers', (position) => {
		fc.assert(
			fc.property(scenario(position, true), (s) => {
				expect(firstMemory(s, 'remember')).toEqual(firstMemory(s, 'emit'));
			}),
			runs,
		);
	});

	it.each([
		['end', 'a full check, every row remembered', false],
		['top', 'a full check, every row remembered', false],
		['end', 'bounded memory', true],
		['top', 'bounded memory', true],
	] as const)('%s (%s): rows added at that end during the first poll too, exactly once and never an error', (position, _memory, bounded) => {
		const change = appendAt(position, false);
		fc.assert(property(scenario(position, bounded, true), () => history(change, false, 2), true, pollPlan(change, false, 2)), runs);
	});

	it.each([
		['end', 'a full check, every row remembered', false],
		['top', 'a full check, every row remembered', false],
		['end', 'bounded memory', true],
		['top', 'bounded memory', true],
	] as const)('%s (%s): rows added at that end, polls whose time runs out, exactly once and never an error', (position, _memory, bounded) => {
		// Changes during reads with rows that differ, as above.
		fc.assert(property(scenario(position, bounded, true), () => history(appendAt(position, false), true)), runs);
	});

	it.each([
		['end', 'a full check, every row remembered', false],
		['top', 'a full check, every row remembered', false],
		['end', 'bounded memory', true],
		['top', 'bounded memory', true],
	] as const)('%s (%s): any history of different rows, nothing emitted twice, errors only as named', (position, _memory, bounded) => {
		// Identical rows can hide a change elsewhere from the ordered checks (a limit the contract states).
		fc.assert(property(scenario(position, bounded, true), () => history(anyChange(false, false), true), false), runs);
	});
});
