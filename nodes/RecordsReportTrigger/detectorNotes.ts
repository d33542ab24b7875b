/**
 * What the change detector (changeDetector.ts) tells n8n's log about a poll that read in full, took
 * the report as it is, or skipped its full read. Pure module: words only.
 */

/** The log's words for a poll that took the report as it is (see wayOut.ts). */
export function acceptance(reason: string, rows: number): string {
	return `New Rows Appear or Full Check Every changed, and the rows remembered before cannot be found where they must be (${reason}); this poll takes the report as it is: its ${rows} rows count as emitted (rows added since the last poll that read it cannot be told from old rows among them and were not emitted); every row added from now on is emitted`;
}

/** The log's words for a full check that was made: whether the ordered polls missed rows. */
export function fullCheckNote(missed: number): string {
	return missed === 0
		? 'full check: every row of the report was emitted before; the ordered polls missed nothing'
		: `full check: ${missed} rows had not been emitted (rows added elsewhere than New Rows Appear says); they are emitted now`;
}

export interface Skipped {
	/** What the poll decided on instead: the rows past the remembered ones, or the report's edges. */
	kind: string;
	/** Whether a memory was there (edges then mean the report is taken as it is at its end). */
	remembered: boolean;
	/** Why the poll read in full. */
	why: string | undefined;
	budgetSeconds: number;
	fullCheckEvery: number;
	end: 'top' | 'end';
}

/** The log's words for a full read that did not fit the poll's time, and what the poll did instead. */
export function skippedNote({ kind, remembered, why, budgetSeconds, fullCheckEvery, end }: Skipped): string {
	const time = `the whole report could not be read in the time n8n gives one poll (${budgetSeconds} s)`;
	const again = fullCheckEvery > 0 ? `; a full read is tried again in ${fullCheckEvery} polls` : '';
	if (kind === 'edges' && remembered) {
		return `new rows cannot be told from old ones without a full read (${why ?? 'the remembered rows cannot be checked'}), and ${time}. This poll takes the report as it is at the ${end}: its rows count as emitted (rows added since the last poll that read it cannot be told from old rows and were not emitted; look for them in the report); every row added from now on is emitted${again}`;
	}
	const what = kind === 'past' ? `the rows past those remembered at the ${end} are emitted, as New Rows Appear says` : `the rows at the ${end} are remembered`;
	return `the full check was skipped: ${time}; ${what}${again}`;
}
