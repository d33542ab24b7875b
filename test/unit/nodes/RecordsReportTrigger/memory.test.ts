import { IDENTITY_LENGTH } from '../../../../nodes/shared/report/rows';
import {
	readMemory,
	rememberAdded as withAddedRows,
	rememberAfterRead as nextRemembered,
	splitIdentities,
} from '../../../../nodes/RecordsReportTrigger/memory';

describe('remembered identities', () => {
	it('keeps rows gone from the report before the current rows, and cuts the oldest first', () => {
		expect(nextRemembered(['a', 'b', 'c'], ['c', 'd'], 10)).toEqual(['a', 'b', 'c', 'd']);
		expect(nextRemembered(['a', 'b', 'c'], ['c', 'd'], 3)).toEqual(['b', 'c', 'd']);
		expect(nextRemembered(['a', 'b', 'c'], ['c', 'd'], 2)).toEqual(['c', 'd']);
		// A row seen again moves behind the rows that left the report.
		expect(nextRemembered(['x', 'y'], ['x', 'z'], 3)).toEqual(['y', 'x', 'z']);
	});

	it('round-trips through the stored string', () => {
		const ids = ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'];
		expect(splitIdentities(ids.join(''))).toEqual(ids);
		expect(splitIdentities('')).toEqual([]);
	});

	it('reads only memory of its own format, and nothing that is not', () => {
		const rows = 'a'.repeat(IDENTITY_LENGTH) + 'b'.repeat(IDENTITY_LENGTH);
		const memory = { version: 1, report: 'bank', identity: 'hash', columns: ['c1'], position: 'anywhere', generation: 4, count: 2, rows, polls: 0 };
		expect(readMemory(memory)).toEqual(memory);
		expect(readMemory({ ...memory, rows: 'short' })).toBeUndefined();
		expect(readMemory({ ...memory, version: 2 })).toBeUndefined();
		expect(readMemory(undefined)).toBeUndefined();
		expect(readMemory('text')).toBeUndefined();
	});
});

describe('remembered identities after an ordered poll', () => {
	it('puts the added rows at the end or the top of the report part; a returning row leaves the gone part', () => {
		// 'g' left the report earlier; the report is [a, b].
		expect(withAddedRows(['g', 'a', 'b'], 2, ['c'], 'end', 10)).toEqual(['g', 'a', 'b', 'c']);
		expect(withAddedRows(['g', 'a', 'b'], 2, ['c'], 'top', 10)).toEqual(['g', 'c', 'a', 'b']);
		expect(withAddedRows(['g', 'a', 'b'], 2, ['g'], 'end', 10)).toEqual(['a', 'b', 'g']);
		expect(withAddedRows(['g', 'a', 'b'], 2, ['c'], 'end', 3)).toEqual(['a', 'b', 'c']);
	});
});
