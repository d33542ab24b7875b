/**
 * Record → Import's Records (JSON) default: an English example to replace. n8n saves a parameter only
 * when it differs from its default, so a workflow that kept it runs with this example.
 */
import { Records } from '../../nodes/Records/Records.node';
import { runNode } from '../../tooling/harness/n8nCoreHarness';
import { TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const sandbox = useSandbox({ bankRows: 10 });

describe('Records (JSON) default', () => {
	it('is an English example, sent as it stands', async () => {
		const { items, error } = await runNode({
			nodeType: new Records(),
			// No jsonRecords: as n8n stores a workflow that kept the default.
			parameters: { resource: 'record', operation: 'import', recordTypeId: 'ukoly', dataMode: 'json' },
			credentials: sandbox.credentials(TOKENS.import),
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(sandbox.state.stats.importLog.at(-1)).toBeDefined();
		expect(items[0]?.json.record).toEqual({ Title: 'Call the client', 'Entered by': 'Jane Smith' });
	});
});
