/**
 * The reading of an import's answer, row by row of the table in docs/import.md: what each shape
 * means for each of a batch's three records (I imported, R refused, ? unknown).
 */
import { readOutcomes } from '../../../../../../../../nodes/Records/actions/record/import/answer/outcomes';

const RECORDS = [
	{ Název: 'Úkol A', Zadal: 'Jana' },
	{ Název: 'Úkol B', Zadal: 'Petr' },
	{ Název: 'Úkol C', Zadal: 'Jana' },
];

const LETTER = { imported: 'I', refused: 'R', unknown: '?' } as const;
const letters = (body: unknown) =>
	readOutcomes(body, RECORDS)
		.verdicts.map((verdict) => LETTER[verdict.outcome])
		.join('');

describe('success for every record', () => {
	it.each([
		['no body', undefined],
		['an empty object', {}],
		['a status that is not a refusal', { status: 'ok' }],
		['success: true', { success: true, message: '3 records imported' }],
		['a count of all records', { imported: 3 }],
		['counts of created and edited records', { created: 2, edited: 1 }],
		['an empty errors list and a zero count', { errors: [], failed: 0, error: null }],
		['an unrelated object', { data: { ok: true } }],
		['results without refusals', { results: [{ index: 0, status: 'created' }] }],
		['results with unreadable numbers but no refusal', { results: [{ index: 7, status: 'created' }] }],
		['true', true],
		['a message without a word of failure', { message: '3 records imported' }],
		['a message with a word of failure beside a status that says otherwise', { status: 'ok', message: '0 failed' }],
	])('%s: all imported', (_label, body) => {
		expect(letters(body)).toBe('III');
	});

	it('gives each record its status, id and message from an entry that names it', () => {
		const reading = readOutcomes(
			{ results: [{ index: 1, status: 'edited', id: '17' }, { index: 0, status: 'created', id: 42, message: 'new' }, { index: 2, status: 'created' }] },
			RECORDS,
		);
		expect(reading.verdicts).toEqual([
			{ outcome: 'imported', status: 'created', id: 42, message: 'new' },
			{ outcome: 'imported', status: 'edited', id: '17' },
			{ outcome: 'imported', status: 'created' },
		]);
	});
});

describe('refusal per record: how the record is matched', () => {
	it.each([
		['index from 0 (an index 0 settles it)', { results: [{ index: 0, status: 'error' }, { index: 1, status: 'created' }, { index: 2, status: 'created' }] }, 'RII'],
		['index from 1 (an index equal to the batch size settles it)', { errors: [{ index: 3, message: 'locked' }] }, 'IIR'],
		['a complete list from 1', { results: [{ index: 1, status: 'created' }, { index: 2, status: 'failed' }, { index: 3, status: 'created' }] }, 'IRI'],
		['a key field value', { failed: [{ Název: 'Úkol B', message: 'locked' }] }, 'IRI'],
		['a key field value inside a record object', { errors: [{ record: { Název: 'Úkol C' }, error: 'locked' }] }, 'IIR'],
		['an index the field value confirms', { errors: [{ index: 1, Název: 'Úkol B', error: 'locked' }] }, 'IRI'],
		['an index the field value shows to count from 1', { errors: [{ index: 1, Název: 'Úkol A', error: 'locked' }] }, 'RII'],
		['order: one entry per record, no numbers', [{ status: 'created' }, { status: 'created' }, { success: false, error: 'locked' }], 'IIR'],
		['a map by number', { errors: { '0': 'locked' } }, 'RII'],
		['a map by path', { errors: { 'data.2.Zadal': ['unknown user'] } }, 'IIR'],
		['a list of numbers', { failed: [0] }, 'RII'],
		['a message naming the record', { errors: ['Record 0: locked'] }, 'RII'],
		['a count that agrees', { imported: 2, failed: 1, errors: [{ index: 0, message: 'locked' }] }, 'RII'],
		['a nested answer', { data: { result: { status: 'partial', errors: [{ index: 3, message: 'locked' }] } } }, 'IIR'],
	])('%s', (_label, body, expected) => {
		expect(letters(body)).toBe(expected);
	});

	it('gives the refused record its reason', () => {
		expect(readOutcomes({ errors: [{ index: 0, error: { code: 'X', message: 'Field "Zadal" is unknown' } }] }, RECORDS).verdicts[0]).toEqual({
			outcome: 'refused',
			message: 'Field "Zadal" is unknown',
		});
	});
});

