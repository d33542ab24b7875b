/**
 * What a report read (readReportPages, paging.ts) is asked to do and what it reports back.
 */
import type { PageSizeSetting } from './pageSize';
import type { ReportColumn, ReportRow } from './rows';
import type { RetryPolicy } from '../transport';

export const DEFAULT_PAGE_SIZE = 100;
export const DEFAULT_MAX_PAGES = 10_000;

export interface ReportPage {
	/** Index of the page's first row in the report. */
	offset: number;
	columns: ReportColumn[];
	/** The rows as the service sent them, keyed by column id. */
	rows: ReportRow[];
	/**
	 * With `readAhead`, when the request for the rows after these was sent already: whether it is
	 * still on its way (it may need several turns of the event loop to connect and leave, and its
	 * answer to arrive). Undefined when no request was sent ahead.
	 */
	nextOnItsWay?: () => boolean;
}

export interface ReadReportOptions {
	reportId: string;
	/** Rows asked for per request (`limit`) at most; or 'adaptive' (see PageSizer). */
	pageSize: PageSizeSetting;
	/** Index of the first row to read (the first `offset` asked for); default 0. */
	startOffset?: number;
	/** Stop after this many rows; undefined reads the whole report. */
	maxRows?: number;
	/** Page requests in flight at once; 1 reads strictly one page after another. */
	concurrency?: number;
	/** Safety cap on requests; reaching it before the end is an error. */
	maxPages?: number;
	itemIndex?: number;
	/** Per-request timeout and retry policy; the transport's defaults otherwise. */
	timeoutMs?: number;
	retry?: Partial<RetryPolicy>;
	/**
	 * An adaptive read also falls back to a smaller page when a larger page is answered with 500, 502
	 * or 504, without retrying it (PageSizer); Get Rows. Off: only a 4xx is a refusal.
	 */
	fallBackOnServerErrors?: boolean;
	/**
	 * Check at every page boundary that the rows before it are still the ones read, and fail with
	 * ReportChangedError when not (boundaryCheck.ts): rows were added or removed above the rows not
	 * read yet, and a row would be read twice or skipped. Costs the rows of the check in each page
	 * (within the page size), and a request or two where the service cannot show them with a new row.
	 */
	detectChanges?: boolean;
	/**
	 * Send the requests after a page before `onPage` is called with it (no more at once than
	 * `concurrency`), so that they are on their way while it works on the page; a read `onPage`
	 * stops then has sent one request too many. For readers whose `onPage` does real work per row.
	 */
	readAhead?: boolean;
	/**
	 * Called once per page, in report order; the next page is handed on only after it returns.
	 * Returning 'stop' ends the read after this page (the Report Trigger reads only past the rows it
	 * remembers); pages requested ahead are discarded. The rows must not be changed.
	 */
	onPage: (page: ReportPage) => PageVerdict | Promise<PageVerdict>;
}

/** What `onPage` returns: nothing to read on, 'stop' to end the read after this page. */
export type PageVerdict = void | 'stop';

export interface ReadReportSummary {
	columns: ReportColumn[];
	rowCount: number;
	/** Whether `onPage` ended the read before the end of the report. */
	stopped: boolean;
	/** Pages handed to `onPage`. */
	pages: number;
	/** Requests sent, the discarded, checking and probing ones included. */
	requests: number;
	/** The page size in use at the end, lower than asked when the service caps pages. */
	pageSize: number;
}
