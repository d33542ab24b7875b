import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	JsonObject,
	NodeParameterValueType,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep, updateDisplayOptions } from 'n8n-workflow';

import {
	findNamedRecord,
	type ImportBatch,
	planBatches,
	readRecordOutcomes,
	type RecordOutcome,
	resolveNamedRecord,
	runInOrder,
} from '../../helpers/importBatches';
import {
	BOOLEAN_FORMATS,
	DATE_FORMATS,
	DEFAULT_VALUE_PREPARATION,
	EMPTY_VALUE_HANDLING,
	isRecordObject,
	isValidTimezone,
	normalizeRecordText,
	NUMBER_FORMATS,
	OBJECT_VALUE_HANDLING,
	parseFieldList,
	type PreparedRecord,
	prepareFields,
	prepareRecord,
	RecordValueError,
	recordsJsonInNfc,
	selectFields,
	THOUSANDS_SEPARATORS,
	type ValuePreparationOptions,
} from '../../helpers/recordValues';
import { itemParameterReader } from '../itemParameter';
import {
	DEFAULT_RETRY_POLICY,
	DEFAULT_TIMEOUT_MS,
	recordsApiRequest,
	type RecordsConnection,
	recordsConnection,
} from '../../transport';
import { JsonListBody } from '../../transport/jsonBody';

const DEFAULT_BATCH_SIZE = 100;
const MAX_CONCURRENCY = 16;
const MAX_RETRY_ATTEMPTS = 10;
/** Retries after the first attempt; the transport counts attempts in all. */
const DEFAULT_RETRY_ATTEMPTS = DEFAULT_RETRY_POLICY.maxAttempts - 1;
const DEFAULT_TIMEOUT_SECONDS = DEFAULT_TIMEOUT_MS / 1000;

