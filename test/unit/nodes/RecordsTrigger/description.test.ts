import { RecordsTrigger } from '../../../../nodes/RecordsTrigger/RecordsTrigger.node';
import { triggerProperties } from '../../../../nodes/RecordsTrigger/description';

/**
 * What n8n's node picker shows of the Records Trigger (issue 48): it merges the Records node and the
 * Records Trigger into one entry with the trigger's description, and lists each Events choice as an
 * action, "On <choice>" unless the choice names its `action` (and not at all for a choice named "*").
 */
describe("the Records Trigger in n8n's node picker", () => {
	const events = triggerProperties.find((property) => property.name === 'events');
	const choices = (events?.options ?? []) as Array<{ name: string; value: string; action?: string }>;

	it('describes what the Records node does too, since the picker shows it for both', () => {
		const { description } = new RecordsTrigger().description;
		expect(description).toMatch(/Import records/);
		expect(description).toMatch(/read reports/);
		expect(description).toMatch(/calls and webhooks/);
	});

	it('lists every Events choice as a plain action, none labelled "*"', () => {
		expect(choices.length).toBeGreaterThanOrEqual(3);
		for (const choice of choices) {
			expect(choice.name).toMatch(/^[A-Z][A-Za-z' ()]+$/);
			expect(choice.action).toMatch(/^When /);
		}
		expect(choices.find((choice) => choice.value === 'invoice.paid')?.action).toBe('When an invoice is paid');
	});
});
