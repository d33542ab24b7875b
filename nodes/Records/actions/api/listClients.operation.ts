import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { recordsApiRequest } from '../../../shared/transport';
import { asItemJson, returnAllAndLimit } from '../restCommon';
import { forEachItem } from '../../../shared/perItem';
import { wholeNumber } from '../../../shared/parameters/kit';
import { requestSettings, retryAttemptsOption, timeoutOption } from '../../../shared/requestOptions';

export const CLIENTS_PATH = '/api/v1/clients';

const properties: INodeProperties[] = [
	{
		displayName: 'Status',
		name: 'status',
		type: 'string',
		default: '',
		placeholder: 'active',
		description:
			'Only clients with this status (sent as the status query parameter). Leave empty for all clients.',
	},
	...returnAllAndLimit,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Page Size',
				name: 'pageSize',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 100,
				description:
					'Clients asked for per request (sent as the limit query parameter, with offset). A service that ignores these and sends every client at once works too.',
			},
			retryAttemptsOption,
			timeoutOption,
		],
	},
];

const displayOptions = { show: { resource: ['api'], operation: ['listClients'] } };

export const description = updateDisplayOptions(displayOptions, properties);

interface ClientPage {
	clients: unknown[];
	total?: number;
}

export async function execute(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): Promise<INodeExecutionData[]> {
	return await forEachItem(this, items, async (i) =>
		(await listClients.call(this, i)).map((client) => ({ json: asItemJson(client) })),
	);
}

async function listClients(this: IExecuteFunctions, itemIndex: number): Promise<unknown[]> {
	const node = this.getNode();
	const status = String(this.getNodeParameter('status', itemIndex, '')).trim();
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const wanted = returnAll
		? Number.POSITIVE_INFINITY
		: wholeNumber(node, this.getNodeParameter('limit', itemIndex, 50), { label: 'Limit', min: 1, itemIndex });
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const pageSize = wholeNumber(node, options.pageSize, { label: 'Page Size', min: 1, fallback: 100, itemIndex });
	const settings = requestSettings(options);

	const clients: unknown[] = [];
	const seen = new Set<string>();
	let offset = 0;
	while (clients.length < wanted) {
		const limit = Math.min(pageSize, wanted - clients.length);
		const qs: IDataObject = { offset, limit };
		if (status !== '') qs.status = status;
		const response = await recordsApiRequest.call(this, {
			method: 'GET',
			path: CLIENTS_PATH,
			qs,
			purpose: 'api',
			subject: 'client list',
			itemIndex,
			...settings,
		});
		const page = readPage.call(this, response.body, itemIndex);
		if (page.clients.length === 0) break;

		const repeated = page.clients.filter((client) => seen.has(identity(client)));
		if (repeated.length > 0) {
			throw new NodeOperationError(
				this.getNode(),
				`The service sent clients again that it had already sent (at offset ${offset}): it seems to ignore the offset query parameter`,
				{
					itemIndex,
					description: `Set Options → Page Size to at least the number of clients${page.total !== undefined ? ` (${page.total})` : ''}, so that they all arrive in one response.`,
				},
			);
		}
		for (const client of page.clients) {
			seen.add(identity(client));
			clients.push(client);
		}
		offset += page.clients.length;
		if (page.total !== undefined ? offset >= page.total : page.clients.length < limit) break;
	}
	// A service that ignores `limit` may send more than asked for.
	return Number.isFinite(wanted) ? clients.slice(0, wanted) : clients;
}

function readPage(this: IExecuteFunctions, body: unknown, itemIndex: number): ClientPage {
	if (Array.isArray(body)) return { clients: body };
	const page = body as IDataObject | null;
	if (page && typeof page === 'object' && Array.isArray(page.data)) {
		const total = Number(page.total);
		return {
			clients: page.data,
			total: page.total !== undefined && Number.isFinite(total) ? total : undefined,
		};
	}
	throw new NodeOperationError(
		this.getNode(),
		'The service answered the client list without a "data" array of clients',
		{
			itemIndex,
			description: `Received: ${JSON.stringify(body)?.slice(0, 200) ?? 'nothing'}. Use the Custom API Call resource to read this endpoint as it is.`,
		},
	);
}

function identity(client: unknown): string {
	const id = (client as IDataObject | null)?.id;
	return typeof id === 'number' || typeof id === 'string' ? `id:${id}` : JSON.stringify(client);
}
