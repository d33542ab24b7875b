import type { FaultRule } from '../../sandbox/faults';
import { BATCH_REFUSAL_SHAPES, IMPORT_ANSWER_SHAPES } from '../../sandbox/importAnswers';
import { TOKENS } from '../../sandbox/seeds';
import type { BenchContext, Rendered, Section } from '../lib/context';
import { IMPORT_KEY_FIELD, IMPORT_RECORD_TYPE } from '../lib/data';
import { markdownTable } from '../lib/markdown';
import { measure, type Measurement } from '../lib/measure';
import type { SandboxStatsSummary } from '../lib/sandbox';
import { formatCount, formatMs } from '../lib/stats';
import { runTime } from '../lib/summary';
import { measureImport } from './import';

const REPORT_ID = 'bench-soak';

/**
 * About 10 % of requests fail, each kind from its own seeded random sequence (repeatable): 429,
 * 503, a reset before the request is processed, and for imports a reset after it was processed.
 */
function failureRules(route: FaultRule['route']): FaultRule[] {
	const rules: FaultRule[] = [
		{ route, status: 429, probability: 0.03, seed: 11 },
		{ route, status: 503, probability: 0.03, seed: 12 },
		{ route, reset: true, probability: route === 'import' ? 0.02 : 0.04, seed: 13 },
	];
	if (route === 'import') rules.push({ route, reset: true, afterProcessing: true, probability: 0.02, seed: 14 });
	return rules;
}

/**
 * A gateway in front of the service (each kind from its own seeded sequence): 503, 502 and 504
 * after the service stored the batch (its own timeout, a dropped backend connection), about 1 in
 * 200 records refused by the service inside a 200, and once, at 90 % of the import, a 200 sign-in
 * page after the records were passed on (a single-sign-on session that expired): the node must stop
 * sending there and report the rest as not sent. And the answers of other back ends
 * (sandbox/importAnswers.ts): about half the 200s in another shape (numbered from 1, refusals
 * alone by number, key, path or in words, counts only, nested, JSON labelled text/html), about 3 %
 * saying at their top that the whole import failed (nothing stored).
 */
function gatewayRules(requests: number): FaultRule[] {
	return [
		{ route: 'import', htmlPage: true, afterProcessing: true, skip: Math.floor(requests * 0.9), times: 1 },
		{ route: 'import', status: 503, afterProcessing: true, probability: 0.03, seed: 21 },
		{ route: 'import', status: 502, afterProcessing: true, probability: 0.01, seed: 22 },
		{ route: 'import', status: 504, afterProcessing: true, probability: 0.01, seed: 23 },
		{ route: 'import', refuseProbability: 0.005, seed: 24 },
		...BATCH_REFUSAL_SHAPES.map((refuseBatch, index): FaultRule => ({ route: 'import', refuseBatch, probability: 0.01, seed: 30 + index })),
		...IMPORT_ANSWER_SHAPES.map((answerShape, index): FaultRule => ({ route: 'import', answerShape, probability: 0.05, seed: 40 + index })),
	];
}

/** What the node said of each record against what the sandbox stored (the gateway run). */
interface OutcomeCheck {
	imported: number;
	refused: number;
	unknown: number;
	unknownStored: number;
	notSent: number;
	/** Reported imported, not stored. */
	falseSuccess: number;
	/** Reported refused or not sent, but stored. */
	falseFailure: number;
}

function checkOutcomes(count: number, details: Record<string, unknown>, isStored: (index: number) => boolean): OutcomeCheck {
	const indexes = (key: string) => new Set((details[key] as number[] | undefined) ?? []);
	const [refused, unknown, notSent, failed] = ['refusedIndexes', 'unknownIndexes', 'notSentIndexes', 'failedIndexes'].map(indexes);
	const check: OutcomeCheck = { imported: 0, refused: refused.size, unknown: unknown.size, unknownStored: 0, notSent: notSent.size, falseSuccess: 0, falseFailure: 0 };
	for (let index = 0; index < count; index++) {
		const stored = isStored(index);
		if (!failed.has(index)) {
			check.imported++;
			if (!stored) check.falseSuccess++;
		} else if (unknown.has(index)) {
			if (stored) check.unknownStored++;
		} else if (stored) {
			check.falseFailure++;
		}
	}
	return check;
}

