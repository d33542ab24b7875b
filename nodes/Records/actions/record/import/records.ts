/**
 * Reading the records of the input items: record type, data mode, per-item errors; every record
 * checked before the first request, its values converted as its batch is sent.
 */
import type { IExecuteFunctions, INodeExecutionData, NodeParameterValueType } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	checkRecord,
	isRecordObject,
	parseFieldList,
	type PreparedRecord,
	prepareFields,
	prepareRecord,
	RecordValueError,
	recordsJsonInNfc,
	selectFields,
} from './values';
import { normalizeRecordText } from './normalForm';
import type { DataMode, ImportSettings } from './settings';
import { itemParameterReader } from '../../../../shared/parameters/itemParameter';
import { jsonParameter } from '../../../../shared/parameters/kit';

/** How far a pending record is on its way to being sent. */
type Stage = 'checked' | 'prepared' | 'sendable';

/**
 * A checked record and the input item it came from. Every record is checked before the first
 * request; its values are converted (prepareRecord) only when its batch's body is made, while the
 * batch before it is on the wire, or when it is first read otherwise (a failure's message, the
 * output item of a record never sent).
 */
export class PendingRecord {
	constructor(
		readonly itemIndex: number,
		readonly recordTypeId: string,
		/** The record as the input gave it until it is prepared, then as prepared. */
		private current: unknown,
		private stage: Stage,
		private readonly settings: ImportSettings,
	) {}

	/** The record as prepared for sending (before its text is brought to NFC). */
	get record(): PreparedRecord {
		if (this.stage === 'checked') {
			this.current = prepareRecord(this.current, this.settings.values);
			this.stage = this.settings.normalizeTextValues ? 'prepared' : 'sendable';
		}
		return this.current as PreparedRecord;
	}

	/** Whether the record is as it is sent: prepared, and its text in NFC (or NFC is off). */
	get sendable(): boolean {
		return this.stage === 'sendable';
	}

	/** Takes the record as it is sent: the prepared record, its text brought to NFC. */
	setSendable(record: PreparedRecord): void {
		this.current = record;
		this.stage = 'sendable';
	}
}

/** The record as it is sent and output. */
export function sendableRecord(pending: PendingRecord): PreparedRecord {
	if (!pending.sendable) pending.setSendable(normalizeRecordText(pending.record));
	return pending.record;
}

/** The JSON array of records as they are sent. */
export function sendableJson(pending: PendingRecord[]): string {
	const prepared = pending.map((record) => record.record);
	if (pending.every((record) => record.sendable)) return JSON.stringify(prepared);
	const { json, records } = recordsJsonInNfc(prepared);
	pending.forEach((record, index) => record.setSendable(records[index]));
	return json;
}

/**
 * One output item to be: a record's outcome (the record's position in the list of records), or the
 * error of an item that could not be read.
 */
export type OutputSlot = number | { itemIndex: number; error: NodeOperationError };

export const IMPORT_PATH = '/api/3p/import/';

