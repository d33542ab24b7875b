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

	it('reads the memory of version 1 (every identity, the report\'s rows at the end) as per-row memory', () => {
		const identities = 'a'.repeat(IDENTITY_LENGTH) + 'b'.repeat(IDENTITY_LENGTH);
		const legacy = { version: 1, config: JSON.stringify(['bank', 'columns', ['c1']]), identities, count: 2, generation: 4, reportRows: 1 };
		expect(readMemory(legacy)).toMatchObject({ version: 2, report: 'bank', identity: 'columns', columns: ['c1'], rows: identities, count: 1, generation: 4, position: 'anywhere' });
		// Saved before the ordered modes counted the report's rows: every identity stands as a row.
		expect(readMemory({ ...legacy, reportRows: undefined })?.count).toBe(2);
		expect(readMemory({ ...legacy, identities: 'short' })).toBeUndefined();
		expect(readMemory({ ...legacy, config: 'not json' })).toBeUndefined();
		expect(readMemory(undefined)).toBeUndefined();
		expect(readMemory({ version: 3 })).toBeUndefined();
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
