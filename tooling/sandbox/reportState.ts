import { HttpError } from './http';
import { bankRow, type ReportColumn, type ReportRow, type UserDefinition } from './seeds';

/**
 * The sandbox's reports. `ReportState` holds its rows in memory; `VirtualBankReport` is a bank report
 * whose rows are computed from their numbers when a page asks for them, so that a 10,000,000-row
 * report costs a few counters instead of 10,000,000 objects. Both serve pages, count their rows and
 * take new generated bank rows at the top, at the end or before any row (the control endpoints and
 * the `insertRows` fault).
 */

/** Where new rows go: above the first row, after the last, or before the row at this 0-based index. */
export type RowPosition = 'top' | 'end' | number;

/**
 * Consecutive bank row numbers in report order: `first`, `first + step`, ... (`count` of them).
 * Rows added at the top run newest first (`step` -1), as a report sorted newest first shows them.
 */
export interface NumberRun {
	first: number;
	count: number;
	step: 1 | -1;
}

/** The rows of a run of bank row numbers, in report order. */
export function runRows(run: NumberRun): ReportRow[] {
	return Array.from({ length: run.count }, (_, index) => bankRow(run.first + index * run.step));
}

abstract class ReportBase {
	readonly columnsJson: string;

	/** Set for generated reports, so that new rows can be generated too. */
	generator?: 'bank';

	/** Bank row numbers handed out so far: the next generated row is number `generated + 1`. */
	generated = 0;

	constructor(
		readonly id: string,
		public name: string,
		readonly columns: ReportColumn[],
		public apiEnabled: boolean,
	) {
		this.columnsJson = JSON.stringify(columns);
	}

	abstract get rowCount(): number;

	/** The JSON of the rows `offset` .. `offset + limit - 1` the user may see. */
	abstract page(user: UserDefinition, offset: number, limit: number): string[];

	/** Users' data rights changed (a report that caches what a user sees drops the cache). */
	invalidateVisibility(): void {}

	/** Puts the rows of a new run at `index` (0 .. rowCount). */
	protected abstract insertRun(index: number, run: NumberRun): void;

	/**
	 * Adds `count` new bank rows at `at` (numbers never used in this report before, so each is a
	 * distinct transaction) and returns their run. Only generated reports take them.
	 */
	addGenerated(count: number, at: RowPosition): NumberRun {
		if (this.generator !== 'bank') {
			throw new HttpError(400, 'not_generated', `Report "${this.id}" was not generated; it cannot take generated rows`);
		}
		const index = this.positionIndex(at);
		const first = this.generated + 1;
		this.generated += count;
		const run: NumberRun = at === 'top' ? { first: first + count - 1, count, step: -1 } : { first, count, step: 1 };
		if (count > 0) this.insertRun(index, run);
		return run;
	}

	/** The 0-based index where rows at `at` go; an index past the end is refused. */
	positionIndex(at: RowPosition): number {
		if (at === 'top') return 0;
		if (at === 'end') return this.rowCount;
		if (!Number.isInteger(at) || at < 0 || at > this.rowCount) {
			throw new HttpError(400, 'invalid_position', `Rows can go at "top", "end" or an index from 0 to ${this.rowCount}; got ${String(at)}`);
		}
		return at;
	}
}

/** A report whose rows are held in memory (seeded, defined with explicit rows, or generated). */
export class ReportState extends ReportBase {
	/** Each row serialised once, so pages are served by joining strings instead of re-serialising. */
	private rowJson: string[];

	/** Rows visible to a limited user, per user id; rebuilt after rows change. */
	private readonly visibleCache = new Map<string, { rows: ReportRow[]; json: string[] }>();

	constructor(
		id: string,
		name: string,
		columns: ReportColumn[],
		public rows: ReportRow[],
		apiEnabled: boolean,
		rowJson?: string[],
	) {
		super(id, name, columns, apiEnabled);
		this.rowJson = rowJson ?? rows.map((row) => JSON.stringify(row));
	}

	get rowCount(): number {
		return this.rows.length;
	}

	/** Puts rows before the row at `index` (0: above the first row; rowCount: after the last). */
	insert(index: number, rows: ReportRow[]): void {
		this.rows.splice(index, 0, ...rows);
		this.rowJson.splice(index, 0, ...rows.map((row) => JSON.stringify(row)));
		this.visibleCache.clear();
	}

