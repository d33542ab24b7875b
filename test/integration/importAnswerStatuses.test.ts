/**
 * Record → Import against answers whose HTTP status matters (issue 47): 202, 207, 303 and 422 from
 * the sandbox (its `answerShape` faults), through n8n's execution engine. Each item's outcome is
 * checked against what the sandbox stored: "imported" only on evidence, never "refused" where the
 * service stored the record, and no run says "No records were imported" when some were.
 */
import type { IDataObject } from 'n8n-workflow';

import { Records } from '../../nodes/Records/Records.node';
import { runNode, type RunNodeResult } from '../../tooling/harness/n8nCoreHarness';
import { addFaults } from '../../tooling/sandbox/control';
import { TOKENS } from '../../tooling/sandbox/server';
import { useSandbox } from './fixture';

const sandbox = useSandbox({ bankRows: 10 });

/** Three tasks, the second refused by the service; the answer in `shape`. */
async function importThree(shape: string, continueOnFail = true): Promise<RunNodeResult> {
	await addFaults(sandbox, { route: 'import', answerShape: shape, refuseRecords: [1], times: 1 });
	return await runNode({
		nodeType: new Records(),
		parameters: { resource: 'record', operation: 'import', recordTypeId: 'ukoly', options: { retryAttempts: 0 } as IDataObject as Record<string, never> },
		credentials: sandbox.credentials(TOKENS.import),
		input: ['Úkol A', 'Úkol B', 'Úkol C'].map((name) => ({ Název: name, Zadal: 'Jana Nováková' })),
		continueOnFail,
	});
}

const outcomes = (result: RunNodeResult) => result.items.map((item) => item.json.outcome);
const storedOnce = () => sandbox.state.stats.importLog.filter((entry) => entry.processed).flatMap((entry) => entry.keys);

describe('HTTP statuses of an import answer', () => {
	it('207 with numeric statuses per record: the 422 record is refused, the 201 ones imported', async () => {
		const result = await importThree('numericStatuses');
		expect(outcomes(result)).toEqual(['imported', 'refused', 'imported']);
		expect(storedOnce()).toEqual(['Úkol A', 'Úkol C']);
	});

	it('202 Accepted with a queued job: no record is called imported, and the item says why', async () => {
		const result = await importThree('queued');
		expect(outcomes(result)).toEqual(['unknown', 'unknown', 'unknown']);
		expect(String(result.items[0].json.error)).toContain('202 Accepted');
	});

	it('303 See Other after the POST: not refused, the service processed it', async () => {
		const result = await importThree('seeOther');
		expect(outcomes(result)).toEqual(['unknown', 'unknown', 'unknown']);
		expect(storedOnce()).toEqual(['Úkol A', 'Úkol C']);
	});

	it('303 See Other without On Error: Continue does not say "No records were imported"', async () => {
		const result = await importThree('seeOther', false);
		expect(result.error?.description).not.toContain('No records were imported');
		expect(result.error?.description).toContain('Outcome unknown: 3 records');
	});

	it('422 whose body says two records were imported: none of those is refused, and a re-run is not invited', async () => {
		const result = await importThree('unprocessable');
		const [first, second, third] = outcomes(result);
		expect({ first, third }).toEqual({ first: expect.not.stringMatching(/refused/), third: 'imported' });
		expect(second).not.toBe('imported');
		expect(result.items[2].json.httpCode).toBeUndefined();
		expect(result.items[1].json.httpCode).toBe('422');
	});

	it('422 whose body says records were imported, without On Error: Continue, does not say "No records were imported"', async () => {
		const result = await importThree('unprocessable', false);
		expect(result.error?.description).not.toContain('No records were imported');
		expect(result.error?.description).toContain('Already imported: 1 record');
	});

	it('results sorted failures first, naming records under "key": each outcome is its own record\'s', async () => {
		const result = await importThree('sortedByKey');
		expect(outcomes(result)).toEqual(['imported', 'refused', 'imported']);
	});

	it('a SCIM-style bulk answer with "400" as text: that record is refused', async () => {
		const result = await importThree('scimBulk');
		expect(outcomes(result)).toEqual(['imported', 'refused', 'imported']);
	});

	it('compound failure words per record: that record is not imported', async () => {
		const result = await importThree('compoundStatuses');
		expect(outcomes(result)).toEqual(['imported', 'refused', 'imported']);
	});

	it('a list of imported records that leaves one out: none called imported without being named', async () => {
		const result = await importThree('importedList');
		expect(outcomes(result)).not.toContain('imported');
		expect(outcomes(result)).not.toContain('refused');
	});
});

describe('a batch refused in a compound status word', () => {
	it.each(['importFailed', 'validationError'])('%s: every record refused, nothing stored', async (shape) => {
		await addFaults(sandbox, { route: 'import', refuseBatch: shape, times: 1 });
		const result = await runNode({
			nodeType: new Records(),
			parameters: { resource: 'record', operation: 'import', recordTypeId: 'ukoly' },
			credentials: sandbox.credentials(TOKENS.import),
			input: [{ Název: 'Úkol A' }, { Název: 'Úkol B' }],
			continueOnFail: true,
		});
		expect(outcomes(result)).toEqual(['refused', 'refused']);
		expect(storedOnce()).toEqual([]);
	});
});

describe('an item that fails its check, with On Error: Continue', () => {
	it('carries an outcome too: notSent', async () => {
		const result = await runNode({
			nodeType: new Records(),
			parameters: { resource: 'record', operation: 'import', recordTypeId: 'ukoly' },
			credentials: sandbox.credentials(TOKENS.import),
			input: [{ Název: 'Úkol A' }, { Název: { nested: true } }],
			continueOnFail: true,
		});
		expect(outcomes(result)).toEqual(['imported', 'notSent']);
	});
});
