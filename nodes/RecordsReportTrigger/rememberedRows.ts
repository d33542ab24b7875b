/**
 * The per-row memory of the Records Report Trigger: the identity of every row it has emitted or
 * remembered, the rows gone from the report first (oldest first), then the report's rows in report
 * order. Pure module. Only this module knows how it is stored (today: one string of 12-character
 * identities, 12 bytes a row), so that a more compact form changes nothing around it.
 */
import { isIdentities, joinIdentities, splitIdentities } from './identityText';

export class RememberedRows {
	private set: ReadonlySet<string> | undefined;

	private constructor(private readonly list: readonly string[]) {}

	/** From the stored form; none when nothing is stored. */
	static stored(stored: string | undefined): RememberedRows {
		return new RememberedRows(splitIdentities(stored));
	}

	static of(identities: readonly string[]): RememberedRows {
		return new RememberedRows(identities);
	}

	/** Whether a stored value is of this form. */
	static isStored(value: unknown): value is string {
		return isIdentities(value);
	}

	/** The stored form. */
	encode(): string {
		return joinIdentities(this.list);
	}

	get size(): number {
		return this.list.length;
	}

	has(identity: string): boolean {
		this.set ??= new Set(this.list);
		return this.set.has(identity);
	}

	/** The identities of the report's rows at the last read: the last `count` remembered. */
	reportPart(count: number): ReadonlySet<string> {
		return new Set(this.list.slice(Math.max(0, this.list.length - count)));
	}

	/**
	 * After a full read that met `current` (every row's identity, in report order): those remembered
	 * but no longer in the report (oldest first), then the report's rows; cut from the front to `max`.
	 */
	afterRead(current: readonly string[], max: number): RememberedRows {
		const inReport = new Set(current);
		const gone = this.list.filter((identity) => !inReport.has(identity));
		const all = gone.length === 0 ? [...current] : gone.concat(current);
		return new RememberedRows(all.length > max ? all.slice(all.length - max) : all);
	}

	/**
	 * After an ordered poll found the rows `added` (their identities) past its boundary, at the end or
	 * the top of the report's `reportRows` rows: the report's part grows there; cut to `max`.
	 */
	afterAdded(reportRows: number, added: readonly string[], at: 'end' | 'top', max: number): RememberedRows {
		if (added.length === 0) return this;
		const back = new Set(added);
		const split = Math.max(0, this.list.length - reportRows);
		const gone = this.list.slice(0, split).filter((identity) => !back.has(identity));
		const report = this.list.slice(split);
		const all = at === 'end' ? gone.concat(report, added) : gone.concat(added, report);
		return new RememberedRows(all.length > max ? all.slice(all.length - max) : all);
	}
}
