/** Reading the records of the input items: record type, data mode, value preparation, per-item errors. */
import type { IExecuteFunctions, INodeExecutionData, NodeParameterValueType } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	isRecordObject,
	normalizeRecordText,
	parseFieldList,
	type PreparedRecord,
	prepareFields,
	prepareRecord,
	RecordValueError,
	recordsJsonInNfc,
	selectFields,
} from './values';
import type { DataMode, ImportSettings } from './settings';
import { itemParameterReader } from '../../../../shared/parameters/itemParameter';
import { jsonParameter } from '../../../../shared/parameters/kit';


/** A checked record and the input item it came from. */
export interface PendingRecord {
	itemIndex: number;
	recordTypeId: string;
	record: PreparedRecord;
	/**
	 * Whether the record's text is in NFC yet. That cannot fail, so readRecords leaves it out of the
	 * checks made before the first request: it is done as the batch's body is made (sendableJson), while
	 * the batch before it is on the wire, or for the output item of a record never sent (sendableRecord).
	 */
	textNormalized: boolean;
}

/** The record as it is sent and output. */
export function sendableRecord(pending: PendingRecord): PreparedRecord {
	if (!pending.textNormalized) {
		pending.record = normalizeRecordText(pending.record);
		pending.textNormalized = true;
	}
	return pending.record;
}

/** The JSON array of records as they are sent. */
export function sendableJson(pending: PendingRecord[]): string {
	const prepared = pending.map((record) => record.record);
	if (pending.every((record) => record.textNormalized)) return JSON.stringify(prepared);
	const { json, records } = recordsJsonInNfc(prepared);
	pending.forEach((record, index) => {
		record.record = records[index];
		record.textNormalized = true;
	});
	return json;
}

/** One output item to be: a record's outcome, or the error of an item that could not be read. */
export type OutputSlot = { position: number } | { itemIndex: number; error: NodeOperationError };

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

export function prepareItemRecords(
	this: IExecuteFunctions,
	rawRecords: unknown[],
	itemIndex: number,
	settings: ImportSettings,
): PreparedRecord[] {
	if (settings.dataMode === 'defineBelow') {
		const pairs = rawRecords[0] as Array<{ name?: unknown; value?: unknown }>;
		if (pairs.length === 0) {
			throw new NodeOperationError(this.getNode(), `No fields are defined [item ${itemIndex}]`, {
				itemIndex,
				description: 'Add at least one field under "Fields", with its name as the record type has it.',
			});
		}
		try {
			return [
				prepareFields(
					pairs.map((pair) => [typeof pair.name === 'string' ? pair.name : String(pair.name ?? ''), pair.value] as const),
					settings.values,
				),
			];
		} catch (error) {
			if (error instanceof RecordValueError) throw itemError.call(this, itemIndex, error);
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		}
	}
	return rawRecords.map((raw, recordIndex) => {
		try {
			return prepareRecord(raw, settings.values);
		} catch (error) {
			if (error instanceof RecordValueError) {
				const where = settings.dataMode === 'json' && rawRecords.length > 1 ? `, record ${recordIndex} of its JSON` : '';
				throw itemError.call(this, itemIndex, error, where);
			}
			throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		}
	});
}


/**
 * Reads and checks every item before the first request, so bad input stops the run (or, with
 * "continue on fail", fails only its own item) before anything is imported.
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
	const sourceItems = once ? [0] : items.map((_item, index) => index);
	const parameters = itemParameters.call(this);
	const textNormalized = !settings.normalizeTextValues;
	for (const itemIndex of sourceItems) {
		try {
			const recordTypeId = readRecordTypeId.call(this, parameters.recordTypeId(itemIndex), itemIndex);
			const raw = rawRecordsOf.call(this, items[itemIndex], itemIndex, settings.dataMode, parameters);
			for (const record of prepareItemRecords.call(this, raw, itemIndex, settings)) {
				slots.push({ position: records.length });
				records.push({ itemIndex, recordTypeId, record, textNormalized });
			}
		} catch (error) {
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