interface SoakRun {
	label: string;
	configuration: string;
	input: number;
	elapsedMs: number;
	/** Rows output / records reported as imported by the node. */
	delivered: number;
	/** Import: records the node reported as failed (error items). */
	failed: number;
	/** Import: distinct input keys found in the sandbox afterwards. Read: distinct row ids output. */
	distinct: number;
	/** Import: keys stored by more than one request (a re-sent batch; an edit, not a new record). */
	restored: number;
	/** Import: records stored, though their item reports a failure (the outcome the node cannot know). */
	storedDespiteFailure?: number;
	/** Import: records reported imported that the sandbox does not hold. */
	lost?: number;
	/** Import: records the service refused inside a 2xx (a fault), from the sandbox's import log. */
	refused?: number;
	/** Import through a gateway: the node's outcome per record against what the sandbox stored. */
	outcomes?: OutcomeCheck;
	/** Read: rows in report order. Import: records in the sandbox equal to the input's keys. */
	ordered: boolean;
	requests: number;
	faults: Record<string, number>;
	byStatus: Record<string, number>;
	error?: string;
	verdict: string;
	ok: boolean;
}

export interface SoakData {
	records: number;
	rows: number;
	runs: SoakRun[];
}

function requestCounts(stats: SandboxStatsSummary, route: string): { requests: number; byStatus: Record<string, number> } {
	const entry = stats.requests[route];
	return { requests: entry?.total ?? 0, byStatus: entry?.byStatus ?? {} };
}

async function importSoak(
	context: BenchContext,
	label: string,
	configuration: string,
	count: number,
	retryUnknownOutcome: boolean,
	gateway = false,
): Promise<SoakRun> {
	const { sandbox } = context;
	const keyPrefix = `soak-${gateway ? 'gateway' : retryUnknownOutcome ? 'unknown' : 'default'}`;
	const keyOf = (index: number) => `${keyPrefix}-${index + 1}`;
	const batchSize = 100;
	const measurement = await measureImport(
		context,
		{ client: 'node', count, keyPrefix, batchSize, concurrency: 4, retryUnknownOutcome, continueOnFail: true },
		gateway ? gatewayRules(Math.ceil(count / batchSize)) : failureRules('import'),
	);
	const stats = await sandbox.stats();
	const stored = await sandbox.records(IMPORT_RECORD_TYPE);
	const keys = new Set<string>();
	let storedRecords = 0;
	for (const record of stored.records) {
		const key = String(record.fields[IMPORT_KEY_FIELD]);
		if (!key.startsWith(`${keyPrefix}-`)) continue;
		keys.add(key);
		storedRecords++;
	}
	const failed = new Set((measurement.details.failedIndexes as number[] | undefined) ?? []);
	let lost = 0;
	let storedDespiteFailure = 0;
	for (let index = 0; index < count; index++) {
		const isStored = keys.has(keyOf(index));
		if (failed.has(index)) {
			if (isStored) storedDespiteFailure++;
		} else if (!isStored) {
			lost++;
		}
	}
	const { requests, byStatus } = requestCounts(stats, 'import');
	const resent = stats.imports.duplicateKeyCount;
	// A processed request stored every record it received but the refused ones.
	const log = await sandbox.control<Array<{ processed: boolean; records: number; keys: string[] }>>('GET', '/imports');
	const refused = log.reduce((sum, entry) => sum + (entry.processed ? entry.records - entry.keys.length : 0), 0);
	const faults = { ...stats.faults.byKind };
	if (faults.refuse_records !== undefined) {
		// Counted per request the rule matched; the records it refused are what matters.
		delete faults.refuse_records;
		faults.records_refused = refused;
	}
	const noDuplicates = storedRecords === keys.size && (retryUnknownOutcome || resent === 0);
	const accounted = lost === 0 && count - failed.size === measurement.count;
	const outcomes = gateway ? checkOutcomes(count, measurement.details, (index) => keys.has(keyOf(index))) : undefined;
	const truthful = outcomes === undefined || (outcomes.falseSuccess === 0 && outcomes.falseFailure === 0);
	const ok = noDuplicates && accounted && truthful && (retryUnknownOutcome ? keys.size === count && failed.size === 0 : true);
	const confirmed = count - failed.size;
	return {
		label,
		configuration,
		input: count,
		elapsedMs: runTime(measurement),
		delivered: measurement.count,
		failed: failed.size,
		distinct: keys.size,
		restored: resent,
		storedDespiteFailure,
		lost,
		refused,
		ordered: noDuplicates,
		requests,
		faults,
		byStatus,
		error: typeof measurement.details.error === 'string' ? measurement.details.error : undefined,
		outcomes,
		verdict: outcomes
			? `${formatCount(keys.size)} stored; reported imported ${formatCount(outcomes.imported)} (${formatCount(outcomes.falseSuccess)} of them not stored), refused ${formatCount(outcomes.refused)}, not sent ${formatCount(outcomes.notSent)} (${formatCount(outcomes.falseFailure)} of these two stored), unknown ${formatCount(outcomes.unknown)} (${formatCount(outcomes.unknownStored)} of them stored); ${formatCount(resent)} stored twice`
			: retryUnknownOutcome
			? `${formatCount(keys.size)} of ${formatCount(count)} stored, each once as a record; ${formatCount(resent)} re-sent after a reset that followed processing, which edited the same keyed records${lost > 0 ? `; ${formatCount(lost)} LOST` : ''}`
			: `${formatCount(confirmed)} imported and stored; ${formatCount(failed.size)} reported failed and not re-sent (${formatCount(storedDespiteFailure)} of them had been stored before the connection broke: the outcome the node cannot know); ${lost > 0 ? `${formatCount(lost)} LOST` : 'none lost'}, ${resent > 0 ? `${formatCount(resent)} stored twice` : 'none stored twice'}`,
		ok,
	};
}

