/** What a failed batch means for the run: its message, the batches it rules out, the error that stops the run. */
import type { IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { findNamedRecord, type ImportBatch, resolveNamedRecord } from './batches';
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
}

/** Failures after which sending more batches cannot succeed: which batches they rule out. */
export function rulesOut(failure: BatchFailure, batch: ImportBatch): boolean {
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
	return { batch, message, description: description.trim(), httpCode, itemIndex, cause };
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
	const progress = [
		results.succeeded.length === 0
			? 'No records were imported.'
			: `Already imported: ${recordCount(results.succeeded)} of ${batchList(results.succeeded)}.`,
	];
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
