import type { IDataObject, NodeTypeAndVersion } from 'n8n-workflow';

import type { ReplyFormat } from './replyBody';

/**
 * What the Records Trigger and the Records node's Workflow Call → Respond to Call need to know of
 * each other: the trigger accepts the operation as its Respond node, and the operation answers only
 * a call whose trigger waits for it.
 */

export const WORKFLOW_CALL_RESOURCE = 'workflowCall';
export const RESPOND_OPERATION = 'respond';
/** The trigger's Respond option under which a node of the workflow answers the call. */
export const RESPOND_NODE_MODE = 'responseNode';
/** The trigger's Respond option when it is not set (its default). */
const DEFAULT_RESPONSE_MODE = 'onReceived';

const RECORDS_NODE_NAME = 'records';
const RECORDS_TRIGGER_NODE_NAME = 'recordsTrigger';

/**
 * n8n names a community node "<package>.<name>" (e.g. n8n-nodes-records.records); the package part
 * is left open, so that the check holds for the package under a scope or another name too.
 */
function isNodeOfThisPackage(type: string, name: string): boolean {
	return type.endsWith(`.${name}`);
}

export function isRecordsTrigger(node: NodeTypeAndVersion): boolean {
	return isNodeOfThisPackage(node.type, RECORDS_TRIGGER_NODE_NAME);
}

/** Whether `node` is a Records node set to Workflow Call → Respond to Call (its parameters needed). */
export function isRespondToCall(node: NodeTypeAndVersion): boolean {
	return (
		isNodeOfThisPackage(node.type, RECORDS_NODE_NAME) &&
		node.parameters?.resource === WORKFLOW_CALL_RESOURCE &&
		node.parameters?.operation === RESPOND_OPERATION
	);
}

/** A Records Trigger before the responding node, with the item it emitted when it started this execution. */
export interface TriggerBefore {
	node: NodeTypeAndVersion;
	/** Its output item in this execution; undefined when it did not run. */
	emitted?: IDataObject;
}

export type CallToAnswer =
	| { triggerName: string; replyFormat: ReplyFormat }
	| { problem: string; hint: string };

const SETUP_HINT =
	'Put this node after a Records Trigger whose Respond option is "Using a Respond Node". It answers the call that started the execution.';

/**
 * Which call a Respond to Call answers, and in which format the call expects the answer, or why
 * there is none to answer. `triggers` are the enabled Records Triggers before the node.
 */
export function callToAnswer(triggers: TriggerBefore[]): CallToAnswer {
	if (triggers.length === 0) {
		return {
			problem: 'No Records Trigger comes before this node, so there is no call to respond to',
			hint: SETUP_HINT,
		};
	}
	const started = triggers.find((trigger) => trigger.emitted !== undefined);
	if (started === undefined) {
		return {
			problem: `This execution was not started by a call to the Records Trigger${triggers.length === 1 ? ` "${triggers[0].node.name}"` : 's before this node'}, so there is no call to respond to`,
			hint: 'Respond to Call works in executions started by the service calling the trigger (its Production URL, or its Test URL while listening for a test event).',
		};
	}
	const responseMode = started.node.parameters?.responseMode ?? DEFAULT_RESPONSE_MODE;
	// An expression cannot be resolved from here; the trigger checks its own setting on each call.
	const isExpression = typeof responseMode === 'string' && responseMode.startsWith('=');
	if (responseMode !== RESPOND_NODE_MODE && !isExpression) {
		return {
			problem: `The Records Trigger "${started.node.name}" answers the call itself, so this answer would never reach the service`,
			hint: `Set the trigger's Respond option to "Using a Respond Node", or remove this node. ${SETUP_HINT}`,
		};
	}
	const replyFormat = started.emitted?.replyFormat === 'xml' ? 'xml' : 'json';
	return { triggerName: started.node.name, replyFormat };
}

export interface HeaderEntry {
	name?: unknown;
	value?: unknown;
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * The headers of an answer, as entered, checked: n8n drops a header it cannot send without saying
 * so, so a wrong one is refused here, with what is wrong. Names are case-insensitive; one that
 * appears twice is refused rather than silently losing one of the values.
 */
export function responseHeaders(entries: HeaderEntry[]): { headers: Record<string, string> } | { problem: string } {
	const headers: Record<string, string> = {};
	for (const [index, entry] of entries.entries()) {
		const name = String(entry.name ?? '').trim();
		const value = entry.value === undefined || entry.value === null ? '' : String(entry.value);
		const position = `Header ${index + 1}${name === '' ? '' : ` ("${name}")`}`;
		if (name === '') return { problem: `${position} has no name. Enter a name such as X-Status, or remove the header.` };
		if (!HEADER_NAME.test(name)) {
			return {
				problem: `${position}: a header name can only hold letters, digits and ! # $ % & ' * + - . ^ _ \` | ~ (no spaces or colons).`,
			};
		}
		if (!HEADER_VALUE.test(value)) {
			return {
				problem: `${position}: the value holds a line break, a control character or a non-ASCII character (e.g. a Czech letter), which HTTP headers cannot carry. Percent-encode it, or send it in the body.`,
			};
		}
		const key = name.toLowerCase();
		if (Object.prototype.hasOwnProperty.call(headers, key)) {
			return { problem: `${position} appears twice. Combine its values into one, separated by commas.` };
		}
		headers[key] = value.trim();
	}
	return { headers };
}
