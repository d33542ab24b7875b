/**
 * The pages of a read requested ahead (Parallel Requests above 1). Each is planned at the offset
 * where the page before it ends if that one comes back full, and they are handed on strictly in
 * offset order. The plan is right only while every page comes back full: the read restarts it at the
 * next unread row whenever a page differs, and the pages planned after that one are awaited, never
 * used. At most `window - 1` pages are thus requested past the end of a report; they come back empty
 * and are discarded.
 */
import type { TablePage } from './tablePage';

export interface PlannedPage {
	/** Index of the first new row the page is to bring. */
	offset: number;
	/** Rows already read that the page is asked to repeat before `offset` (the change check's rows). */
	overlap: number;
	/** The `limit` sent: the overlap and the new rows. */
	requested: number;
	result: Promise<TablePage>;
	/** Whether `result` has settled: the answer arrived (or the request failed). */
	settled: boolean;
}

/** What the next page asks for, or undefined to plan no further for now. */
export type PageShape = { overlap: number; fresh: number } | undefined;

export class PagePlan {
	private readonly inFlight: PlannedPage[] = [];

	private readonly dropped: Array<Promise<unknown>> = [];

	/** Where the next planned page begins. */
	private next: number;

	constructor(
		start: number,
		private readonly send: (offset: number, limit: number) => Promise<TablePage>,
	) {
		this.next = start;
	}

	get planned(): number {
		return this.inFlight.length;
	}

	/** Plans pages until `window` are in flight or `shape` declines; `ahead` counts the pages before it. */
	fill(window: number, shape: (offset: number, ahead: number) => PageShape): void {
		while (this.inFlight.length < window) {
			const page = shape(this.next, this.inFlight.length);
			if (page === undefined) return;
			const requested = page.overlap + page.fresh;
			const result = this.send(this.next - page.overlap, requested);
			const planned: PlannedPage = { offset: this.next, overlap: page.overlap, requested, result, settled: false };
			// Planned pages may be dropped before they are awaited; their failures must not go unhandled.
			const settle = () => {
				planned.settled = true;
			};
			result.then(settle, settle);
			this.inFlight.push(planned);
			this.next += page.fresh;
		}
	}

	/** Whether the next page in offset order was requested and its answer has not arrived yet. */
	get headOnItsWay(): boolean {
		return this.inFlight.length > 0 && !this.inFlight[0].settled;
	}

	/** The next page in offset order. */
	take(): PlannedPage | undefined {
		return this.inFlight.shift();
	}

	/** Drops the pages planned (they are awaited, never used) and plans again from `offset`. */
	restart(offset: number): void {
		for (const page of this.inFlight) this.dropped.push(page.result.catch(() => undefined));
		this.inFlight.length = 0;
		this.next = offset;
	}

	/** At the end of a read: waits for every page still on its way. */
	async settle(): Promise<void> {
		this.restart(this.next);
		await Promise.all(this.dropped);
	}
}
