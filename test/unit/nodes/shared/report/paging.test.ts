/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside
	n8n (`setImmediate`, for an answer that comes a turn of the event loop later) */
/**
 * The paging engine (readReportPages) against an in-memory service, named cases: the findings of
 * issue 34 on services that page differently and identical rows at page boundaries, and the change
 * check's real limit, stated exactly. The property test (paging.property.test.ts) tries thousands of
 * generated services and histories.
 */
import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import { readReportPages, ReportChangedError } from '../../../../../nodes/shared/report/paging';
import type { ReportRow } from '../../../../../nodes/shared/report/rows';
import { FEE, ReportService, row } from './reportService';

const ids = (rows: ReportRow[]) => rows.map((r) => r.c1);
const numbered = (count: number, prefix = 'R') => Array.from({ length: count }, (_, i) => row(`${prefix}${i + 1}`));
/** Newest first, each transaction followed by its fee: T40, FEE, T39, FEE, … T1, FEE. */
const transactionsAndFees = (count: number) => Array.from({ length: count }, (_, i) => [row(`T${count - i}`), FEE]).flat();

describe('readReportPages: the change check at page boundaries', () => {
	it('a transaction and its fee added at the top move the rows by two onto another fee: the read fails as changed (finding 3.1)', async () => {
		const service = new ReportService(transactionsAndFees(40), {}, (request, s) => {
			if (request !== 2) return false;
			s.rows.unshift(row('T41'), FEE);
			return true;
		});

		const { error } = await service.read({ pageSize: 10, detectChanges: true });

		expect(error).toBeInstanceOf(ReportChangedError);
	});

	it('without such a change the same report reads exactly, asking no more rows than the page size', async () => {
		const service = new ReportService(transactionsAndFees(40));

		const { rows, error } = await service.read({ pageSize: 10, detectChanges: true, concurrency: 3 });

		expect(error).toBeUndefined();
		expect(rows).toEqual(transactionsAndFees(40));
		expect(Math.max(...service.requests.map((r) => r.limit))).toBeLessThanOrEqual(10);
	});

	it.each([1, 2, 3])('rows added %i at a time at the top, above a run of identical rows at the boundary: caught', async (count) => {
		const rows = [row('T1'), ...Array.from({ length: 12 }, () => FEE), row('T2'), ...numbered(20)];
		const service = new ReportService(rows, {}, (request, s) => {
			if (request !== 2) return false;
			s.rows.unshift(...numbered(count, 'N'));
			return true;
		});

		const { error } = await service.read({ pageSize: 8, detectChanges: true });

		expect(error).toBeInstanceOf(ReportChangedError);
	});

	it('the limit, exactly: a move by as many rows as separate two copies of the compared rows passes', async () => {
		// The check compares the last row read, the identical rows before it and the different row before
		// those: here the pair A, B. The report repeats A, B every two rows, so two rows added above the
		// boundary bring the same pair to its place, and the read goes on as if nothing moved.
		const blocks = [row('X'), ...Array.from({ length: 10 }, () => [row('A'), row('B')]).flat(), row('Y')];
		const added = [row('N1'), row('N2')];
		const service = new ReportService(blocks.slice(), {}, (request, s) => {
			if (request !== 2) return false;
			s.rows.unshift(...added);
			return true;
		});

		const { rows, error } = await service.read({ pageSize: 8, detectChanges: true });

		expect(error).toBeUndefined();
		// Rows 1–8 before the change, then rows 9 on of the report with the two rows added: a pair twice.
		expect(ids(rows)).toEqual(ids([...blocks.slice(0, 8), ...[...added, ...blocks].slice(8)]));
		expect(rows).not.toEqual(service.rows);
	});
});

