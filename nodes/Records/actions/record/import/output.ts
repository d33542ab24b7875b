/** The output item of each record: what the service answered, or why it was not imported. */
import type { IDataObject } from 'n8n-workflow';

import type { ImportBatch, RecordOutcome } from './batches';
import type { PreparedRecord } from './values';
import type { ImportResults } from './sending';
import type { ImportSettings } from './settings';
import { type PendingRecord, sendableRecord } from './records';
import { RETRY_ON_FAIL_WARNING } from './failures';


export function successOutput(
	batch: ImportBatch,
	record: PreparedRecord,
	outcome: RecordOutcome | undefined,
	response: unknown,
	settings: ImportSettings,
): IDataObject {
	const json: IDataObject = { status: outcome?.status ?? 'imported' };
	if (outcome?.id !== undefined) json.id = outcome.id;
	if (outcome?.message !== undefined) json.message = outcome.message;
	json.recordTypeId = batch.recordTypeId;
	json.batch = batch.number;
	json.record = record;
	if (settings.includeResponse) json.response = response as IDataObject;
	return json;
}

export function failureOutput(
	record: PendingRecord,
	failed: ImportResults['failedAt'][number],
	retryOnFail: boolean,
): IDataObject {
	const json: IDataObject = {
		error: !failed
			? 'Not sent'
			: failed.refusal !== undefined
				? `The service did not import this record: ${failed.refusal}`
				: failed.sent
					? failed.failure.message
					: `Not sent, because batch ${failed.failure.batch.number} failed: ${failed.failure.cause.message}`,
	};
	const description = [failed?.refusal !== undefined ? failed.failure.message : failed?.failure.description];
	if (retryOnFail) description.push(RETRY_ON_FAIL_WARNING);
	const text = description.filter(Boolean).join(' ');
	if (text) json.description = text;
	if (failed?.failure.httpCode) json.httpCode = failed.failure.httpCode;
	json.recordTypeId = record.recordTypeId;
	if (failed) json.batch = failed.batch.number;
	json.record = sendableRecord(record);
	return json;
}
