import { sleep } from 'n8n-workflow';

import { BodyAhead } from '../../../../../../../../nodes/Records/actions/record/import/send/bodyAhead';
import { JsonListBody } from '../../../../../../../../nodes/shared/transport/jsonBody';

/** A batch of 1,000 records of about 600 characters each, as an import of invoices sends. */
function batchBody(): { body: JsonListBody; expected: Buffer; serialized: () => number } {
	const records = Array.from({ length: 1000 }, (_, index) => ({ Název: `Faktura ${index}`, Popis: 'ž'.repeat(580) }));
	let serialized = 0;
	const body = new JsonListBody('data', {
		length: records.length,
		serialize: (start, end) => {
			const json = JSON.stringify(records.slice(start, end));
			serialized += json.length;
			return json;
		},
	});
	return { body, expected: Buffer.from(JSON.stringify({ data: records }), 'utf8'), serialized: () => serialized };
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

	it('serializes little in the first turns, while the request just sent gets onto the wire, and needs few turns in all', async () => {
		const { body, serialized } = batchBody();
		const bodies = new BodyAhead(() => body, () => true);

		const making = bodies.makeAhead(0);
		const afterTurn: number[] = [];
		while (!body.complete) {
			await sleep(0);
			afterTurn.push(serialized());
		}
		await making;
		// About 600,000 characters: a small first slice, then each twice the one before.
		expect(afterTurn[0]).toBeLessThanOrEqual(70_000);
		expect(afterTurn[1]).toBeLessThanOrEqual(200_000);
		expect(afterTurn.length).toBeLessThanOrEqual(4);
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
