/**
 * Import (§4.1): reads and checks every input item first, then sends the records in batches,
 * converting each batch's values as it is sent (description, settings, records, sending, failures
 * and output live beside this file).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { retryOnFailRefusal, stoppingError } from './failures';
import { sendBatches } from './sending';
import { failureOutput } from './output';
import { readSettings } from './settings';
import { readRecords } from './records';

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
			const json: IDataObject = { error: slot.error.message };
			if (slot.error.description) json.description = slot.error.description;
			return { json, pairedItem: { item: slot.itemIndex } };
		}
		const json = results.outputs[slot] ?? failureOutput(records, slot, results.failedAt[slot]);
		return { json, pairedItem: { item: records.itemIndexes[slot] } };
	});
}
