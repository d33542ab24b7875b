/**
 * Emit All Current Rows in an ordered mode, on a report too large to read in the time n8n gives one
 * poll: the first run emits the rows it read in time, in report order, and the next polls go on from
 * there until every row was emitted once; then the mode goes on. Pure module: a read step and
 * findings of the change detector (see detection.ts).
 *
 * - Appended at the End: the rows read are taken as the report so far. The next polls' check at the
 *   end (orderedChecks.ts) emits the rows after them: the rest of the report and rows appended
 *   meanwhile alike, and goes on from where its own time runs out. Nothing more is remembered.
 * - At the Top: rows added later appear above the rows read, so the first run reads the report's
 *   edges first (firstRunEdges.ts: the row count, the top rows, the last row), then the rows from the
 *   top. The rows it could not read in time are the last rows of the report, and stay the last rows
 *   while rows are added at the top: the memory keeps how many they are and the row right above them
 *   (memory.ts, `backlog`). Each later poll, once it has read the rows added at the top, reads on from
 *   that row (TopBacklog) and emits what it reads after them.
 */
import type { ReportRow } from '../shared/report/rows';
import type { Backlog, Finding, ReadRange, Step } from './detection';
import type { IdentityList } from './identities';
import type { Memory } from './memory';
import { RangeRows } from './orderedChecks';

type Edges = Extract<Finding, { kind: 'edges' }>;

/**
 * At the Top, a first run's read from the top cut short after its edges were read: the edges, with
 * the rows read to emit now and those left. Undefined when the top rows no longer stand where the
 * edges found them (rows were added at the top between the two reads), or no row was read.
 */
export function topSoFar(edges: Edges, read: { bases: IdentityList; newRows: ReportRow[] }): Edges | undefined {
	const { bases } = read;
	const rows = bases.length;
	if (rows === 0 || rows > edges.count) return undefined;
	for (let row = 0; row < Math.min(rows, edges.window.length); row++) if (bases.text(row) !== edges.window[row]) return undefined;
	return { ...edges, backlog: { rows: read.newRows, left: edges.count - rows, after: bases.text(rows - 1) } };
}

/**
 * At the Top, after the check found the rows added at the top (`added`): the rows the first run has
 * still to emit, from the row right above them, which must be the one remembered.
 */
export class TopBacklog implements Step {
	readonly range: ReadRange;
	private readonly read = new RangeRows();

	constructor(
		private readonly memory: Memory,
		private readonly added: ReportRow[],
	) {
		const left = memory.backlog ?? 0;
		this.range = { start: memory.count + added.length - left - 1, maxRows: left + 1 };
	}

	take(rows: readonly ReportRow[], ids: readonly string[]): undefined {
		this.read.add(rows, ids);
		return undefined;
	}

	end(): Finding {
		const finding = this.cutShort();
		if (finding === undefined) {
			return { kind: 'failed', reason: 'the row above those the first run has still to emit is no longer where it stood (rows were deleted, inserted, edited or re-sorted)' };
		}
		if (finding.backlog.left > 0) return { kind: 'failed', reason: 'the report has fewer rows than remembered (rows were deleted)' };
		return finding;
	}

	/** The poll's time is up: the rows read so far, if the range began with the row remembered above them. */
	cutShort(): { kind: 'past'; added: ReportRow[]; backlog: Backlog } | undefined {
		const { rows, bases } = this.read;
		if (bases.length === 0 || bases[0] !== this.memory.backlogAfter) return undefined;
		const emitted = rows.slice(1);
		return { kind: 'past', added: this.added, backlog: { rows: emitted, left: (this.memory.backlog ?? 0) - emitted.length, after: bases[bases.length - 1] } };
	}
}
