/** Measuring process for the Records node, run by n8n-core's execution engine. */
import { prepareNodeConversion, prepareNodeImport, prepareNodeRead } from '../clients/node';
import { prepareTriggerPolls } from '../clients/trigger';
import { invoiceRecords, typedInvoiceRecords } from '../lib/data';
import { serveMeasurements } from '../lib/worker-protocol';

serveMeasurements(async (task) => {
	if (task.kind === 'poll') return await prepareTriggerPolls(task);
	if (task.kind === 'convert') return prepareNodeConversion(task);
	if (task.kind === 'read') return prepareNodeRead(task);
	const records = task.values === 'typed' ? typedInvoiceRecords(task.count, task.keyPrefix) : invoiceRecords(task.count, task.keyPrefix);
	return prepareNodeImport(task, records);
});
