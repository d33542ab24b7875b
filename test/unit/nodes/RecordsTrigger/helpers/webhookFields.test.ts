import type { INode, IWebhookDescription } from 'n8n-workflow';
import { resolveWebhookDescriptionField, webhookDescriptionIsNativelyResolvable, Workflow } from 'n8n-workflow';

import { RecordsTrigger } from '../../../../../nodes/RecordsTrigger/RecordsTrigger.node';
import { nodeTypesFor } from '../../../../../tooling/harness/n8nCoreHarness';

const trigger = new RecordsTrigger();
const webhook = trigger.description.webhooks?.[0] as IWebhookDescription;
const FIELDS = ['path', 'responseMode', 'responseCode', 'responseData', 'responsePropertyName', 'responseContentType'];

/** The trigger as n8n holds it in a workflow: parameters completed with their defaults. */
function workflowNode(parameters: INode['parameters']): { workflow: Workflow; node: INode } {
	const workflow = new Workflow({
		nodes: [{ id: '1', name: 'Records Trigger', type: 'recordsTrigger', typeVersion: 1, position: [0, 0], parameters }],
		connections: {},
		active: false,
		nodeTypes: nodeTypesFor(trigger),
	});
	return { workflow, node: workflow.nodes['Records Trigger'] };
}

function byExpression(workflow: Workflow, node: INode, field: string): unknown {
	return workflow.expression.getSimpleParameterValue(node, webhook[field] as string, 'webhook', {});
}

describe('Records Trigger webhook description', () => {
	it('keeps the expressions the editor and n8n 1.x evaluate', () => {
		expect(webhook.path).toBe('={{$parameter["path"]}}');
		expect(webhook.responsePropertyName).toBe('={{$parameter["options"]["responsePropertyName"]}}');
		expect(JSON.parse(JSON.stringify(webhook))).toEqual(Object.fromEntries(Object.entries(webhook)));
	});

	it('is resolved by n8n without its expression engine when the parameters hold no expression', () => {
		expect(webhookDescriptionIsNativelyResolvable(webhook)).toBe(true);
		const { workflow, node } = workflowNode({
			path: 'records/faktury',
			responseMode: 'lastNode',
			responseData: 'firstEntryJson',
			options: { responsePropertyName: 'odpověď', responseContentType: 'application/xml' },
		});
		for (const field of FIELDS) {
			const native = resolveWebhookDescriptionField(node, webhook, field);
			expect({ field, ...native }).toEqual({ field, resolved: true, value: byExpression(workflow, node, field) });
		}
		expect(resolveWebhookDescriptionField(node, webhook, 'path')).toEqual({ resolved: true, value: 'records/faktury' });
	});

	it('gives the same values as the expressions for default parameters (missing options included)', () => {
		const { workflow, node } = workflowNode({ path: 'x' });
		for (const field of FIELDS) {
			const native = resolveWebhookDescriptionField(node, webhook, field);
			expect({ field, value: native.resolved ? native.value : 'not resolved' }).toEqual({
				field,
				value: byExpression(workflow, node, field),
			});
		}
	});

	it('answers a call no Respond node answered with 500, natively and by expression alike', () => {
		for (const parameters of [{ path: 'x', responseMode: 'responseNode' }, { path: 'x', responseMode: 'onReceived', responseCode: 202 }]) {
			const { workflow, node } = workflowNode(parameters);
			const native = resolveWebhookDescriptionField(node, webhook, 'responseCode');
			expect(native).toEqual({ resolved: true, value: byExpression(workflow, node, 'responseCode') });
			expect(native).toEqual({ resolved: true, value: parameters.responseMode === 'responseNode' ? 500 : 202 });
		}
	});

	it('leaves nodes with an expression in their parameters to the expression engine', () => {
		const { node } = workflowNode({ path: '={{ "records/" + $now.year }}' });
		expect(resolveWebhookDescriptionField(node, webhook, 'path')).toEqual({ resolved: false });
	});
});