	append(rows: ReportRow[]): void {
		for (const row of rows) {
			this.rows.push(row);
			this.rowJson.push(JSON.stringify(row));
		}
		this.visibleCache.clear();
	}

	/** Adds rows above the first one, as a report sorted newest first shows new rows. */
	prepend(rows: ReportRow[]): void {
		this.insert(0, rows);
	}

	protected insertRun(index: number, run: NumberRun): void {
		const rows = runRows(run);
		if (index === this.rows.length) this.append(rows);
		else this.insert(index, rows);
	}

	/** Users' data rights changed: recompute visible rows on the next read. */
	override invalidateVisibility(): void {
		this.visibleCache.clear();
	}

	page(user: UserDefinition, offset: number, limit: number): string[] {
		return this.visibleTo(user).json.slice(offset, offset + limit);
	}

	/** Rows (and their JSON) the user may see, in report order. */
	visibleTo(user: UserDefinition): { rows: ReportRow[]; json: string[] } {
		if (user.rights === 'all') return { rows: this.rows, json: this.rowJson };
		const cached = this.visibleCache.get(user.id);
		if (cached) return cached;
		const checks: Array<{ columnId: string; allowed: Set<string> }> = [];
		for (const rule of user.rights) {
			const column = this.columns.find((c) => c.name === rule.columnName);
			if (column) checks.push({ columnId: column.id, allowed: new Set(rule.values) });
		}
		const visible = { rows: [] as ReportRow[], json: [] as string[] };
		for (let i = 0; i < this.rows.length; i++) {
			const row = this.rows[i];
			if (checks.every((check) => check.allowed.has(row[check.columnId] ?? ''))) {
				visible.rows.push(row);
				visible.json.push(this.rowJson[i]);
			}
		}
		this.visibleCache.set(user.id, visible);
		return visible;
	}
}

/**
 * A generated bank report that holds no rows: its order is a short list of runs of row numbers
 * (the generated rows, then one run per later addition, split where rows went in between), and a
 * page computes its rows from their numbers. Adding a million rows at either end is one more run.
 */
export class VirtualBankReport extends ReportBase {
	private runs: NumberRun[] = [];

	private total = 0;

	constructor(id: string, name: string, columns: ReportColumn[], rows: number, apiEnabled: boolean) {
		super(id, name, columns, apiEnabled);
		this.generator = 'bank';
		this.addGenerated(rows, 'end');
	}

	get rowCount(): number {
		return this.total;
	}

	/** The bank row number at each of the indexes `offset` .. `offset + limit - 1` that exist. */
	numbersAt(offset: number, limit: number): number[] {
		const numbers: number[] = [];
		let start = 0;
		for (const run of this.runs) {
			if (numbers.length >= limit) break;
			const end = start + run.count;
			for (let index = Math.max(offset, start); index < end && numbers.length < limit; index++) {
				numbers.push(run.first + (index - start) * run.step);
			}
			start = end;
		}
		return numbers;
	}

	page(user: UserDefinition, offset: number, limit: number): string[] {
		if (user.rights !== 'all' && user.rights.some((rule) => this.columns.some((column) => column.name === rule.columnName))) {
			throw new HttpError(
				501,
				'not_implemented',
				`Virtual report "${this.id}" serves only users who may see every row; user "${user.id}" has data rights on its columns. Use a token of a user with all rights, or a report defined without "virtual"`,
			);
		}
		return this.numbersAt(offset, limit).map((n) => JSON.stringify(bankRow(n)));
	}

	protected insertRun(index: number, run: NumberRun): void {
		let start = 0;
		for (let position = 0; position < this.runs.length; position++) {
			const current = this.runs[position];
			if (index === start) {
				this.runs.splice(position, 0, run);
				this.total += run.count;
				return;
			}
			if (index < start + current.count) {
				// Split the run the index falls in: its head, the new run, its tail.
				const headCount = index - start;
				const head: NumberRun = { ...current, count: headCount };
				const tail: NumberRun = { first: current.first + headCount * current.step, count: current.count - headCount, step: current.step };
				this.runs.splice(position, 1, head, run, tail);
				this.total += run.count;
				return;
			}
			start += current.count;
		}
		this.runs.push(run);
		this.total += run.count;
	}
}

export type SandboxReport = ReportState | VirtualBankReport;
