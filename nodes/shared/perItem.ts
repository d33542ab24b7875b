/**
 * The loop every per-item operation runs (Import keeps its own batch loop): each input item on its
 * own, its outputs paired to it, and a failing item either stops the node or, with "continue on
 * fail", becomes an error item in its place.
 */
import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, IPairedItemData, JsonObject } from 'n8n-workflow';
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


/**
 * Runs `run` for each input item in order and collects its output items. An output item without
 * pairing is paired to its input item (one shared object per input item, also given to `run`).
 */
export async function forEachItem(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	run: (itemIndex: number, pairedItem: IPairedItemData) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		const pairedItem: IPairedItemData = { item: itemIndex };
		let output: INodeExecutionData[];
		try {
			output = await run(itemIndex, pairedItem);
		} catch (error) {
			if (!context.continueOnFail()) throw asNodeError(context.getNode(), error, itemIndex);
			returnData.push(errorItem(error, itemIndex));
			continue;
		}
		for (let i = 0; i < output.length; i++) {
			const item = output[i];
			item.pairedItem ??= pairedItem;
			returnData.push(item);
		}
	}
	return returnData;
}
