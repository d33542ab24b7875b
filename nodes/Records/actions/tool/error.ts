import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fromAiKeys, toolArguments, toolErrorText } from './use';

/**
 * Per operation, the parameter whose content an error about an input item's data concerns: the
 * records of an import given as JSON (the agent's list of records).
 */
const CONTENT_PARAMETERS: Record<string, string> = { 'record.import': 'jsonRecords' };

/** The name a tool call's error carries (see toolError). */
export const AGENT_ERROR_NAME = 'Error';

/** Parameter names to display names, collection and fixed-collection entries included. */
function labelsOf(properties: readonly INodeProperties[], labels = new Map<string, string>()): Map<string, string> {
	for (const property of properties) {
		if (!labels.has(property.name)) labels.set(property.name, property.displayName);
		for (const option of property.options ?? []) {
			if ('type' in option) labelsOf([option], labels);
			else if ('values' in option) labelsOf(option.values, labels);
		}
	}
	return labels;
}

/**
 * The error a tool call fails with: the node's error as one short text an agent can correct from,
 * naming the arguments it filled (see toolErrorText). It carries no description, which n8n would
 * append as "Details: …", and never a stack trace: what n8n sends the agent is its message, after
 * the error's name ("<name>: <message>" from the MCP Server Trigger, the name as the error's type to
 * an AI Agent). The name is therefore the generic "Error", as n8n's own argument checks give it,
 * not the class name NodeOperationError, which means nothing to an agent. No name leaves the
 * sentence alone: n8n 2.41 joins name and message with ": " (MessageFormatter.formatError), 1.123
 * writes "Error: " before the message whatever the name (McpServer.js), and only a thrown error
 * becomes an error result (an item returned instead would be answered as a success).
 */
export function toolError(
	this: IExecuteFunctions,
	error: unknown,
	properties: readonly INodeProperties[],
	operationKey: string,
): NodeOperationError {
	const node = this.getNode();
	const { message, description } =
		error instanceof Error
			? { message: error.message, description: (error as { description?: unknown }).description }
			: { message: String(error), description: undefined };
	const contentParameter = CONTENT_PARAMETERS[operationKey];
	const contentKey =
		contentParameter === undefined ? undefined : fromAiKeys(node.parameters[contentParameter])[0];
	const text = toolErrorText({
		message,
		description: typeof description === 'string' ? description : undefined,
		arguments: toolArguments(node.parameters, labelsOf(properties)),
		contentKey,
	});
	const shaped = new NodeOperationError(node, text);
	// n8n swaps a message that contains a system error code for a generic text about files (a record
	// type "neexistuje" holds "eexist"); the agent must get this one.
	shaped.message = text;
	shaped.name = AGENT_ERROR_NAME;
	return shaped;
}
