/**
 * Record → Import in JSON mode at its default, Evaluate JSON: For Each Input Item (issue 48): an
 * expression that gives the same list for every item would import each record once per item. The
 * run stops before anything is sent and says how to import the list once; items that each give a
 * list of their own import each list once. Counted by what the sandbox stored.
 */
import type { IDataObject } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { runNode } from '../../tooling/harness/n8nCoreHarness';
import { TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const sandbox = useSandbox({ bankRows: 10 });

const storedKeys = () => sandbox.state.stats.importLog.filter((entry) => entry.processed).flatMap((entry) => entry.keys);

function importJson(jsonRecords: string, input: IDataObject[], extra: IDataObject = {}, continueOnFail = false) {
	return runNode({
		nodeType: new Records(),
		parameters: { resource: 'record', operation: 'import', recordTypeId: 'ukoly', dataMode: 'json', jsonRecords, ...extra },
		credentials: sandbox.credentials(TOKENS.import),
		input,
		continueOnFail,
	});
}

const FIXED_LIST = '={{ [{ "Název": "Úkol A", "Zadal": "Jana Nováková" }, { "Název": "Úkol B", "Zadal": "Jana Nováková" }] }}';

describe('Evaluate JSON: For Each Input Item', () => {
	it('the same list for each of 2 items: stops before sending, nothing stored twice, and says to choose "Once"', async () => {
		const result = await importJson(FIXED_LIST, [{ run: 1 }, { run: 2 }]);

		expect(storedKeys()).toEqual([]);
		expect(sandbox.state.stats.importLog).toHaveLength(0);
		expect(result.error?.message).toContain('gave the same 2 records for each of the 2 input items');
		expect(result.error?.description).toContain('"Evaluate JSON" to "Once"');
	});

	it('the same list, with On Error: Continue: still nothing sent', async () => {
		await importJson(FIXED_LIST, [{ run: 1 }, { run: 2 }, { run: 3 }], {}, true);
		expect(sandbox.state.stats.importLog).toHaveLength(0);
	});

	it('with "Once" the same list is imported once', async () => {
		const result = await importJson(FIXED_LIST, [{ run: 1 }, { run: 2 }], { jsonEvaluation: 'once' });

		expect(result.error).toBeUndefined();
		expect(storedKeys().sort()).toEqual(['Úkol A', 'Úkol B']);
	});

	it('items that each give their own list import each list once', async () => {
		const result = await importJson('={{ $json.tasks }}', [
			{ tasks: [{ Název: 'Úkol A' }, { Název: 'Úkol B' }] },
			{ tasks: [{ Název: 'Úkol C' }, { Název: 'Úkol D' }] },
		]);

		expect(result.error).toBeUndefined();
		expect(storedKeys().sort()).toEqual(['Úkol A', 'Úkol B', 'Úkol C', 'Úkol D']);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 1 }, { item: 1 }]);
	});

	it('one record per item, the same for both (two identical payments, say): imported per item, as asked', async () => {
		const result = await importJson('={{ { "Název": $json.note, "Zadal": "Jana Nováková" } }}', [{ note: 'Platba' }, { note: 'Platba' }]);

		expect(result.error).toBeUndefined();
		expect(sandbox.state.stats.importLog[0].sent).toHaveLength(2);
	});
});
