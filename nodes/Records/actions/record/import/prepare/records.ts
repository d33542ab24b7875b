/**
 * Reading the records of the input items: record type, data mode, per-item errors; every record
 * checked before the first request (its values are converted as its batch is sent, PendingRecords).
 */
import type { IExecuteFunctions, INodeExecutionData, NodeParameterValueType } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	checkRecord,
	isRecordObject,
	parseFieldList,
	type PreparedRecord,
	prepareFields,
	RecordValueError,
	selectFields,
} from './values';
import { PendingRecords } from './pendingRecords';
import type { ImportSettings } from '../settings';
import { itemParameterReader } from '../../../../../shared/parameters/itemParameter';
import { jsonParameter } from '../../../../../shared/parameters/kit';

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

/** The record of an input item in "Each Input Item Is One Record": its fields, all or some. */
function autoMappedRecord(
	this: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
	parameters: ItemParameters,
): unknown {
	const fieldsToSend = parameters.fieldsToSend(itemIndex);
	if (fieldsToSend === 'selected') {
		const include = parameters.fieldsToInclude(itemIndex);
		if (include.size === 0) {
			throw new NodeOperationError(this.getNode(), `"Fields to Include" names no field [item ${itemIndex}]`, {
				itemIndex,
				description: 'List the input fields to send, separated by commas, or choose "All Fields".',
			});
		}
		return selectFields(item.json, { include });
	}
	if (fieldsToSend === 'allExcept') return selectFields(item.json, { exclude: parameters.fieldsToExclude(itemIndex) });
	return item.json;
}

/** The record an item's "Fields" define, prepared at once (one record per item, read from its parameters). */
function definedRecord(
	this: IExecuteFunctions,
	itemIndex: number,
	parameters: ItemParameters,
	settings: ImportSettings,
): PreparedRecord {
	const pairs = parameters.fields(itemIndex);
	if (pairs.length === 0) {
		throw new NodeOperationError(this.getNode(), `No fields are defined [item ${itemIndex}]`, {
			itemIndex,
			description: 'Add at least one field under "Fields", with its name as the record type has it.',
		});
	}
	try {
		return prepareFields(
			pairs.map((pair) => [typeof pair.name === 'string' ? pair.name : String(pair.name ?? ''), pair.value] as const),
			settings.values,
		);
	} catch (error) {
		if (error instanceof RecordValueError) throw itemError.call(this, itemIndex, error);
		throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
	}
}

/**
 * Whether every item's "Records (JSON)" gave the same list, as an expression that does not read its
 * item does when evaluated for each item: imported per item, each record would be stored once per
 * item. Items that give lists of their own are compared no further than their first difference.
 */
class SameListForEveryItem {
	private first: { text: string; length: number } | undefined;
	private items = 0;
	private same = true;

	see(list: unknown[] | undefined): void {
		this.items++;
		if (!this.same) return;
		if (list === undefined || list.length === 0) {
			this.same = false;
			return;
		}
		if (this.first === undefined) {
			this.first = { text: JSON.stringify(list), length: list.length };
			return;
		}
		this.same = list.length === this.first.length && JSON.stringify(list) === this.first.text;
	}

	/** The list's length, when at least two items gave it and every item gave it. */
	repeated(): number | undefined {
		return this.same && this.items > 1 && this.first !== undefined ? this.first.length : undefined;
	}
}

/** The error that stops an import that would store the same list once per input item. */
function sameListError(this: IExecuteFunctions, records: number, items: number): NodeOperationError {
	return new NodeOperationError(
		this.getNode(),
		`"Records (JSON)" gave the same ${records === 1 ? 'record' : `${records} records`} for each of the ${items} input items, so each would be imported ${items} times`,
		{
			description:
				'Nothing was sent. To import the list once, set "Evaluate JSON" to "Once". To import records of each item, let the expression read the item, e.g. {{ $json.records }}.',
		},
	);
}

