/** The Import operation's node-level settings, read and checked once per run. */
import { IANAZone } from 'luxon';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	BOOLEAN_FORMATS,
	DATE_FORMATS,
	DEFAULT_VALUE_PREPARATION,
	EMPTY_VALUE_HANDLING,
	NUMBER_FORMATS,
	OBJECT_VALUE_HANDLING,
	THOUSANDS_SEPARATORS,
	type ValuePreparationOptions,
} from './prepare/preparation';
import { parseFieldList } from './prepare/normalForm';
import { DEFAULT_BATCH_SIZE } from './description';
import {
	DEFAULT_RETRY_ATTEMPTS,
	DEFAULT_TIMEOUT_SECONDS,
	MAX_CONCURRENCY,
	MAX_RETRY_ATTEMPTS,
} from '../../../../shared/requestOptions';
import { choice, isUnset, parameterError, wholeNumber } from '../../../../shared/parameters/kit';

export type DataMode = 'autoMapInputData' | 'defineBelow' | 'json';

export interface ImportSettings {
	dataMode: DataMode;
	batchSize: number;
	concurrency: number;
	retryAttempts: number;
	retryUnknownOutcome: boolean;
	timeoutMs: number;
	includeResponse: boolean;
	/** n8n's Retry On Fail (node settings) is on: a failed run is started again, whole. */
	retryOnFail: boolean;
	values: ValuePreparationOptions;
	/** Whether text values are brought to NFC (see PendingRecords.sendable). */
	normalizeTextValues: boolean;
}

function settingError(context: IExecuteFunctions, message: string, description: string) {
	return parameterError(context.getNode(), message, undefined, description);
}

export function readSettings(this: IExecuteFunctions): ImportSettings {
	const node = this.getNode();
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const defaults = DEFAULT_VALUE_PREPARATION;
	const timezone = String(options.timezone ?? '').trim() || this.getTimezone();
	if (!IANAZone.isValidZone(timezone)) {
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
		batchSize: wholeNumber(node, options.batchSize, { label: 'Records per Request', min: 1, fallback: DEFAULT_BATCH_SIZE }),
		concurrency: wholeNumber(node, options.concurrency, {
			label: 'Parallel Requests',
			min: 1,
			max: MAX_CONCURRENCY,
			fallback: 1,
		}),
		retryAttempts: wholeNumber(node, options.retryAttempts, {
			label: 'Retry Attempts',
			min: 0,
			max: MAX_RETRY_ATTEMPTS,
			fallback: DEFAULT_RETRY_ATTEMPTS,
		}),
		retryUnknownOutcome: options.retryUnknownOutcome === true,
		timeoutMs: Math.round(timeoutSeconds * 1000),
		includeResponse: options.includeResponse === true,
		retryOnFail: node.retryOnFail === true,
		values: {
			...defaults,
			timezone,
			dateFields,
			numberFields,
			dateFormat: choice(node, options.dateFormat, { label: 'Date Format', allowed: DATE_FORMATS, fallback: defaults.dateFormat }),
			convertIsoDateStrings: options.convertIsoDateStrings === true,
			numberFormat: choice(node, options.numberFormat, { label: 'Number Format', allowed: NUMBER_FORMATS, fallback: defaults.numberFormat }),
			thousandsSeparator: choice(node, options.thousandsSeparator, {
				label: 'Thousands Separator',
				allowed: THOUSANDS_SEPARATORS,
				fallback: defaults.thousandsSeparator,
			}),
			decimalPlaces: isUnset(options.decimalPlaces)
				? undefined
				: wholeNumber(node, options.decimalPlaces, { label: 'Decimal Places', min: 0, max: 10 }),
			emptyValues: choice(node, options.emptyValues, { label: 'Null Values', allowed: EMPTY_VALUE_HANDLING, fallback: defaults.emptyValues }),
			booleanFormat: choice(node, options.booleanFormat, { label: 'Boolean Format', allowed: BOOLEAN_FORMATS, fallback: defaults.booleanFormat }),
			objectValues: choice(node, options.objectValues, { label: 'Object Values', allowed: OBJECT_VALUE_HANDLING, fallback: defaults.objectValues }),
			normalizeFieldNames: options.normalizeFieldNames !== false,
		},
		normalizeTextValues: options.normalizeTextValues !== false,
	};
}

