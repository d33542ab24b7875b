/**
 * n8n's time budget for one poll, and the error of a read that does not fit it. n8n-workflow 2.38+
 * gives a poll its budget (`getPollBudgetMs()`: about 36 s on n8n's durable scheduler, which abandons
 * a poll at its timeout and throws its result away; 5 minutes otherwise); n8n 1.x gives none.
 *
 * A read is not split over polls: a poll that cannot finish its read in time fails with an error
 * that says which setting to change, nothing emitted and nothing remembered, and the next poll reads
 * again from the start. The exceptions decide on what was read at the end where new rows appear
 * (changeDetector.ts, `cutShort`): an ordered poll at the end of the report emits the new rows it
 * read and leaves the rest to the next poll, in an ordered mode a full read that does not fit is
 * skipped for the ordered read made before it, and an ordered mode's first run that emits all current
 * rows emits those it read and leaves the rest to the next polls (backlog.ts), and Anywhere's first
 * run reads on at the next polls (firstRunParts.ts), each part within a bound of its own as well.
 */
import type { INode, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** When a poll should stop reading: before n8n's budget for it runs out. */
export class Budget {
	readonly ms: number | undefined;
	private readonly deadline: number | undefined;
	private readonly started = Date.now();
	private last = this.started;
	private slowest = 0;

	constructor(context: IPollFunctions) {
		const budget = 'getPollBudgetMs' in context && typeof context.getPollBudgetMs === 'function' ? context.getPollBudgetMs() : undefined;
		this.ms = typeof budget === 'number' && budget > 0 ? budget : undefined;
		this.deadline = this.ms === undefined ? undefined : Date.now() + this.ms;
	}

	/**
	 * After an answer: whether one more request, as slow as the slowest so far (its retries included),
	 * would end past the budget, or past `boundMs` from the poll's start where a bound is given (a
	 * read that goes on at the next poll). n8n's budget already keeps a margin before it abandons a poll.
	 */
	exhausted(boundMs?: number): boolean {
		const now = Date.now();
		this.slowest = Math.max(this.slowest, now - this.last);
		this.last = now;
		const deadline = Math.min(this.deadline ?? Infinity, boundMs === undefined ? Infinity : this.started + boundMs);
		return now + this.slowest >= deadline;
	}

	/** Whether the deadline has not passed. */
	get left(): boolean {
		return this.deadline === undefined || Date.now() < this.deadline;
	}
}

/**
 * What a poll was reading when its time ran out: a full read (in Anywhere, or in an ordered mode where
 * nothing at its end can be decided on instead), an ordered poll at the top or at the end, or a first
 * run's search for the edges.
 */
export type Reading = 'full' | 'top' | 'end' | 'edges';

/** The poll's time ran out before its read could decide (see readReport.ts). */
export class OutOfTime extends Error {
	constructor(readonly reading: Reading) {
		super('out of time');
	}
}

const TIMEOUT = "On n8n's durable scheduler, N8N_SCHEDULER_POLL_TIMEOUT sets the time one poll may take.";
const PAGE_SIZE = 'Raise Page Size in the options (up to what the service serves in one answer), so that a poll reads them in fewer requests.';

/** The settings the advice depends on: none is advised that is chosen already. */
export interface ChosenSettings {
	position: 'anywhere' | 'end' | 'top';
	firstRun: 'remember' | 'emit';
}

/** A setting that makes a full read unneeded, where it is not chosen. */
function fewerRows({ position, firstRun }: ChosenSettings): string[] {
	if (position === 'anywhere') {
		return ['If new rows only ever appear at one end of the report, choose that under New Rows Appear: a poll then reads only the rows past those it remembers.'];
	}
	return firstRun === 'emit' ? ['On First Run "Only Remember Them" reads only the rows at the end where new rows appear.'] : [];
}

/** What the poll was reading when its time ran out: what happened and what to change. */
function advice(reading: Reading, chosen: ChosenSettings): string[] {
	switch (reading) {
		case 'full':
			return [
				'The poll could not read the whole report in time, so nothing was emitted or remembered; the next poll reads it again from its first row.',
				'To read it in time, raise Page Size (up to what the service serves in one answer) or Parallel Requests in the options, or narrow the report (e.g. to recent rows).',
				...fewerRows(chosen),
			];
		case 'top':
			return [
				'The poll ran out of time before it had read the rows added at the top since the last poll and the rows it remembers below them, so nothing was emitted or remembered; the next poll tries again.',
				PAGE_SIZE,
			];
		case 'end':
			return [
				'The poll ran out of time before it had read the rows it remembers at the end (the 64 rows it must find where they stood before it emits the rows after them), so nothing was emitted or remembered; the next poll tries again.',
				PAGE_SIZE,
			];
		case 'edges':
			return [
				"The poll looks for the report's end with one-row requests (about 40 for a million rows), and the service answered them too slowly, so nothing was emitted or remembered; the next poll tries again.",
				'If this keeps happening, the service is slower than n8n lets a poll take.',
			];
	}
}

export function outOfTimeError(
	node: INode,
	reportId: string,
	budgetMs: number,
	reading: Reading,
	rows: number,
	chosen: ChosenSettings,
): NodeOperationError {
	const seconds = Math.max(1, Math.round(budgetMs / 1000));
	return new NodeOperationError(node, `Report "${reportId}" could not be read within the time n8n gives one poll (${seconds} s; ${rows} rows were read)`, {
		description: [...advice(reading, chosen), TIMEOUT].join(' '),
	});
}
