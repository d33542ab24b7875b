import { type MemoryMark, PollGuard } from '../../../../nodes/RecordsReportTrigger/pollGuard';

const KEY = 'workflow\u0000node';
const mark = (lineage: string, since: number, generation: number, writer = 'me'): MemoryMark => ({ lineage, since, generation, writer });

/** A guard whose last emitting poll of the node named `name` saved `saved`. */
function guardThatSaved(saved: MemoryMark, name = 'Trigger'): PollGuard {
	const guard = new PollGuard('me');
	expect(guard.begin(KEY, 0, name, undefined).kind).toBe('go');
	guard.end(KEY, { ...saved, name });
	return guard;
}

describe('the poll guard of one n8n process', () => {
	it('lets one poll of a trigger run at a time', () => {
		const guard = new PollGuard('me');
		expect(guard.begin(KEY, 5, 'Trigger', undefined)).toEqual({ kind: 'go' });
		expect(guard.begin(KEY, 6, 'Trigger', undefined)).toEqual({ kind: 'busy', runningSince: 5 });
		guard.end(KEY);
		expect(guard.begin(KEY, 7, 'Trigger', undefined).kind).toBe('go');
	});

	it('refuses a memory older than it saved, every time, counting the refusals in a row', () => {
		const guard = guardThatSaved(mark('L1', 1, 3));
		const stale = guard.begin(KEY, 1, 'Trigger', mark('L1', 1, 2));
		expect(stale).toMatchObject({ kind: 'stale', refusals: 1 });
		expect(guard.begin(KEY, 2, 'Trigger', mark('L1', 1, 2))).toMatchObject({ kind: 'stale', refusals: 2 });
		expect(guard.begin(KEY, 3, 'Trigger', mark('L1', 1, 3))).toEqual({ kind: 'go' });
		guard.end(KEY);
		expect(guard.begin(KEY, 4, 'Trigger', mark('L1', 1, 2))).toMatchObject({ kind: 'stale', refusals: 1 });
	});

	it('refuses no memory where it saved one, and a memory of an older line there', () => {
		const guard = guardThatSaved(mark('L2', 20, 1));
		expect(guard.begin(KEY, 1, 'Trigger', undefined).kind).toBe('stale');
		expect(guard.begin(KEY, 2, 'Trigger', mark('L1', 10, 9)).kind).toBe('stale');
	});

	it('lets a trigger that started over go on: a new line begun by this process', () => {
		const guard = guardThatSaved(mark('L1', 10, 5));
		expect(guard.begin(KEY, 1, 'Trigger', mark('L2', 20, 1))).toEqual({ kind: 'go' });
	});

	it('lets a renamed node start over (no memory under its new name), and not go on from an older memory left under a former name', () => {
		const guard = guardThatSaved(mark('L1', 10, 5));
		expect(guard.begin(KEY, 1, 'Renamed', undefined)).toEqual({ kind: 'go', renamedFrom: 'Trigger' });
		guard.end(KEY, { ...mark('L2', 20, 2), name: 'Renamed' });
		const back = guard.begin(KEY, 2, 'Trigger', mark('L1', 10, 5));
		expect(back).toMatchObject({ kind: 'go', forget: expect.stringContaining('renamed back') });
	});

	it('stops emitting where another process saved a newer memory', () => {
		const guard = guardThatSaved(mark('L1', 10, 5));
		expect(guard.begin(KEY, 1, 'Trigger', mark('L1', 10, 6, 'other'))).toEqual({ kind: 'otherWriter', writer: 'other' });
		expect(guard.begin(KEY, 2, 'Trigger', mark('L9', 30, 1, 'other'))).toEqual({ kind: 'otherWriter', writer: 'other' });
		expect(guard.begin(KEY, 3, 'Trigger', mark('L1', 10, 6, 'me'))).toEqual({ kind: 'go' });
	});
});
