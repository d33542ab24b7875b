/**
 * n8n's time budget for one poll, and the error of a read that does not fit it. n8n-workflow 2.38+
 * gives a poll its budget (`getPollBudgetMs()`: about 36 s on n8n's durable scheduler, which abandons
 * a poll at its timeout and throws its result away; 5 minutes otherwise); n8n 1.x gives none.
 *
 * A read is never split over polls: a poll that cannot finish its read in time fails with an error
 * that says which setting to change, nothing emitted and nothing remembered, and the next poll reads
 * again from the start. The one exception is an ordered poll at the end of the report, which emits
 * the new rows it read and leaves the rest to the next poll (changeDetector.ts, `cutShort`).
 */
import type { INode, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** When a poll should stop reading: before n8n's budget for it runs out. */
export class Budget {
	readonly ms: number | undefined;
	private readonly deadline: number | undefined;
	private last = Date.now();
	private slowest = 0;

	constructor(context: IPollFunctions) {
		const budget = 'getPollBudgetMs' in context && typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : undefined;
		this.ms = typeof budget === 'number' && budget > 0 ? budget : undefined;
		this.deadline = this.ms === undefined ? undefined : Date.now() + this.ms;
	}

	/**
	 * After an answer: whether one more request, as slow as the slowest so far (its retries included),
	 * would end past the budget. n8n's budget already keeps a margin before it abandons a poll.
	 */
	get exhausted(): boolean {
		const now = Date.now();
		this.slowest = Math.max(this.slowest, now - this.last);
		this.last = now;
		return this.deadline !== undefined && now + this.slowest >= this.deadline;
	}

	/** Whether the deadline has not passed. */
	get left(): boolean {
		return this.deadline === undefined || Date.now() < this.deadline;
	}
}

/** What a poll was reading: a full read, an ordered poll, or a first run's search for the edges. */
export type Reading = 'full' | 'ordered' | 'edges';

/** The poll's time ran out before its read could decide (see readReport.ts). */
export class OutOfTime extends Error {
	constructor(readonly reading: Reading) {
		super('out of time');
	}
}

const TIMEOUT = "On n8n's durable scheduler, N8N_SCHEDULER_POLL_TIMEOUT sets the time one poll may take.";

/** What the poll was reading when its time ran out: what to change. */
const ADVICE: Record<Reading, string[]> = {
	full: [
		'The poll could not read the whole report in time, so nothing was emitted or remembered; the next poll reads it again from its first row.',
		'To read it in time, raise Page Size (up to what the service serves in one answer) or Parallel Requests in the options, or narrow the report (e.g. to recent rows).',
		'If new rows only ever appear at one end of the report, choose that under New Rows Appear: a poll then reads only the rows past those it remembers.',
	],
	ordered: [
		'More rows were added at the top since the last poll than one poll can read in time, so nothing was emitted or remembered; the next poll tries again.',
		'Raise Page Size in the options (up to what the service serves in one answer), so that a poll reads them in fewer requests.',
	],
	edges: [
		"The first poll looks for the report's end with one-row requests (about 40 for a million rows), and the service answered them too slowly, so nothing was remembered; the next poll tries again.",
		'If this keeps happening, the service is slower than n8n lets a poll take.',
	],
};

export function outOfTimeError(
	node: INode,
	reportId: string,
	budgetMs: number,
	reading: Reading,
	rows: number,
): NodeOperationError {
	const seconds = Math.max(1, Math.round(budgetMs / 1000));
	return new NodeOperationError(node, `Report "${reportId}" could not be read within the time n8n gives one poll (${seconds} s; ${rows} rows were read)`, {
		description: [...ADVICE[reading], TIMEOUT].join(' '),
	});
}
