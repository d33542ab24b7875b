import { checkMemory, claimPoll, recordMemory, releasePoll, triggerKey } from '../../../../nodes/RecordsReportTrigger/pollClaims';

describe('pollClaims: one poll at a time per trigger', () => {
	const key = triggerKey('wf1', 'node-a');
	afterEach(() => releasePoll(key));

	it('refuses a second claim of the same trigger while the first runs, and says since when it runs', () => {
		expect(claimPoll(key, 1_000)).toEqual({ claimed: true });
		expect(claimPoll(key, 16_000)).toEqual({ claimed: false, runningSince: 1_000 });
	});

	it('claims again once the running poll released', () => {
		claimPoll(key, 1_000);
		releasePoll(key);
		expect(claimPoll(key, 2_000)).toEqual({ claimed: true });
	});

	it('keeps the triggers of other nodes and other workflows apart', () => {
		claimPoll(key, 1_000);
		expect(claimPoll(triggerKey('wf1', 'node-b'), 1_000)).toEqual({ claimed: true });
		expect(claimPoll(triggerKey('wf2', 'node-a'), 1_000)).toEqual({ claimed: true });
		releasePoll(triggerKey('wf1', 'node-b'));
		releasePoll(triggerKey('wf2', 'node-a'));
	});

	it('does not mistake a workflow id that ends like a node id for another trigger', () => {
		claimPoll(triggerKey('wf', '1node'), 1_000);
		expect(claimPoll(triggerKey('wf1', 'node'), 1_000)).toEqual({ claimed: true });
		releasePoll(triggerKey('wf', '1node'));
		releasePoll(triggerKey('wf1', 'node'));
	});
});

describe('pollClaims: memory older than the last poll of this process saved', () => {
	it('lets a poll go on from the generation the last poll saved, or a later one', () => {
		const key = triggerKey('wf-g1', 'node');
		expect(checkMemory(key, 0)).toBe('current');
		recordMemory(key, 4);
		expect(checkMemory(key, 4)).toBe('current');
		expect(checkMemory(key, 5)).toBe('current');
	});

	it('refuses a poll from an older copy once, then takes the saved memory as the truth', () => {
		const key = triggerKey('wf-g2', 'node');
		recordMemory(key, 4);
		expect(checkMemory(key, 3)).toBe('stale');
		expect(checkMemory(key, 3)).toBe('unsaved');
		expect(checkMemory(key, 3)).toBe('current');
	});

	it('refuses again after a later save', () => {
		const key = triggerKey('wf-g3', 'node');
		recordMemory(key, 2);
		expect(checkMemory(key, 1)).toBe('stale');
		recordMemory(key, 3);
		expect(checkMemory(key, 2)).toBe('stale');
	});
});
