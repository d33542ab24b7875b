/** Measuring process for the Records node, run by n8n-core's execution engine. */
import { prepareNodeImport, prepareNodeRead } from '../clients/node';
import { invoiceRecords } from '../lib/data';
import { serveMeasurements } from '../lib/worker-protocol';

serveMeasurements(async (task) =>
	task.kind === 'read' ? prepareNodeRead(task) : prepareNodeImport(task, invoiceRecords(task.count, task.keyPrefix)),
);
