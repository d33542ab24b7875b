/**
 * Pure parts of the import: cutting records into requests, sending those with bounded parallelism,
 * and reading what the (unspecified) response says about each record.
 */

export interface ImportBatch {
	/** 1-based, in the order the requests are started. */
	number: number;
	recordTypeId: string;
	/** Positions of the batch's records in the list that was planned. */
	positions: number[];
}

/**
 * Groups records by record type (types in order of first appearance, records in input order within
 * a type) and cuts each group into batches of at most `batchSize`.
 */
export function planBatches(recordTypeIds: readonly string[], batchSize: number): ImportBatch[] {
	const groups = new Map<string, number[]>();
	recordTypeIds.forEach((recordTypeId, position) => {
		let group = groups.get(recordTypeId);
		if (!group) {
			group = [];
			groups.set(recordTypeId, group);
		}
		group.push(position);
	});
	const batches: ImportBatch[] = [];
	for (const [recordTypeId, positions] of groups) {
		for (let start = 0; start < positions.length; start += batchSize) {
			batches.push({
				number: batches.length + 1,
				recordTypeId,
				positions: positions.slice(start, start + batchSize),
			});
		}
	}
	return batches;
}

/**
 * Runs `task(0)`, `task(1)`, … `task(count - 1)` with at most `concurrency` running at once, each
 * started in index order. `shouldStart` is asked before each start, so a failure can stop the rest
 * while the requests already under way finish. `task` must not throw.
 */
export async function runInOrder(
	count: number,
	concurrency: number,
	task: (index: number) => Promise<void>,
	shouldStart: () => boolean = () => true,
): Promise<void> {
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < count && shouldStart()) {
			const index = next++;
			await task(index);
		}
	};
	const workers = Math.max(1, Math.min(concurrency, count));
	await Promise.all(Array.from({ length: workers }, worker));
}

/** What the service said about one record of a batch. */
export interface RecordOutcome {
	/** e.g. `created` or `edited`; undefined when the entry gives no status. */
	status?: string;
	id?: string | number;
	/** A per-record message, e.g. why the record was refused. */
	message?: string;
	/** The entry says the record was not imported (an error status, an `error`, `success: false`). */
	refused?: boolean;
}

/** Per-record statuses that say the record was not imported. */
const REFUSED_STATUSES = new Set(['error', 'failed', 'failure', 'rejected', 'refused', 'invalid', 'skipped', 'not_imported']);

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const RESULT_LIST_KEYS = ['results', 'records', 'items', 'data', 'result'];

function toOutcome(entry: Record<string, unknown>): RecordOutcome {
	const outcome: RecordOutcome = {};
	const status = entry.status ?? entry.action ?? entry.result;
	if (typeof status === 'string' && status !== '') outcome.status = status;
	const id = entry.id ?? entry.recordId ?? entry.record_id;
	if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) outcome.id = id;
	const message = entry.message ?? entry.error;
	if (typeof message === 'string' && message !== '') outcome.message = message;
	const { error } = entry;
	if (outcome.message === undefined && isObject(error) && typeof error.message === 'string') outcome.message = error.message;
	if (
		(outcome.status !== undefined && REFUSED_STATUSES.has(outcome.status.toLowerCase())) ||
		(error !== undefined && error !== null && error !== '' && error !== false) ||
		entry.success === false ||
		entry.ok === false
	) {
		outcome.refused = true;
	}
	return outcome;
}

/**
 * Reads per-record outcomes from an import response, whose shape the spec does not give. A list of
 * objects (the body itself, or under `results`, `records`, `items`, `data` or `result`) counts when
 * its entries carry a valid `index` into the batch, or, without indexes, when it has exactly one
 * entry per record. Anything else yields no outcomes rather than a guess.
 */
export function readRecordOutcomes(body: unknown, recordCount: number): Array<RecordOutcome | undefined> | undefined {
	const candidates: unknown[] = Array.isArray(body)
		? [body]
		: isObject(body)
			? RESULT_LIST_KEYS.map((key) => body[key]).filter(Array.isArray)
			: [];
	for (const list of candidates as unknown[][]) {
		if (list.length === 0 || !list.every(isObject)) continue;
		const entries = list as Array<Record<string, unknown>>;
		const indexed = entries.every(
			(entry) => typeof entry.index === 'number' && Number.isInteger(entry.index) && entry.index >= 0 && entry.index < recordCount,
		);
		if (indexed) {
			const outcomes: Array<RecordOutcome | undefined> = new Array(recordCount).fill(undefined);
			for (const entry of entries) {
				const index = entry.index as number;
				outcomes[index] ??= toOutcome(entry);
			}
			return outcomes;
		}
		if (entries.length === recordCount && entries.every((entry) => entry.index === undefined)) {
			return entries.map(toOutcome);
		}
	}
	return undefined;
}

/** A record of a batch that an error message of the service points at. */
export interface NamedRecord {
	/** The number as the service wrote it. */
	index: number;
	field?: string;
}

/**
 * Finds the record (and field) a service error message is about: "Record 3: …", "record #3",
 * "data[3]", "index 3". The spec shows no error body, so this reads the text.
 */
export function findNamedRecord(text: string): NamedRecord | undefined {
	const match =
		/\brecords?\s*#?\s*(\d+)\b/i.exec(text) ??
		/\bdata\s*\[\s*(\d+)\s*\]/i.exec(text) ??
		/\bindex\s*[:=]?\s*(\d+)\b/i.exec(text);
	if (!match) return undefined;
	const named: NamedRecord = { index: Number(match[1]) };
	const field = /\bfield\s+["“„']([^"”“']+)["”“']/i.exec(text);
	if (field) named.field = field[1];
	return named;
}

/**
 * Which position in the batch a named record is. The service's counting (from 0 or 1) is not
 * specified: counting from 0 is assumed unless only counting from 1 lands on a record that has the
 * named field.
 */
export function resolveNamedRecord(
	named: NamedRecord,
	records: ReadonlyArray<Record<string, unknown>>,
): number | undefined {
	const fromZero = named.index < records.length ? named.index : undefined;
	const fromOne = named.index >= 1 && named.index - 1 < records.length ? named.index - 1 : undefined;
	if (named.field !== undefined) {
		const has = (position: number | undefined) =>
			position !== undefined && Object.prototype.hasOwnProperty.call(records[position], named.field as string);
		if (has(fromZero)) return fromZero;
		if (has(fromOne)) return fromOne;
	}
	return fromZero ?? fromOne;
}