async function readSoak(context: BenchContext, label: string, rows: number, concurrency: number): Promise<SoakRun> {
	const { sandbox } = context;
	await sandbox.resetStats();
	await sandbox.setFaults([...failureRules('report'), { route: 'report', limitCap: 60 }]);
	let measurement: Measurement | undefined;
	let error: string | undefined;
	try {
		measurement = await measure(
			{ kind: 'read', client: 'node', baseUrl: sandbox.baseUrl, token: TOKENS.analysisAdmin, reportId: REPORT_ID, pageSize: 100, concurrency },
			{ sandbox },
		);
	} catch (caught) {
		error = (caught as Error).message;
	}
	const stats = await sandbox.stats();
	await sandbox.setFaults([]);
	const { requests, byStatus } = requestCounts(stats, 'report');
	const distinct = Number(measurement?.details.uniqueIds ?? 0);
	const ordered = measurement?.details.ordered === true;
	const delivered = measurement?.count ?? 0;
	const ok = delivered === rows && distinct === rows && ordered;
	return {
		label,
		configuration: `page size 100, ${concurrency === 1 ? 'sequential' : `${concurrency} in parallel`}; the sandbox silently serves at most 60 rows per page`,
		input: rows,
		elapsedMs: measurement ? runTime(measurement) : Number.NaN,
		delivered,
		failed: 0,
		distinct,
		restored: 0,
		ordered,
		requests,
		faults: stats.faults.byKind,
		byStatus,
		error,
		verdict: ok
			? `${formatCount(delivered)} rows output, all distinct, in report order`
			: `${formatCount(delivered)} rows output, ${formatCount(distinct)} distinct, ${ordered ? 'in order' : 'OUT OF ORDER'}${error ? `; failed: ${error}` : ''}`,
		ok,
	};
}

/**
 * Data safety under failures: about 10 % of requests answered 429 or 503 or cut off by a
 * connection reset. What the sandbox holds afterwards is compared with the input.
 */
