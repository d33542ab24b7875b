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

	it("reads the rows a first run has still to emit where they are kept, and memories saved before them as they were", () => {
		const window = 'w'.repeat(IDENTITY_LENGTH);
		const older = { version: 1, report: 'bank', identity: 'hash', columns: ['c1'], position: 'top', lineage: 'p.1', since: 1, generation: 2, count: 900, window, polls: 0 };
		expect(readMemory(older)).toEqual(older);
		const backlog = { ...older, backlog: 700, backlogAfter: 'x'.repeat(IDENTITY_LENGTH) };
		expect(readMemory(backlog)).toEqual(backlog);
		expect(readMemory({ ...backlog, backlogAfter: undefined })).toBeUndefined();
		expect(readMemory({ ...backlog, backlog: 0 })).toBeUndefined();
		expect(readMemory({ ...backlog, backlog: 1.5 })).toBeUndefined();
	});
});
