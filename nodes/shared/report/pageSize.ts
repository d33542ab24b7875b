/**
 * The page size of one report read: fixed (an explicit Page Size), or adaptive (the default). Pure, no n8n: the paging engine asks it what `limit` to send and
 * tells it what each answer brought.
 *
 * Why adaptive: n8n's HTTP helper opens a new connection for every request (over TLS, a full
 * handshake), so on a real network the number of requests, not the bytes, sets the time of a read.
 * An adaptive read asks for ADAPTIVE_FIRST_PAGE rows, doubles after each full page up to
 * ADAPTIVE_MAX_PAGE (a bound that keeps one page's memory and time modest), and stops growing where
 * the service caps pages.
 *
 * Either way, a short answer lowers the size to what the service served, so that the next pages are
 * full, and full pages double it again: quickly back up to the most rows the service has served in
 * one answer, then on as long as each page asked above every short answer so far comes back fuller
 * than those did. A service capping pages at a row count is found out by one page more; one large
 * row on a service that caps pages by size costs a few requests, not one request per row for the
 * rest of the read. The size never exceeds the setting (or the adaptive bound): no request asks for
 * more rows than the page size.
 *
 * A service that refuses a large `limit` outright (a 4xx other than the authentication, not-found and
 * rate-limit ones) is asked again at the largest `limit` it has answered, at least the guide's
 * default of 100, once per size. With `serverErrors` (Get Rows), 500, 502 and 504 count as such a
 * refusal too: the guide's only error status is 500, and a page too large to build (or to build
 * within a gateway's time) ends in one of these. A page asked above that size is then not retried on
 * them (finalStatuses): the size is given up at the first refusal, and the read goes on below it,
 * where retries apply again. Where the end rule (pageRequests.ts) finds a refusal that is not about the
 * `limit` alone, it lowers the size to a page within what was answered (lowerTo), or halves it for
 * the rest of the read (capAt: a service refusing reads deeper than it serves refuses more deeper).
 */

/** The guide's default `limit`, and what an adaptive read falls back to when a large one is refused. */
export const GUIDE_PAGE_SIZE = 100;
export const ADAPTIVE_FIRST_PAGE = 1_000;
export const ADAPTIVE_MAX_PAGE = 5_000;

export type PageSizeSetting = number | 'adaptive';

/** 4xx answers that say nothing about `limit`: the token, the report, the timeout, the rate. */
const NOT_ABOUT_LIMIT = new Set([401, 403, 404, 408, 429]);

/** 5xx answers that can be about `limit` (503 says the service is unavailable, whatever the size). */
const SERVER_REFUSALS = [500, 502, 504];

export interface PageSizerOptions {
	/** Take 500, 502 and 504 as a refusal of a large `limit` too (see above). */
	serverErrors?: boolean;
}

export class PageSizer {
	/** The `limit` the next planned page asks for. */
	size: number;

	/** The largest `limit` the service answered with a table: a refusal above it is about the size. */
	accepted = 0;

	/** The most rows one answer brought: how far a lowered size grows back at once. */
	private most = 0;

	/** The most rows a short answer to a `limit` above all earlier short answers brought. */
	private capped = 0;

	private growing: boolean;

	private answered = false;

	/** The node chooses the page size (no Page Size set). */
	readonly adaptive: boolean;

	private ceiling: number;

	private readonly serverErrors: boolean;

	constructor(setting: PageSizeSetting, options: PageSizerOptions = {}) {
		this.serverErrors = options.serverErrors === true;
		this.adaptive = setting === 'adaptive';
		this.ceiling = setting === 'adaptive' ? ADAPTIVE_MAX_PAGE : Math.max(1, Math.floor(setting));
		this.size = setting === 'adaptive' ? ADAPTIVE_FIRST_PAGE : this.ceiling;
		this.growing = true;
	}

	/**
	 * An adaptive read sends its first request alone, so that a service capping pages is found out
	 * before pages are planned ahead at a size it does not serve.
	 */
	get learning(): boolean {
		return this.adaptive && !this.answered;
	}

	/** The most rows the service has served in one answer, when more than the size (within the ceiling). */
	get served(): number {
		return Math.max(this.size, Math.min(this.most, this.ceiling));
	}

	/** A request asked with `limit` brought `received` rows (an empty answer says nothing about the size). */
	onPage(limit: number, received: number): void {
		this.answered = true;
		this.accepted = Math.max(this.accepted, limit);
		this.most = Math.max(this.most, received);
		if (received === 0) return;
		if (received < limit) {
			// Asked above every short answer so far: no more rows than those brought means the cap is
			// found. A short answer below them is a large row, which says nothing about the cap.
			if (limit > this.capped) {
				if (received <= this.capped) this.growing = false;
				this.capped = Math.max(this.capped, received);
			}
			this.size = Math.min(this.size, received);
		} else if (limit === this.size) {
			if (this.size < this.most) this.size = Math.min(this.most, this.ceiling, this.size * 2);
			else if (this.growing) this.size = Math.min(this.ceiling, this.size * 2);
		}
	}

	/**
	 * A request asked with `limit` was refused with `status`. True when the read should ask again at
	 * a smaller size (the size is switched already); false when the failure stands.
	 */
	onRefused(limit: number, status: number | undefined): boolean {
		if (!this.fallsBackAt(limit) || !this.mayBeAboutSize(status)) return false;
		this.size = this.fallback;
		this.growing = false;
		return true;
	}

	/** Whether an answer with `status` can be a refusal of the `limit` (or of `offset + limit`) asked. */
	mayBeAboutSize(status: number | undefined): boolean {
		if (status === undefined) return false;
		const clientRefusal = status >= 400 && status < 500 && !NOT_ABOUT_LIMIT.has(status);
		return clientRefusal || (this.serverErrors && SERVER_REFUSALS.includes(status));
	}

	/** A request asked with `limit` was answered with a table (a check's request: nothing else learnt). */
	answeredAt(limit: number): void {
		this.accepted = Math.max(this.accepted, limit);
	}

	/** Asks the next page for `size` rows: a page proven to be served; full pages grow it again. */
	lowerTo(size: number): void {
		this.size = Math.max(1, Math.min(this.size, size));
	}

	/**
	 * No page of this read asks for more than `size` rows from now on: a refusal that rows past the
	 * page show is not about the end (a service limiting how deep a read may go refuses more deeper).
	 */
	capAt(size: number): void {
		this.ceiling = Math.max(1, Math.min(this.ceiling, size));
		this.most = Math.min(this.most, this.ceiling);
		this.size = Math.min(this.size, this.ceiling);
		this.growing = false;
	}

	/**
	 * Statuses a request asked with `limit` must not be retried on, because the read falls back
	 * instead (4xx are never retried anyway).
	 */
	finalStatuses(limit: number): readonly number[] | undefined {
		return this.serverErrors && this.fallsBackAt(limit) ? SERVER_REFUSALS : undefined;
	}

	/** The size a refused one falls back to: the largest answered, at least the guide's default. */
	private get fallback(): number {
		return Math.max(GUIDE_PAGE_SIZE, this.accepted);
	}

	private fallsBackAt(limit: number): boolean {
		return this.adaptive && limit > this.fallback;
	}
}
