/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside
	n8n (`process`) */
/**
 * The paging engine (readReportPages) against generated services and histories: a property test with
 * an oracle. Each case draws a report (unique transactions, runs of identical fee rows of any length,
 * some rows larger than a page in bytes, rows before the first transaction), a service (pages capped
 * in rows and in bytes, a hard maximum of `limit` refused with 400, 413, 422 or a 200 error object,
 * a limit on how deep a read may go (offset + limit), an offset past the end answered with an empty
 * page, 404, 400, 416, 422 or an error object), a read (a fixed page size or the node's choice, 1 to 8 parallel
 * requests, with or without the change check, from an offset, a row limit, a stop after some rows)
 * and, for reads with the change check, one change between two of its requests: rows added or
 * removed at the top or at the end.
 *
 * The oracle, what the engine promises:
 * - the rows handed on are exactly the rows of one state of the report (from the offset, up to the
 *   limit), each once and in order; a read stopped by its caller has a beginning of them;
 * - but where rows were both removed and added at the top at once, leaving the rows not read yet
 *   where they were (nothing any paging client can see without reading everything again): every
 *   row that was there throughout the read once, in order, and no row that was never there;
 * - ReportChangedError only when the report changed during the read;
 * - no other error, but the refusal of a Page Size above the service's maximum at the first row, and
 *   "cannot be read past row N" where the read needs rows past how deep the service serves (or the
 *   report is as long as that: its end cannot be told from the limit); never a short read;
 * - never a request for more rows than the page size.
 * The identical rows of a generated report never repeat a whole block elsewhere (each run follows a
 * different transaction): the one case the change check cannot tell (trailingRun.ts) stays out, and
 * paging.test.ts shows it.
 *
 * Seeded and shrinking: a failure prints its seed and the smallest case found; replay it with
 * FC_SEED=<seed> (and FC_PATH). FC_NUM_RUNS sets how many cases to try (default 5,000; try 100,000
 * for a long search).
 */
import fc from 'fast-check';

import { ReportChangedError } from '../../../../../nodes/shared/report/paging';
import { ADAPTIVE_MAX_PAGE } from '../../../../../nodes/shared/report/pageSize';
import type { ReportRow } from '../../../../../nodes/shared/report/rows';
import { FEE, type OverLimit, type PastEnd, ReportService, row, type ServiceBehaviour } from './reportService';

const NUM_RUNS = Number(process.env.FC_NUM_RUNS ?? 5_000);
const SEED = Number(process.env.FC_SEED ?? 34);
const PATH = process.env.FC_PATH;

jest.setTimeout(600_000);

/** A transaction followed by `fees` identical fee rows; `large`: larger than a small page in bytes. */
interface Block {
	fees: number;
	large: boolean;
}

/** Mostly short runs of fees, some long ones (longer than a page, or a service's cap). */
const feeCount = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 2 }) }, { weight: 1, arbitrary: fc.integer({ min: 3, max: 60 }) });

const blocks: fc.Arbitrary<Block[]> = fc.array(fc.record({ fees: feeCount, large: fc.integer({ min: 0, max: 9 }).map((n) => n === 0) }), { maxLength: 30 });

/** Rows a change adds: small blocks. */
const added: fc.Arbitrary<Block[]> = fc.array(fc.record({ fees: fc.integer({ min: 0, max: 4 }), large: fc.constant(false) }), { maxLength: 3 });

interface Report {
	/** Fee rows before the first transaction. */
	leading: number;
	blocks: Block[];
}

interface Change {
	/** The change happens before this request (1-based). */
	beforeRequest: number;
	removeTop: number;
	addTop: Block[];
	removeEnd: number;
	addEnd: Block[];
}

interface Read {
	pageSize: number | 'adaptive';
	concurrency: number;
	readAhead: boolean;
	detectChanges: boolean;
	startOffset: number;
	maxRows?: number;
	stopAfter?: number;
}

interface Case {
	report: Report;
	service: ServiceBehaviour;
	read: Read;
	change?: Change;
}

const report: fc.Arbitrary<Report> = fc.record({ leading: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 12 })), blocks });

const option = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined, freq: 2 });

