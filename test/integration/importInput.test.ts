/**
 * Record → Import with bad input: each case must stop with an error that names the item (and the
 * field) and says how to fix it, before any record is sent.
 */
import type { IDataObject } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { runNode } from '../../tooling/harness/n8nCoreHarness';
import { TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const sandbox = useSandbox({ bankRows: 10 });
const credentials = sandbox.credentials(TOKENS.import);

const NFD = (text: string) => text.normalize('NFD');

function importRecords(parameters: IDataObject, input: IDataObject[], continueOnFail = false) {
	return runNode({
		nodeType: new Records(),
		parameters: { resource: 'record', operation: 'import', recordTypeId: 'ukoly', ...parameters },
		credentials,
		input,
		continueOnFail,
	});
}

interface BadInput {
	parameters: IDataObject;
	input: IDataObject[];
	message: string;
	/** Part of the description: how to fix it. */
	fix: string;
	/** The item n8n shows the error at; undefined for node settings. */
	itemIndex?: number;
}

const task = (name: string) => ({ Název: name });

const BAD_INPUTS: Array<[string, BadInput]> = [
	[
		// An empty parameter is caught by n8n itself ("Parameter is required"); blanks get through.
		'a blank Record Type ID',
		{ parameters: { recordTypeId: '   ' }, input: [task('a')], message: '"Record Type ID" is empty [item 0]', fix: 'e.g. received-invoices', itemIndex: 0 },
	],
	[
		'a Record Type ID expression that is empty for one item',
		{
			parameters: { recordTypeId: '={{ $json.typ }}', fieldsToSend: 'allExcept', fieldsToExclude: 'typ' },
			input: [{ typ: 'ukoly', ...task('a') }, { typ: 'ukoly', ...task('b') }, task('c')],
			message: '"Record Type ID" is empty [item 2]',
			fix: "shown in the record type's settings",
			itemIndex: 2,
		},
	],
	[
		'Records per Request of 0',
		{
			parameters: { options: { batchSize: 0 } },
			input: [task('a')],
			message: '"Records per Request" must be a whole number from 1 up (got 0)',
			fix: 'whole number of at least 1',
		},
	],
	[
		'too many Parallel Requests',
		{
			parameters: { options: { concurrency: 100 } },
			input: [task('a')],
			message: '"Parallel Requests" must be a whole number from 1 to 32 (got 100)',
			fix: 'between 1 and 32',
		},
	],
	[
		'a Timeout of 0',
		{
			parameters: { options: { timeout: 0 } },
			input: [task('a')],
			message: '"Timeout (Seconds)" must be a number above 0 (got 0)',
			fix: 'e.g. 60',
		},
	],
	[
		'an unknown timezone',
		{
			parameters: { options: { timezone: 'Europe/Praha' } },
			input: [task('a')],
			message: '"Europe/Praha" is not a known timezone',
			fix: 'such as Europe/Prague',
		},
	],
	[
		'an option set by an expression to a value it does not have',
		{
			parameters: { options: { booleanFormat: '={{ "yes/no" }}' } },
			input: [task('a')],
			message: '"Boolean Format" cannot be "yes/no"',
			fix: 'trueFalse, anoNe, AnoNe, oneZero',
		},
	],
	[
		'a field listed as a date and as a number field',
		{
			parameters: { recordTypeId: 'faktury-prijate', options: { dateFields: 'DUZP, Kolik to stálo', numberFields: NFD('Kolik to stálo') } },
			input: [{ 'Interní číslo': 'FP-1' }],
			message: 'The field "Kolik to stálo" is listed both in "Date Fields" and in "Number Fields"',
			fix: 'Keep each field in one of the two lists',
		},
	],
	[
		'invalid JSON in one item',
		{
			parameters: { dataMode: 'json', jsonRecords: '={{ $json.raw }}' },
			input: [{ raw: '[{"Název": "a"}]' }, { raw: '[{"Název": "b",}]' }],
			message: '"Records (JSON)" is not valid JSON: ',
			fix: 'Check the JSON for missing quotes, commas or brackets',
			itemIndex: 1,
		},
	],
	[
		'JSON that is a number',
		{
			parameters: { dataMode: 'json', jsonRecords: '42' },
			input: [{}],
			message: '"Records (JSON)" must be a list of records or one record, but it is number [item 0]',
			fix: 'Give a list of objects',
			itemIndex: 0,
		},
	],
	[
		'a JSON list with a record that is not an object',
		{
			parameters: { dataMode: 'json', jsonRecords: '[{"Název": "a"}, "b"]' },
			input: [{}],
			message:
				'A record must be an object of field names and values, but this one is text [item 0, record 1 of its JSON]',
			fix: 'Give each record as an object',
			itemIndex: 0,
		},
	],
	[
		'an empty field name in "Define Fields Below"',
		{
			parameters: { dataMode: 'defineBelow', fields: { field: [{ name: 'Název', value: 'a' }, { name: ' ', value: 'b' }] } },
			input: [{}],
			message: 'A field has an empty name (" ") [item 0]',
			fix: 'Give every field the name it has in the record type',
			itemIndex: 0,
		},
	],
	[
		'no fields in "Define Fields Below"',
		{
			parameters: { dataMode: 'defineBelow', fields: {} },
			input: [{}],
			message: 'No fields are defined [item 0]',
			fix: 'Add at least one field under "Fields"',
			itemIndex: 0,
		},
	],
	[
		'one field typed twice, in NFC and in NFD with a space',
		{
			parameters: {},
			input: [task('a'), { Název: 'b', [`${NFD('Název')} `]: 'c' }],
			message:
				'The fields "Název" and "Název " are the same field "Název" once Unicode form and surrounding spaces are normalized [item 1]'.replace(
					'"Název "',
					`"${NFD('Název')} "`,
				),
			fix: 'Keep only one of them',
			itemIndex: 1,
		},
	],
	[
		'an object as a field value',
		{
			parameters: { recordTypeId: 'faktury-prijate' },
			input: [
				{ 'Interní číslo': 'FP-1' },
				{ 'Interní číslo': 'FP-2' },
				{ 'Interní číslo': 'FP-3' },
				{ 'Interní číslo': 'FP-4', Partner: { name: 'ČEZ Prodej, a.s.', ico: '27232433' } },
			],
			message: 'Field "Partner" is an object, but a field holds one value [item 3]',
			fix: '{{ $json.partner.name }}',
			itemIndex: 3,
		},
	],
	[
		'a list as a field value',
		{
			parameters: {},
			input: [{ Název: 'a', Zpracovatel: ['Jana', 'Petr'] }],
			message: 'Field "Zpracovatel" is a list, but a field holds one value [item 0]',
			fix: '"Object Values" to "Send as JSON Text"',
			itemIndex: 0,
		},
	],
	[
		'text that is not a date in a date field',
		{
			parameters: { recordTypeId: 'faktury-prijate', options: { dateFields: 'DUZP' } },
			input: [{ 'Interní číslo': 'FP-1', DUZP: 'příští týden' }],
			message: 'Field "DUZP" must be a date, but "příští týden" is not one [item 0]',
			fix: 'ISO 8601 date',
			itemIndex: 0,
		},
	],
	[
		'an impossible date in a date field',
		{
			parameters: { recordTypeId: 'faktury-prijate', options: { dateFields: 'Datum splatnosti' } },
			input: [{ 'Interní číslo': 'FP-1', 'Datum splatnosti': '30.2.2026' }],
			message: 'Field "Datum splatnosti" "30.2.2026" is not a valid calendar date [item 0]',
			fix: 'day, month and year must exist',
			itemIndex: 0,
		},
	],
	[
		'an ambiguous number in a number field',
		{
			parameters: { recordTypeId: 'faktury-prijate', options: { numberFields: 'Kolik to stálo' } },
			input: [{ 'Interní číslo': 'FP-1', 'Kolik to stálo': '1,234' }],
			message:
				'Field "Kolik to stálo" "1,234" is ambiguous: the comma could be a decimal or a thousands separator [item 0]',
			fix: 'decimal point and no thousands separator',
			itemIndex: 0,
		},
	],
	[
		'a number too large to be exact',
		{
			parameters: { recordTypeId: 'faktury-prijate' },
			input: [{ 'Interní číslo': 'FP-1', 'Variabilní symbol': 12345678901234567000 }],
			message:
				'Field "Variabilní symbol" is the number 12345678901234567000, which is too large to be exact (digits may already have been lost) [item 0]',
			fix: 'as text',
			itemIndex: 0,
		},
	],
	[
		'NaN from an expression',
		{
			parameters: {
				recordTypeId: 'faktury-prijate',
				dataMode: 'defineBelow',
				fields: { field: [{ name: 'Interní číslo', value: 'FP-1' }, { name: 'Kolik to stálo', value: '={{ Number($json.castka) }}' }] },
			},
			input: [{ castka: '12 Kč' }],
			message: 'Field "Kolik to stálo" is NaN, which is not a number the service can store [item 0]',
			fix: 'Replace it with a real number',
			itemIndex: 0,
		},
	],
	[
		'an item without fields',
		{
			parameters: {},
			input: [task('a'), {}],
			message: 'The record has no fields [item 1]',
			fix: 'at least one field',
			itemIndex: 1,
		},
	],
	[
		'"Fields to Include" naming nothing',
		{
			parameters: { fieldsToSend: 'selected', fieldsToInclude: ' , ' },
			input: [task('a')],
			message: '"Fields to Include" names no field [item 0]',
			fix: 'List the input fields to send',
			itemIndex: 0,
		},
	],
];

describe('bad input', () => {
	it.each(BAD_INPUTS)('%s: a clear error, and nothing is sent', async (_label, bad) => {
		const result = await importRecords(bad.parameters, bad.input);

		expect(result.items).toEqual([]);
		expect(result.error?.message.startsWith(bad.message)).toBe(true);
		expect(result.error?.description).toContain(bad.fix);
		const context = (result.error as { context?: { itemIndex?: number } }).context;
		expect(context?.itemIndex).toBe(bad.itemIndex);
		expect(sandbox.state.stats.importLog).toHaveLength(0);
		expect(JSON.stringify(result.run.data.resultData)).not.toContain(credentials.token);
	});

	it('a bad value in the last of many batches: the first batch is not sent either', async () => {
		const input = [
			...Array.from({ length: 5 }, (_, index) => ({ 'Interní číslo': `FP-${index}`, Částka: 12.5, DUZP: new Date('2026-01-31T10:00:00Z') })),
			{ 'Interní číslo': 'FP-BAD', Částka: 12.5, DUZP: '2026-02-30T10:00:00.000Z' },
		];
		const result = await importRecords({ recordTypeId: 'faktury-prijate', options: { batchSize: 2 } }, input);

		expect(result.error?.message).toBe('Field "DUZP" "2026-02-30T10:00:00.000Z" is not a valid calendar date [item 5]');
		expect(sandbox.state.stats.importLog).toHaveLength(0);
	});

	it('with "continue on fail": bad items become error items in place, the good ones are imported', async () => {
		const result = await importRecords(
			{ recordTypeId: 'faktury-prijate', options: { dateFields: 'DUZP' } },
			[
				{ 'Interní číslo': 'FP-OK-1', DUZP: '2026-01-31' },
				{ 'Interní číslo': 'FP-BAD-1', DUZP: 'zítra' },
				{ 'Interní číslo': 'FP-OK-2', Partner: 'ČEZ' },
				{ 'Interní číslo': 'FP-BAD-2', Partner: { name: 'ČEZ' } },
			],
			true,
		);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.pairedItem, item.json.status ?? item.json.error])).toEqual([
			[{ item: 0 }, 'created'],
			[{ item: 1 }, 'Field "DUZP" must be a date, but "zítra" is not one [item 1]'],
			[{ item: 2 }, 'created'],
			[{ item: 3 }, 'Field "Partner" is an object, but a field holds one value [item 3]'],
		]);
		expect(result.items[1].json.description).toContain('ISO 8601');
		expect(sandbox.state.stats.importLog.map((entry) => entry.keys)).toEqual([['FP-OK-1', 'FP-OK-2']]);
	});

	it('with "continue on fail" and only bad items: no request at all', async () => {
		const result = await importRecords({}, [{}, { Název: { a: 1 } }], true);

		expect(result.items.map((item) => item.json.error)).toEqual([
			'The record has no fields [item 0]',
			'Field "Název" is an object, but a field holds one value [item 1]',
		]);
		expect(sandbox.state.stats.importLog).toHaveLength(0);
	});
});
