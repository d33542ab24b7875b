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

/** Answers real services and gateways give, which the node misread (one test per row of the finding). */
describe('answers that say "imported" only where they give evidence', () => {
	it('numeric statuses: a 422 in an entry is no success, a 201 is', () => {
		const body = { results: [{ index: 0, status: 201, id: 7 }, { index: 1, status: 422, message: 'Zadal is unknown' }, { index: 2, status: 201, id: 9 }] };
		expect(letters(body)).toBe('IRI');
	});

	it('SCIM-style bulk answer: a status "400" as text is no success', () => {
		const body = {
			schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkResponse'],
			Operations: [
				{ method: 'POST', bulkId: 'q1', location: 'https://example.com/v2/Records/1', status: '201' },
				{ method: 'POST', bulkId: 'q2', status: '400', response: { scimType: 'invalidValue', detail: 'Zadal is unknown', status: '400' } },
				{ method: 'POST', bulkId: 'q3', location: 'https://example.com/v2/Records/3', status: '201' },
			],
		};
		expect(letters(body)).toBe('IRI');
	});

	it.each([
		['import_failed', { status: 'import_failed', message: 'Import failed: the record type is locked' }],
		['VALIDATION_ERROR', { status: 'VALIDATION_ERROR' }],
	])('a failure word inside a compound status of the batch (%s) refuses it', (_label, body) => {
		expect(letters(body)).toBe('RRR');
	});

	it.each(['validation_error', 'duplicate', 'ignored', 'not_created', 'rejected_duplicate', 'SKIPPED_EXISTING'])(
		'a failure word inside a compound status of a record (%s) is no success',
		(status) => {
			const body = { results: [{ index: 0, status: 'created' }, { index: 1, status }, { index: 2, status: 'created' }] };
			expect(letters(body)).toBe('IRI');
		},
	);

	it('a status of a record the node does not know is unknown, quoted', () => {
		const reading = readOutcomes({ results: [{ index: 0, status: 'created' }, { index: 1, status: 'queued' }, { index: 2, status: 'created' }] }, RECORDS);
		expect(reading.verdicts.map((verdict) => LETTER[verdict.outcome]).join('')).toBe('I?I');
		expect(reading.unknownBecause).toContain('"queued"');
	});

	it('a status of the batch the node does not know leaves the records unknown, quoted', () => {
		const reading = readOutcomes({ jobId: 'a81f', status: 'queued' }, RECORDS);
		expect(reading.verdicts.map((verdict) => LETTER[verdict.outcome]).join('')).toBe('???');
		expect(reading.unknownBecause).toContain('"queued"');
	});

	it('a list of imported records that leaves one out: that one is not imported', () => {
		expect(letters({ imported: [{ id: 1 }, { id: 2 }] })).not.toContain('I');
		expect(letters({ imported: [{ Název: 'Úkol A' }, { Název: 'Úkol C' }] })).toBe('I?I');
		expect(letters({ created: ['Úkol A'], updated: ['Úkol B'] })).toBe('II?');
	});

	it('empty lists of created and updated records import nothing', () => {
		expect(letters({ created: [], updated: [] })).not.toContain('I');
	});

	it('results that name some records as imported say nothing of the others', () => {
		expect(letters({ results: [{ index: 0, status: 'created' }] })).toBe('I??');
		expect(letters({ results: [{ index: 7, status: 'created' }] })).toBe('???');
	});

	it('results sorted failures first, naming each record under "key", are paired by that value, not by place', () => {
		const body = { results: [{ key: 'Úkol B', status: 'error', message: 'locked' }, { key: 'Úkol A', status: 'created' }, { key: 'Úkol C', status: 'created' }] };
		expect(letters(body)).toBe('IRI');
	});

	it('an entry whose values name two different records pairs with neither', () => {
		const body = { results: [{ key: 'Úkol B', ref: 'Úkol A', status: 'error' }, { key: 'Úkol A', status: 'created' }, { key: 'Úkol C', status: 'created' }] };
		expect(letters(body)).toBe('???');
	});

	it('an index whose base cannot be settled affects only the records some reading names', () => {
		expect(letters({ results: [{ index: 2, status: 'error' }] })).toBe('I??');
		expect(letters({ status: 'partial', imported: 2, failed: 1, errors: [{ index: 1, message: 'x' }] })).toBe('??I');
	});
});
