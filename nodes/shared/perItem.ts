/**
 * What the per-item operations share: the error an item fails the node with, and the output item of
 * an item that failed while the node continues on fail.
 */
import type { IDataObject, INode, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { ExecutionBaseError, NodeOperationError } from 'n8n-workflow';

/** An error to fail the node with: n8n's own errors as they are, anything else wrapped for the UI. */
export function asNodeError(node: INode, error: unknown, itemIndex: number): ExecutionBaseError {
	if (error instanceof ExecutionBaseError) return error;
	return new NodeOperationError(node, error instanceof Error ? error : String(error), { itemIndex });
}

/** The output item for an input item that failed while the node continues on fail. */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const json: IDataObject = {
		error: error instanceof Error ? error.message : String(error),
	};
	const description =
		typeof error === 'object' && error !== null ? (error as JsonObject).description : undefined;
	if (typeof description === 'string' && description !== '') json.description = description;
	return { json, pairedItem: { item: itemIndex } };
}
