import type { INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { getReportColumns } from '../shared/methods/loadOptions';
import { properties } from './description';
import { checkMemory, claimPoll, recordMemory, releasePoll, triggerKey } from './pollClaims';
import { pollReport } from './pollReport';
import { storedGeneration } from './rememberedRows';

export class RecordsReportTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Records Report Trigger',
		name: 'recordsReportTrigger',
		icon: { light: 'file:../../icons/records.svg', dark: 'file:../../icons/records.dark.svg' },
		group: ['trigger'],
		// 1.1: without a Page Size, polls adapt the page size (fewer requests); 1 keeps 100 rows.
		version: [1, 1.1],
		defaultVersion: 1.1,
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
	};

	methods = { loadOptions: { getReportColumns } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		// A manual test run only shows rows and remembers nothing: it may run beside the active poll.
		if (this.getMode() === 'manual') return await pollReport.call(this);
		const key = triggerKey(this.getWorkflow().id, this.getNode().id);
		const claim = claimPoll(key, Date.now());
		if (!claim.claimed) {
			const seconds = Math.round((Date.now() - (claim.runningSince ?? Date.now())) / 1000);
			this.logger.warn(
				`Records Report Trigger "${this.getNode().name}": poll skipped, the previous poll is still reading the report (for ${seconds} s). Its new rows are emitted by that poll; the next poll reads from what it remembered. If this happens often, choose a longer poll interval.`,
				{ workflowId: this.getWorkflow().id, nodeId: this.getNode().id },
			);
			return null;
		}
		try {
			const staticData = this.getWorkflowStaticData('node');
			const startedFrom = storedGeneration(staticData);
			const memory = checkMemory(key, startedFrom);
			if (memory === 'stale') {
				this.logger.warn(
					`Records Report Trigger "${this.getNode().name}": poll skipped, n8n handed it an older memory than the last poll left (n8n's durable scheduler can start a poll from a copy read before the previous poll was saved). The next poll reads the saved memory.`,
				);
				return null;
			}
			if (memory === 'unsaved') {
				this.logger.warn(
					`Records Report Trigger "${this.getNode().name}": n8n did not save what the last poll remembered (its result was discarded); this poll reads from the saved memory.`,
				);
			}
			const result = await pollReport.call(this);
			// Only a poll that emits can make a later poll emit twice; n8n does not save what its
			// activation poll remembered when that poll emits nothing, and no later poll should wait on it.
			const savedAs = storedGeneration(staticData);
			if (result !== null && savedAs > startedFrom) recordMemory(key, savedAs);
			return result;
		} finally {
			releasePoll(key);
		}
	}

}
