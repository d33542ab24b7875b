/** The output item of each record: what the service answered, or why it was not imported. */
import type { IDataObject } from 'n8n-workflow';

import type { ImportBatch } from './batches';
import type { PreparedRecord } from '../prepare/values';
import type { FailedRecord } from './types';
import type { ImportSettings } from '../settings';
import type { RecordVerdict } from '../answer/outcomes';
import type { PendingRecords } from '../prepare/pendingRecords';
import { recordOutcome } from './failures';

export function successOutput(
	batch: ImportBatch,
	record: PreparedRecord,
	verdict: Extract<RecordVerdict, { outcome: 'imported' }> | undefined,
	response: unknown,
	settings: ImportSettings,
): IDataObject {
	const json: IDataObject = { status: verdict?.status ?? 'imported', outcome: 'imported' };
	if (verdict?.id !== undefined) json.id = verdict.id;
	if (verdict?.message !== undefined) json.message = verdict.message;
	json.recordTypeId = batch.recordTypeId;
	json.batch = batch.number;
	json.record = record;
	if (settings.includeResponse) json.response = response as IDataObject;
	return json;
}

function errorText(failed: FailedRecord | undefined): string {
	if (!failed) return 'Not sent';
	if (failed.refusal !== undefined) return `The service did not import this record: ${failed.refusal}`;
	if (failed.unknown !== undefined) return `Whether the service imported this record is unknown: its answer ${failed.unknown}`;
	if (failed.sent) return failed.failure.message;
	return `Not sent, because batch ${failed.failure.batch.number} failed: ${failed.failure.cause.message}`;
}

export function failureOutput(records: PendingRecords, position: number, failed: FailedRecord | undefined): IDataObject {
	const json: IDataObject = { error: errorText(failed), outcome: recordOutcome(failed) };
	const answered = failed?.refusal !== undefined || failed?.unknown !== undefined;
	const text = answered ? failed?.failure.message : failed?.failure.description;
	if (text) json.description = text;
	if (failed?.failure.httpCode) json.httpCode = failed.failure.httpCode;
	json.recordTypeId = records.origin(position).recordTypeId;
	if (failed) json.batch = failed.batch.number;
	json.record = records.sendable(position);
	return json;
}