export function readRecordTypeId(this: IExecuteFunctions, raw: unknown, itemIndex: number): string {
	let id = typeof raw === 'string' || typeof raw === 'number' ? String(raw).trim() : '';
	const pathAt = id.indexOf(IMPORT_PATH);
	if (pathAt >= 0) {
		const segment = id.slice(pathAt + IMPORT_PATH.length).split(/[/?#]/)[0];
		try {
			id = decodeURIComponent(segment);
		} catch {
			id = segment;
		}
	}
	if (id === '') {
		throw new NodeOperationError(
			this.getNode(),
			typeof raw === 'string' || raw === undefined || raw === null
				? `"Record Type ID" is empty [item ${itemIndex}]`
				: `"Record Type ID" is not an identifier (got ${typeof raw === 'object' ? 'an object' : JSON.stringify(raw)}) [item ${itemIndex}]`,
			{
				itemIndex,
				description:
					"Enter the identifier of the record type, e.g. received-invoices. It is shown in the record type's settings, in its generated API documentation.",
			},
		);
	}
	return id;
}

export function itemError(
	this: IExecuteFunctions,
	itemIndex: number,
	error: RecordValueError,
	where = '',
): NodeOperationError {
	return new NodeOperationError(this.getNode(), `${error.message} [item ${itemIndex}${where}]`, {
		itemIndex,
		description: error.hint,
	});
}

/** The parameters read for every item, each read once when it holds no expression. */
export interface ItemParameters {
	recordTypeId: (itemIndex: number) => unknown;
	fieldsToSend: (itemIndex: number) => string;
	fieldsToInclude: (itemIndex: number) => Set<string>;
	fieldsToExclude: (itemIndex: number) => Set<string>;
	fields: (itemIndex: number) => Array<{ name?: unknown; value?: unknown }>;
	jsonRecords: (itemIndex: number) => unknown;
}

export function itemParameters(this: IExecuteFunctions): ItemParameters {
	const fieldList = (name: string) => {
		const read = itemParameterReader<string>(this, name, '');
		let last: { text: string; fields: Set<string> } | undefined;
		return (itemIndex: number) => {
			const text = read(itemIndex);
			if (last?.text !== text) last = { text, fields: parseFieldList(text) };
			return last.fields;
		};
	};
	return {
		recordTypeId: itemParameterReader<NodeParameterValueType>(this, 'recordTypeId'),
		fieldsToSend: itemParameterReader<string>(this, 'fieldsToSend', 'all'),
		fieldsToInclude: fieldList('fieldsToInclude'),
		fieldsToExclude: fieldList('fieldsToExclude'),
		fields: itemParameterReader<Array<{ name?: unknown; value?: unknown }>>(this, 'fields.field', []),
		jsonRecords: itemParameterReader<NodeParameterValueType>(this, 'jsonRecords'),
	};
}

/** The raw records one input item holds, before value preparation. */
export function rawRecordsOf(
	this: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
	dataMode: DataMode,
	parameters: ItemParameters,
): unknown[] {
	if (dataMode === 'autoMapInputData') {
		const fieldsToSend = parameters.fieldsToSend(itemIndex);
		if (fieldsToSend === 'selected') {
			const include = parameters.fieldsToInclude(itemIndex);
			if (include.size === 0) {
				throw new NodeOperationError(this.getNode(), `"Fields to Include" names no field [item ${itemIndex}]`, {
					itemIndex,
					description: 'List the input fields to send, separated by commas, or choose "All Fields".',
				});
			}
			return [selectFields(item.json, { include })];
		}
		if (fieldsToSend === 'allExcept') {
			const exclude = parameters.fieldsToExclude(itemIndex);
			return [selectFields(item.json, { exclude })];
		}
		return [item.json];
	}
	if (dataMode === 'defineBelow') {
		return [parameters.fields(itemIndex)];
	}
	const value = parameters.jsonRecords(itemIndex);
	if (typeof value === 'string' && value.trim() === '') {
		throw new NodeOperationError(this.getNode(), `"Records (JSON)" is empty [item ${itemIndex}]`, {
			itemIndex,
			description: 'Enter a list of records, e.g. [{"Title": "Task 1"}], or switch "Input Data" to another mode.',
		});
	}
	const parsed = jsonParameter(this.getNode(), value, {
		label: 'Records (JSON)',
		itemIndex,
		example: '[{"Title": "Task 1"}]',
	});
	if (Array.isArray(parsed)) return parsed;
	if (isRecordObject(parsed)) {
		const keys = Object.keys(parsed);
		if (keys.length === 1 && keys[0] === 'data' && Array.isArray(parsed.data)) return parsed.data;
		return [parsed];
	}
	throw new NodeOperationError(
		this.getNode(),
		`"Records (JSON)" must be a list of records or one record, but it is ${parsed === null ? 'null' : typeof parsed} [item ${itemIndex}]`,
		{ itemIndex, description: 'Give a list of objects, e.g. [{"Title": "Task 1"}, {"Title": "Task 2"}].' },
	);
}

/** Checks the records of one input item and adds them to `records`; throws when one is refused. */
function addItemRecords(
	this: IExecuteFunctions,
	rawRecords: unknown[],
	itemIndex: number,
	recordTypeId: string,
	settings: ImportSettings,
	records: PendingRecord[],
): void {
	if (settings.dataMode === 'defineBelow') {
		const pairs = rawRecords[0] as Array<{ name?: unknown; value?: unknown }>;
		if (pairs.length === 0) {
			throw new NodeOperationError(this.getNode(), `No fields are defined [item ${itemIndex}]`, {
				itemIndex,
				description: 'Add at least one field under "Fields", with its name as the record type has it.',
			});
		}
		let record: PreparedRecord;
		try {
			// Prepared at once: the pairs are read from the item's parameters, one record per item.
			record = prepareFields(
				pairs.map((pair) => [typeof pair.name === 'string' ? pair.name : String(pair.name ?? ''), pair.value] as const),
				settings.values,
			);
		} catch (error) {
			if (error instanceof RecordValueError) throw itemError.call(this, itemIndex, error);
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		}
		records.push(new PendingRecord(itemIndex, recordTypeId, record, preparedStage(settings), settings));
		return;
	}
	for (let recordIndex = 0; recordIndex < rawRecords.length; recordIndex++) {
		const raw = rawRecords[recordIndex];
		let asGiven: boolean;
		try {
			asGiven = checkRecord(raw, settings.values);
		} catch (error) {
			if (error instanceof RecordValueError) {
				const where = settings.dataMode === 'json' && rawRecords.length > 1 ? `, record ${recordIndex} of its JSON` : '';
				throw itemError.call(this, itemIndex, error, where);
			}
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		}
		records.push(new PendingRecord(itemIndex, recordTypeId, raw, asGiven ? preparedStage(settings) : 'checked', settings));
	}
}

/** The stage of a record that needs no conversion: sendable at once unless its text is brought to NFC. */
function preparedStage(settings: ImportSettings): Stage {
	return settings.normalizeTextValues ? 'prepared' : 'sendable';
}

/**
 * Reads and checks every item before the first request, so bad input stops the run (or, with
 * "continue on fail", fails only its own item) before anything is imported. The records' values
 * are converted later, batch by batch (PendingRecord).
 */
export function readRecords(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	settings: ImportSettings,
	continueOnFail: boolean,
): { records: PendingRecord[]; slots: OutputSlot[] } {
	const once = settings.dataMode === 'json' && this.getNodeParameter('jsonEvaluation', 0, 'eachItem') === 'once';
	const records: PendingRecord[] = [];
	const slots: OutputSlot[] = [];
	const parameters = itemParameters.call(this);
	// The record type of the item before: most items name the same one.
	let recordType: { raw: unknown; id: string } | undefined;
	for (let itemIndex = 0; itemIndex < (once ? 1 : items.length); itemIndex++) {
		const first = records.length;
		try {
			const raw = parameters.recordTypeId(itemIndex);
			if (recordType === undefined || recordType.raw !== raw) recordType = { raw, id: readRecordTypeId.call(this, raw, itemIndex) };
			const rawRecords = rawRecordsOf.call(this, items[itemIndex], itemIndex, settings.dataMode, parameters);
			addItemRecords.call(this, rawRecords, itemIndex, recordType.id, settings, records);
			for (let position = first; position < records.length; position++) slots.push(position);
		} catch (error) {
			records.length = first;
			const nodeError =
				error instanceof NodeOperationError
					? error
					: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			if (!continueOnFail) throw nodeError;
			slots.push({ itemIndex, error: nodeError });
		}
	}
	return { records, slots };
}
