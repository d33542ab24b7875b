/**
 * One poll at a time for each Records Report Trigger, within one n8n process. Pure module, no n8n
 * imports; its state is this process's.
 *
 * Why: n8n's own scheduler (cron, on 1.x and on 2.x without the durable scheduler) starts a poll at
 * every poll time without waiting for a poll of the same node that is still running. A report that
 * takes longer to read than the poll interval (slow pages, 429s, a large report) would then be read
 * by two polls at once, both starting from the same remembered rows, both emitting the same new rows
 * and the slower one saving its older view last. A poll that finds another poll of its trigger still
 * running does nothing instead: the running poll emits the new rows, and the next poll time after it
 * ended reads from what it remembered. Skipping, rather than waiting, keeps polls from piling up
 * behind a slow report, and a skipped poll loses nothing.
 *
 * One process is enough: the instance that polls a workflow's triggers is always one process (the
 * main instance, or the leader among several); workers and webhook processors only run executions.
 */
const running = new Map<string, number>();

export interface PollClaim {
	claimed: boolean;
	/** When refused: when the running poll of the same trigger started (ms since the epoch). */
	runningSince?: number;
}

/** The key of one trigger: a workflow's node. */
export function triggerKey(workflowId: string | undefined, nodeId: string): string {
	return `${workflowId ?? ''}\u0000${nodeId}`;
}

/** Claims the trigger for a poll starting at `now`; refused while another poll of it runs. */
export function claimPoll(key: string, now: number): PollClaim {
	const runningSince = running.get(key);
	if (runningSince !== undefined) return { claimed: false, runningSince };
	running.set(key, now);
	return { claimed: true };
}

/** Ends the claim of a poll that was claimed; every claimed poll must release, also when it fails. */
export function releasePoll(key: string): void {
	running.delete(key);
}
