/** What a failed batch means for the run: its message, the batches it rules out, the error that stops the run. */
import type { IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ImportBatch } from './batches';
import type { ImportAnswer } from '../answer/answer';
import type { RecordVerdict } from '../answer/outcomes';
import { claimOf, findNamedRecord, settleCounting } from '../answer/recordNumbers';
import type { BatchFailure, FailedRecord, ImportResults } from './types';
import type { PendingRecords } from '../prepare/pendingRecords';
import { requestOutcome, type RequestOutcome } from '../../../../../shared/transport';

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

/**
 * Import refuses to run under n8n's Retry On Fail: after a failure (with On Error: Continue, also
 * when the first output item is an error item) n8n would run the node again, whole, and send every
 * record the service had imported a second time.
 */
export function retryOnFailRefusal(this: IExecuteFunctions): NodeOperationError {
	return new NodeOperationError(this.getNode(), 'Import does not run with "Retry On Fail" on', {
		description:
			'After a failure n8n would run the whole import again and send the records imported before it a second time. Nothing was sent. Turn "Retry On Fail" off in this node\'s settings; "Retry Attempts" in its options repeats only what the service certainly did not process.',
	});
}

/** A 2xx answer that did not come from the service. */
class ForeignAnswerError extends NodeOperationError {}

/** The error of a 2xx answer that did not come from the service; the outcome of the batch is unknown. */
export function foreignAnswerError(
	this: IExecuteFunctions,
	answer: Extract<ImportAnswer, { kind: 'foreign' }>,
	itemIndex: number,
): NodeOperationError {
	return new ForeignAnswerError(
		this.getNode(),
		`The answer was not the service's: ${answer.statusCode} with ${answer.contentType}, where the service answers JSON`,
		{
			itemIndex,
			description: `It began: "${answer.excerpt}". A sign-in page, proxy or captive portal between n8n and the service may have answered instead of it, before or after passing the records on: whether they were imported is unknown. They were not sent again, and no later batch was sent. Check the records in the service, and that the credential's Base URL reaches the service itself.`,
		},
	);
}

/** Failures after which sending more batches cannot succeed: which batches they rule out. */
export function rulesOut(failure: BatchFailure, batch: ImportBatch): boolean {
	if (failure.kind === 'answered') return false;
	if (failure.cause instanceof NodeApiError) {
		if (failure.httpCode === '401') return true;
		if (failure.httpCode === '404') return batch.recordTypeId === failure.batch.recordTypeId;
		return false;
	}
	// Not an answer of the service: the credential or its Base URL is unusable.
	return failure.cause instanceof NodeOperationError;
}

/** What became of a batch whose request failed: by the transport's account, or by the kind of error. */
function outcomeOf(error: Error): RequestOutcome {
	const known = requestOutcome(error);
	if (known !== undefined) return known;
	if (error instanceof ForeignAnswerError) return 'unknown';
	// The credential's Base URL was refused before any request.
	return error instanceof NodeOperationError ? 'notSent' : 'unknown';
}

/** Where a 4xx message names a record: the input item, or both items it may be when the counting is not settled. */
function pointAtRecord(description: string, batch: ImportBatch, records: PendingRecords): { itemIndex?: number; text: string } | undefined {
	const named = findNamedRecord(description);
	if (!named) return undefined;
	const batchRecords = batch.positions.map((position) => records.prepared(position));
	const itemAt = (position: number) => records.origin(batch.positions[position]).itemIndex;
	const counting = settleCounting([claimOf(named)], batchRecords);
	const field = named.field ? `, field "${named.field}"` : '';
	if ('base' in counting) {
		const itemIndex = itemAt(named.index - counting.base);
		return { itemIndex, text: `The service points at record ${named.index} of this batch: input item ${itemIndex}${field}.` };
	}
	if (counting.problem !== 'ambiguous') return undefined;
	return {
		text: `The service points at record ${named.index} of this batch: input item ${itemAt(named.index)} if it counts from 0, item ${itemAt(named.index - 1)} if it counts from 1${field}.`,
	};
}

export function describeFailure(
	this: IExecuteFunctions,
	error: unknown,
	batch: ImportBatch,
	batchCount: number,
	records: PendingRecords,
): BatchFailure {
	const cause = error instanceof Error ? error : new Error(String(error));
	const itemIndexes = batch.positions.map((position) => records.origin(position).itemIndex);
	const serviceMessage = (error as { description?: unknown }).description;
	let description = typeof serviceMessage === 'string' ? serviceMessage : '';
	// n8n also files error codes such as ECONNRESET as `httpCode`; only a status is one here.
	const httpCode =
		error instanceof NodeApiError && /^\d{3}$/.test(error.httpCode ?? '') ? (error.httpCode as string) : undefined;
	let itemIndex = itemIndexes[0];

	if (httpCode !== undefined && /^4\d\d$/.test(httpCode) && !['401', '404', '429'].includes(httpCode)) {
		const pointed = pointAtRecord(description, batch, records);
		if (pointed) {
			itemIndex = pointed.itemIndex ?? itemIndex;
			description = `${asSentence(description)} ${pointed.text} Correct it and run the import again; the service did not import this batch.`;
		}
	}
	// A redirect after a POST (303 See Other above all) is how a service answers a request it processed.
	const redirected = httpCode !== undefined && httpCode.startsWith('3');
	if (redirected) {
		description = `${asSentence(description)} A redirect may also be a service's answer to an import it has processed (303 See Other is), so whether the records were imported is unknown: check them in the service before importing them again.`;
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
		outcome: redirected ? 'unknown' : outcomeOf(cause),
		...(foreign ? { kind: 'foreignAnswer' as const } : {}),
	};
}

