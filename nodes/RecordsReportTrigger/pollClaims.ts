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
 *
 * The memory's generation: n8n 2.x's durable scheduler gives each poll a copy of the trigger's memory
 * read when the poll was dispatched, and the poll n8n makes on activation runs outside that scheduler.
 * A poll dispatched while another was still running can so start, after that one ended, from a copy
 * older than what it saved, and would emit its rows again. Each save counts up a generation; a poll
 * that starts from an older generation than the last emitting poll of this process saved is refused
 * once. If the next poll still starts from it, n8n discarded that save (an abandoned or superseded
 * poll emits nothing and saves nothing), and the saved memory is the truth.
 */
const running = new Map<string, number>();
const lastSaved = new Map<string, { generation: number; refused: boolean }>();

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

/**
 * What a poll starting from memory of generation `stored` may do: `current` go on; `stale` do
 * nothing, since a later generation was saved by a poll of this process; `unsaved` go on, because a
 * poll was refused for the same reason before and the later generation evidently was never saved.
 */
export function checkMemory(key: string, stored: number): 'current' | 'stale' | 'unsaved' {
	const last = lastSaved.get(key);
	if (last === undefined || stored >= last.generation) return 'current';
	if (!last.refused) {
		last.refused = true;
		return 'stale';
	}
	lastSaved.delete(key);
	return 'unsaved';
}

/** Notes the generation a poll of this process left the memory at. */
export function recordMemory(key: string, generation: number): void {
	lastSaved.set(key, { generation, refused: false });
}
