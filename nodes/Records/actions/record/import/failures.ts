/** What a failed batch means for the run: its message, the batches it rules out, the error that stops the run. */
import type { IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { findNamedRecord, type ImportBatch, type RecordOutcome, resolveNamedRecord } from './batches';
import type { ImportAnswer } from './answer';
import type { ImportResults } from './sending';
import type { PendingRecord } from './records';


/** "3", "3–7", "3–7, 9, 12–20" (capped). */
export function describeIndexes(indexes: number[]): string {
	const sorted = [...new Set(indexes)].sort((a, b) => a - b);
	const ranges: string[] = [];
	for (let i = 0; i < sorted.length; ) {
		let j = i;
		while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
		ranges.push(i === j ? String(sorted[i]) : `${sorted[i]}–${sorted[j]}`);
		i = j + 1;
	}
	return ranges.length > 6 ? `${ranges.slice(0, 6).join(', ')}, …` : ranges.join(', ');
}

export function describeItems(indexes: number[]): string {
	const unique = new Set(indexes);
	return `${unique.size === 1 ? 'item' : 'items'} ${describeIndexes(indexes)}`;
}

export function count(n: number, singular: string, plural = `${singular}s`): string {
	return `${n} ${n === 1 ? singular : plural}`;
}

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
	 * `refusedRecords`: the service refused some records of the batch and imported the others.
	 */
	kind?: 'foreignAnswer' | 'refusedRecords';
}

/**
 * What a failed import says when n8n's Retry On Fail is on: n8n then runs the node again, whole,
 * and every record the service already imported is sent again.
 */
export const RETRY_ON_FAIL_WARNING =
	'"Retry On Fail" is on in this node\'s settings: n8n runs the whole import again after a failure and sends the records already imported a second time. Turn it off; "Retry Attempts" in the options repeats only what the service certainly did not process.';

/** A 2xx answer that did not come from the service. */
class ForeignAnswerError extends NodeOperationError {}

/** The error of a 2xx answer that did not come from the service; the outcome of the batch is unknown. */
export function foreignAnswerError(
	this: IExecuteFunctions,
	answer: Extract<ImportAnswer, { kind: 'foreign' }>,
	secret: string,
	itemIndex: number,
): NodeOperationError {
	const redact = (text: string) => (secret.length >= 4 ? text.split(secret).join('***') : text);
	const began = answer.excerpt === '' ? 'It was empty.' : `It began: "${redact(answer.excerpt)}".`;
	const error = new ForeignAnswerError(
		this.getNode(),
		`The answer was not the service's: ${answer.statusCode} with ${answer.contentType}, where the service answers JSON`,
		{
			itemIndex,
			description: `${began} A sign-in page, proxy or captive portal between n8n and the service may have answered instead of it, before or after passing the records on: whether they were imported is unknown. They were not sent again, and no later batch was sent. Check the records in the service, and that the credential's Base URL reaches the service itself.`,
		},
	);
	error.message = redact(error.message);
	return error;
}

/** Failures after which sending more batches cannot succeed: which batches they rule out. */
export function rulesOut(failure: BatchFailure, batch: ImportBatch): boolean {
	if (failure.kind === 'refusedRecords') return false;
	if (failure.cause instanceof NodeApiError) {
		if (failure.httpCode === '401') return true;
		if (failure.httpCode === '404') return batch.recordTypeId === failure.batch.recordTypeId;
		return false;
	}
	// Not an answer of the service: the credential or its Base URL is unusable.
	return failure.cause instanceof NodeOperationError;
}

export function describeFailure(
	this: IExecuteFunctions,
	error: unknown,
	batch: ImportBatch,
	batchCount: number,
	records: PendingRecord[],
): BatchFailure {
	const cause = error instanceof Error ? error : new Error(String(error));
	const itemIndexes = batch.positions.map((position) => records[position].itemIndex);
	const serviceMessage = (error as { description?: unknown }).description;
	let description = typeof serviceMessage === 'string' ? serviceMessage : '';
	// n8n also files error codes such as ECONNRESET as `httpCode`; only a status is one here.
	const httpCode =
		error instanceof NodeApiError && /^\d{3}$/.test(error.httpCode ?? '') ? (error.httpCode as string) : undefined;
	let itemIndex = itemIndexes[0];

	if (httpCode !== undefined && /^4\d\d$/.test(httpCode) && !['401', '404', '429'].includes(httpCode)) {
		const named = findNamedRecord(description);
		if (named) {
			const position = resolveNamedRecord(
				named,
				batch.positions.map((p) => records[p].record),
			);
			if (position !== undefined) {
				itemIndex = itemIndexes[position];
				description = `${asSentence(description)} The service points at record ${named.index} of this batch: input item ${itemIndex}${named.field ? `, field "${named.field}"` : ''}. Correct it and run the import again; the service did not import this batch.`;
			}
		}
	}
	const message = `Batch ${batch.number} of ${batchCount} (${describeItems(itemIndexes)}) for record type "${batch.recordTypeId}" failed: ${cause.message}`;
	const foreign = cause instanceof ForeignAnswerError;
	return {
		batch,
		message,
		description: description.trim(),
		httpCode,
		itemIndex,
		cause,
		...(foreign ? { kind: 'foreignAnswer' as const } : {}),
	};
}