describe('readReportPages: services that page differently', () => {
	it('an answer holding only the rows of the check is not the end: one row per page reads every row (finding 2.1)', async () => {
		const rows = [...numbered(10), FEE, FEE, FEE, ...numbered(10, 'S')];
		const service = new ReportService(rows, { rowCap: 1 });

		const { rows: read, error } = await service.read({ pageSize: 'adaptive', detectChanges: true });

		expect(error).toBeUndefined();
		expect(read).toEqual(rows);
	});

	it('a page cap in bytes and one row larger than it: every row once, and the page size grows back (findings 2.1, 2.4)', async () => {
		const rows = numbered(600).map((r, i) => (i === 5 ? row(String(r.c1), 'x'.repeat(5_000)) : r));
		const service = new ReportService(rows, { byteCap: 4_096 });

		const { rows: read, error } = await service.read({ pageSize: 'adaptive', detectChanges: true });

		expect(error).toBeUndefined();
		expect(read).toEqual(rows);
		// About 200 small rows fit 4 KB: a handful of pages, not one request per row after the large one.
		expect(service.requests.length).toBeLessThan(40);
	});

	it('identical rows at the boundary never make a request ask more than the page size, on a service whose maximum it is (finding 2.2)', async () => {
		const rows = Array.from({ length: 100 }, (_, i) => (i % 10 >= 7 ? FEE : row(`T${i}`)));
		const service = new ReportService(rows, { maxLimit: 10 });

		const { rows: read, error } = await service.read({ pageSize: 10, detectChanges: true, concurrency: 4 });

		expect(error).toBeUndefined();
		expect(read).toEqual(rows);
		expect(service.requests.every((r) => r.limit <= 10)).toBe(true);
	});

	it.each([
		[4, 9],
		[100, 250],
	])('a cap of %i rows and a run of %i identical rows: read to the end, not taken for a change (finding 3.5)', async (cap, run) => {
		const rows = [row('T1'), ...Array.from({ length: run }, () => FEE), row('T2'), row('T3')];
		const service = new ReportService(rows, { rowCap: cap });

		const { rows: read, error } = await service.read({ pageSize: 'adaptive', detectChanges: true });

		expect(error).toBeUndefined();
		expect(read).toEqual(rows);
	});

	it.each([404, 400, 'errorObject'] as const)('an offset past the end answered with %s is the end where the engine probes (finding 2.3)', async (pastEnd) => {
		const service = new ReportService(Array.from({ length: 250 }, () => FEE), { pastEnd });

		const all = await service.read({ pageSize: 100, detectChanges: true, concurrency: 3 });
		const beyond = await service.read({ pageSize: 100, detectChanges: true, startOffset: 1_023, maxRows: 1 });
		const plain = await service.read({ pageSize: 50 });

		expect([all.error, beyond.error, plain.error]).toEqual([undefined, undefined, undefined]);
		expect([all.rows.length, beyond.rows.length, plain.rows.length]).toEqual([250, 0, 250]);
	});

	it('an error past the end does not hide a refused limit: a Page Size above the maximum, read from an offset, is asked again with half the page', async () => {
		const service = new ReportService(numbered(50), { maxLimit: 20, pastEnd: 400 });

		const { rows, error } = await service.read({ pageSize: 30, startOffset: 10, detectChanges: true });

		expect(error).toBeUndefined();
		expect(rows).toEqual(numbered(50).slice(10));
	});

	it('a Page Size above the maximum refused at the first row fails naming Page Size and the service\'s answer', async () => {
		const service = new ReportService(numbered(500), { maxLimit: 200, overLimit: 'errorObject', pastEnd: 'errorObject' });

		const { error } = await service.read({ pageSize: 300, detectChanges: true });

		expect(error?.message).toBe('The service refused a page of 300 rows of report "r" (an answer that is not a report table)');
		expect((error as { description?: string }).description).toMatch(/Set Page Size in the options to at most the number of rows the service serves in one page/);
	});

	it('rows removed at the end under a read, on a service answering past the end with 404: the read fails as changed', async () => {
		const service = new ReportService(numbered(35), { pastEnd: 404 }, (request, s) => {
			if (request !== 3) return false;
			s.rows.splice(15);
			return true;
		});

		const { error } = await service.read({ pageSize: 10, detectChanges: true });

		expect(error).toBeInstanceOf(ReportChangedError);
	});

	it('a row deleted at the top and one added while the end is probed, on a service capping pages at 2 and answering past the end with an error object: no depth error', async () => {
		// The pair at the last row is refused while the report is one row short (past its end), and that
		// row alone is served once the row added has come: a change, not a limit on depth.
		const service = new ReportService(numbered(4), { maxLimit: 2, pastEnd: 'errorObject' }, (request, s) => {
			if (request === 4) s.rows.shift();
			else if (request === 6) s.rows.unshift(row('N1'));
			else return false;
			return true;
		});

		const { error } = await service.read({ pageSize: 2, detectChanges: true });

		expect(error?.message ?? '').not.toMatch(/cannot be read past row/);
		expect(error === undefined || error instanceof ReportChangedError).toBe(true);
	});
});

describe('readReportPages: reading ahead', () => {
	/** The order in which requests go out and pages are handed on, and the most requests at once. */
	async function trace(readAhead: boolean) {
		const service = new ReportService(numbered(35));
		const events: string[] = [];
		let inFlight = 0;
		let most = 0;
		const context = service.context();
		const answer = context.helpers.httpRequestWithAuthentication;
		context.helpers.httpRequestWithAuthentication = async function (this: unknown, type: string, options: IHttpRequestOptions) {
			events.push(`request ${String((options.qs as IDataObject).offset)}`);
			most = Math.max(most, ++inFlight);
			// The answer comes a turn of the event loop later, as over the network.
			await new Promise((resolve) => setImmediate(resolve));
			inFlight--;
			return await answer.call(this as never, type, options);
		} as typeof answer;
		await readReportPages.call(context, {
			reportId: 'r',
			pageSize: 10,
			detectChanges: true,
			readAhead,
			onPage: (page) => {
				events.push(`page ${page.offset}${page.nextOnItsWay?.() === true ? ', next on its way' : ''}`);
			},
		});
		return { events, most };
	}

	it('sends the request for the next page before a page is handed on, still one request at a time', async () => {
		const ahead = await trace(true);
		expect(ahead.events.slice(0, 5)).toEqual(['request 0', 'request 8', 'page 0, next on its way', 'request 16', 'page 10, next on its way']);
		expect(ahead.most).toBe(1);
		const plain = await trace(false);
		expect(plain.events.slice(0, 4)).toEqual(['request 0', 'page 0', 'request 8', 'page 10']);
		// The same requests either way: the last page (short) is confirmed as the end in two steps.
		expect(ahead.events.filter((event) => event.startsWith('request'))).toEqual(plain.events.filter((event) => event.startsWith('request')));
	});

	it("tells a page's reader whether the next page is still on its way, until its answer has arrived", async () => {
		const service = new ReportService(numbered(25));
		const seen: Array<[number, boolean, boolean]> = [];
		await readReportPages.call(service.context(), {
			reportId: 'r',
			pageSize: 10,
			detectChanges: true,
			readAhead: true,
			onPage: async (page) => {
				const before = page.nextOnItsWay?.() ?? false;
				// The answer comes as soon as the event loop runs (the service is in memory).
				await new Promise((resolve) => setImmediate(resolve));
				seen.push([page.offset, before, page.nextOnItsWay?.() ?? false]);
			},
		});
		expect(seen[0]).toEqual([0, true, false]);
		expect(seen.every(([, , after]) => !after)).toBe(true);
	});
});
