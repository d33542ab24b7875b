import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { getReportColumns } from '../shared/methods/loadOptions';
import { properties } from './description';
import type { Lineage } from './memory';
import { type MemoryMark, PollGuard, type PollVerdict, STALE_LIMIT, triggerKey } from './pollGuard';
import { pollReport, type PollResult, storedMemory } from './pollReport';
import { sampleOrderAdvice } from './sampleOrder';

export class RecordsReportTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Records Report Trigger',
		name: 'recordsReportTrigger',
		icon: { light: 'file:../../icons/records.svg', dark: 'file:../../icons/records.dark.svg' },
		group: ['trigger'],
		// One version, the first published. A change of behaviour comes as an option or a new version.
		version: 1,
		// The editor hands a resource locator to the subtitle as its plain value, a run as an object.
		subtitle:
			'={{"Report " + (typeof $parameter["report"] === "object" ? $parameter["report"].value : $parameter["report"])}}',
		description: 'Starts the workflow when a Records report has rows it has not emitted before',
		defaults: { name: 'Records Report Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'recordsApi', required: true }],
		properties,
		// Fetch Test Event shows existing rows (manualSample.ts): said where they are shown.
		hints: [
			{
				message:
					"A sample: the rows a poll would emit now, or else the report's last 10 rows (first 10 for At the Top), in its order. Published, the trigger emits each new row once. IDs or dates rising row by row mean the report lists oldest first.",
				type: 'info',
				location: 'outputPane',
				whenToDisplay: 'afterExecution',
			},
		],
	};

	methods = { loadOptions: { getReportColumns } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const started = Date.now();
		// A manual test run only shows rows and remembers nothing: it may run beside the active poll.
		if (this.getMode() === 'manual') {
			const { items } = await pollReport.call(this, { writer: guard.processId, lineage: newLineage(started) });
			// n8n gives a poll no hint of its own to set: whether the sample looks sorted goes to the log.
			const advice = sampleOrderAdvice((items?.[0] ?? []).map((item) => item.json));
			if (advice !== undefined) this.logger.info(`${this.getNode().name}: ${advice}`);
			return items;
		}
		const node = this.getNode();
		const key = triggerKey(this.getWorkflow().id, node.id);
		const stored = storedMemory(this.getWorkflowStaticData('node'));
		const verdict = guard.begin(key, started, node.name, stored);
		if (verdict.kind !== 'go') return refuse(this, verdict);
		let saved: MemoryMark | undefined;
		let result: PollResult | undefined;
		try {
			result = await pollReport.call(this, {
				writer: guard.processId,
				lineage: newLineage(started),
				forget: verdict.forget,
				renamedFrom: verdict.renamedFrom,
			});
			// n8n keeps what an emitting poll saved, unless it abandoned the poll at its timeout.
			const kept = !('getPollBudgetMs' in this) || Date.now() - started <= this.getPollBudgetMs() * TIMEOUT_PER_BUDGET;
			if (result.items !== null && kept) saved = result.saved;
			return result.items;
		} finally {
			guard.end(key, saved && { ...saved, name: node.name });
			this.logger.debug(pollEnded(node.name, Date.now() - started, result), { workflowId: this.getWorkflow().id, nodeId: node.id });
		}
	}
}

/**
 * The last thing a poll does: says how long it took, how many rows it emitted and whether it changed
 * the memory (n8n stores a changed memory after the poll), so that the log shows when polls end.
 */
function pollEnded(name: string, ms: number, result: PollResult | undefined): string {
	const what =
		result === undefined
			? 'failed'
			: `${result.items?.[0]?.length ?? 0} new rows, ${result.saved ? `memory changed (generation ${result.saved.generation})` : 'memory unchanged'}`;
	return `Records Report Trigger "${name}": poll ended after ${ms} ms: ${what}`;
}

/**
 * n8n's timeout for a poll over the budget it gives the poll: the budget leaves a fifth of the
 * timeout as margin (its durable scheduler: 36 s of 45 s), and the poll stops reading at the budget.
 */
const TIMEOUT_PER_BUDGET = 1.25;

/** One guard for every trigger this n8n process polls. */
const guard = new PollGuard();

let lineages = 0;

/** A new line of memory, for a poll that starts over (memory.ts). */
function newLineage(since: number): Lineage {
	return { id: `${guard.processId}.${since.toString(36)}.${++lineages}`, since };
}

/** Logs why a poll does not go on; an older memory handed out again and again becomes an error. */
function refuse(context: IPollFunctions, verdict: Exclude<PollVerdict, { kind: 'go' }>): null {
	const name = `Records Report Trigger "${context.getNode().name}"`;
	const log = { workflowId: context.getWorkflow().id, nodeId: context.getNode().id };
	if (verdict.kind === 'busy') {
		const seconds = Math.round((Date.now() - verdict.runningSince) / 1000);
		context.logger.warn(
			`${name}: poll skipped, the previous poll is still reading the report (for ${seconds} s). Its new rows are emitted by that poll; the next poll reads from what it remembered. If this happens often, choose a longer poll interval.`,
			log,
		);
		return null;
	}
	if (verdict.kind === 'otherWriter') {
		context.logger.warn(
			`${name}: poll skipped, another n8n process (${verdict.writer}) saved this trigger's memory after this process did. Two processes poll this workflow; this one stops emitting for it so that no row is emitted twice. Run one main instance, or multi-main with leader election.`,
			log,
		);
		return null;
	}
	const { stored, saved } = verdict;
	const last = `the last poll of this process saved with the rows it emitted (generation ${saved.generation})`;
	const message =
		stored === undefined
			? `${name}: n8n handed this poll no memory, where ${last}`
			: `${name}: n8n handed this poll an older memory (${stored.lineage === saved.lineage ? `generation ${stored.generation}` : 'from before the trigger last started over'}) than ${last}`;
	if (verdict.refusals < STALE_LIMIT) {
		context.logger.warn(`${message}; the poll emits nothing, since emitting from it would repeat rows.`, log);
		return null;
	}
	throw new NodeOperationError(context.getNode(), `${message}, ${verdict.refusals} polls in a row`, {
		description:
			'n8n seems to have lost what the last poll saved (its execution holds the rows it emitted). No row was emitted twice. Restart n8n to go on from what n8n has stored; check the executions of this workflow for the rows of the last poll.',
	});
}
