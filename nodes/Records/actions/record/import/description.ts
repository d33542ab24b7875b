/** The Import operation's parameters (§4.1: one import request per batch of records of one record type). */
import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { MAX_CONCURRENCY, retryAttemptsOption, timeoutOption } from '../../../../shared/requestOptions';


export const DEFAULT_BATCH_SIZE = 100;

/** Records (JSON), whose default is an example to replace with the record type's own fields. */
const jsonRecords: INodeProperties = {
	displayName: 'Records (JSON)',
	name: 'jsonRecords',
	type: 'json',
	displayOptions: { show: { dataMode: ['json'] } },
	default: '[\n  {\n    "Title": "Call the client",\n    "Entered by": "Jane Smith"\n  }\n]',
	required: true,
	description:
		"A list of records, or one record, each an object of field names and values. A whole import body {\"data\": [...]} is accepted too. The example's fields stand for yours: use the record type's field names as its API documentation lists them, in the installation's language.",
};

export const properties: INodeProperties[] = [
	{
		displayName: 'Record Type ID',
		name: 'recordTypeId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. received-invoices',
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
		placeholder: 'e.g. Title, Entered by',
		description:
			'Names of the input fields to send, separated by commas, spelled as the record type names them',
	},
	{
		displayName: 'Fields to Exclude',
		name: 'fieldsToExclude',
		type: 'string',
		displayOptions: { show: { dataMode: ['autoMapInputData'], fieldsToSend: ['allExcept'] } },
		default: '',
		required: true,
		placeholder: 'e.g. Note, createdAt',
		description:
			'Names of the input fields not to send, separated by commas',
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
						placeholder: 'e.g. Title',
						description:
							'The field\'s name exactly as the record type\'s API documentation lists it, in the installation\'s language',
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
	jsonRecords,
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
					{ name: 'Czech Yes / No: Ano / Ne', value: 'AnoNe' },
					{ name: 'Czech Yes / No: Ano / Ne (Lower Case)', value: 'anoNe' },
					{ name: 'True / False', value: 'trueFalse' },
				],
				default: 'trueFalse',
				description:
					'How true and false values are written. "Ano" and "Ne" are Czech for yes and no, the values yes/no fields of a Czech installation expect.',
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
				placeholder: 'e.g. Due date, Paid on',
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
				placeholder: 'e.g. Amount',
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
				...retryAttemptsOption,
				description:
					'How many times a batch is sent again when the service certainly did not process it (rate limit 429, unavailable 503, no connection), with growing pauses. 0 turns retries off.',
			},
			{
				displayName: 'Retry When Outcome Unknown',
				name: 'retryUnknownOutcome',
				type: 'boolean',
				default: false,
				description:
					'Whether to also send a batch again after a failure the service may have processed it before (500, 502, 504, dropped connection, timeout). Safe only when every record carries the record type\'s key field (e.g. an internal number): a repeat then edits the records instead of creating them twice.',
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
				...timeoutOption,
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

export const displayOptions = { show: { resource: ['record'], operation: ['import'] } };

export const description = updateDisplayOptions(displayOptions, properties);