const properties: INodeProperties[] = [
	{
		// A callout's text is a sentence, as a notice's is (the rule knows only notices).
		// eslint-disable-next-line n8n-nodes-base/node-param-display-name-miscased
		displayName:
			'The service does not document what an import returns. Each output item shows the record as sent and, when the response lists it, whether the record was created or edited; otherwise its status is "imported".',
		name: 'responseNotice',
		// Information, not a warning: n8n draws a notice in warning colours, a callout in neutral ones.
		type: 'callout',
		default: '',
	},
	{
		displayName: 'Record Type ID',
		name: 'recordTypeId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. faktury-prijate',
		hint: 'Shown in the record type\'s settings, in its generated API documentation: the last part of the import address /api/3p/import/…',
		description:
			'Identifier of the record type (register) to import into, custom types included. A pasted import address works too.',
	},
	{
		displayName: 'Input Data',
		name: 'dataMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Define Fields Below',
				value: 'defineBelow',
				description: 'Name each field and set its value, with expressions per input item',
			},
			{
				name: 'Each Input Item Is One Record',
				value: 'autoMapInputData',
				description: "Send each input item's fields as one record; their names must match the record type's fields",
			},
			{
				name: 'JSON',
				value: 'json',
				description: 'Give the records as JSON: a list of records, or one record',
			},
		],
		default: 'autoMapInputData',
	},
	{
		displayName: 'Fields to Send',
		name: 'fieldsToSend',
		type: 'options',
		displayOptions: { show: { dataMode: ['autoMapInputData'] } },
		options: [
			{ name: 'All Fields', value: 'all' },
			{ name: 'All Fields Except', value: 'allExcept', description: 'Leave out the fields listed below' },
			{ name: 'Selected Fields', value: 'selected', description: 'Send only the fields listed below' },
		],
		default: 'all',
	},
	{
		displayName: 'Fields to Include',
		name: 'fieldsToInclude',
		type: 'string',
		displayOptions: { show: { dataMode: ['autoMapInputData'], fieldsToSend: ['selected'] } },
		default: '',
		required: true,
		placeholder: 'e.g. Název, Zadal',
		description: 'Names of the input fields to send, separated by commas',
	},
	{
		displayName: 'Fields to Exclude',
		name: 'fieldsToExclude',
		type: 'string',
		displayOptions: { show: { dataMode: ['autoMapInputData'], fieldsToSend: ['allExcept'] } },
		default: '',
		required: true,
		placeholder: 'e.g. Poznámka, createdAt',
		description: 'Names of the input fields not to send, separated by commas',
	},
	{
		displayName: 'Fields',
		name: 'fields',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		displayOptions: { show: { dataMode: ['defineBelow'] } },
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Field',
				name: 'field',
				values: [
					{
						displayName: 'Field Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'e.g. Název',
						description:
							"The field's name exactly as the record type's API documentation lists it",
					},
					{
						displayName: 'Field Value',
						name: 'value',
						type: 'string',
						default: '',
						description:
							'Text is sent as it is; numbers and booleans from expressions are formatted as set in the options. For a date field, add it to Options → Date Fields.',
					},
				],
			},
		],
	},
	{
		displayName: 'Records (JSON)',
		name: 'jsonRecords',
		type: 'json',
		displayOptions: { show: { dataMode: ['json'] } },
		default: '[\n  {\n    "Název": "Zavolat klientovi",\n    "Zadal": "Jana Nováková"\n  }\n]',
		required: true,
		description:
			'A list of records, or one record, each an object of field names and values. A whole import body {"data": [...]} is accepted too.',
	},
	{
		displayName: 'Evaluate JSON',
		name: 'jsonEvaluation',
		type: 'options',
		displayOptions: { show: { dataMode: ['json'] } },
		options: [
			{
				name: 'For Each Input Item',
				value: 'eachItem',
				description: 'The JSON is evaluated once per input item and its records are paired with that item',
			},
			{
				name: 'Once',
				value: 'once',
				description: 'The JSON is evaluated with the first input item only, e.g. a fixed list of records',
			},
		],
		default: 'eachItem',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Boolean Format',
				name: 'booleanFormat',
				type: 'options',
				options: [
					{ name: '1 / 0', value: 'oneZero' },
					{ name: 'Ano / Ne', value: 'AnoNe' },
					{ name: 'Ano / Ne (Lower Case)', value: 'anoNe' },
					{ name: 'True / False', value: 'trueFalse' },
				],
				default: 'trueFalse',
				description: 'How true and false values are written',
			},
			{
				displayName: 'Convert ISO Date Strings',
				name: 'convertIsoDateStrings',
				type: 'boolean',
				default: false,
				description:
					'Whether text in ISO 8601 form (2026-01-31, 2026-01-31T10:00:00Z) is converted to the date format in every field. Off: only in the fields listed in "Date Fields"; other text is sent as it is.',
			},
			{
				displayName: 'Date Fields',
				name: 'dateFields',
				type: 'string',
				default: '',
				placeholder: 'e.g. DUZP, Datum splatnosti',
				description:
					'Fields whose values are dates, separated by commas. Their ISO dates and day.month.year text are written in the date format; anything else is an error. Date and DateTime values are converted in every field.',
			},
			{
				displayName: 'Date Format',
				name: 'dateFormat',
				type: 'options',
				options: [
					{ name: '31.1.2026', value: 'd.M.yyyy' },
					{ name: '31.1.2026 9:05', value: 'd.M.yyyy H:mm' },
					{ name: '31.01.2026', value: 'dd.MM.yyyy' },
				],
				default: 'd.M.yyyy',
				description: 'How dates are written. Date-times are shown in the timezone below.',
			},
			{
				displayName: 'Decimal Places',
				name: 'decimalPlaces',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 10 },
				default: 2,
				description:
					'Round numbers to this many decimal places (half away from zero) and pad them with zeros, e.g. 1234,50. Without this option, numbers keep their decimals.',
			},
			{
				displayName: 'Include Full Response',
				name: 'includeResponse',
				type: 'boolean',
				default: false,
				description: "Whether to add the service's whole response to the batch's output items, as 'response'",
			},
			{
				displayName: 'Normalize Field Names',
				name: 'normalizeFieldNames',
				type: 'boolean',
				default: true,
				description:
					'Whether to trim field names and bring them to Unicode NFC, so that names with Czech letters typed on different systems match the record type\'s',
			},
			{
				displayName: 'Normalize Text Values',
				name: 'normalizeTextValues',
				type: 'boolean',
				default: true,
				description:
					'Whether to bring text values to Unicode NFC (the same letters, one encoding), so that e.g. a key value typed on a Mac finds the existing record',
			},
			{
				displayName: 'Null Values',
				name: 'emptyValues',
				type: 'options',
				options: [
					{
						name: 'Send Empty Text',
						value: 'emptyString',
						description: 'The field is sent as "", which clears it in an edited record',
					},
					{
						name: 'Leave Field Out',
						value: 'omit',
						description: 'The field is not sent, so an edited record keeps its value',
					},
				],
				default: 'emptyString',
				description: 'What to send for a field whose value is null or missing',
			},
			{
				displayName: 'Number Fields',
				name: 'numberFields',
				type: 'string',
				default: '',
				placeholder: 'e.g. Kolik to stálo',
				description:
					'Fields whose text values are numbers (1234.5 or 1 234,5), separated by commas, to be written in the number format. Number values are formatted in every field; other text is sent as it is.',
			},
			{
				displayName: 'Number Format',
				name: 'numberFormat',
				type: 'options',
				options: [
					{ name: 'Decimal Comma (1234,5)', value: 'decimalComma' },
					{ name: 'Decimal Point (1234.5)', value: 'decimalPoint' },
					{ name: 'JSON Number', value: 'number', description: 'Sent as a number, not as text' },
				],
				default: 'decimalComma',
				description: 'How numbers are written. The service expects amounts with a decimal comma.',
			},
			{
				displayName: 'Object Values',
				name: 'objectValues',
				type: 'options',
				options: [
					{ name: 'Error', value: 'error', description: 'Stop with an error naming the item and field' },
					{ name: 'Send as JSON Text', value: 'json' },
				],
				default: 'error',
				description: 'What to do with a field whose value is an object or a list',
			},
			{
				displayName: 'Parallel Requests',
				name: 'concurrency',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY },
				default: 1,
				description:
					'How many batches are sent at the same time. With 1, batches are sent one after another in input order; more is faster, but the service may then process batches in any order.',
			},
			{
				displayName: 'Records per Request',
				name: 'batchSize',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_BATCH_SIZE,
				description: 'How many records each import request carries',
			},
			{
				displayName: 'Retry Attempts',
				name: 'retryAttempts',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: MAX_RETRY_ATTEMPTS },
				default: DEFAULT_RETRY_ATTEMPTS,
				description:
					'How many times a batch is sent again when the service certainly did not process it (rate limit 429, unavailable 503, no connection), with growing pauses. 0 turns retries off.',
			},
			{
				displayName: 'Retry When Outcome Unknown',
				name: 'retryUnknownOutcome',
				type: 'boolean',
				default: false,
				description:
					'Whether to also send a batch again after a failure the service may have processed it before (500, 502, 504, dropped connection, timeout). Safe only when every record carries the record type\'s key field (e.g. Interní číslo): a repeat then edits the records instead of creating them twice.',
			},
			{
				displayName: 'Thousands Separator',
				name: 'thousandsSeparator',
				type: 'options',
				options: [
					{ name: 'None (1234567,5)', value: 'none' },
					{ name: 'Non-Breaking Space', value: 'nbsp' },
					{ name: 'Space (1 234 567,5)', value: 'space' },
				],
				default: 'none',
				description: 'How digit groups of numbers written as text are separated',
			},
			{
				displayName: 'Timeout (Seconds)',
				name: 'timeout',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: DEFAULT_TIMEOUT_SECONDS,
				description:
					'Seconds to wait for the answer to one request. A batch that timed out may have been processed, so it is not sent again unless "Retry When Outcome Unknown" is on.',
			},
			{
				displayName: 'Timezone',
				name: 'timezone',
				type: 'string',
				default: '',
				placeholder: 'e.g. Europe/Prague',
				description:
					"IANA timezone in which date-times get their calendar date. Empty: the workflow's timezone.",
			},
		],
	},
];

