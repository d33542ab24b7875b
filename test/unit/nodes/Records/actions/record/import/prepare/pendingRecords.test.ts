import { PendingRecords } from '../../../../../../../../nodes/Records/actions/record/import/prepare/pendingRecords';
import type { ImportSettings } from '../../../../../../../../nodes/Records/actions/record/import/settings';
import { DEFAULT_VALUE_PREPARATION } from '../../../../../../../../nodes/Records/actions/record/import/prepare/values';

function settings(normalizeTextValues = true): ImportSettings {
	return {
		dataMode: 'autoMapInputData',
		batchSize: 100,
		concurrency: 1,
		retryAttempts: 0,
		retryUnknownOutcome: false,
		timeoutMs: 60_000,
		includeResponse: false,
		retryOnFail: false,
		values: DEFAULT_VALUE_PREPARATION,
		normalizeTextValues,
	};
}

/** "Žluťoučký" typed with combining marks (as on a Mac), and in NFC. */
const DECOMPOSED = 'Z\u030Clut\u030Couc\u030Cky\u0301';
const COMPOSED = DECOMPOSED.normalize('NFC');

describe('PendingRecords', () => {
	it('keeps each record with its item and record type, and converts its values only when asked for', () => {
		const records = new PendingRecords(settings());
		const typed = { Částka: 12.5, Zaplaceno: true };
		const text = { Název: 'Faktura 1' };
		records.add(3, 'faktury-prijate', typed, false);
		records.add(4, 'partneri', text, true);

		expect(records.length).toBe(2);
		expect(records.origin(0)).toMatchObject({ itemIndex: 3, recordTypeId: 'faktury-prijate' });
		expect(records.origin(1)).toMatchObject({ itemIndex: 4, recordTypeId: 'partneri' });
		expect(records.recordTypeIds()).toEqual(['faktury-prijate', 'partneri']);
		expect(records.prepared(0)).toEqual({ Částka: '12,5', Zaplaceno: 'true' });
		// Asked again, the same prepared record: the values are converted once.
		expect(records.prepared(0)).toBe(records.prepared(0));
		// A record sent as given is the input's own object, not a copy.
		expect(records.sendable(1)).toBe(text);
	});

	it('sends text in NFC, in the JSON of a batch and in the record it outputs', () => {
		const records = new PendingRecords(settings());
		records.add(0, 'partneri', { Název: DECOMPOSED }, true);
		records.add(1, 'partneri', { Název: 'Faktura 2' }, true);

		expect(records.sendableJson([0, 1])).toBe(JSON.stringify([{ Název: COMPOSED }, { Název: 'Faktura 2' }]));
		expect(records.sendable(0)).toEqual({ Název: COMPOSED });
	});

	it('sends text as given when "Normalize Text Values" is off', () => {
		const records = new PendingRecords(settings(false));
		records.add(0, 'partneri', { Název: DECOMPOSED }, true);

		expect(records.sendableJson([0])).toBe(JSON.stringify([{ Název: DECOMPOSED }]));
		expect(records.sendable(0).Název).toBe(DECOMPOSED);
	});

	it('drops the records of an item that turned out to be bad, and only those', () => {
		const records = new PendingRecords(settings());
		records.add(0, 'partneri', { Název: 'A' }, true);
		records.add(1, 'partneri', { Název: 'B' }, true);
		records.add(1, 'partneri', { Název: 'C' }, true);
		records.truncate(1);
		records.add(2, 'faktury-prijate', { Název: 'D' }, true);

		expect(records.length).toBe(2);
		expect(records.origin(1)).toMatchObject({ itemIndex: 2, recordTypeId: 'faktury-prijate' });
		expect(records.recordTypeIds()).toEqual(['partneri', 'faktury-prijate']);
		expect(records.sendableJson([0, 1])).toBe('[{"Název":"A"},{"Název":"D"}]');
	});
});
