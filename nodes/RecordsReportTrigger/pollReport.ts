/**
 * One poll of the Records Report Trigger: reads the report for the change detector (readReport.ts),
 * stores what the detector says to remember, emits its new rows and tells n8n's log what the poll
 * noticed. The guard that keeps polls of one trigger apart is in the node file and pollGuard.ts.
 * n8n glue.
 */
import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { reportShaper } from '../shared/report/settings';
import { partNote } from './firstRunParts';
import { manualSample } from './manualSample';
import { type Memory, readMemory, STATE_KEY } from './memory';
import type { MemoryMark } from './pollGuard';
import { firstRunNote, outputItems, repeatedKeysWarning, tooManyRows } from './pollOutput';
import { pollSettings } from './pollSettings';
import { detect, type Reader } from './readReport';

/** The memory stored in the node's static data now. */
export function storedMemory(staticData: IDataObject): Memory | undefined {
	return readMemory(staticData[STATE_KEY]);
}

export interface PollRun extends Reader {
	/** Why the stored memory must not be used (pollGuard.ts): the poll starts over. */
	forget?: string;
	/** The name the node had when its process last saved, where it was renamed since. */
	renamedFrom?: string;
}

export interface PollResult {
	items: INodeExecutionData[][] | null;
	/** What this poll saved. */
	saved?: MemoryMark;
}

/** Whether two memories remember the same (a poll that found nothing new leaves the stored one). */
function sameMemory(a: Memory, b: Memory): boolean {
	const fields = ['version', 'report', 'identity', 'position', 'lineage', 'since', 'count', 'window', 'far', 'rows', 'polls', 'skipped', 'backlog', 'backlogAfter', 'readOnAt', 'readOnAfter'] as const;
	const lists = ['columns', 'names', 'keys'] as const;
	return fields.every((field) => a[field] === b[field]) && lists.every((list) => a[list]?.join('\u0000') === b[list]?.join('\u0000'));
}

/** One poll: reads the report, emits the rows not emitted before and stores what to remember. */
export async function pollReport(this: IPollFunctions, run: PollRun): Promise<PollResult> {
	const node = this.getNode();
	const poll = pollSettings(this, node);
	const staticData = this.getWorkflowStaticData('node');
	const stored = storedMemory(staticData);
	const memory = run.forget === undefined ? stored : undefined;
	if (this.getMode() === 'manual') return { items: await manualSample(this, poll, memory, run) };
	const { decision, columns, detector, cutShort } = await detect(this, poll, memory, run);
	const log = { workflowId: this.getWorkflow().id, nodeId: node.id };
	const say = (text: string) => `Records Report Trigger "${node.name}": report "${poll.reportId}": ${text}`;
	if (decision.memory.rows !== undefined && decision.memory.count > poll.maxRemembered) throw tooManyRows(node, poll, decision.memory.count);
	const first = firstRunNote(poll, decision, stored, run, cutShort) ?? partNote(poll.firstRun, memory, decision.memory, decision.emit.length);
	if (first !== undefined) this.logger[first.warn ? 'warn' : 'info'](say(first.text), log);
	const reason = detector.fullReadReason;
	if (reason !== undefined) this.logger.warn(`Records Report Trigger "${node.name}": report "${poll.reportId}" is read in full this poll, since ${reason}.`, log);
	for (const note of decision.notes) this.logger.warn(say(`${note}.`), log);
	const warning = repeatedKeysWarning(node, poll.reportId, decision.finders);
	if (warning !== undefined) this.logger.warn(warning, log);
	if (cutShort && !detector.fullReadSkipped && !decision.firstRun && decision.memory.readOnAt === undefined) {
		this.logger.info(say(`the poll's time ran out after ${decision.emit.length} new rows; they are emitted, and the next poll goes on from the last of them.`), log);
	}
	if (decision.emit.length === 0 && memory !== undefined && sameMemory(memory, decision.memory)) return { items: null };
	staticData[STATE_KEY] = decision.memory as unknown as IDataObject;
	const { lineage, since, generation, writer } = decision.memory;
	const saved = { lineage, since, generation, writer };
	if (decision.emit.length === 0) return { items: null, saved };
	const shaper = reportShaper(node, columns, poll.read, poll.reportId);
	return { items: [outputItems(decision.emit, shaper, poll)], saved };
}
