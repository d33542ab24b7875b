/**
 * The page size of one report read: fixed (an explicit Page Size), or adaptive (the default). Pure, no n8n: the paging engine asks it what `limit` to send and
 * tells it what each page brought.
 *
 * Why adaptive: n8n's HTTP helper opens a new connection for every request (over TLS, a full
 * handshake), so on a real network the number of requests, not the bytes, sets the time of a read.
 * An adaptive read asks for ADAPTIVE_FIRST_PAGE rows, doubles after each full page up to
 * ADAPTIVE_MAX_PAGE (a bound that keeps one page's memory and time modest), and never grows again
 * once a page comes back short (the service caps pages: the engine's silent-cap guard lowers the size
 * to what it served). A service that refuses a large `limit` outright (a 4xx other than the
 * authentication, not-found and rate-limit ones) is asked again at the guide's default of 100, once.
 * With `serverErrors` (Get Rows), 500, 502 and 504 count as such a refusal too: the guide's only
 * error status is 500, and a page too large to build (or to build within a gateway's time) ends in
 * one of these. A page asked at a size above 100 is then not retried on them (finalStatuses): the
 * size is given up at the first refusal, and the read goes on at 100, where retries apply again.
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

	private growing: boolean;

	private answered = false;

	private readonly adaptive: boolean;

	private readonly serverErrors: boolean;

	constructor(setting: PageSizeSetting, options: PageSizerOptions = {}) {
		this.serverErrors = options.serverErrors === true;
		this.adaptive = setting === 'adaptive';
		this.size = setting === 'adaptive' ? ADAPTIVE_FIRST_PAGE : Math.max(1, Math.floor(setting));
		this.growing = this.adaptive;
	}

	/**
	 * An adaptive read sends its first request alone, so that a service capping pages is found out
	 * before pages are planned ahead at a size it does not serve.
	 */
	get learning(): boolean {
		return this.adaptive && !this.answered;
	}

	/** A page asked with `limit` brought `received` rows (an empty page ends the read; nothing to learn). */
	onPage(limit: number, received: number): void {
		this.answered = true;
		if (received === 0) return;
		if (received < limit) {
			this.size = Math.min(this.size, received);
			this.growing = false;
		} else if (this.growing && limit === this.size) {
			this.size = Math.min(ADAPTIVE_MAX_PAGE, this.size * 2);
		}
	}

	/**
	 * A request asked with `limit` was refused with `status`. True when the read should ask again at
	 * the guide's default size (the size is switched already); false when the failure stands.
	 */
	onRefused(limit: number, status: number | undefined): boolean {
		if (!this.fallsBackAt(limit) || status === undefined) return false;
		const clientRefusal = status >= 400 && status < 500 && !NOT_ABOUT_LIMIT.has(status);
		if (!clientRefusal && !(this.serverErrors && SERVER_REFUSALS.includes(status))) return false;
		this.size = GUIDE_PAGE_SIZE;
		this.growing = false;
		return true;
	}

	/**
	 * Statuses a request asked with `limit` must not be retried on, because the read falls back
	 * instead (4xx are never retried anyway).
	 */
	finalStatuses(limit: number): readonly number[] | undefined {
		return this.serverErrors && this.fallsBackAt(limit) ? SERVER_REFUSALS : undefined;
	}

	private fallsBackAt(limit: number): boolean {
		return this.adaptive && limit > GUIDE_PAGE_SIZE;
	}
}
