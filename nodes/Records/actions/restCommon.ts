import type { IDataObject, INodeProperties } from 'n8n-workflow';

/**
 * Shared by the operations on the service's REST endpoints (Client, Invoice, Custom API Call).
 * Client and Invoice follow shapes the service's product overview shows as examples only (spec
 * §4.4); the notice tells users so before they build on them.
 */
export const illustrativeRestNotice: INodeProperties = {
	displayName:
		"This operation follows the REST example in the service's product overview; the service does not publish an authoritative definition of it. If your installation answers differently, use the Custom API Call resource.",
	name: 'illustrativeRestNotice',
	type: 'notice',
	default: '',
};

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
