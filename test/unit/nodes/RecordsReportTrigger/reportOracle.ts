/**
 * The oracle of the Records Report Trigger's model tests: what a stretch of polls may and must emit,
 * judged by content (the cells rows are identified by: every cell for Whole Row, the key for Key
 * Columns), from what the test knows of the report's history. One Epoch is the polls of one memory:
 * from a first run to the end of the history, or to an edit after which the trigger starts over.
 *
 * - nothing repeated: no content is emitted more often than rows of it were added since the epoch's
 *   first poll (Whole Row in Anywhere: the most the report ever held less what the first poll took
 *   as there; by key: once per different row met with a new key; in the ordered modes, or where the
 *   report changed under a read, each row made once at most);
 * - nothing lost (`complete`): every row a quiet poll read is emitted by the end;
 * - Anywhere, a first run that only remembers and goes on over several polls (firstRunParts.ts): the
 *   rows it read count as there, so a row any of its polls saw may be taken as there (`readOn`); where
 *   the report changed while it went on, or the trigger was edited, a row that moved above the point
 *   it read on from is emitted once it is complete: each row is then emitted once at most;
 * - errors only where the contract names them (the caller says which are allowed).
 */
export class Epoch {
	/** Emitted rows by content. */
	readonly emitted = new Map<string, number>();
	/** Content counts: at the first poll (what it took as there), the most at any time since, the most a quiet poll read. */
	readonly base = new Map<string, number>();
	readonly most = new Map<string, number>();
	readonly mostRead = new Map<string, number>();
	/** By key: the different rows each key was seen with. */
	readonly keyRows = new Map<string, Set<string>>();
	readonly errors: Array<{ message: string; allowed: boolean }> = [];
	/** Whether the report changed under a poll's read, or an ordered mode polled in this epoch. */
	byPosition = false;
	/** Whether the first poll happened. */
	started = false;
	/** Counts a first run that went on over several polls may have taken as there (see above). */
	readonly maybeThere = new Map<string, number>();
	/** Whether such a first run is going on, and whether the report changed or the trigger was edited meanwhile. */
	partial = false;
	spread = false;

	/** `made`: how many rows of each content were ever made (shared by the epochs of one report). */
	constructor(
		readonly byKey: boolean,
		readonly made: Map<string, number>,
	) {}

	emit(contents: readonly string[]): void {
		for (const content of contents) this.emitted.set(content, (this.emitted.get(content) ?? 0) + 1);
	}

	/** The report's rows now: (content, identity cells) pairs. */
	saw(rows: ReadonlyArray<[string, string]>): void {
		raise(this.most, countOf(rows.map(([content]) => content)));
		for (const [content, cells] of rows) {
			const seen = this.keyRows.get(content) ?? new Set<string>();
			seen.add(cells);
			this.keyRows.set(content, seen);
		}
	}

	/** The first poll of the epoch took the contents `there` as there (only remembered them). */
	begin(there: Map<string, number> | undefined): void {
		this.started = true;
		if (there !== undefined) raise(this.base, there);
	}

	/** A later poll of a first run that only remembers, going on over several polls, saw `there`. */
	readOn(there: Map<string, number>): void {
		raise(this.maybeThere, there);
	}

	/**
	 * Throws where the epoch broke the contract: an error not allowed, a content emitted more often
	 * than rows of it were added, and with `complete` one emitted less often than a quiet poll read
	 * new rows of it.
	 */
	check(complete: boolean): void {
		for (const error of this.errors) {
			if (!error.allowed) throw new Error(`an error the contract does not name: ${error.message}`);
		}
		const contents = new Set([...this.emitted.keys(), ...this.most.keys()]);
		for (const content of contents) {
			const emitted = this.emitted.get(content) ?? 0;
			const taken = Math.max(this.base.get(content) ?? 0, this.maybeThere.get(content) ?? 0);
			const base = this.spread ? 0 : (this.base.get(content) ?? 0);
			const most = this.byPosition
				? (this.made.get(content) ?? 0) - base
				: this.byKey
					? base > 0
						? 0
						: (this.keyRows.get(content)?.size ?? 0)
					: Math.max(0, (this.most.get(content) ?? 0) - base);
			const read = this.mostRead.get(content) ?? 0;
			const least = this.errors.length > 0 || !complete ? 0 : this.byKey ? (read > 0 && taken === 0 ? 1 : 0) : Math.max(0, read - taken);
			if (emitted > most) throw new Error(`${content} emitted ${emitted} times, at most ${most} rows of it were added`);
			if (emitted < least) throw new Error(`${content} emitted ${emitted} times, but a poll read ${least} new rows of it`);
		}
	}
}

export function countOf(contents: readonly string[]): Map<string, number> {
	const counts = new Map<string, number>();
	for (const content of contents) counts.set(content, (counts.get(content) ?? 0) + 1);
	return counts;
}

export function raise(map: Map<string, number>, counts: Map<string, number>): void {
	for (const [content, count] of counts) map.set(content, Math.max(map.get(content) ?? 0, count));
}