/** The records an item's "Records (JSON)" holds: a list, one record, or a whole `{"data": [...]}` body; `listed` unless one record. */
function jsonRecords(this: IExecuteFunctions, itemIndex: number, parameters: ItemParameters): { list: unknown[]; listed: boolean } {
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
	if (Array.isArray(parsed)) return { list: parsed, listed: true };
	if (isRecordObject(parsed)) {
		const keys = Object.keys(parsed);
		if (keys.length === 1 && keys[0] === 'data' && Array.isArray(parsed.data)) return { list: parsed.data, listed: true };
		return { list: [parsed], listed: false };
	}
	throw new NodeOperationError(
		this.getNode(),
		`"Records (JSON)" must be a list of records or one record, but it is ${parsed === null ? 'null' : typeof parsed} [item ${itemIndex}]`,
		{ itemIndex, description: 'Give a list of objects, e.g. [{"Title": "Task 1"}, {"Title": "Task 2"}].' },
	);
}

/** Checks one record of an item and adds it; throws, naming the item (and `where` in it), when it is refused. */
function addCheckedRecord(
	this: IExecuteFunctions,
	records: PendingRecords,
	record: unknown,
	itemIndex: number,
	recordTypeId: string,
	where = '',
): void {
	let asGiven: boolean;
	try {
		asGiven = checkRecord(record, records.settings.values);
	} catch (error) {
		if (error instanceof RecordValueError) throw itemError.call(this, itemIndex, error, where);
		throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
	}
	records.add(itemIndex, recordTypeId, record, asGiven);
}

/** Reads, checks and adds the records of one input item; throws when the item or one of its records is refused. */
function addItemRecords(
	this: IExecuteFunctions,
	records: PendingRecords,
	item: INodeExecutionData,
	itemIndex: number,
	recordTypeId: string,
	parameters: ItemParameters,
	sameList?: SameListForEveryItem,
): void {
	const { dataMode } = records.settings;
	if (dataMode === 'autoMapInputData') {
		addCheckedRecord.call(this, records, autoMappedRecord.call(this, item, itemIndex, parameters), itemIndex, recordTypeId);
	} else if (dataMode === 'defineBelow') {
		records.add(itemIndex, recordTypeId, definedRecord.call(this, itemIndex, parameters, records.settings), true);
	} else {
		const { list, listed } = jsonRecords.call(this, itemIndex, parameters);
		sameList?.see(listed ? list : undefined);
		list.forEach((record, recordIndex) => {
			const where = list.length > 1 ? `, record ${recordIndex} of its JSON` : '';
			addCheckedRecord.call(this, records, record, itemIndex, recordTypeId, where);
		});
	}
}

/**
 * Reads and checks every item before the first request, so bad input stops the run (or, with
 * "continue on fail", fails only its own item) before anything is imported. The records' values
 * are converted later, batch by batch (PendingRecords).
 */
export function readRecords(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	settings: ImportSettings,
	continueOnFail: boolean,
): { records: PendingRecords; slots: OutputSlot[] } {
	const once = settings.dataMode === 'json' && this.getNodeParameter('jsonEvaluation', 0, 'eachItem') === 'once';
	const sameList = settings.dataMode === 'json' && !once ? new SameListForEveryItem() : undefined;
	const records = new PendingRecords(settings);
	const slots: OutputSlot[] = [];
	const parameters = itemParameters.call(this);
	// The record type of the item before: most items name the same one.
	let recordType: { raw: unknown; id: string } | undefined;
	for (let itemIndex = 0; itemIndex < (once ? 1 : items.length); itemIndex++) {
		const first = records.length;
		try {
			const raw = parameters.recordTypeId(itemIndex);
			if (recordType === undefined || recordType.raw !== raw) recordType = { raw, id: readRecordTypeId.call(this, raw, itemIndex) };
			addItemRecords.call(this, records, items[itemIndex], itemIndex, recordType.id, parameters, sameList);
			for (let position = first; position < records.length; position++) slots.push(position);
		} catch (error) {
			records.truncate(first);
			const nodeError =
				error instanceof NodeOperationError
					? error
					: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			if (!continueOnFail) throw nodeError;
			slots.push({ itemIndex, error: nodeError });
			sameList?.see(undefined);
		}
	}
	const repeated = sameList?.repeated();
	if (repeated !== undefined) throw sameListError.call(this, repeated, items.length);
	return { records, slots };
}
