import type { INode, INodeParameters, INodeType, INodeTypes } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { Records } from '../../../../../../nodes/Records/Records.node';

/**
 * The description n8n sends an agent or MCP client for a Records Tool node, worked out by n8n's own
 * code (n8n-workflow fills the parameters of a saved node, getToolDescriptionForNode picks the
 * text). The tool variant is the node under the name n8n gives it: n8n adds no description
 * parameters of its own to a node that has a toolDescription parameter.
 */
function toolVariant(): INodeType {
	const records = new Records();
	const variant = Object.create(records) as INodeType;
	variant.description = { ...records.description, name: 'n8n-nodes-records.recordsTool' };
	return variant;
}

function savedNode(type: INodeType, parameters: INodeParameters): { node: INode; type: INodeType } {
	const nodeTypes: INodeTypes = {
		getByName: () => type,
		getByNameAndVersion: () => type,
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({
		nodes: [{ id: '1', name: 'tool', type: type.description.name, typeVersion: 1, position: [0, 0], parameters }],
		connections: {},
		active: false,
		nodeTypes,
	});
	return { node: workflow.getNode('tool') as INode, type };
}

function toolDescriptionOf(parameters: INodeParameters): string {
	const { node, type } = savedNode(toolVariant(), parameters);
	return NodeHelpers.getToolDescriptionForNode(node, type);
}

describe('the description a Records Tool gives an agent', () => {
	it('says for each operation what it does, needs and returns, and whether it changes data', () => {
		const getRows = toolDescriptionOf({ resource: 'report', operation: 'getRows' });
		expect(getRows).toMatch(/^Reads rows of a report/);
		expect(getRows).toMatch(/Read-only/);
		expect(getRows).toMatch(/nextOffset/);
		expect(toolDescriptionOf({ resource: 'record', operation: 'import' })).toMatch(/Changes data/);
		expect(toolDescriptionOf({ resource: 'api', operation: 'createInvoice' })).toMatch(/Changes data/);
		expect(toolDescriptionOf({ resource: 'api', operation: 'listClients' })).toMatch(/Read-only/);
	});

	it('for a Custom API Call, follows the method; a method set by an expression may change data', () => {
		const call = (method: string) => toolDescriptionOf({ resource: 'api', operation: 'request', method, path: '/api/v1/records/ukoly' });
		expect(call('GET')).toMatch(/Read-only/);
		expect(call('HEAD')).toMatch(/Read-only/);
		expect(call('POST')).toMatch(/Changes data/);
		expect(call('DELETE')).toMatch(/Changes data/);
		expect(call("={{ $fromAI('method') }}")).toMatch(/Changes data/);
	});

	it("keeps the text of a tool saved with n8n's \"Set Manually\" description", () => {
		expect(
			toolDescriptionOf({ descriptionType: 'manual', toolDescription: 'Bank transactions of our accounts', resource: 'report', operation: 'getRows' }),
		).toBe('Bank transactions of our accounts');
	});

	it('adds nothing to the node used in a workflow', () => {
		const { node } = savedNode(new Records(), { resource: 'report', operation: 'getRows' });
		expect(Object.keys(node.parameters)).not.toEqual(expect.arrayContaining(['toolDescription']));
		expect(Object.keys(node.parameters)).not.toEqual(expect.arrayContaining(['offset']));
		expect(Object.keys(node.parameters)).not.toEqual(expect.arrayContaining(['output']));
	});
});
