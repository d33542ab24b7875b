import { sleep } from 'n8n-workflow';

import { BodyAhead } from '../../../../../../../nodes/Records/actions/record/import/bodyAhead';
import { JsonListBody } from '../../../../../../../nodes/shared/transport/jsonBody';

/** A batch of records whose JSON takes several slices of 1,000 characters. */
function batchBody(): { body: JsonListBody; expected: Buffer } {
	const records = Array.from({ length: 60 }, (_, index) => ({ Název: `Úkol ${index}`, Popis: 'ž'.repeat(80) }));
	const body = new JsonListBody(
		'data',
		{ length: records.length, serialize: (start, end) => JSON.stringify(records.slice(start, end)) },
		1000,
	);
	return { body, expected: Buffer.from(JSON.stringify({ data: records }), 'utf8') };
}

describe('BodyAhead', () => {
	it('has the bytes ready with its last slice: the batch sent after it costs no encoding', async () => {
		const { body, expected } = batchBody();
		const encode = jest.spyOn(body, 'finish');
		const bodies = new BodyAhead(() => body, () => true);

		const making = bodies.makeAhead(0);
		// One turn of the event loop for each slice, as while the batch before is on the wire.
		let turns = 0;
		while (!body.complete) {
			await sleep(0);
			turns++;
		}
		expect(turns).toBeGreaterThan(2);
		// The answer to the batch before arrives now: its next batch's bytes are already made.
		expect(encode).toHaveBeenCalledTimes(1);
		const bytes = bodies.take(0);
		expect(bytes.equals(expected)).toBe(true);
		expect(encode.mock.results[0].value).toBe(bytes);
		await making;
	});

	it('makes the body when taken before its slices are done, and stops making it ahead', async () => {
		const { body, expected } = batchBody();
		const serialize = jest.spyOn(body, 'writeSlice');
		const bodies = new BodyAhead(() => body, () => true);

		const making = bodies.makeAhead(0);
		await sleep(0);
		expect(body.complete).toBe(false);
		expect(bodies.take(0).equals(expected)).toBe(true);
		const slicesWhenTaken = serialize.mock.calls.length;
		await making;
		expect(serialize.mock.calls.length).toBe(slicesWhenTaken);
	});

	it('makes nothing ahead for a batch that will not be sent', async () => {
		const bodyFor = jest.fn(() => batchBody().body);
		const bodies = new BodyAhead(bodyFor, (batchIndex) => batchIndex < 1);
		await bodies.makeAhead(1);
		expect(bodyFor).not.toHaveBeenCalled();
	});
});
