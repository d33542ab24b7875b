import { fromAiKeys, isToolNodeType, toolArguments, toolErrorText } from '../../../../../../nodes/Records/actions/tool/use';

describe('telling tool use apart', () => {
	it('knows the tool variant n8n builds by its type name, as n8n does', () => {
		expect(isToolNodeType('n8n-nodes-records.recordsTool')).toBe(true);
		expect(isToolNodeType('n8n-nodes-records.records')).toBe(false);
		expect(isToolNodeType('n8n-nodes-records.recordsTrigger')).toBe(false);
		expect(isToolNodeType('recordsTool')).toBe(true);
	});
});

describe('the arguments an agent fills', () => {
	it('reads the keys of $fromAI() calls in an expression, with any quotes', () => {
		expect(fromAiKeys("={{ $fromAI('report', 'ID of the report', 'string') }}")).toEqual(['report']);
		expect(fromAiKeys('={{ $fromAI("limit") }} and {{ $fromAI(`offset`, ``, `number`, 0) }}')).toEqual(['limit', 'offset']);
	});

	it('finds none in fixed values or in text that only looks like a call', () => {
		expect(fromAiKeys("$fromAI('report')")).toEqual([]);
		expect(fromAiKeys(20)).toEqual([]);
		expect(fromAiKeys('={{ $json.report }}')).toEqual([]);
	});

	it('names each argument after the field it fills, inside resource locators and collections too', () => {
		const labels = new Map([
			['report', 'Report'],
			['limit', 'Limit'],
			['options', 'Options'],
			['timeout', 'Timeout (Seconds)'],
			['value', 'Field Value'],
		]);
		const parameters = {
			resource: 'report',
			report: { __rl: true, mode: 'id', value: "={{ $fromAI('reportId') }}" },
			limit: "={{ $fromAI('limit', '', 'number', 20) }}",
			returnAll: false,
			options: { timeout: "={{ $fromAI('seconds', '', 'number') }}", pageSize: 100 },
		};

		expect(toolArguments(parameters, labels)).toEqual([
			{ label: 'Report', key: 'reportId' },
			{ label: 'Limit', key: 'limit' },
			{ label: 'Timeout (Seconds)', key: 'seconds' },
		]);
	});
});

describe('the error text an agent gets', () => {
	const args = [
		{ label: 'Record Type ID', key: 'recordType' },
		{ label: 'Records (JSON)', key: 'records' },
		{ label: 'Limit', key: 'limit' },
	];

	it('names the argument instead of the field, drops item numbers and joins the hint', () => {
		expect(
			toolErrorText({
				message: '"Records (JSON)" is not valid JSON [item 0]: Unexpected end of JSON input',
				description: 'Check the JSON for missing quotes, commas or brackets.',
				arguments: args,
			}),
		).toBe('Argument "records" is not valid JSON: Unexpected end of JSON input. Check the JSON for missing quotes, commas or brackets.');
		expect(
			toolErrorText({
				message: '"Limit" must be a whole number from 1 to 100 (got 0) [item 0]',
				description: 'Set "Limit" in the node to a whole number between 1 and 100.',
				arguments: args,
			}),
		).toBe('Argument "limit" must be a whole number from 1 to 100 (got 0). Set argument "limit" in the node to a whole number between 1 and 100.');
	});

	it('says which record of the list a value error is about, counting from 1', () => {
		expect(
			toolErrorText({
				message: 'Field "Zadal" is an object, but a field holds one value [item 0, record 2 of its JSON]',
				arguments: args,
				contentKey: 'records',
			}),
		).toBe('Argument "records", record 3 of the list: Field "Zadal" is an object, but a field holds one value');
		expect(
			toolErrorText({ message: 'Field "Zadal" is an object, but a field holds one value [item 0]', arguments: args, contentKey: 'records' }),
		).toBe('Argument "records": Field "Zadal" is an object, but a field holds one value');
	});

	it("keeps the service's answer and leaves out the numbering of the only batch", () => {
		expect(
			toolErrorText({
				message: 'Batch 1 of 1 (item 0) for record type "neexistuje" failed: The record type "neexistuje" does not exist (404)',
				description: 'Check the Record Type ID: it is shown in its settings. The service said: Record type "neexistuje" does not exist',
				arguments: args,
				contentKey: 'records',
			}),
		).toBe(
			'The record type "neexistuje" does not exist (404). Check the argument "recordType": it is shown in its settings. The service said: Record type "neexistuje" does not exist',
		);
	});

	it("leaves a one-word field name alone where it is an ordinary word, as in the service's answer", () => {
		expect(
			toolErrorText({
				message: 'The report "x" does not exist (404)',
				description: 'The service said: Report "x" does not exist',
				arguments: [{ label: 'Report', key: 'report' }],
			}),
		).toBe('The report "x" does not exist (404). The service said: Report "x" does not exist');
	});

	it('adds a description only once and replaces only whole field names', () => {
		expect(
			toolErrorText({ message: 'Timeout. Try later.', description: 'Try later.', arguments: [{ label: 'Time', key: 't' }] }),
		).toBe('Timeout. Try later.');
	});
});