describe('failure of the whole batch', () => {
	it.each([
		['success: false', { success: false, error: 'Record type "ukoly" is locked for import' }],
		['status: "error"', { status: 'error', message: 'Import is disabled for this token' }],
		['status: "failed"', { status: 'failed' }],
		['an error member', { error: { code: 'VALIDATION', message: 'Field "Zadal" is unknown' } }],
		['failed: true', { failed: true }],
		['nested', { response: { ok: false, reason: 'maintenance' } }],
		['a count of none imported', { imported: 0 }],
		['false', false],
	])('%s: all refused', (_label, body) => {
		expect(letters(body)).toBe('RRR');
	});

	it('gives every record the service\'s reason', () => {
		expect(readOutcomes({ status: 'error', message: 'Import is disabled for this token' }, RECORDS).verdicts[2]).toEqual({
			outcome: 'refused',
			message: 'Import is disabled for this token',
		});
	});
});

describe('unknown: never imported, never guessed', () => {
	it.each([
		['an index that could count from 0 or 1', { status: 'partial', imported: 2, failed: 1, errors: [{ index: 1, message: 'x' }] }, 'could count from 0 or from 1'],
		['refused records without an index', { results: [{ status: 'error', message: 'locked' }] }, 'without a number or field value'],
		['a field value that fits two records', { errors: [{ Zadal: 'Jana', message: 'locked' }] }, 'without a number or field value'],
		['indexes outside the batch', { errors: [{ index: 5 }] }, 'do not fit the 3 records sent'],
		['an index that is no number', { errors: [{ index: 'first' }] }, 'without a number or field value'],
		['more failed than named', { failed: 2, errors: [{ index: 0, message: 'x' }] }, 'counts 2 failed records but names only 1'],
		['a count of failures only', { imported: 2, failed: 1 }, 'counts 1 failed record but names none'],
		['a partial status only', { status: 'partial' }, 'partial'],
		['errors: true', { errors: true }, 'partial'],
		['only a message saying in words that it failed', { message: 'Import failed: the record type is locked' }, 'says only in words'],
		['fewer imported than sent', { imported: 2 }, 'counts 2 imported of the 3 records sent'],
		['a failure with one refusal named', { success: false, errors: [{ index: 0, message: 'x' }] }, 'says the import failed'],
		['a failure that contradicts its results', { success: false, results: [{ index: 0, status: 'created' }, { index: 1, status: 'created' }, { index: 2, status: 'created' }] }, 'says the import failed'],
		['fewer failed counted than named', { failed: 1, errors: [{ index: 0 }, { index: 2 }] }, 'names 2 refused ones'],
	])('%s', (_label, body, because) => {
		const reading = readOutcomes(body, RECORDS);
		expect(reading.verdicts.map((verdict) => verdict.outcome)).not.toContain('imported');
		expect(reading.unknownBecause).toContain(because);
	});

	it('pairs what it can: the named refusal is refused, the rest unknown', () => {
		expect(letters({ failed: 2, errors: [{ index: 0, message: 'x' }] })).toBe('R??');
	});

	it('a record said to be both imported and refused is unknown, the others as said', () => {
		const reading = readOutcomes({ results: [{ index: 0, status: 'created' }, { index: 1, status: 'created' }, { index: 2, status: 'created' }], errors: [{ index: 2 }] }, RECORDS);
		expect(reading.verdicts.map((verdict) => LETTER[verdict.outcome]).join('')).toBe('II?');
		expect(reading.unknownBecause).toContain('both');
	});

	it('an answer nested too deeply to read', () => {
		let body: unknown = { status: 'ok' };
		for (let depth = 0; depth < 40; depth++) body = { data: body };
		expect(letters(body)).toBe('???');
	});
});
