import type { NodeTypeAndVersion } from 'n8n-workflow';

import { isRespondToCall } from '../../shared/workflowCall/handshake';

export type ResponseMode = 'onReceived' | 'lastNode' | 'responseNode';

export const RESPOND_TO_WEBHOOK_NODE_TYPE = 'n8n-nodes-base.respondToWebhook';

/**
 * From this version on, n8n's Respond to Webhook node stops with "No Webhook node found in the
 * workflow" unless n8n's own Webhook, Form, Chat or Wait node precedes it (1.1 to 1.5 in n8n 1.123
 * and 2.41). It would fail only after the workflow ran, so the trigger says so before accepting calls.
 */
const RESPOND_TO_WEBHOOK_REFUSING_OTHER_TRIGGERS_FROM = 1.1;

const RESPOND_OPERATION_NAME = 'a Records node set to Workflow Call → Respond to Call';

/**
 * Why the workflow cannot answer the service the way "Respond" says, or undefined when it can.
 * `descendants` are the nodes after the trigger, with their parameters (n8n's getChildNodes).
 */
export function responseSetupProblem(
	responseMode: ResponseMode,
	descendants: NodeTypeAndVersion[],
): string | undefined {
	const enabled = descendants.filter((node) => !node.disabled);
	const respondToWebhook = enabled.filter((node) => node.type === RESPOND_TO_WEBHOOK_NODE_TYPE);
	const responders = enabled.filter((node) => isRespondToCall(node) || respondToWebhook.includes(node));
	if (responseMode === 'responseNode') {
		if (responders.length === 0) {
			return `Respond is set to "Using a Respond Node", but no node after the Records Trigger answers the call. Add ${RESPOND_OPERATION_NAME}, or choose another Respond option.`;
		}
		const refusing = respondToWebhook.find((node) => node.typeVersion >= RESPOND_TO_WEBHOOK_REFUSING_OTHER_TRIGGERS_FROM);
		if (refusing !== undefined) {
			return `The Respond to Webhook node "${refusing.name}" is at version ${refusing.typeVersion}. From version 1.1 on, that node answers only after n8n's own Webhook, Form, Chat and Wait nodes and would fail after the workflow ran. Replace it with ${RESPOND_OPERATION_NAME}.`;
		}
		return undefined;
	}
	if (responders.length > 0) {
		return `"${responders[0].name}" answers the call, but the Records Trigger's Respond is not set to "Using a Respond Node", so its answer would never reach the service. Change Respond, or remove that node.`;
	}
	return undefined;
}
