/**
 * Record → Import's Records (JSON) default. n8n saves a parameter only when it differs from its
 * default, so a saved workflow that kept the default runs with whatever the node version's default
 * is: versions 1 and 1.1 keep the Czech example they were saved with, 1.2 has an English one.
 */
import { Records } from '../../nodes/Records/Records.node';
import { runNode } from '../../tooling/harness/n8nCoreHarness';
import { TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const sandbox = useSandbox({ bankRows: 10 });

async function importWithDefaultJson(typeVersion: number) {
	const { items, error } = await runNode({
		nodeType: new Records(),
		typeVersion,
		// No jsonRecords: as n8n stores a workflow that kept the default.
		parameters: { resource: 'record', operation: 'import', recordTypeId: 'ukoly', dataMode: 'json' },
		credentials: sandbox.credentials(TOKENS.import),
		continueOnFail: true,
	});
	return { sent: sandbox.state.stats.importLog.at(-1), record: items[0]?.json.record, error };
}

describe('Records (JSON) default', () => {
	it.each([1, 1.1])('is the Czech example in version %s, as workflows saved with it expect', async (version) => {
		const { record, error } = await importWithDefaultJson(version);
		expect(error).toBeUndefined();
		expect(record).toEqual({ Název: 'Zavolat klientovi', Zadal: 'Jana Nováková' });
	});

	it('is an English example in version 1.2', async () => {
		const { record, sent } = await importWithDefaultJson(1.2);
		expect(sent).toBeDefined();
		expect(record).toEqual({ Title: 'Call the client', 'Entered by': 'Jane Smith' });
	});

	it('is 1.2 for a node added now', () => {
		expect(new Records().description.defaultVersion).toBe(1.2);
	});
});
