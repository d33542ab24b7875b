/**
 * Which polls of a Records Report Trigger may run and emit, within one n8n process. Pure module: no
 * n8n imports; its state is this process's.
 *
 * 1. One poll at a time. n8n's cron scheduler (1.x; 2.x without the durable scheduler) starts a poll
 *    at every poll time without waiting for the one still running; two polls reading from the same
 *    memory would emit the same rows. A poll that finds another of its trigger running skips: the
 *    running poll emits the new rows and the next poll reads from what it remembered.
 *
 * 2. Never from an older memory than this process saved. n8n's durable scheduler hands each poll a
 *    copy of the memory read when the poll was dispatched, and runs the activation poll outside it:
 *    a poll can start from a copy older than what the previous poll saved with the rows it emitted.
 *    Each save counts up a generation. A poll that starts from an older generation than the last
 *    emitting poll of this process saved emits nothing, every time: emitting from it would repeat
 *    rows. Only polls that returned within their time budget are counted, since n8n throws away the
 *    result (and the memory) of a poll it abandoned. Should n8n keep handing out the older copy
 *    (it lost the save), the refusals say so in the log, and after STALE_LIMIT of them the poll fails
 *    with an error that says what to do, rather than repeat rows or stall unseen.
 *
 * 3. Another process moved the memory on. Each save names the process that made it (`writer`). A poll
 *    that finds a newer generation saved by another process than the last this process saved means two
 *    processes poll this trigger (two main instances without leader election, say): this process
 *    stops emitting for it and logs why. n8n's durable poll cursors show a poll what another process
 *    saved; the workflow's static data (the cron scheduler) does not, so there this cannot be seen.
 */
import { randomUUID } from 'node:crypto';

/** Names this process in the memories it saves. */
export const PROCESS_ID = randomUUID().slice(0, 8);

/** Polls in a row refused for an older memory before the refusal becomes an error. */
export const STALE_LIMIT = 3;

export type PollVerdict =
	| { kind: 'go' }
	| { kind: 'busy'; runningSince: number }
	| { kind: 'stale'; stored: number; saved: number; refusals: number }
	| { kind: 'otherWriter'; writer: string; stored: number; saved: number };

interface TriggerState {
	running?: number;
	/** The generation the last in-time emitting poll of this process saved. */
	saved?: number;
	staleRefusals: number;
}

/** The state of every trigger this process polls; a guard per process, or per test. */
export class PollGuard {
	private readonly triggers = new Map<string, TriggerState>();

	constructor(readonly processId: string = PROCESS_ID) {}

	private state(key: string): TriggerState {
		let state = this.triggers.get(key);
		if (state === undefined) {
			state = { staleRefusals: 0 };
			this.triggers.set(key, state);
		}
		return state;
	}

	/**
	 * Whether a poll starting at `now` from memory of `generation`, saved by `writer`, may go on. A
	 * poll that may go on holds the trigger until `end()`.
	 */
	begin(key: string, now: number, generation: number, writer: string | undefined): PollVerdict {
		const state = this.state(key);
		if (state.running !== undefined) return { kind: 'busy', runningSince: state.running };
		const saved = state.saved;
		if (saved !== undefined && generation < saved) {
			state.staleRefusals++;
			return { kind: 'stale', stored: generation, saved, refusals: state.staleRefusals };
		}
		if (saved !== undefined && generation > saved && writer !== undefined && writer !== this.processId) {
			return { kind: 'otherWriter', writer, stored: generation, saved };
		}
		state.staleRefusals = 0;
		state.running = now;
		return { kind: 'go' };
	}

	/**
	 * Ends a poll that was let go on. `savedGeneration`: the generation it saved with the rows it
	 * emitted, when it emitted and returned within its time budget (n8n keeps that memory).
	 */
	end(key: string, savedGeneration?: number): void {
		const state = this.state(key);
		state.running = undefined;
		if (savedGeneration !== undefined) state.saved = savedGeneration;
	}
}

/** The key of one trigger: a workflow's node. */
export function triggerKey(workflowId: string | undefined, nodeId: string): string {
	return `${workflowId ?? ''}\u0000${nodeId}`;
}
