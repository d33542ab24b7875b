import { claimPoll, releasePoll, triggerKey } from '../../nodes/RecordsReportTrigger/pollClaims';

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
