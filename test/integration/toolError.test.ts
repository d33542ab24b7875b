/**
 * What an AI agent reads when a Records tool call fails. n8n's MCP Server Trigger answers a failed
 * call with "<error name>: <message>", and an AI Agent gets the name as the error's type: the name
 * must not be n8n's class name (NodeOperationError), the message must be the sentence to act on.
 */
import type { IDataObject } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { runNode, toolVariant } from '../../tooling/harness/n8nCoreHarness';
import { RECORD_TYPES, TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const sandbox = useSandbox({ token: TOKENS.full });

/** import_records as the MCP example defines it, called with the agent's arguments. */
async function importAsTool(args: IDataObject) {
	const { error } = await runNode({
		nodeType: toolVariant(new Records()),
		parameters: {
			resource: 'record',
			operation: 'import',
			recordTypeId: "={{ $fromAI('recordType', '', 'string') }}",
			dataMode: 'json',
			jsonRecords: "={{ $fromAI('records', '', 'string') }}",
		},
		credentials: sandbox.credentials(),
		input: [args],
	});
	if (!error) throw new Error('The tool call did not fail');
	// As the MCP Server Trigger formats a failed call for the client.
	return { name: error.name, asMcpAnswer: `${error.name}: ${error.message}` };
}

describe('a failed tool call as the agent reads it', () => {
	it('is "Error: " and the sentence, for an argument the node refuses', async () => {
		const { name, asMcpAnswer } = await importAsTool({
			recordType: RECORD_TYPES.tasks,
			records: JSON.stringify([{ Název: 'Úkol s objektem', Zadal: { jméno: 'Jana' } }]),
		});
		expect(name).toBe('Error');
		expect(asMcpAnswer).toMatch(/^Error: Argument "records": Field "Zadal" is an object, but a field holds one value\. /);
	});

	it('is "Error: " and the sentence, for what the service refuses', async () => {
		const { asMcpAnswer } = await importAsTool({ recordType: 'neexistuje', records: JSON.stringify([{ Název: 'x' }]) });
		expect(asMcpAnswer).toMatch(/^Error: The record type "neexistuje" does not exist \(404\)\. Check the argument "recordType"/);
		expect(asMcpAnswer).not.toContain('NodeOperationError');
		expect(asMcpAnswer).not.toContain(TOKENS.full);
	});
});