/** A batch the service answered with 2xx, listing some of its records as not imported. */
export function describeRefusal(
	this: IExecuteFunctions,
	batch: ImportBatch,
	batchCount: number,
	records: PendingRecord[],
	refused: number[],
	outcomes: Array<RecordOutcome | undefined>,
): BatchFailure {
	const itemIndexes = batch.positions.map((position) => records[position].itemIndex);
	const refusedItems = refused.map((indexInBatch) => itemIndexes[indexInBatch]);
	const reasons = refused
		.slice(0, 3)
		.map((indexInBatch) => `Item ${itemIndexes[indexInBatch]}: ${asSentence(outcomes[indexInBatch]?.message ?? 'no reason was given')}`);
	if (refused.length > 3) reasons.push(`(${refused.length - 3} more.)`);
	const imported = batch.positions.length - refused.length;
	const message = `Batch ${batch.number} of ${batchCount} (${describeItems(itemIndexes)}) for record type "${batch.recordTypeId}": the service did not import ${count(refused.length, 'record')} (${describeItems(refusedItems)})`;
	const description = `${reasons.join(' ')} The service imported the other ${count(imported, 'record')} of this batch. Correct the refused records and import them again.`;
	return {
		batch,
		message,
		description,
		itemIndex: refusedItems[0],
		cause: new NodeOperationError(this.getNode(), message),
		kind: 'refusedRecords',
	};
}

export function toNodeError(this: IExecuteFunctions, failure: BatchFailure, message: string, description: string) {
	if (failure.cause instanceof NodeApiError) {
		const response: JsonObject = { message };
		if (failure.httpCode !== undefined) response.httpCode = failure.httpCode;
		const error = new NodeApiError(this.getNode(), response, {
			message,
			description,
			httpCode: failure.httpCode,
			itemIndex: failure.itemIndex,
		});
		// NodeApiError swaps a message containing a system error code (e.g. a record type id with
		// "eexist" in it) for a generic text about files; the message must stay the one made here.
		error.message = message;
		return error;
	}
	return new NodeOperationError(this.getNode(), message, { description, itemIndex: failure.itemIndex });
}


/** The error that stops the run: the first failed batch, and what became of the others. */
export function stoppingError(this: IExecuteFunctions, results: ImportResults, retryOnFail: boolean) {
	const [first, ...others] = [...results.failures].sort((a, b) => a.batch.number - b.batch.number);
	const batchList = (list: ImportBatch[]) =>
		`${list.length === 1 ? 'batch' : 'batches'} ${describeIndexes(list.map((batch) => batch.number))}`;
	const recordCount = (list: ImportBatch[]) =>
		count(
			list.reduce((sum, batch) => sum + batch.positions.length, 0),
			'record',
		);
	const imported = results.outputs.filter((output) => output !== undefined).length;
	const progress = [
		results.succeeded.length === 0
			? 'No records were imported.'
			: `Already imported: ${count(imported, 'record')} of ${batchList(results.succeeded)}.`,
	];
	if (others.length > 0) progress.push(`Also failed: ${batchList(others.map((failure) => failure.batch))}.`);
	if (results.notStarted.length > 0) {
		progress.push(`Not sent: ${recordCount(results.notStarted)} of ${batchList(results.notStarted)}.`);
	}
	if (retryOnFail) progress.push(RETRY_ON_FAIL_WARNING);
	return toNodeError.call(this, first, first.message, `${first.description} ${progress.join(' ')}`.trim());
}

/** Text ending as a sentence, so that the next one does not run into it (service messages often end without a full stop). */
function asSentence(text: string): string {
	const trimmed = text.trim();
	return trimmed === '' || /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
