import { isIdentities, joinIdentities, splitIdentities } from '../../../../nodes/RecordsReportTrigger/identityText';

describe('identities stored as one string', () => {
	it('round-trips through the stored string, and knows what is not one', () => {
		const ids = ['aaaaaaaaaaaa', 'bbbbbbbbbbbb'];
		expect(splitIdentities(joinIdentities(ids))).toEqual(ids);
		expect(splitIdentities('')).toEqual([]);
		expect([isIdentities(joinIdentities(ids)), isIdentities('short'), isIdentities(12)]).toEqual([true, false, false]);
	});
});
