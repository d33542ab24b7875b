/** Sending the batches of an import, in order, at most `concurrency` at a time. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { type ImportBatch, planBatches, runInOrder } from './batches';
import { describeAnswer, describeFailure, foreignAnswerError, rulesOut } from './failures';
import { readImportAnswer, readRefusedAnswer } from '../answer/answer';
import type { AnswerReading } from '../answer/outcomes';
import type { ImportResults } from './types';
import { successOutput } from './output';
import type { ImportSettings } from '../settings';
import { IMPORT_PATH } from '../prepare/records';
import type { PendingRecords } from '../prepare/pendingRecords';
import { BodyAhead } from './bodyAhead';
import {
	failedAnswerBody,
	recordsApiRequest,
	requestOutcome,
	type RecordsConnection,
	recordsConnection,
	type RecordsResponse,
} from '../../../../../shared/transport';
import { JsonListBody } from '../../../../../shared/transport/jsonBody';
import { redactValue } from '../../../../../shared/transport/redaction';


/**
 * Sends the batches, in order, at most `concurrency` at a time. Without "continue on fail", the
 * first failure stops further batches from starting; requests already under way finish.
 *
 * With one request at a time, the next batch is serialized while the current one is on the wire, a
 * slice at a time between other events, so that the JSON work overlaps the wait for the service
 * instead of adding to it, and never holds up the request just sent. A body made for a batch that
 * is then not sent is dropped. With several requests in flight, the service works on the others
 * while a worker serializes its next batch; bodies made ahead there only held memory longer
 * (measured in bench/findings.md).
 */
export async function sendBatches(
	this: IExecuteFunctions,
	records: PendingRecords,
	settings: ImportSettings,
	continueOnFail: boolean,
): Promise<ImportResults> {
	const batches = planBatches(records.recordTypeIds(), settings.batchSize);
	const results: ImportResults = {
		outputs: new Array(records.length).fill(undefined),
		failedAt: new Array(records.length).fill(undefined),
		failures: [],
		succeeded: [],
		notStarted: [],
	};
	const started = new Set<number>();
	const mayStart = () => continueOnFail || results.failures.length === 0;
	const bodies = new BodyAhead(
		(batchIndex) => {
			const { positions } = batches[batchIndex];
			return new JsonListBody('data', {
				length: positions.length,
				serialize: (start, end) => records.sendableJson(positions.slice(start, end)),
			});
		},
		(batchIndex) => batchIndex < batches.length && mayStart() && !started.has(batches[batchIndex].number),
	);
	let connection: Promise<RecordsConnection> | undefined;

	await runInOrder(
		batches.length,
		settings.concurrency,
		async (batchIndex) => {
			const batch = batches[batchIndex];
			started.add(batch.number);
			const ruledOutBy = results.failures.find((failure) => rulesOut(failure, batch));
			if (ruledOutBy) {
				bodies.drop(batchIndex);
				for (const position of batch.positions) results.failedAt[position] = { failure: ruledOutBy, batch, sent: false };
				return;
			}
			const itemIndex = records.origin(batch.positions[0]).itemIndex;
			try {
				connection ??= recordsConnection.call(this, itemIndex);
				const request = recordsApiRequest.call(this, {
					connection: await connection,
					method: 'POST',
					path: `${IMPORT_PATH}${encodeURIComponent(batch.recordTypeId)}`,
					serializedBody: bodies.take(batchIndex),
					purpose: 'import',
					subject: `record type "${batch.recordTypeId}"`,
					timeoutMs: settings.timeoutMs,
					retry: { maxAttempts: settings.retryAttempts + 1, retryUnknownOutcome: settings.retryUnknownOutcome },
					itemIndex,
				});
				// Not awaited: the request is on its way while the next body is made.
				if (settings.concurrency === 1) void bodies.makeAhead(batchIndex + 1);
				const response = await request;
				fileAnswer.call(this, { results, batch, batchCount: batches.length, records, settings }, response, await connection);
			} catch (error) {
				const context = { results, batch, batchCount: batches.length, records, settings };
				const refusedAnswer = connection && readRefusedBody(error, batch, records, await connection);
				if (refusedAnswer) {
					fileReading.call(this, context, refusedAnswer, undefined, refusedAnswer.httpCode);
					return;
				}
				const failure = describeFailure.call(this, error, batch, batches.length, records);
				results.failures.push(failure);
				for (const position of batch.positions) results.failedAt[position] = { failure, batch, sent: true };
			}
		},
		mayStart,
	);
	bodies.finish();
	results.notStarted = batches.filter((batch) => !started.has(batch.number));
	return results;
}

