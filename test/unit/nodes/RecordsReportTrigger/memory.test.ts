import { IDENTITY_LENGTH } from '../../../../nodes/shared/report/rows';
import { readMemory } from '../../../../nodes/RecordsReportTrigger/memory';

describe('stored memory', () => {
	it('reads only memory of its own format, and nothing that is not', () => {
		const rows = 'a'.repeat(IDENTITY_LENGTH) + 'b'.repeat(IDENTITY_LENGTH);
		const memory = { version: 1, report: 'bank', identity: 'hash', columns: ['c1'], position: 'anywhere', lineage: 'p.1', since: 1, generation: 4, count: 2, rows, polls: 0 };
		expect(readMemory(memory)).toEqual(memory);
		expect(readMemory({ ...memory, rows: 'short' })).toBeUndefined();
		expect(readMemory({ ...memory, version: 2 })).toBeUndefined();
		// A memory without its line (an older format): not this trigger's to go on from.
		expect(readMemory({ ...memory, lineage: undefined })).toBeUndefined();
		expect(readMemory(undefined)).toBeUndefined();
		expect(readMemory('text')).toBeUndefined();
	});
});