/** Why the refused records were not imported: one reason for all, or each item's. */
function refusalReasons(refusedItems: number[], messages: Array<string | undefined>): string {
	const distinct = new Set(messages);
	if (distinct.size === 1 && messages[0] !== undefined) return `The service's reason: ${asSentence(messages[0])}`;
	const reasons = refusedItems
		.slice(0, 3)
		.map((item, i) => `Item ${item}: ${asSentence(messages[i] ?? 'no reason was given')}`);
	if (refusedItems.length > 3) reasons.push(`(${refusedItems.length - 3} more.)`);
	return reasons.join(' ');
}

/**
 * A batch the service answered with 2xx whose answer refuses some of its records or leaves whether
 * they were imported unknown; undefined when it says every record was imported.
 */
export function describeAnswer(
	this: IExecuteFunctions,
	batch: ImportBatch,
	batchCount: number,
	records: PendingRecords,
	answer: { verdicts: RecordVerdict[]; unknownBecause?: string },
): BatchFailure | undefined {
	const refused: number[] = [];
	const unknown: number[] = [];
	answer.verdicts.forEach((verdict, indexInBatch) => {
		if (verdict.outcome === 'refused') refused.push(indexInBatch);
		else if (verdict.outcome === 'unknown') unknown.push(indexInBatch);
	});
	if (refused.length === 0 && unknown.length === 0) return undefined;
	const itemIndexes = batch.positions.map((position) => records.origin(position).itemIndex);
	const refusedItems = refused.map((indexInBatch) => itemIndexes[indexInBatch]);
	const unknownItems = unknown.map((indexInBatch) => itemIndexes[indexInBatch]);
	const imported = batch.positions.length - refused.length - unknown.length;

	const said: string[] = [];
	const description: string[] = [];
	if (refused.length > 0) {
		said.push(`the service did not import ${count(refused.length, 'record')} (${describeItems(refusedItems)})`);
		const messages = refused.map((indexInBatch) => (answer.verdicts[indexInBatch] as { message?: string }).message);
		description.push(refusalReasons(refusedItems, messages));
	}
	if (unknown.length > 0) {
		said.push(`whether ${refused.length > 0 ? 'it' : 'the service'} imported ${count(unknown.length, 'record')} (${describeItems(unknownItems)}) is unknown`);
		description.push(
			`Its answer ${answer.unknownBecause ?? 'does not say'}. They were not sent again: check ${describeItems(unknownItems)} in the service before importing them again.`,
		);
	}
	if (imported > 0) description.push(`The service imported the other ${count(imported, 'record')} of this batch.`);
	if (refused.length > 0) description.push('Correct the refused records and import them again.');
	const message = `Batch ${batch.number} of ${batchCount} (${describeItems(itemIndexes)}) for record type "${batch.recordTypeId}": ${said.join(', and ')}`;
	return {
		batch,
		message,
		description: description.join(' '),
		itemIndex: refusedItems[0] ?? unknownItems[0],
		cause: new NodeOperationError(this.getNode(), message),
		kind: 'answered',
		outcome: unknown.length > 0 ? 'unknown' : 'refused',
	};
}

/** What became of a record that was not imported. */
export function recordOutcome(failed: FailedRecord | undefined): RequestOutcome {
	if (!failed || !failed.sent) return 'notSent';
	if (failed.refusal !== undefined) return 'refused';
	if (failed.unknown !== undefined) return 'unknown';
	return failed.failure.outcome;
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
export function stoppingError(this: IExecuteFunctions, results: ImportResults) {
	const [first, ...others] = [...results.failures].sort((a, b) => a.batch.number - b.batch.number);
	const batchList = (list: ImportBatch[]) =>
		`${list.length === 1 ? 'batch' : 'batches'} ${describeIndexes(list.map((batch) => batch.number))}`;
	const recordCount = (list: ImportBatch[]) =>
		count(
			list.reduce((sum, batch) => sum + batch.positions.length, 0),
			'record',
		);
	const imported = results.outputs.filter((output) => output !== undefined).length;
	const unknown = results.failedAt.filter((failed) => failed !== undefined && recordOutcome(failed) === 'unknown') as FailedRecord[];
	const unknownBatches = [...new Set(unknown.map((failed) => failed.batch))];
	const progress: string[] = [];
	if (imported > 0) progress.push(`Already imported: ${count(imported, 'record')} of ${batchList(results.succeeded)}.`);
	// Said only when the node knows it: no record's outcome is unknown.
	else if (unknown.length === 0) progress.push('No records were imported.');
	if (unknown.length > 0) progress.push(`Outcome unknown: ${count(unknown.length, 'record')} of ${batchList(unknownBatches)}.`);
	if (others.length > 0) progress.push(`Also failed: ${batchList(others.map((failure) => failure.batch))}.`);
	if (results.notStarted.length > 0) {
		progress.push(`Not sent: ${recordCount(results.notStarted)} of ${batchList(results.notStarted)}.`);
	}
	return toNodeError.call(this, first, first.message, `${first.description} ${progress.join(' ')}`.trim());
}

/** Text ending as a sentence, so that the next one does not run into it (service messages often end without a full stop). */
function asSentence(text: string): string {
	const trimmed = text.trim();
	return trimmed === '' || /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
