/**
 * The error of an ordered mode whose remembered rows are no longer where they must be, and the way
 * out it offers. Pure module.
 *
 * With bounded memory (the 64 rows at one end) the trigger cannot tell new rows from old after such
 * a change, so it stops, every poll, until the user chooses. The way out loses nothing the trigger
 * could still tell: with Full Check Every (or Anywhere) the next poll reads the whole report and
 * applies the remembered check to it; where it still fails, it takes the report as it is then (its
 * rows count as emitted) and emits every row added after that poll. A report too large to read in the
 * time n8n gives one poll is taken as it is at the chosen end (its rows there, found as a first run
 * finds them), and the full read is tried again every Full Check Every polls. Rows added between the last
 * successful poll and that poll cannot be told from old rows: the error says so, and where to look.
 */
export function wayOut(report: string, position: 'end' | 'top', reason: string): { message: string; description: string } {
	const mode = position === 'end' ? 'Appended at the End' : 'At the Top';
	const other = position === 'end' ? 'At the Top' : 'Appended at the End';
	const end = position === 'end' ? 'end' : 'top';
	return {
		message: `Report "${report}" changed in a way New Rows Appear "${mode}" does not allow: ${reason}`,
		description: [
			'In this mode the trigger remembers only the rows next to where new rows appear, so after this change it cannot tell which rows are new. Nothing was emitted or remembered, and every poll stops here until you choose.',
			`To go on, set Full Check Every in the options (e.g. 100): the next poll reads the whole report and, as the rows remembered last still cannot be found, takes it as it is (a report too large to read in the time n8n gives one poll, as it is at its ${end}). Its rows then count as emitted, so rows added since the last successful poll are not emitted (they cannot be told from old rows: look for them in the report); every row added after that poll is emitted. From then on the trigger remembers every row (once a full read fits in a poll) and answers a change like this with a full read instead of this error.`,
			`New Rows Appear "Anywhere" does the same where the whole report can be read in one poll, and reads it on every poll. If the report is sorted the other way, choose "${other}".`,
		].join(' '),
	};
}
