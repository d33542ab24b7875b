/** The Import operation's node-level settings, read and checked once per run. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	BOOLEAN_FORMATS,
	DATE_FORMATS,
	DEFAULT_VALUE_PREPARATION,
	EMPTY_VALUE_HANDLING,
	isValidTimezone,
	NUMBER_FORMATS,
	OBJECT_VALUE_HANDLING,
	parseFieldList,
	THOUSANDS_SEPARATORS,
	type ValuePreparationOptions,
} from './values';
import { DEFAULT_BATCH_SIZE } from './description';
import {
	DEFAULT_RETRY_ATTEMPTS,
	DEFAULT_TIMEOUT_SECONDS,
	MAX_CONCURRENCY,
	MAX_RETRY_ATTEMPTS,
} from '../../../../shared/requestOptions';


export type DataMode = 'autoMapInputData' | 'defineBelow' | 'json';

export interface ImportSettings {
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

export function settingError(context: IExecuteFunctions, message: string, description: string): NodeOperationError {
	return new NodeOperationError(context.getNode(), message, { description });
}

export function wholeNumber(
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
export function choice<T extends string>(
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

export function readSettings(this: IExecuteFunctions): ImportSettings {
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