const displayOptions = { show: { resource: ['record'], operation: ['import'] } };

export const description = updateDisplayOptions(displayOptions, properties);

// ---- settings -----------------------------------------------------------------------------------

type DataMode = 'autoMapInputData' | 'defineBelow' | 'json';

interface ImportSettings {
	dataMode: DataMode;
	batchSize: number;
	concurrency: number;
	retryAttempts: number;
	retryUnknownOutcome: boolean;
	timeoutMs: number;
	includeResponse: boolean;
	values: ValuePreparationOptions;
	/** Whether text values are brought to NFC (see sendableRecord). */
	normalizeTextValues: boolean;
}

function settingError(context: IExecuteFunctions, message: string, description: string): NodeOperationError {
	return new NodeOperationError(context.getNode(), message, { description });
}

function wholeNumber(
	context: IExecuteFunctions,
	value: unknown,
	name: string,
	min: number,
	max: number,
): number {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
		throw settingError(
			context,
			`"${name}" must be a whole number from ${min}${max === Infinity ? ' up' : ` to ${max}`} (got ${JSON.stringify(value) ?? 'nothing'})`,
			`Set "${name}" in the options to a whole number${max === Infinity ? ` of at least ${min}` : ` between ${min} and ${max}`}.`,
		);
	}
	return number;
}

