import type { NodeTypeAndVersion } from 'n8n-workflow';

export type ResponseMode = 'onReceived' | 'lastNode' | 'responseNode';

export const RESPOND_TO_WEBHOOK_NODE_TYPE = 'n8n-nodes-base.respondToWebhook';

/**
 * Versions of n8n's Respond to Webhook node that stop with "No Webhook node found in the workflow"
 * unless n8n's own Webhook, Form, Chat or Wait node precedes them (n8n 1.123 and 2.41). They would
 * fail only after the workflow ran, so the trigger says so before accepting calls.
 */
const RESPOND_TO_WEBHOOK_VERSIONS_REFUSING_OTHER_TRIGGERS = [1.1, 1.2, 1.3, 1.4, 1.5];

/**
 * Why the workflow cannot answer the service the way "Respond" says, or undefined when it can.
 * `descendants` are the nodes after the trigger (n8n's getChildNodes).
 */
export function responseSetupProblem(
	responseMode: ResponseMode,
	descendants: NodeTypeAndVersion[],
): string | undefined {
	const responders = descendants.filter((node) => node.type === RESPOND_TO_WEBHOOK_NODE_TYPE && !node.disabled);
	if (responseMode === 'responseNode') {
		if (responders.length === 0) {
			return 'Respond is set to "Using \'Respond to Webhook\' Node", but no Respond to Webhook node follows the Records Trigger. Add one, or choose another Respond option.';
		}
		const refusing = responders.find((node) =>
			RESPOND_TO_WEBHOOK_VERSIONS_REFUSING_OTHER_TRIGGERS.includes(node.typeVersion),
		);
		if (refusing !== undefined) {
			return `The Respond to Webhook node "${refusing.name}" is at version ${refusing.typeVersion}. From version 1.1 on, that node answers only after n8n's own Webhook, Form, Chat and Wait nodes and would fail after the workflow ran. Use it at version 1 (see the package README), or set Respond to "When Last Node Finishes".`;
		}
		return undefined;
	}
	if (responders.length > 0) {
		return `A Respond to Webhook node ("${responders[0].name}") follows the Records Trigger, but Respond is not set to "Using 'Respond to Webhook' Node", so its answer would never reach the service. Change Respond, or remove that node.`;
	}
	return undefined;
}
