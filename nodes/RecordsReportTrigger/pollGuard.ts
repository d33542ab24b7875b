/**
 * Which polls of a Records Report Trigger may run and emit, within one n8n process. Pure module: no
 * n8n imports; its state is this process's. A trigger is a workflow's node (by id: a renamed node is
 * the same trigger); its memory lives under the node's name in the workflow's static data, or, with
 * n8n's durable poll cursors, under its id.
 *
 * 1. One poll at a time. n8n's cron scheduler (1.x; 2.x without the durable scheduler) starts a poll
 *    at every poll time without waiting for the one still running; two polls reading from the same
 *    memory would emit the same rows. A poll that finds another of its trigger running skips: the
 *    running poll emits the new rows and the next poll reads from what it remembered.
 *
 * 2. Never from an older memory than this process saved. n8n's durable scheduler hands each poll a
 *    copy of the memory read when the poll was dispatched, and runs the activation poll outside it:
 *    a poll can start from a copy older than what the previous poll saved with the rows it emitted.
 *    Memories are ordered by their line (memory.ts: a trigger that starts over begins a new line) and
 *    within it by generation. A poll that starts from an older memory than the last emitting poll of
 *    this process saved, in the same place (the same node name), emits nothing, every time: emitting
 *    from it would repeat rows. Only polls that returned within their time budget are counted, since
 *    n8n throws away the result (and the memory) of a poll it abandoned. Should n8n keep handing out
 *    the older copy (it lost the save), the refusals say so in the log, and after STALE_LIMIT of them
 *    the poll fails with an error that says what to do, rather than repeat rows or stall unseen.
 *
 * 3. Edits go on. A trigger edited to read another report or identify rows otherwise starts over (a
 *    first run, a new line): that is no older memory. A renamed node finds no memory under its new
 *    name and starts over too; renamed back, it finds the memory left under the old name, older than
 *    what it saved since: it starts over again rather than emit from it (`forget`).
 *
 * 4. Another process moved the memory on. A poll that finds a newer memory saved by another process
 *    than the last this process saved means two processes poll this trigger (two main instances
 *    without leader election, say): this process stops emitting for it and logs why. n8n's durable
 *    poll cursors show a poll what another process saved; the workflow's static data (the cron
 *    scheduler) does not, so there this cannot be seen.
 */
import { randomUUID } from 'node:crypto';

/** Names this process in the memories it saves. */
export const PROCESS_ID = randomUUID().slice(0, 8);

/** Polls in a row refused for an older memory before the refusal becomes an error. */
export const STALE_LIMIT = 3;

/** Where a memory stands in the order of memories (see memory.ts). */
export interface MemoryMark {
	lineage: string;
	since: number;
	generation: number;
	writer?: string;
}

export type PollVerdict =
	| { kind: 'go'; forget?: string; renamedFrom?: string }
	| { kind: 'busy'; runningSince: number }
	| { kind: 'stale'; stored: MemoryMark | undefined; saved: MemoryMark; refusals: number }
	| { kind: 'otherWriter'; writer: string };

interface Saved extends MemoryMark {
	/** The node's name when it saved: where its memory lies in static data. */
	name: string;
}

interface TriggerState {
	running?: number;
	/** What the last in-time emitting poll of this process saved. */
	saved?: Saved;
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
	 * Whether a poll of the node named `name`, starting at `now` from the memory marked `stored`
	 * (none: no memory), may go on. One that may go on holds the trigger until `end()`; `forget` says
	 * why it must not go on from the stored memory (it starts over), `renamedFrom` where a renamed
	 * node's memory stays.
	 */
	begin(key: string, now: number, name: string, stored: MemoryMark | undefined): PollVerdict {
		const state = this.state(key);
		if (state.running !== undefined) return { kind: 'busy', runningSince: state.running };
		const verdict = this.judge(state.saved, name, stored);
		if (verdict.kind === 'stale') {
			state.staleRefusals++;
			return { ...verdict, refusals: state.staleRefusals };
		}
		if (verdict.kind === 'go') {
			state.staleRefusals = 0;
			state.running = now;
		}
		return verdict;
	}

	private judge(saved: Saved | undefined, name: string, stored: MemoryMark | undefined): PollVerdict {
		if (saved === undefined) return { kind: 'go' };
		const stale = { kind: 'stale' as const, stored, saved, refusals: 0 };
		const samePlace = name === saved.name;
		// No memory where this process saved one: lost. Elsewhere: a renamed node starting over.
		if (stored === undefined) return samePlace ? stale : { kind: 'go', renamedFrom: saved.name };
		if (stored.lineage === saved.lineage) {
			if (stored.generation < saved.generation) return stale;
			if (stored.generation > saved.generation && this.otherProcess(stored)) return { kind: 'otherWriter', writer: stored.writer! };
			return { kind: 'go' };
		}
		if (stored.since < saved.since) {
			if (samePlace) return stale;
			return {
				kind: 'go',
				forget: `the memory stored under its name "${name}" is older than what it saved since as "${saved.name}" (it was renamed back)`,
			};
		}
		if (this.otherProcess(stored)) return { kind: 'otherWriter', writer: stored.writer! };
		return { kind: 'go' };
	}

	private otherProcess(stored: MemoryMark): boolean {
		return stored.writer !== undefined && stored.writer !== this.processId;
	}

	/**
	 * Ends a poll that was let go on. `saved`: what it saved with the rows it emitted, when it emitted
	 * and returned within its time budget (n8n keeps that memory), and the node's name then.
	 */
	end(key: string, saved?: MemoryMark & { name: string }): void {
		const state = this.state(key);
		state.running = undefined;
		if (saved !== undefined) state.saved = { lineage: saved.lineage, since: saved.since, generation: saved.generation, writer: saved.writer, name: saved.name };
	}
}

/** The key of one trigger: a workflow's node. */
export function triggerKey(workflowId: string | undefined, nodeId: string): string {
	return `${workflowId ?? ''}\u0000${nodeId}`;
}
