/* eslint-disable @n8n/community-nodes/require-node-api-error -- a test: its errors are not a
	node's */
/**
 * The model behind the change detector's property tests: a report held in memory that a history of
 * changes edits (also between two page requests of a poll), a driver that polls it through the
 * change detector as readReport.ts does (ranges read in pages, each page after the first checked for
 * a shift, a read started again when one is found, a poll whose time is up cut short or failed),
 * and an oracle that knows from the report's history which rows may and must be emitted.
 */
import type { ReportColumn, ReportRow } from '../../../../nodes/shared/report/rows';
import { ChangeDetector } from '../../../../nodes/RecordsReportTrigger/changeDetector';
import { ChangedDuringRead, DetectorError, type DetectorSettings } from '../../../../nodes/RecordsReportTrigger/detection';
import { type Memory, readMemory } from '../../../../nodes/RecordsReportTrigger/memory';
import { TrailingRun } from '../../../../nodes/shared/report/trailingRun';

export type Position = 'anywhere' | 'end' | 'top';

/** One change of the report. `at` is a fraction of the report's length, so any report fits it. */
export type Change =
	| { kind: 'add'; at: 'top' | 'end' | number; duplicateOf?: number }
	| { kind: 'delete'; at: number }
	| { kind: 'edit'; at: number }
	| { kind: 'addColumn' }
	| { kind: 'reorderColumns' }
	| { kind: 'removeColumn' };

export interface PollPlan {
	/** Rows the service serves per page, and a cap it silently applies. */
	pageSize: number;
	cap: number;
	/** Changes made after the n-th page request of the poll. */
	during: Array<{ afterPage: number; change: Change }>;
	/** The poll's time is up after this many pages (undefined: it never is). */
	budgetPages?: number;
}

export type Step = { kind: 'change'; change: Change } | { kind: 'poll'; plan: PollPlan };

/** Row cells: c1 the key (or a label), c2 an amount; c3 a column added later. */
interface ModelRow {
	cells: ReportRow;
}

export class ModelReport {
	rows: ModelRow[] = [];
	columns: ReportColumn[] = [
		{ id: 'c1', name: 'Key' },
		{ id: 'c2', name: 'Amount' },
	];
	private serial = 0;
	/** How many rows of each content were ever made: at the start, added, or edited into it; by whole row and by key. */
	private readonly madeWhole = new Map<string, number>();
	private readonly madeKeys = new Map<string, number>();

	/**
	 * `alphabet`: how many labels whole rows draw from (few make identical rows); `distinct`: every
	 * row made differs from every other (no repeating pattern for a shift to hide in).
	 */
	constructor(
		initial: number,
		private readonly alphabet: number,
		private readonly byKey: boolean,
		private readonly distinct = false,
	) {
		for (let i = 0; i < initial; i++) this.rows.push(this.made1(this.freshRow()));
	}

	/** How many rows of each content were ever made, contents by key or by whole row. */
	madeFor(byKey = this.byKey): Map<string, number> {
		return byKey ? this.madeKeys : this.madeWhole;
	}

	get made(): Map<string, number> {
		return this.madeFor();
	}

	/** A row made: added (a new key and a new whole row), or `edited` (a new whole row only). */
	private made1(row: ModelRow, edited = false): ModelRow {
		for (const byKey of edited ? [false] : [false, true]) {
			const made = this.madeFor(byKey);
			const content = this.contentOf(row.cells, byKey);
			made.set(content, (made.get(content) ?? 0) + 1);
		}
		return row;
	}

	/** A row of new content (by key: a new key); by whole row, drawn from a small alphabet to repeat. */
	private freshRow(): ModelRow {
		this.serial++;
		const c1 = this.byKey ? `K${this.serial}` : `L${this.serial % this.alphabet}`;
		return { cells: { c1, c2: `${this.distinct ? this.serial : this.serial % 3},00`, ...(this.columns.some((c) => c.id === 'c3') ? { c3: 'x' } : {}) } };
	}

	private index(at: number, extra = 0): number {
		return Math.min(this.rows.length - 1 + extra, Math.floor(at * (this.rows.length + extra)));
	}

	apply(change: Change): void {
		switch (change.kind) {
			case 'add': {
				const copyOf = change.duplicateOf !== undefined && this.rows.length > 0 ? this.rows[this.index(change.duplicateOf)] : undefined;
				const row = copyOf ? { cells: { ...copyOf.cells } } : this.freshRow();
				const at = change.at === 'top' ? 0 : change.at === 'end' ? this.rows.length : this.index(change.at, 1);
				this.rows.splice(at, 0, this.made1(row));
				return;
			}
			case 'delete':
				if (this.rows.length > 0) this.rows.splice(this.index(change.at), 1);
				return;
			case 'edit': {
				if (this.rows.length === 0) return;
				const row = this.rows[this.index(change.at)];
				this.serial++;
				// By key, an edit leaves the key; by whole row, it is new content.
				row.cells = { ...row.cells, c2: `${this.serial},99` };
				this.made1(row, true);
				return;
			}
			case 'addColumn':
				if (this.columns.some((c) => c.id === 'c3')) return;
				this.columns = [...this.columns, { id: 'c3', name: 'Note' }];
				for (const row of this.rows) row.cells = { ...row.cells, c3: 'x' };
				return;
			case 'reorderColumns':
				this.columns = [...this.columns].reverse();
				return;
			case 'removeColumn':
				this.columns = this.columns.filter((c) => c.id !== 'c2');
				for (const row of this.rows) {
					const cells = { ...row.cells };
					delete cells.c2;
					row.cells = cells;
				}
				return;
		}
	}

