/**
 * Whether the service honours `offset`, asked only when a read gives cause. A page identical to the
 * first page or to the previous one (or, while an adaptive read's pages grow, one beginning with the
 * first page's rows), or a page whose overlap does not match, may mean the service ignores `offset`
 * and serves the same rows whatever is asked. One probe far beyond any real report tells it apart from
 * a report that merely repeats rows, or that changed: rows there mean `offset` is ignored, and the
 * read fails with a clear error after a handful of requests instead of looping.
 */
import type { ReportRow } from './rows';

/**
 * Offset of the probe: beyond any real report, and small enough that offset + limit still fits a
 * 32-bit integer on the service's side.
 */
export const OFFSET_PROBE = 1_000_000_000;

interface SeenPage {
	offset: number;
	signature: string;
	rows: ReportRow[];
}

/** Cheap first test of two pages being the same; the full comparison follows only on a match. */
function pageSignature(rows: readonly ReportRow[]): string {
	if (rows.length === 0) return '0';
	return `${rows.length}\u0000${JSON.stringify(rows[0])}\u0000${JSON.stringify(rows[rows.length - 1])}`;
}

function samePage(a: readonly ReportRow[], b: readonly ReportRow[]): boolean {
	return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Pages of different sizes that begin with the same rows: what a service ignoring `offset` serves
 * while an adaptive read is still growing its pages (equal sizes are caught by samePage).
 */
function sameStart(a: readonly ReportRow[], b: readonly ReportRow[]): boolean {
	if (a.length === b.length || JSON.stringify(a[0]) !== JSON.stringify(b[0])) return false;
	const common = Math.min(a.length, b.length);
	return JSON.stringify(a.slice(0, common)) === JSON.stringify(b.slice(0, common));
}

/** What the guard needs from the read. */
export interface OffsetProbe {
	/** The rows at OFFSET_PROBE (none when the service answers there as past the end). */
	rowsFarAway(): Promise<ReportRow[]>;
	requestsSent(): number;
	/** The read's error, with the node and item. */
	fail(message: string, description: string): Error;
}

export class OffsetGuard {
	/** Known once the probe found nothing: the guard asks no more. */
	honoured = false;

	private first: SeenPage | undefined;

	private previous: SeenPage | undefined;

	constructor(
		private readonly reportId: string,
		private readonly probe: OffsetProbe,
	) {}

	/** Asks the probe once: fails the read when the service ignores `offset`. */
	async confirm(offset: number, repeatedOffset: number): Promise<void> {
		if (this.honoured) return;
		if ((await this.probe.rowsFarAway()).length > 0) {
			throw this.probe.fail(
				`The service ignores the offset of report "${this.reportId}": it answered offset ${offset} with the same rows as offset ${repeatedOffset}, and still sent rows for offset ${OFFSET_PROBE}`,
				`Reading stopped after ${this.probe.requestsSent()} requests instead of looping forever. The report cannot be paged this way; ask the service's administrator to check the report API, or read fewer rows than one page.`,
			);
		}
		this.honoured = true;
	}

	/** Until `offset` is known to work: a page equal to the first or the previous one needs the probe. */
	async afterPage(offset: number, rows: ReportRow[]): Promise<void> {
		if (this.honoured) return;
		const seen: SeenPage = { offset, signature: pageSignature(rows), rows };
		const { first } = this;
		const repeated =
			[first, this.previous].find(
				(earlier) => earlier !== undefined && earlier.signature === seen.signature && samePage(earlier.rows, rows),
			) ?? (first !== undefined && sameStart(first.rows, rows) ? first : undefined);
		if (repeated !== undefined) await this.confirm(offset, repeated.offset);
		this.first ??= seen;
		this.previous = seen;
	}
}