/** An option of type "options", which an expression could set to anything. */
function choice<T extends string>(
	context: IExecuteFunctions,
	value: unknown,
	name: string,
	allowed: readonly T[],
	fallback: T,
): T {
	if (value === undefined) return fallback;
	if (!allowed.includes(value as T)) {
		throw settingError(
			context,
			`"${name}" cannot be ${JSON.stringify(value)}`,
			`Choose one of the listed values for "${name}" (${allowed.join(', ')}).`,
		);
	}
	return value as T;
}

function readSettings(this: IExecuteFunctions): ImportSettings {
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const defaults = DEFAULT_VALUE_PREPARATION;
	const timezone = String(options.timezone ?? '').trim() || this.getTimezone();
	if (!isValidTimezone(timezone)) {
		throw settingError(
			this,
			`"${timezone}" is not a known timezone`,
			'Enter an IANA timezone such as Europe/Prague in "Timezone", or leave it empty to use the workflow\'s timezone.',
		);
	}
	const dateFields = parseFieldList(options.dateFields as string | undefined);
	const numberFields = parseFieldList(options.numberFields as string | undefined);
	const inBoth = [...dateFields].filter((field) => numberFields.has(field));
	if (inBoth.length > 0) {
		throw settingError(
			this,
			`The field "${inBoth[0]}" is listed both in "Date Fields" and in "Number Fields"`,
			'Keep each field in one of the two lists.',
		);
	}
	const timeoutSeconds = options.timeout ?? DEFAULT_TIMEOUT_SECONDS;
	if (typeof timeoutSeconds !== 'number' || !(timeoutSeconds > 0)) {
		throw settingError(
			this,
			`"Timeout (Seconds)" must be a number above 0 (got ${JSON.stringify(timeoutSeconds)})`,
			'Set "Timeout (Seconds)" in the options to the seconds to wait for one request, e.g. 60.',
		);
	}
	return {
		dataMode: this.getNodeParameter('dataMode', 0) as DataMode,
		batchSize: wholeNumber(this, options.batchSize ?? DEFAULT_BATCH_SIZE, 'Records per Request', 1, Infinity),
		concurrency: wholeNumber(this, options.concurrency ?? 1, 'Parallel Requests', 1, MAX_CONCURRENCY),
		retryAttempts: wholeNumber(
			this,
			options.retryAttempts ?? DEFAULT_RETRY_ATTEMPTS,
			'Retry Attempts',
			0,
			MAX_RETRY_ATTEMPTS,
		),
		retryUnknownOutcome: options.retryUnknownOutcome === true,
		timeoutMs: Math.round(timeoutSeconds * 1000),
		includeResponse: options.includeResponse === true,
		values: {
			...defaults,
			timezone,
			dateFields,
			numberFields,
			dateFormat: choice(this, options.dateFormat, 'Date Format', DATE_FORMATS, defaults.dateFormat),
			convertIsoDateStrings: options.convertIsoDateStrings === true,
			convertN8nDateText: this.getNode().typeVersion >= 1.1,
			numberFormat: choice(this, options.numberFormat, 'Number Format', NUMBER_FORMATS, defaults.numberFormat),
			thousandsSeparator: choice(
				this,
				options.thousandsSeparator,
				'Thousands Separator',
				THOUSANDS_SEPARATORS,
				defaults.thousandsSeparator,
			),
			decimalPlaces:
				options.decimalPlaces === undefined
					? undefined
					: wholeNumber(this, options.decimalPlaces, 'Decimal Places', 0, 10),
			emptyValues: choice(this, options.emptyValues, 'Null Values', EMPTY_VALUE_HANDLING, defaults.emptyValues),
			booleanFormat: choice(this, options.booleanFormat, 'Boolean Format', BOOLEAN_FORMATS, defaults.booleanFormat),
			objectValues: choice(this, options.objectValues, 'Object Values', OBJECT_VALUE_HANDLING, defaults.objectValues),
			normalizeFieldNames: options.normalizeFieldNames !== false,
		},
		normalizeTextValues: options.normalizeTextValues !== false,
	};
}

