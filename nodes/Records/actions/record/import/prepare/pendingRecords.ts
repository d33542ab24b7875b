/**
 * The checked records of an import, by position: each with the input item it came from, its record
 * type, and the record itself, as given until its batch's body is made, then as sent.
 */
import type { ImportSettings } from '../settings';
import { type PreparedRecord, prepareRecord, recordsJsonInNfc } from './values';
import { normalizeRecordText } from './normalForm';

/**
 * How far a record is on its way to being sent: checked only (its values not yet converted),
 * prepared (converted; its text not yet in NFC), or sendable (as it is sent).
 */
type Stage = 'checked' | 'prepared' | 'sendable';

/** Where a checked record came from. */
export interface RecordOrigin {
	readonly itemIndex: number;
	readonly recordTypeId: string;
}

interface PendingRecord extends RecordOrigin {
	/** The record as the input gave it until it is prepared, then as prepared, then as sent. */
	record: unknown;
	stage: Stage;
}

export class PendingRecords {
	private readonly list: PendingRecord[] = [];

	constructor(readonly settings: ImportSettings) {}

	get length(): number {
		return this.list.length;
	}

	/** The input item and record type of the record at `position`. */
	origin(position: number): RecordOrigin {
		return this.list[position];
	}

	/** The record type of every record, by position. */
	recordTypeIds(): string[] {
		return this.list.map((pending) => pending.recordTypeId);
	}

	/** Adds a checked record; `asGiven`: its values are sent as they are, or it is prepared already. */
	add(itemIndex: number, recordTypeId: string, record: unknown, asGiven: boolean): void {
		this.list.push({ itemIndex, recordTypeId, record, stage: asGiven ? this.preparedStage() : 'checked' });
	}

	/** Drops the records from `length` on (those of an item that turned out to be bad). */
	truncate(length: number): void {
		this.list.length = length;
	}

	/**
	 * The record at `position` as prepared for sending (before its text is brought to NFC): its
	 * values are converted when first asked for, as its batch's body is made, or for a failure's
	 * message or the output item of a record never sent.
	 */
	prepared(position: number): PreparedRecord {
		const pending = this.list[position];
		if (pending.stage === 'checked') {
			pending.record = prepareRecord(pending.record, this.settings.values);
			pending.stage = this.preparedStage();
		}
		return pending.record as PreparedRecord;
	}

	/** The record at `position` as it is sent and output: prepared, its text brought to NFC. */
	sendable(position: number): PreparedRecord {
		const record = this.prepared(position);
		if (this.list[position].stage === 'sendable') return record;
		return this.setSendable(position, normalizeRecordText(record));
	}

	/** The JSON array of the records at these positions, as they are sent. */
	sendableJson(positions: readonly number[]): string {
		const prepared = positions.map((position) => this.prepared(position));
		if (positions.every((position) => this.list[position].stage === 'sendable')) return JSON.stringify(prepared);
		const { json, records } = recordsJsonInNfc(prepared);
		positions.forEach((position, index) => this.setSendable(position, records[index]));
		return json;
	}

	private setSendable(position: number, record: PreparedRecord): PreparedRecord {
		const pending = this.list[position];
		pending.record = record;
		pending.stage = 'sendable';
		return record;
	}

	/** The stage of a record that needs no conversion: sendable at once unless its text is brought to NFC. */
	private preparedStage(): Stage {
		return this.settings.normalizeTextValues ? 'prepared' : 'sendable';
	}
}