const service = (adaptive: boolean): fc.Arbitrary<ServiceBehaviour> =>
	fc.record({
		rowCap: option(fc.integer({ min: 1, max: 40 })),
		byteCap: option(fc.integer({ min: 150, max: 3_000 })),
		// The guide's default `limit` is 100: a service refusing less could not serve its own default.
		maxLimit: option(adaptive ? fc.integer({ min: 100, max: 2_000 }) : fc.integer({ min: 1, max: 60 })),
		overLimit: fc.constantFrom<OverLimit>(400, 413, 422, 'errorObject'),
		// Shallower than many reports, deeper than the first page a read asks for.
		maxDepth: option(adaptive ? fc.integer({ min: 100, max: 300 }) : fc.integer({ min: 31, max: 200 })),
		pastEnd: fc.constantFrom<PastEnd>('empty', 404, 400, 416, 422, 'errorObject'),
	});

const read = (pageSize: fc.Arbitrary<number | 'adaptive'>): fc.Arbitrary<Read> =>
	fc.record({
		pageSize,
		concurrency: fc.integer({ min: 1, max: 8 }),
		readAhead: fc.boolean(),
		detectChanges: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
		startOffset: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }) }),
		maxRows: option(fc.integer({ min: 1, max: 150 })),
		stopAfter: option(fc.integer({ min: 1, max: 100 })),
	});

const change: fc.Arbitrary<Change> = fc.record({
	beforeRequest: fc.integer({ min: 2, max: 14 }),
	removeTop: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 8 })),
	addTop: added,
	removeEnd: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 8 })),
	addEnd: added,
});

const anyCase: fc.Arbitrary<Case> = fc.oneof(fc.constant(true), fc.constant(false)).chain((adaptive) =>
	fc
		.record({
			report,
			service: service(adaptive),
			read: read(adaptive ? fc.constant<'adaptive'>('adaptive') : fc.integer({ min: 1, max: 30 })),
			change: option(change),
		})
		// Without the change check the engine promises nothing about a report that changes; rows
		// removed and added at the top at once are checked on whole reads (see mixedAtTop).
		.map((c) => (c.read.detectChanges ? c : { ...c, change: undefined }))
		.map((c) => (c.change !== undefined && mixedAtTop(c.change) ? { ...c, read: { ...c.read, startOffset: 0, maxRows: undefined, stopAfter: undefined } } : c)),
);

/** Rows removed and added at the top at once: the rows below may stay where they were. */
function mixedAtTop(ch: Change): boolean {
	return ch.removeTop > 0 && ch.addTop.length > 0;
}

/**
 * The rows of blocks; transactions numbered from `first` under `prefix`, each different from every
 * other. Every row is its own object (a fee too), so that the oracle can tell rows apart.
 */
function rowsOf(list: readonly Block[], prefix: string, first = 1): ReportRow[] {
	const rows: ReportRow[] = [];
	list.forEach((b, index) => {
		rows.push(row(`${prefix}${first + index}`, b.large ? 'x'.repeat(600) : ''));
		for (let fee = 0; fee < b.fees; fee++) rows.push({ ...FEE });
	});
	return rows;
}

/** The service of a case; `every`: each row that was ever in the report, in report order. */
function serviceFor(c: Case): { service: ReportService; every: ReportRow[] } {
	const initial = [...Array.from({ length: c.report.leading }, () => ({ ...FEE })), ...rowsOf(c.report.blocks, 'T')];
	const top = rowsOf(c.change?.addTop ?? [], 'N');
	const end = rowsOf(c.change?.addEnd ?? [], 'E');
	const service = new ReportService(initial.slice(), c.service, (request, s) => {
		const { change: ch } = c;
		if (ch === undefined || request !== ch.beforeRequest) return false;
		const before = JSON.stringify(s.rows);
		s.rows.splice(0, ch.removeTop);
		s.rows.unshift(...top);
		s.rows.splice(Math.max(0, s.rows.length - ch.removeEnd));
		s.rows.push(...end);
		return JSON.stringify(s.rows) !== before;
	});
	return { service, every: [...top, ...initial, ...end] };
}

/**
 * Whether `rows` are, in order, rows that were in the report, each once, with every row that was
 * there in every state among them (rows are told apart by content alone, as the engine sees them).
 */