export const soak: Section<SoakData> = {
	id: 'soak',
	title: 'Fault soak',
	async run(context: BenchContext): Promise<SoakData> {
		const records = context.quick ? 5_000 : 50_000;
		const rows = context.quick ? 5_000 : 50_000;
		const { sandbox } = context;
		const runs: SoakRun[] = [];
		runs.push(
			await importSoak(
				context,
				'Import, default retry policy',
				'batch 100, 4 in parallel, On Error: Continue; 429/503/reset before or after processing',
				records,
				false,
			),
		);
		context.log(`soak: ${runs[runs.length - 1].verdict}`);
		runs.push(
			await importSoak(
				context,
				'Import, Retry When Outcome Unknown (keyed records)',
				'batch 100, 4 in parallel; 429/503/reset before or after processing',
				records,
				true,
			),
		);
		context.log(`soak: ${runs[runs.length - 1].verdict}`);
		runs.push(
			await importSoak(
				context,
				'Import through a gateway',
				'batch 100, 4 in parallel, On Error: Continue; 502/503/504 after processing, records refused inside a 200, other back ends\' answers, 200s that refuse the whole batch, once a 200 sign-in page after processing',
				records,
				false,
				true,
			),
		);
		context.log(`soak: ${runs[runs.length - 1].verdict}`);
		await sandbox.reset();
		await sandbox.defineBankReport(REPORT_ID, rows);
		for (const concurrency of [1, 8]) {
			runs.push(await readSoak(context, `Get Report Rows, ${concurrency === 1 ? 'sequential' : `${concurrency} in parallel`}`, rows, concurrency));
			context.log(`soak: ${runs[runs.length - 1].verdict}`);
		}
		await sandbox.reset();
		return { records, rows, runs };
	},
	render(data: SoakData): Rendered {
		const faultText = (run: SoakRun) =>
			Object.entries(run.faults)
				.filter(([kind]) => kind !== 'limit_cap')
				.map(([kind, times]) => `${kind.replace(/_/g, ' ')}: ${times}`)
				.join(', ');
		const rows = data.runs.map((run) => [
			run.label,
			run.configuration,
			formatCount(run.input),
			formatCount(run.requests),
			faultText(run),
			formatMs(run.elapsedMs),
			run.verdict,
			run.ok ? 'yes' : '**no**',
		]);
		return {
			markdown: [
				`Import of ${formatCount(data.records)} keyed invoice records and read of ${formatCount(data.rows)} report rows through the Records node (in-process, n8n-core engine), ` +
					'while the sandbox fails about 10 % of requests: 429, 503 and connection resets, each from its own seeded random sequence. ' +
					'The read also meets a silent page-size cap (60 rows served when 100 are asked). "Requests" and the injected failures are counted by the sandbox; ' +
					'requests beyond the minimum are the retries.',
				'',
				'A connection reset during an import, or a 503 without Retry-After (which a gateway also answers after passing the batch on), leaves the outcome unknown: the service may have stored the batch. ' +
					'With the default policy the node therefore does not re-send it: those records are reported as failed (error items with On Error: Continue), never stored twice; some of them the service had stored, which is exactly what the node cannot know. ' +
					'"Retry When Outcome Unknown" re-sends them; it is the documented safe configuration only for records that carry the record type\'s key field, so that a repeat edits the record instead of creating it again.',
				'',
				'Through a gateway, the answers a gateway or the service can give without the guide saying so: 502, 503 and 504 after the service stored the batch (not re-sent: their records are reported failed, outcome unknown), records the service refuses inside a 200 (error items), and once a 200 sign-in page after the records were passed on (that batch failed with the outcome unknown, the batches after it not sent). ' +
					'About half of the 200s come in the shape of another back end (numbered from 1, refusals alone by number, key, path or in words, counts only, nested, JSON labelled text/html), and about 3 % say at their top that the whole import failed. ' +
					'Each record\'s item says imported, refused, unknown or not sent; the run counts them against what the sandbox stored. ' +
					'Target: no false success (imported, not stored), no false failure (refused or not sent, but stored), nothing stored twice.',
				'',
				markdownTable({
					headers: ['Run', 'Configuration', 'Input', 'Requests', 'Injected failures', 'Time', 'Outcome in the sandbox / output', 'Nothing lost or doubled'],
					align: ['left', 'left', 'right', 'right', 'left', 'right', 'left', 'left'],
					rows,
				}),
			].join('\n'),
			charts: [],
			targets: data.runs.map((run) => ({
				target: `Fault soak, ${run.label}: nothing lost, nothing duplicated`,
				measured: run.verdict,
				met: run.ok,
			})),
		};
	},
};
