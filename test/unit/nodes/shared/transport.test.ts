import { backoffDelay, findErrorCode, parseRetryAfter, retryAfterDelay } from '../../../../nodes/shared/transport';
import { JsonListBody, type SerializableList } from '../../../../nodes/shared/transport/jsonBody';

describe('parseRetryAfter', () => {
	const now = Date.parse('2026-03-02T10:00:00Z');

	it.each([
		['0', 0],
		['1', 1000],
		['120', 120_000],
		[' 5 ', 5000],
		['1.5', 1500],
	])('reads %j seconds as %d ms', (value, expected) => {
		expect(parseRetryAfter(value, now)).toBe(expected);
	});

	it('reads an HTTP date as the time left until it', () => {
		expect(parseRetryAfter('Mon, 02 Mar 2026 10:00:30 GMT', now)).toBe(30_000);
	});

	it('reads an HTTP date in the past, and negative seconds, as no wait', () => {
		expect(parseRetryAfter('Mon, 02 Mar 2026 09:59:00 GMT', now)).toBe(0);
		expect(parseRetryAfter('-3', now)).toBe(0);
	});

	it.each([undefined, '', '   ', 'soon', 'Infinity', 'NaN'])('ignores %j', (value) => {
		expect(parseRetryAfter(value, now)).toBeUndefined();
	});
});

describe('retryAfterDelay', () => {
	const policy = { baseDelayMs: 500, maxDelayMs: 30_000 };

	it('never waits less than Retry-After, and at most as long again', () => {
		expect(retryAfterDelay(2000, 1, policy, 0)).toBe(2000);
		expect(retryAfterDelay(2000, 1, policy, 0.999999)).toBe(4000);
	});

	it('spreads a short or zero Retry-After at least as far as the backoff of the attempt', () => {
		expect(retryAfterDelay(0, 1, policy, 0.999999)).toBe(500);
		expect(retryAfterDelay(1000, 4, policy, 0.999999)).toBe(1000 + 4000);
	});

	it('adds no more than the maximum delay to a long Retry-After', () => {
		expect(retryAfterDelay(100_000, 1, policy, 0.999999)).toBe(130_000);
	});
});

describe('backoffDelay', () => {
	afterEach(() => jest.restoreAllMocks());

	it('doubles the ceiling with each attempt and waits between half of it and all of it', () => {
		for (const [attempt, ceiling] of [
			[1, 500],
			[2, 1000],
			[3, 2000],
			[4, 4000],
		]) {
			jest.spyOn(Math, 'random').mockReturnValue(0);
			expect(backoffDelay(attempt, 500, 30_000)).toBe(ceiling / 2);
			jest.spyOn(Math, 'random').mockReturnValue(0.999999);
			expect(backoffDelay(attempt, 500, 30_000)).toBe(ceiling);
		}
	});

	it('never exceeds the maximum delay', () => {
		jest.spyOn(Math, 'random').mockReturnValue(0.999999);
		expect(backoffDelay(20, 500, 30_000)).toBe(30_000);
		expect(backoffDelay(1000, 500, 30_000)).toBe(30_000);
	});

	it('spreads parallel retries apart (jitter) within the bounds', () => {
		const delays = Array.from({ length: 200 }, () => backoffDelay(3, 500, 30_000));
		for (const delay of delays) {
			expect(delay).toBeGreaterThanOrEqual(1000);
			expect(delay).toBeLessThanOrEqual(2000);
		}
		expect(new Set(delays).size).toBeGreaterThan(20);
	});
});

describe('findErrorCode', () => {
	it('finds the code on the error itself', () => {
		expect(findErrorCode(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBe(
			'ECONNRESET',
		);
	});

	it('finds the code through nested causes, as n8n wraps the HTTP client error', () => {
		const clientError = Object.assign(new Error('timeout of 200ms exceeded'), {
			code: 'ECONNABORTED',
		});
		const wrapped = new Error('wrapped once', { cause: new Error('wrapped twice', { cause: clientError }) });
		expect(findErrorCode(wrapped)).toBe('ECONNABORTED');
	});

	it('takes the outermost code that looks like a system or client error code', () => {
		const error = { code: 'ERR_BAD_RESPONSE', cause: { code: 'ECONNRESET' } };
		expect(findErrorCode(error)).toBe('ERR_BAD_RESPONSE');
	});

	it('skips codes that are not error codes (HTTP statuses, n8n codes)', () => {
		expect(findErrorCode({ code: 500, cause: { code: 'EPIPE' } })).toBe('EPIPE');
		expect(findErrorCode({ code: '404', cause: { code: 'ETIMEDOUT' } })).toBe('ETIMEDOUT');
	});

	it('gives up on deep chains and on values without a code', () => {
		let deep: object = { code: 'ECONNRESET' };
		for (let i = 0; i < 10; i++) deep = { cause: deep };
		expect(findErrorCode(deep)).toBeUndefined();
		expect(findErrorCode(undefined)).toBeUndefined();
		expect(findErrorCode(null)).toBeUndefined();
		expect(findErrorCode('ECONNRESET')).toBeUndefined();
		expect(findErrorCode(new Error('no code'))).toBeUndefined();
	});
});

describe('JsonListBody', () => {
	const serializable = (list: unknown[]): SerializableList => ({
		length: list.length,
		serialize: (start, end) => JSON.stringify(list.slice(start, end)),
	});
	const records = Array.from({ length: 257 }, (_, index) => ({
		'Číslo dokladu': `FP-${index}`,
		Popis: index % 3 === 0 ? 'Oprava střechy – „jižní“ křídlo 😀' : index === 100 ? 'lone \ud800 surrogate' : 'x'.repeat(index),
		Částka: index % 5 === 0 ? null : `${index},50`,
	}));

	const expected = Buffer.from(JSON.stringify({ data: records }), 'utf8');

	it.each([1, 64, 1000, 1 << 20])('sends the bytes JSON.stringify would, in slices of %d characters', (sliceChars) => {
		const body = new JsonListBody('data', serializable(records), sliceChars);
		let slices = 0;
		while (!body.complete) {
			body.writeSlice();
			slices++;
		}
		expect(body.finish().equals(expected)).toBe(true);
		// Each slice holds at least one record, and about sliceChars of them.
		if (sliceChars === 1) expect(slices).toBeGreaterThan(records.length / 2);
		if (sliceChars === 1 << 20) expect(slices).toBe(1);
	});

	it('finishes what is left when asked before the last slice, and gives the same bytes again', () => {
		const body = new JsonListBody('data', serializable(records), 1000);
		body.writeSlice();
		expect(body.complete).toBe(false);
		const bytes = body.finish();
		expect(bytes.equals(expected)).toBe(true);
		expect(body.finish()).toBe(bytes);
	});

	it('writes an empty list, and items JSON writes as null', () => {
		expect(new JsonListBody('data', serializable([])).finish().toString()).toBe('{"data":[]}');
		expect(new JsonListBody('data', serializable([undefined, 1])).finish().toString()).toBe('{"data":[null,1]}');
	});

	it('throws what JSON.stringify throws for an item', () => {
		const circular: Record<string, unknown> = {};
		circular.self = circular;
		const body = new JsonListBody('data', serializable([{ a: 1 }, circular]));
		expect(() => body.finish()).toThrow(/circular/i);
	});
});