// ---- reading the records of the input items ---------------------------------------------------

/** A checked record and the input item it came from. */
interface PendingRecord {
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
function sendableRecord(pending: PendingRecord): PreparedRecord {
	if (!pending.textNormalized) {
		pending.record = normalizeRecordText(pending.record);
		pending.textNormalized = true;
	}
	return pending.record;
}

/** The JSON array of records as they are sent. */
function sendableJson(pending: PendingRecord[]): string {
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
type OutputSlot = { position: number } | { itemIndex: number; error: NodeOperationError };

const IMPORT_PATH = '/api/3p/import/';

function readRecordTypeId(this: IExecuteFunctions, raw: unknown, itemIndex: number): string {
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
					"Enter the identifier of the record type, e.g. faktury-prijate. It is shown in the record type's settings, in its generated API documentation.",
			},
		);
	}
	return id;
}

function itemError(
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
interface ItemParameters {
	recordTypeId: (itemIndex: number) => unknown;
	fieldsToSend: (itemIndex: number) => string;
	fieldsToInclude: (itemIndex: number) => Set<string>;
	fieldsToExclude: (itemIndex: number) => Set<string>;
	fields: (itemIndex: number) => Array<{ name?: unknown; value?: unknown }>;
	jsonRecords: (itemIndex: number) => unknown;
}

function itemParameters(this: IExecuteFunctions): ItemParameters {
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
function rawRecordsOf(
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
	let parsed: unknown = value;
	if (typeof value === 'string') {
		if (value.trim() === '') {
			throw new NodeOperationError(this.getNode(), `"Records (JSON)" is empty [item ${itemIndex}]`, {
				itemIndex,
				description: 'Enter a list of records, e.g. [{"Název": "Úkol 1"}], or switch "Input Data" to another mode.',
			});
		}
		try {
			parsed = JSON.parse(value) as unknown;
		} catch (error) {
			throw new NodeOperationError(
				this.getNode(),
				`"Records (JSON)" is not valid JSON [item ${itemIndex}]: ${(error as Error).message}`,
				{
					itemIndex,
					description:
						'Check the JSON for missing quotes, commas or brackets. Field names and text need double quotes, e.g. [{"Název": "Úkol 1"}].',
				},
			);
		}
	}
	if (Array.isArray(parsed)) return parsed;
	if (isRecordObject(parsed)) {
		const keys = Object.keys(parsed);
		if (keys.length === 1 && keys[0] === 'data' && Array.isArray(parsed.data)) return parsed.data;
		return [parsed];
	}
	throw new NodeOperationError(
		this.getNode(),
		`"Records (JSON)" must be a list of records or one record, but it is ${parsed === null ? 'null' : typeof parsed} [item ${itemIndex}]`,
		{ itemIndex, description: 'Give a list of objects, e.g. [{"Název": "Úkol 1"}, {"Název": "Úkol 2"}].' },
	);
}

function prepareItemRecords(
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

// ---- sending ------------------------------------------------------------------------------------

/** "3", "3–7", "3–7, 9, 12–20" (capped). */
function describeIndexes(indexes: number[]): string {
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

function describeItems(indexes: number[]): string {
	const unique = new Set(indexes);
	return `${unique.size === 1 ? 'item' : 'items'} ${describeIndexes(indexes)}`;
}

function count(n: number, singular: string, plural = `${singular}s`): string {
	return `${n} ${n === 1 ? singular : plural}`;
}

interface BatchFailure {
	batch: ImportBatch;
	message: string;
	description: string;
	httpCode?: string;
	itemIndex: number;
	/** The original error, to keep its kind (API or operational) when rethrown. */
	cause: Error;
}

/** Failures after which sending more batches cannot succeed: which batches they rule out. */
function rulesOut(failure: BatchFailure, batch: ImportBatch): boolean {
	if (failure.cause instanceof NodeApiError) {
		if (failure.httpCode === '401') return true;
		if (failure.httpCode === '404') return batch.recordTypeId === failure.batch.recordTypeId;
		return false;
	}
	// Not an answer of the service: the credential or its Base URL is unusable.
	return failure.cause instanceof NodeOperationError;
}

function describeFailure(
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

function toNodeError(this: IExecuteFunctions, failure: BatchFailure, message: string, description: string) {
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

// ---- the operation ------------------------------------------------------------------------------

/** What became of each record, by its position in the list of records. */
interface ImportResults {
	outputs: Array<IDataObject | undefined>;
	/** Why a record was not imported: its batch failed, or was not sent after another failed. */
	failedAt: Array<{ failure: BatchFailure; batch: ImportBatch; sent: boolean } | undefined>;
	failures: BatchFailure[];
	succeeded: ImportBatch[];
	notStarted: ImportBatch[];
}

/**
 * Reads and checks every item before the first request, so bad input stops the run (or, with
 * "continue on fail", fails only its own item) before anything is imported.
 */
function readRecords(
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

function successOutput(
	batch: ImportBatch,
	record: PreparedRecord,
	outcome: RecordOutcome | undefined,
	response: unknown,
	settings: ImportSettings,
): IDataObject {
	const json: IDataObject = { status: outcome?.status ?? 'imported' };
	if (outcome?.id !== undefined) json.id = outcome.id;
	if (outcome?.message !== undefined) json.message = outcome.message;
	json.recordTypeId = batch.recordTypeId;
	json.batch = batch.number;
	json.record = record;
	if (settings.includeResponse) json.response = response as IDataObject;
	return json;
}

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
async function sendBatches(
	this: IExecuteFunctions,
	records: PendingRecord[],
	settings: ImportSettings,
	continueOnFail: boolean,
): Promise<ImportResults> {
	const batches = planBatches(
		records.map((record) => record.recordTypeId),
		settings.batchSize,
	);
	const results: ImportResults = {
		outputs: new Array(records.length).fill(undefined),
		failedAt: new Array(records.length).fill(undefined),
		failures: [],
		succeeded: [],
		notStarted: [],
	};
	const started = new Set<number>();
	const mayStart = () => continueOnFail || results.failures.length === 0;
	const bodyFor = (batchIndex: number) => {
		const { positions } = batches[batchIndex];
		return new JsonListBody('data', {
			length: positions.length,
			serialize: (start, end) => sendableJson(positions.slice(start, end).map((position) => records[position])),
		});
	};
	/** The body of the batch to be sent next, made while the current one is on the wire. */
	let madeAhead: { batchIndex: number; body: JsonListBody } | undefined;
	const bodyOf = (batchIndex: number): Buffer => {
		const body = madeAhead?.batchIndex === batchIndex ? madeAhead.body : bodyFor(batchIndex);
		madeAhead = undefined;
		return body.finish();
	};
	let finished = false;
	const makeAhead = async (batchIndex: number): Promise<void> => {
		if (finished || batchIndex >= batches.length || !mayStart() || started.has(batches[batchIndex].number)) return;
		const ahead = { batchIndex, body: bodyFor(batchIndex) };
		madeAhead = ahead;
		try {
			do {
				await sleep(0);
				// Taken for sending (bodyOf finishes it), or dropped.
				if (finished || madeAhead !== ahead) return;
				ahead.body.writeSlice();
			} while (!ahead.body.complete);
		} catch {
			// Not made ahead: bodyOf makes it when the batch is sent, and reports the error there.
			if (madeAhead === ahead) madeAhead = undefined;
		}
	};
	let connection: Promise<RecordsConnection> | undefined;

	await runInOrder(
		batches.length,
		settings.concurrency,
		async (batchIndex) => {
			const batch = batches[batchIndex];
			started.add(batch.number);
			const ruledOutBy = results.failures.find((failure) => rulesOut(failure, batch));
			if (ruledOutBy) {
				if (madeAhead?.batchIndex === batchIndex) madeAhead = undefined;
				for (const position of batch.positions) results.failedAt[position] = { failure: ruledOutBy, batch, sent: false };
				return;
			}
			const itemIndex = records[batch.positions[0]].itemIndex;
			try {
				connection ??= recordsConnection.call(this, itemIndex);
				const request = recordsApiRequest.call(this, {
					connection: await connection,
					method: 'POST',
					path: `${IMPORT_PATH}${encodeURIComponent(batch.recordTypeId)}`,
					serializedBody: bodyOf(batchIndex),
					purpose: 'import',
					subject: `record type "${batch.recordTypeId}"`,
					timeoutMs: settings.timeoutMs,
					retry: { maxAttempts: settings.retryAttempts + 1, retryUnknownOutcome: settings.retryUnknownOutcome },
					itemIndex,
				});
				// Not awaited: the request is on its way while the next body is made.
				if (settings.concurrency === 1) void makeAhead(batchIndex + 1);
				const response = await request;
				const outcomes = readRecordOutcomes(response.body, batch.positions.length);
				batch.positions.forEach((position, indexInBatch) => {
					results.outputs[position] = successOutput(
						batch,
						sendableRecord(records[position]),
						outcomes?.[indexInBatch],
						response.body,
						settings,
					);
				});
				results.succeeded.push(batch);
			} catch (error) {
				const failure = describeFailure.call(this, error, batch, batches.length, records);
				results.failures.push(failure);
				for (const position of batch.positions) results.failedAt[position] = { failure, batch, sent: true };
			}
		},
		mayStart,
	);
	finished = true;
	madeAhead = undefined;
	results.notStarted = batches.filter((batch) => !started.has(batch.number));
	return results;
}

/** The error that stops the run: the first failed batch, and what became of the others. */
function stoppingError(this: IExecuteFunctions, results: ImportResults) {
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

function failureOutput(record: PendingRecord, failed: ImportResults['failedAt'][number]): IDataObject {
	const json: IDataObject = {
		error: !failed
			? 'Not sent'
			: failed.sent
				? failed.failure.message
				: `Not sent, because batch ${failed.failure.batch.number} failed: ${failed.failure.cause.message}`,
	};
	if (failed?.failure.description) json.description = failed.failure.description;
	if (failed?.failure.httpCode) json.httpCode = failed.failure.httpCode;
	json.recordTypeId = record.recordTypeId;
	if (failed) json.batch = failed.batch.number;
	json.record = sendableRecord(record);
	return json;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	if (items.length === 0) return [];
	const settings = readSettings.call(this);
	const continueOnFail = this.continueOnFail();
	const { records, slots } = readRecords.call(this, items, settings, continueOnFail);
	const results = await sendBatches.call(this, records, settings, continueOnFail);
	if (results.failures.length > 0 && !continueOnFail) throw stoppingError.call(this, results);

	return slots.map((slot): INodeExecutionData => {
		if ('error' in slot) {
			const json: IDataObject = { error: slot.error.message };
			if (slot.error.description) json.description = slot.error.description;
			return { json, pairedItem: { item: slot.itemIndex } };
		}
		const record = records[slot.position];
		const json = results.outputs[slot.position] ?? failureOutput(record, results.failedAt[slot.position]);
		return { json, pairedItem: { item: record.itemIndex } };
	});
}

/** Text ending as a sentence, so that the next one does not run into it (service messages often end without a full stop). */
function asSentence(text: string): string {
	const trimmed = text.trim();
	return trimmed === '' || /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
