/**
 * The checked records of an import, by position: the input item each came from, its record type,
 * and the record itself, as given until its batch's body is made, then as sent.
 *
 * Kept as columns, not as an object per record: one object fewer per record to allocate and trace
 * while the import runs. Measured against an object per record, the time was the same within the
 * runs' spread (bench/findings.md); the columns are kept as the simpler of the two.
 */
import type { ImportSettings } from '../settings';
import { type PreparedRecord, prepareRecord, recordsJsonInNfc } from './values';
import { normalizeRecordText } from './normalForm';

/**
 * How far a record is on its way to being sent: checked only (its values not yet converted),
 * prepared (converted; its text not yet in NFC), or sendable (as it is sent).
 */
type Stage = 'checked' | 'prepared' | 'sendable';

export class PendingRecords {
	readonly itemIndexes: number[] = [];
	readonly recordTypeIds: string[] = [];
	/** The record as the input gave it until it is prepared, then as prepared, then as sent. */
	private readonly current: unknown[] = [];
	private readonly stages: Stage[] = [];

	constructor(readonly settings: ImportSettings) {}

	get length(): number {
		return this.current.length;
	}

	/** Adds a checked record; `asGiven`: its values are sent as they are, or it is prepared already. */
	add(itemIndex: number, recordTypeId: string, record: unknown, asGiven: boolean): void {
		this.itemIndexes.push(itemIndex);
		this.recordTypeIds.push(recordTypeId);
		this.current.push(record);
		this.stages.push(asGiven ? this.preparedStage() : 'checked');
	}

	/** Drops the records from `length` on (those of an item that turned out to be bad). */
	truncate(length: number): void {
		this.itemIndexes.length = length;
		this.recordTypeIds.length = length;
		this.current.length = length;
		this.stages.length = length;
	}

	/**
	 * The record at `position` as prepared for sending (before its text is brought to NFC): its
	 * values are converted when first asked for, as its batch's body is made, or for a failure's
	 * message or the output item of a record never sent.
	 */
	prepared(position: number): PreparedRecord {
		if (this.stages[position] === 'checked') {
			this.current[position] = prepareRecord(this.current[position], this.settings.values);
			this.stages[position] = this.preparedStage();
		}
		return this.current[position] as PreparedRecord;
	}

	/** The record at `position` as it is sent and output: prepared, its text brought to NFC. */
	sendable(position: number): PreparedRecord {
		const record = this.prepared(position);
		if (this.stages[position] === 'sendable') return record;
		return this.setSendable(position, normalizeRecordText(record));
	}

	/** The JSON array of the records at these positions, as they are sent. */
	sendableJson(positions: readonly number[]): string {
		const prepared = positions.map((position) => this.prepared(position));
		if (positions.every((position) => this.stages[position] === 'sendable')) return JSON.stringify(prepared);
		const { json, records } = recordsJsonInNfc(prepared);
		positions.forEach((position, index) => this.setSendable(position, records[index]));
		return json;
	}

	private setSendable(position: number, record: PreparedRecord): PreparedRecord {
		this.current[position] = record;
		this.stages[position] = 'sendable';
		return record;
	}

	/** The stage of a record that needs no conversion: sendable at once unless its text is brought to NFC. */
	private preparedStage(): Stage {
		return this.settings.normalizeTextValues ? 'prepared' : 'sendable';
	}
}
