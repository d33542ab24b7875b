/** Measuring process for the Records node, run by n8n-core's execution engine. */
import { prepareNodeImport, prepareNodeRead } from '../clients/node';
import { prepareTriggerPolls } from '../clients/trigger';
import { invoiceRecords } from '../lib/data';
import { serveMeasurements } from '../lib/worker-protocol';

serveMeasurements(async (task) => {
	if (task.kind === 'poll') return await prepareTriggerPolls(task);
	return task.kind === 'read' ? prepareNodeRead(task) : prepareNodeImport(task, invoiceRecords(task.count, task.keyPrefix));
});