function noRowTwiceOrSkipped(rows: ReportRow[], every: ReportRow[], states: ReportRow[][]): boolean {
	const throughout = new Set(every.filter((r) => states.every((state) => state.includes(r))));
	const json = (r: ReportRow) => JSON.stringify(r);
	// fits[j]: rows j… can be matched to every[i…] for the current i (walking i down).
	let fits = rows.map(() => false).concat([true]);
	for (let i = every.length - 1; i >= 0; i--) {
		const next = fits.map((_, j) => {
			const skip = !throughout.has(every[i]) && fits[j];
			return skip || (j < rows.length && json(rows[j]) === json(every[i]) && fits[j + 1]);
		});
		fits = next;
	}
	return fits[0];
}

/** Whether `rows` are `state` from the read's offset, up to its limit (a beginning of them when stopped). */
function oneStateOf(rows: ReportRow[], state: ReportRow[], r: Read): boolean {
	const expected = state.slice(r.startOffset, r.maxRows === undefined ? undefined : r.startOffset + r.maxRows);
	const json = JSON.stringify(rows);
	if (r.stopAfter === undefined) return json === JSON.stringify(expected);
	return rows.length >= Math.min(r.stopAfter, expected.length) && json === JSON.stringify(expected.slice(0, rows.length));
}

/**
 * The errors a read may end in besides ReportChangedError, each naming its cause: a Page Size the
 * service refuses at the first row; a service serving one row per request that answers past its end
 * with an error (no request shows its end); rows past how deep the service serves (where the read needs
 * them, or cannot tell the report's end from that limit: a report as long as the limit).
 */
function errorDue(c: Case, s: ReportService, error: Error): boolean {
	const { maxLimit, maxDepth } = c.service;
	const firstLimit = c.read.pageSize === 'adaptive' ? 100 : Math.min(c.read.pageSize, c.read.maxRows ?? Infinity);
	const firstRefused = c.read.startOffset === 0 && ((maxLimit !== undefined && firstLimit > maxLimit) || (maxDepth !== undefined && firstLimit > maxDepth));
	if (firstRefused) return true;
	// A service that serves one row at a time and refuses past the end cannot show where the end is.
	if (maxLimit !== undefined && maxLimit < 2 && c.service.pastEnd !== 'empty' && !(error instanceof ReportChangedError)) return true;
	const tooDeep = /^Report "r" cannot be read past row (\d+): the service refuses to serve rows beyond it$/.exec(error.message);
	if (tooDeep === null || maxDepth === undefined) return false;
	const longest = Math.max(...s.states.map((state) => state.length));
	const needed = c.read.startOffset + (c.read.maxRows ?? Infinity);
	return longest >= maxDepth && needed >= maxDepth - 1 && (s.states.length > 1 || Number(tooDeep[1]) === maxDepth);
}

async function check(c: Case): Promise<void> {
	const { service: s, every } = serviceFor(c);
	const { rows, summary, error } = await s.read({ ...c.read, maxPages: 1_000_000, fallBackOnServerErrors: true });
	const ceiling = c.read.pageSize === 'adaptive' ? ADAPTIVE_MAX_PAGE : c.read.pageSize;
	// A Page Size of 1 cannot show where a report ends on a service that refuses past it: two rows can.
	const over = s.requests.find((request) => request.limit > Math.max(ceiling, 2));
	if (over !== undefined) throw new Error(`A request asked for ${over.limit} rows, above the page size ${ceiling}`);
	const changed = s.states.length > 1;
	if (error !== undefined) {
		if (error instanceof ReportChangedError) {
			if (!changed) throw new Error(`ReportChangedError on a report that did not change: ${error.message}`);
			return;
		}
		if (errorDue(c, s, error)) return;
		throw error;
	}
	const mixed = changed && c.change !== undefined && mixedAtTop(c.change);
	if (!s.states.some((state) => oneStateOf(rows, state, c.read)) && !(mixed && noRowTwiceOrSkipped(rows, every, s.states))) {
		throw new Error(`The rows read are no state of the report: ${rows.map((r) => r.c1).join(' ')}`);
	}
	if (summary?.rowCount !== rows.length) throw new Error('The summary counts other rows than were handed on');
}

describe('readReportPages against generated services and histories', () => {
	it('hands on exactly one state of the report, each row once, in order; never asks above the page size; fails only where due', async () => {
		await fc.assert(
			fc.asyncProperty(anyCase, async (c) => await check(c)),
			{ numRuns: NUM_RUNS, seed: SEED, path: PATH },
		);
	});
});