	/** What a row is counted by: its key, or its identity cells (c1, c2) for Whole Row. */
	contentOf(row: ReportRow, byKey = this.byKey): string {
		return byKey ? String(row.c1) : JSON.stringify([row.c1, row.c2 ?? null]);
	}

	/** A row's identity cells, whatever the identity chosen. */
	cellsOf(row: ReportRow): string {
		return JSON.stringify([row.c1, row.c2 ?? null]);
	}

	/** How many rows of each content the report holds now. */
	counts(byKey = this.byKey): Map<string, number> {
		const counts = new Map<string, number>();
		for (const row of this.rows) {
			const content = this.contentOf(row.cells, byKey);
			counts.set(content, (counts.get(content) ?? 0) + 1);
		}
		return counts;
	}

	/** A copy of the rows in a range, as the service sends them (fresh objects). */
	serve(offset: number, limit: number): ReportRow[] {
		return this.rows.slice(offset, offset + limit).map((row) => ({ ...row.cells }));
	}
}

/** A shift found at a page boundary, as the paging engine's overlap check finds it. */
class Shifted extends Error {}

export type PollOutcome =
	| { kind: 'emitted'; rows: ReportRow[]; memory: Memory; cutShort: boolean }
	| { kind: 'outOfTime' }
	| { kind: 'error'; error: DetectorError }
	| { kind: 'changing' };

/** Polls the model report once through the change detector, as readReport.ts does. */
export function pollModel(
	report: ModelReport,
	stored: Memory | undefined,
	settings: DetectorSettings,
	plan: PollPlan,
	apply: (change: Change) => void = (change) => report.apply(change),
	/** Called after each request, before the changes made after it: the report as that request saw it. */
	served: () => void = () => undefined,
): PollOutcome {
	let pages = 0;
	const during = [...plan.during].sort((a, b) => a.afterPage - b.afterPage);
	const afterRequest = () => {
		served();
		pages++;
		while (during.length > 0 && during[0].afterPage <= pages) apply(during.shift()!.change);
	};
	let seenBefore: string | undefined;
	let seen = '';
	for (let attempt = 1; attempt <= 3; attempt++) {
		seen = '';
		try {
			const detector = new ChangeDetector({ ...settings, lastAttempt: attempt === 3 }, stored);
			for (let range = detector.next(); range !== undefined; range = detector.next()) {
				const outOfTime = readRange(report, range, plan, afterRequest, (rows, offset) => {
					seen += `${offset}:${JSON.stringify(rows)};`;
					const verdict = detector.take(report.columns, rows);
					return verdict === undefined && plan.budgetPages !== undefined && pages >= plan.budgetPages ? 'time' : verdict;
				});
				if (outOfTime) {
					if (!detector.cutShort(1)) return { kind: 'outOfTime' };
					const decision = detector.decide();
					return { kind: 'emitted', rows: decision.emit, memory: roundTrip(decision.memory)!, cutShort: true };
				}
				detector.endRange(report.columns);
			}
			const decision = detector.decide();
			return { kind: 'emitted', rows: decision.emit, memory: roundTrip(decision.memory)!, cutShort: false };
		} catch (error) {
			// As readReport.ts: a check fails for good only where the read before failed on the same rows.
			if (error instanceof DetectorError && (error.check === undefined || seen === seenBefore)) return { kind: 'error', error };
			if (error instanceof ChangedDuringRead) seenBefore = seen;
			else if (!(error instanceof Shifted || error instanceof DetectorError)) throw error;
		}
	}
	return { kind: 'changing' };
}

/** Reads a range page by page; true when the poll's time ran out in it. */
function readRange(
	report: ModelReport,
	range: { start: number; maxRows?: number },
	plan: PollPlan,
	afterRequest: () => void,
	take: (rows: ReportRow[], offset: number) => 'stop' | 'time' | undefined,
): boolean {
	let offset = range.start;
	const trail = new TrailingRun();
	const size = Math.min(plan.pageSize, plan.cap);
	for (;;) {
		const left = range.maxRows === undefined ? size : Math.min(size, range.start + range.maxRows - offset);
		if (left <= 0) return false;
		const overlap = offset > range.start;
		const page = overlap ? report.serve(offset - 1, left + 1) : report.serve(offset, left);
		afterRequest();
		if (overlap) {
			// As the paging engine: the row before the page, and before it the run it ends, as read.
			const expected = trail.expected;
			let before = page.slice(0, 1);
			if (expected.length > 1 && before.length === 1 && JSON.stringify(before[0]) === expected[expected.length - 1]) {
				const again = report.serve(offset - expected.length, expected.length + page.length - 1);
				afterRequest();
				const rest = again.slice(expected.length);
				before = JSON.stringify(rest) === JSON.stringify(page.slice(1, 1 + rest.length)) ? again.slice(0, expected.length) : [];
			}
			if (!trail.matches(before)) throw new Shifted();
		}
		const rows = overlap ? page.slice(1) : page;
		if (rows.length === 0) return false;
		const verdict = take(rows, offset);
		if (verdict === 'time') return true;
		if (verdict === 'stop') return false;
		trail.add(rows);
		offset += rows.length;
	}
}

/** The memory as n8n stores it: JSON. */
function roundTrip(memory: Memory | undefined): Memory | undefined {
	return memory === undefined ? undefined : readMemory(JSON.parse(JSON.stringify(memory)));
}