interface BatchContext {
	results: ImportResults;
	batch: ImportBatch;
	batchCount: number;
	records: PendingRecords;
	settings: ImportSettings;
}

/**
 * Files a batch's 2xx answer: an output per imported record, and the records the answer refuses or
 * leaves unknown as one failure of the batch. Throws when the answer was not the service's.
 */
function fileAnswer(
	this: IExecuteFunctions,
	{ results, batch, batchCount, records, settings }: BatchContext,
	response: RecordsResponse,
	connection: RecordsConnection,
): void {
	const sent = batch.positions.map((position) => records.sendable(position));
	const answer = readImportAnswer(response, sent, connection.secrets);
	const itemIndex = records.origin(batch.positions[0]).itemIndex;
	if (answer.kind === 'foreign') throw foreignAnswerError.call(this, answer, itemIndex);
	// The answer as output items show it ("Include Full Response"), without the secrets it may echo.
	const shown = settings.includeResponse ? redactValue(response.body, connection.secrets) : undefined;
	fileReading.call(this, { results, batch, batchCount, records, settings }, answer, shown);
}

/**
 * The reading of a 4xx answer whose body says records were imported (undefined for any other
 * failure): read for each record, not taken for a refusal of the whole batch.
 */
function readRefusedBody(error: unknown, batch: ImportBatch, records: PendingRecords, connection: RecordsConnection) {
	const httpCode = error instanceof NodeApiError ? error.httpCode : undefined;
	if (httpCode === undefined || httpCode === null || !/^4\d\d$/.test(httpCode)) return undefined;
	const sent = batch.positions.map((position) => records.sendable(position));
	let reading = readRefusedAnswer(Number(httpCode), failedAnswerBody(error), sent, connection.secrets);
	if (reading === undefined) return undefined;
	// After an attempt that may have imported them, a refusal of the last attempt proves nothing.
	if (requestOutcome(error) === 'unknown') {
		reading = { ...reading, verdicts: reading.verdicts.map((verdict) => (verdict.outcome === 'refused' ? { outcome: 'unknown' } : verdict)) };
	}
	return { ...reading, httpCode };
}

/** Files what an answer says of each record: an output per imported record, the others as one failure of the batch. */
function fileReading(
	this: IExecuteFunctions,
	{ results, batch, batchCount, records, settings }: BatchContext,
	answer: AnswerReading,
	shown: unknown,
	httpCode?: string,
): void {
	const sent = batch.positions.map((position) => records.sendable(position));
	const described = describeAnswer.call(this, batch, batchCount, records, answer);
	const failure = described && httpCode !== undefined ? { ...described, httpCode } : described;
	let imported = false;
	batch.positions.forEach((position, indexInBatch) => {
		const verdict = answer.verdicts[indexInBatch];
		if (verdict.outcome === 'imported') {
			imported = true;
			results.outputs[position] = successOutput(batch, sent[indexInBatch], verdict, shown, settings);
		} else if (failure) {
			results.failedAt[position] = {
				failure,
				batch,
				sent: true,
				...(verdict.outcome === 'refused'
					? { refusal: verdict.message ?? 'no reason was given' }
					: { unknown: answer.unknownBecause ?? 'does not say' }),
			};
		}
	});
	if (imported) results.succeeded.push(batch);
	if (failure) results.failures.push(failure);
}
