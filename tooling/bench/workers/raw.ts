/** Measuring process for the raw axios client: loads nothing of n8n, so its memory is the client's own. */
import { importRaw, readReportRaw } from '../clients/raw';
import { checkRows } from '../lib/check';
import { invoiceRecords } from '../lib/data';
import { withFirstRequestTime } from '../lib/first-request';
import { serveMeasurements, type Prepared } from '../lib/worker-protocol';
import type { Task } from '../lib/tasks';

serveMeasurements(async (task: Task): Promise<Prepared> => {
	if (task.kind === 'poll' || task.kind === 'convert') throw new Error(`${task.kind} is measured with the node only`);
	if (task.kind === 'read') {
		return {
			async run() {
				const { rows, rowCount, requests } = await readReportRaw(task);
				return { count: rowCount, details: { requests, ...(task.dropRows === true ? {} : checkRows(rows)) } };
			},
		};
	}
	const records = invoiceRecords(task.count, task.keyPrefix);
	return {
		async run() {
			const { result, firstRequestMs } = await withFirstRequestTime(() => importRaw({ ...task, records }));
			return { count: result.records, details: { requests: result.requests, firstRequestMs } };
		},
	};
});
