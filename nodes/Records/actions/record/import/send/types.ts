/** What sending an import produces, shared by sending, failures and output (which depend on it, never it on them). */
import type { IDataObject } from 'n8n-workflow';

import type { ImportBatch } from './batches';
import type { RequestOutcome } from '../../../../../shared/transport/types';

export interface BatchFailure {
	batch: ImportBatch;
	message: string;
	description: string;
	httpCode?: string;
	itemIndex: number;
	/** The original error, to keep its kind (API or operational) when rethrown. */
	cause: Error;
	/**
	 * `foreignAnswer`: the answer was not the service's (the batches after it are not sent);
	 * `answered`: the service's 2xx answer refused some records, or left whether they were imported unknown.
	 */
	kind?: 'foreignAnswer' | 'answered';
	/** What became of the batch's records when the whole batch failed (for `answered`, per record). */
	outcome: RequestOutcome;
}

/** Why a record was not imported. */
export interface FailedRecord {
	failure: BatchFailure;
	batch: ImportBatch;
	/** Whether its batch was sent. */
	sent: boolean;
	/** The service refused this record in its answer: its reason. */
	refusal?: string;
	/** The service's answer leaves this record's outcome unknown: why. */
	unknown?: string;
}

/** What became of each record, by its position in the list of records. */
export interface ImportResults {
	outputs: Array<IDataObject | undefined>;
	failedAt: Array<FailedRecord | undefined>;
	failures: BatchFailure[];
	/** Batches of which the service imported at least one record. */
	succeeded: ImportBatch[];
	notStarted: ImportBatch[];
}
