import { mayTellOfFailure, statusSays, statusText } from '../../../../../../../../nodes/Records/actions/record/import/answer/statusWords';

describe('statusSays', () => {
	it.each(['201', '200', '204', '299'])('a 2xx number other than 202 (%s) says imported', (status) => {
		expect(statusSays(status)).toBe('positive');
	});

	it.each(['400', '422', '409', '500', '503'])('a 4xx or 5xx number (%s) says not imported', (status) => {
		expect(statusSays(status)).toBe('negative');
	});

	it.each(['202', '100', '303'])('a number that says neither (%s) is no evidence', (status) => {
		expect(statusSays(status)).toBe('unknown');
	});

	it.each(['error', 'import_failed', 'VALIDATION_ERROR', 'not_created', 'rejected_duplicate', 'duplicate', 'ignored', 'SKIPPED_EXISTING', 'Refused', 'ko'])(
		'a failure stem anywhere in the word (%s) says not imported',
		(status) => {
			expect(statusSays(status)).toBe('negative');
		},
	);

	it.each(['created', 'record_created', 'successfullyImported', 'OK', 'updated', 'all done'])(
		'a word made only of words of success (%s) says imported',
		(status) => {
			expect(statusSays(status)).toBe('positive');
		},
	);

	it.each(['partial', 'partially_imported', 'completed_with_errors'])('a partial word (%s) says some records failed', (status) => {
		expect(statusSays(status)).toBe('partial');
	});

	it.each(['queued', 'pending', 'accepted', 'created_later_maybe', 'hotovo'])('a word the node does not know (%s) is no evidence', (status) => {
		expect(statusSays(status)).toBe('unknown');
	});
});

describe('statusText', () => {
	it('takes words and whole HTTP-like numbers, nothing else', () => {
		expect(statusText('created')).toBe('created');
		expect(statusText(422)).toBe('422');
		expect(statusText(' ')).toBeUndefined();
		expect(statusText(1)).toBeUndefined();
		expect(statusText(201.5)).toBeUndefined();
		expect(statusText(true)).toBeUndefined();
	});
});

describe('mayTellOfFailure', () => {
	it.each(['Import failed: the record type is locked', 'Chyba importu', '2 errors', 'Access denied'])('finds a word of failure in "%s"', (text) => {
		expect(mayTellOfFailure(text)).toBe(true);
	});

	it.each(['3 records imported', 'Import dokončen'])('finds none in "%s"', (text) => {
		expect(mayTellOfFailure(text)).toBe(false);
	});
});
