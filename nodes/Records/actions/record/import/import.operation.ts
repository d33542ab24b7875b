/**
 * Import (§4.1): reads and checks every input item first, then sends the records in batches,
 * converting each batch's values as it is sent. Its three concerns have a folder each: prepare/
 * (reading items into records, converting values), send/ (batches, requests, failures, output
 * items) and answer/ (what the service's answer says of each record).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { retryOnFailRefusal, stoppingError } from './send/failures';
import { sendBatches } from './send/sending';
import { failureOutput } from './send/output';
import { readSettings } from './settings';
import { readRecords } from './prepare/records';

export { description } from './description';

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	if (items.length === 0) return [];
	const settings = readSettings.call(this);
	const continueOnFail = this.continueOnFail();
	if (settings.retryOnFail) throw retryOnFailRefusal.call(this);
	const { records, slots } = readRecords.call(this, items, settings, continueOnFail);
	const results = await sendBatches.call(this, records, settings, continueOnFail);
	if (results.failures.length > 0 && !continueOnFail) throw stoppingError.call(this, results);

	return slots.map((slot): INodeExecutionData => {
		if (typeof slot !== 'number') {
			// The item failed its check: nothing of it was sent.
			const json: IDataObject = { error: slot.error.message, outcome: 'notSent' };
			if (slot.error.description) json.description = slot.error.description;
			return { json, pairedItem: { item: slot.itemIndex } };
		}
		const json = results.outputs[slot] ?? failureOutput(records, slot, results.failedAt[slot]);
		return { json, pairedItem: { item: records.origin(slot).itemIndex } };
	});
}
