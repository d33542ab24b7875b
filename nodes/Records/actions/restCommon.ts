import type { IDataObject, INodeProperties } from 'n8n-workflow';

/** Shared by the operations that read lists: Get Rows, and the API endpoints (Other Endpoint). */

/** Return All / Limit, as every n8n node that lists things offers them. */
export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

/** Output JSON for a value of a response: objects as they are, anything else under `data`. */
export function asItemJson(value: unknown): IDataObject {
	if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as IDataObject;
	// HEAD, 204 and other answers without content.
	if (value === undefined || value === '') return {};
	return { data: value as IDataObject[keyof IDataObject] };
}
