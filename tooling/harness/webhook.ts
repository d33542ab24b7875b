/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/require-node-api-error -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules); its errors are not a node's */
/**
 * Hosts a webhook trigger node behind a real HTTP server, the way n8n's webhook server runs it for
 * an active workflow: it registers the node's webhooks (running the node's webhook lifecycle
 * methods through n8n-core's HookContext, as activation does), reads and pre-parses request bodies
 * as n8n 2.41.1 does for a node of its version (webhookRequest.ts), calls the node's `webhook()` through n8n-core's real
 * WebhookContext, and then handles the result as n8n's executeWebhook does: the node's own answer
 * (`noWebhookResponse`), an answer without execution, or a workflow run by n8n-core's
 * WorkflowExecute whose answer depends on the response mode (immediately, last node, or a node
 * answering through the `sendResponse` hook: Records → Respond to Call, or Respond to Webhook).
 * This package's node types are named as n8n names an installed package's nodes. See README.md for
 * what is emulated.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

import { ExecutionLifecycleHooks, HookContext, WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IExecuteResponsePromiseData,
	IN8nHttpFullResponse,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IRun,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WebhookResponseData,
} from 'n8n-workflow';
import {
	createRunExecutionData,
	deepCopy,
	jsonParse,
	NodeConnectionTypes,
	NodeHelpers,
	UnexpectedError,
	Workflow,
} from 'n8n-workflow';

import { name as PACKAGE_NAME } from '../../package.json';

import {
	additionalDataFor,
	HarnessCredentialsHelper,
	nodeTypesFor,
	prepareContainer,
	type StoredCredential,
} from './n8nCoreHarness';
import { decorateRequest, HttpRefusal, readBodyAsN8nDoes, removeN8nCookies } from './webhookRequest';

export { N8N_PAYLOAD_SIZE_MAX_MB } from './webhookRequest';

const WORKFLOW_ID = 'webhook-harness-workflow';

export interface DownstreamNode {
	name: string;
	type: INodeType;
	parameters?: INodeParameters;
	typeVersion?: number;
	disabled?: boolean;
	/** Sets the node's "On Error" to "Continue (regular output)". */
	continueOnFail?: boolean;
}

export interface WebhookHostOptions {
	nodeType: INodeType;
	parameters: INodeParameters;
	/** Credential types the node may use, with their data: `{ type, data }`. */
	credentials?: StoredCredential[];
	/** Nodes connected one after the other behind the trigger. */
	downstream?: DownstreamNode[];
	/**
	 * `n8n` (default): read and pre-parse the body before the node runs as n8n 2.41.1 does for the
	 * node's version: every body on version 1, only JSON, XML, form and plain-text bodies on later
	 * versions (malformed JSON or XML refused with 422 there), multipart/form-data on all of them.
	 * `node`: leave the body unread, so the node reads the request stream itself.
	 */
	bodyReading?: 'n8n' | 'node';
	/**
	 * Awaited where n8n does its own work on a call before it reads the body or runs the node
	 * (finding the webhook, loading the workflow): a test can hold a call there, as a slow
	 * database does, while its caller goes away.
	 */
	beforeBody?: (req: IncomingMessage) => Promise<void>;
	nodeName?: string;
	typeVersion?: number;
}

export interface HostedExecution {
	/** What the trigger emitted. */
	items: INodeExecutionData[];
	/** The finished run. */
	run: Promise<IRun>;
}

export interface WebhookHost {
	/** `http://127.0.0.1:<port>`. */
	baseUrl: string;
	/** The production URL as n8n shows it for the node (`:name` segments as written). */
	webhookUrl: string;
	/** Workflow runs the trigger started, in order. */
	executions: HostedExecution[];
	/** Errors thrown by the node's `webhook()` (n8n answers those with a generic 500). */
	webhookErrors: Error[];
	/**
	 * Changes a stored credential while the workflow stays active, as a user editing it (new data)
	 * or deleting it (`undefined`) does: later calls see the change.
	 */
	setCredential(typeName: string, data: ICredentialDataDecryptedObject | undefined): void;
	/** Deactivates (the node's lifecycle `delete`) and stops the server. */
	close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	if (res.headersSent || res.writableEnded) return;
	const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
	// Express's res.send: no body, Content-Type or Content-Length with 204 and 304.
	if (status === 204 || status === 304) {
		delete lower['content-type'];
		delete lower['content-length'];
		res.writeHead(status, lower);
		res.end();
		return;
	}
	if (body === undefined || body === null) {
		res.writeHead(status, lower);
		res.end();
		return;
	}
	if (Buffer.isBuffer(body)) {
		res.writeHead(status, { 'content-type': 'application/octet-stream', ...lower });
		res.end(body);
		return;
	}
	// Express's res.send for strings (text/html by default) and res.json for everything else; both
	// send UTF-8 and say so in the Content-Type, also in one the workflow set.
	const isText = typeof body === 'string';
	const text = isText ? body : JSON.stringify(body);
	const contentType = lower['content-type'] ?? (isText ? 'text/html' : 'application/json');
	const withoutCharset = contentType
		.split(';')
		.map((part) => part.trim())
		.filter((part, index) => index === 0 || !part.toLowerCase().startsWith('charset='));
	res.writeHead(status, {
		...lower,
		'content-type': [...withoutCharset, 'charset=utf-8'].join('; '),
		'content-length': String(Buffer.byteLength(text)),
	});
	res.end(text);
}

/** The answer of the last node, as n8n's extractWebhookLastNodeResponse builds it. */
function lastNodeAnswer(
	run: IRun,
	responseData: WebhookResponseData | string | undefined,
	responsePropertyName: string | undefined,
	responseContentType: string | undefined,
): { body: unknown; contentType?: string } | { error: string } {
	const lastNode = run.data.resultData.lastNodeExecuted;
	const tasks = lastNode === undefined ? undefined : run.data.resultData.runData[lastNode];
	const task = tasks?.[tasks.length - 1];
	const firstOutput = task?.data?.main?.[0] ?? [];
	if (responseData === 'noData') return { body: undefined };
	if (responseData === 'allEntries' || responseData === undefined) {
		return { body: firstOutput.map((item) => item.json) };
	}
	if (responseData === 'firstEntryJson') {
		const first = firstOutput[0];
		if (first === undefined) return { error: 'No item to return was found' };
		let body: unknown = first.json;
		if (responsePropertyName !== undefined) body = responsePropertyName.split('.').reduce<unknown>((value, key) => (value as IDataObject | undefined)?.[key], body);
		return { body, contentType: responseContentType || undefined };
	}
	return { error: `The harness does not emulate responseData "${responseData}"` };
}

/**
 * The node type under the name n8n gives it: n8n names the nodes of an installed community package
 * "<package>.<name>", so this package's nodes (named without a package in their description) get
 * the package name in front, as they do in n8n; others (n8n's own, the harness's) keep theirs.
 */
function asInstalled(type: INodeType): INodeType {
	if (type.description.name.includes('.')) return type;
	const installed = Object.create(type) as INodeType;
	installed.description = { ...type.description, name: `${PACKAGE_NAME}.${type.description.name}` };
	return installed;
}

/**
 * Starts the host with the workflow "trigger → downstream…" active: the node's lifecycle methods
 * run first (an error there is the activation error, and the host does not start).
 */
export async function startWebhookHost(options: WebhookHostOptions): Promise<WebhookHost> {
	prepareContainer();
	const nodeType = asInstalled(options.nodeType);
	const downstreamTypes = (options.downstream ?? []).map((node) => asInstalled(node.type));
	const description = nodeType.description.webhooks?.[0] as IWebhookDescription | undefined;
	if (description === undefined) throw new UnexpectedError(`${nodeType.description.name} declares no webhooks`);

	const nodeName = options.nodeName ?? nodeType.description.defaults.name ?? 'Trigger';
	const credentials = options.credentials ?? [];
	const trigger: INode = {
		id: 'trigger',
		name: nodeName,
		type: nodeType.description.name,
		typeVersion: options.typeVersion ?? Math.max(...[nodeType.description.version].flat()),
		position: [0, 0],
		parameters: deepCopy(options.parameters),
		webhookId: randomUUID(),
		credentials: Object.fromEntries(
			credentials.map(({ type: { name } }) => [name, { id: `${name}-id`, name: `${name} credential` }]),
		),
	};
	const downstream = options.downstream ?? [];
	const nodes: INode[] = [
		trigger,
		...downstream.map((node, index) => ({
			id: `downstream-${index}`,
			name: node.name,
			type: downstreamTypes[index].description.name,
			typeVersion: node.typeVersion ?? 1,
			position: [200 * (index + 1), 0] as [number, number],
			parameters: deepCopy(node.parameters ?? {}),
			disabled: node.disabled,
			...(node.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		})),
	];
	const connections = Object.fromEntries(
		nodes.slice(0, -1).map((node, index) => [
			node.name,
			{ [NodeConnectionTypes.Main]: [[{ node: nodes[index + 1].name, type: NodeConnectionTypes.Main, index: 0 }]] },
		]),
	);
	const workflow = new Workflow({
		id: WORKFLOW_ID,
		name: 'Webhook harness workflow',
		nodes,
		connections,
		active: true,
		nodeTypes: nodeTypesFor(nodeType, ...downstreamTypes),
		settings: { executionOrder: 'v1' },
	});
	const workflowData: IWorkflowBase = {
		id: WORKFLOW_ID,
		name: workflow.name ?? '',
		active: true,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections,
		settings: workflow.settings,
	};
	const workflowNode = workflow.getNode(nodeName) as INode;
	const deletedCredentials = new Set<string>();
	const credentialsHelper = new (class extends HarnessCredentialsHelper {
		async getDecrypted(
			additionalData: IWorkflowExecuteAdditionalData,
			nodeCredentials: INodeCredentialsDetails,
			type: string,
		): Promise<ICredentialDataDecryptedObject> {
			// n8n's CredentialNotFoundError, for a credential deleted while the workflow stays active.
			if (deletedCredentials.has(type)) {
				throw new UnexpectedError(`Credential with ID "${nodeCredentials.id}" does not exist for type "${type}".`);
			}
			return await super.getDecrypted(additionalData, nodeCredentials, type);
		}
	})(credentials);

	const server: Server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	const additionalDataWith = (hooks?: ExecutionLifecycleHooks): IWorkflowExecuteAdditionalData =>
		additionalDataFor(credentialsHelper, { hooks, baseUrl });

	const activationData = additionalDataWith();
	const evaluate = <T>(value: unknown, fallback?: unknown): T =>
		workflow.expression.getSimpleParameterValue(workflowNode, value as string, 'internal', {}, undefined, fallback as string) as T;

	// Registration, as n8n's WebhookService.getNodeWebhooks.
	const rawPath = String(evaluate<string>(description.path) ?? '').trim().replace(/^\/+|\/+$/g, '');
	const isFullPath = evaluate<boolean>(description.isFullPath, false) === true;
	const webhookPath = NodeHelpers.getNodeWebhookPath(WORKFLOW_ID, workflowNode, rawPath, isFullPath);
	const methods = String(evaluate<string>(description.httpMethod, 'GET'))
		.split(',')
		.map((method) => method.trim())
		.filter((method) => method !== '');
	const webhookDataFor = (httpMethod: string, additionalData: IWorkflowExecuteAdditionalData): IWebhookData => ({
		httpMethod: httpMethod as IWebhookData['httpMethod'],
		node: nodeName,
		path: webhookPath,
		webhookDescription: description,
		workflowId: WORKFLOW_ID,
		workflowExecuteAdditionalData: additionalData,
		webhookId: webhookPath.split('/').some((segment) => segment.startsWith(':')) ? workflowNode.webhookId : undefined,
	});
	const runLifecycle = async (method: 'checkExists' | 'create' | 'delete', httpMethod: string): Promise<boolean | undefined> => {
		const fn = nodeType.webhookMethods?.[description.name]?.[method];
		if (fn === undefined) return undefined;
		const context = new HookContext(workflow, workflowNode, activationData, 'trigger', 'activate', webhookDataFor(httpMethod, activationData));
		return await fn.call(context);
	};

	try {
		for (const httpMethod of methods) {
			if (!(await runLifecycle('checkExists', httpMethod))) await runLifecycle('create', httpMethod);
		}
	} catch (error) {
		await new Promise<void>((resolve) => server.close(() => resolve()));
		throw error;
	}

	// A path with ":name" segments is dynamic: n8n puts the node's webhook ID in front of it.
	const dynamic = webhookPath.split('/').some((segment) => segment.startsWith(':'));
	const urlPath = dynamic ? `${workflowNode.webhookId}/${webhookPath}` : webhookPath;
	const matchPath = (path: string): Record<string, string> | undefined => {
		const expected = urlPath.split('/');
		const actual = path.split('/');
		if (expected.length !== actual.length) return undefined;
		const params: Record<string, string> = {};
		for (let index = 0; index < expected.length; index++) {
			if (expected[index].startsWith(':')) params[expected[index].slice(1)] = decodeURIComponent(actual[index]);
			else if (expected[index] !== decodeURIComponent(actual[index])) return undefined;
		}
		return params;
	};

	const executions: HostedExecution[] = [];
	const webhookErrors: Error[] = [];

	const handle = async (raw: IncomingMessage, res: ServerResponse): Promise<void> => {
		const url = new URL(raw.url ?? '/', baseUrl);
		const method = (raw.method ?? 'GET').toUpperCase();
		if (!url.pathname.startsWith('/webhook/')) throw new HttpRefusal(404, `Not a webhook URL: ${url.pathname}`);
		const params = matchPath(url.pathname.slice('/webhook/'.length));
		// n8n answers CORS preflights itself, before looking for a node.
		if (method === 'OPTIONS' && params !== undefined) {
			raw.resume();
			send(res, 204, undefined);
			return;
		}
		if (params === undefined || !methods.includes(method)) {
			raw.resume();
			throw new HttpRefusal(404, `The requested webhook "${method} ${url.pathname.slice(9)}" is not registered.`);
		}
		await options.beforeBody?.(raw);
		const req = decorateRequest(raw, url, params);
		removeN8nCookies(req);
		const cleanUpFiles = options.bodyReading === 'node' ? undefined : await readBodyAsN8nDoes(req, workflowNode.typeVersion);

		const responses: IExecuteResponsePromiseData[] = [];
		let announceResponse: (() => void) | undefined;
		const responseArrived = new Promise<void>((resolve) => (announceResponse = resolve));
		const hooks = new ExecutionLifecycleHooks('webhook', `harness-${executions.length + 1}`, workflowData);
		hooks.addHandler('sendResponse', (response) => {
			responses.push(response);
			announceResponse?.();
		});
		const additionalData = additionalDataWith(hooks);
		additionalData.httpRequest = req as unknown as IWorkflowExecuteAdditionalData['httpRequest'];
		additionalData.httpResponse = res as unknown as IWorkflowExecuteAdditionalData['httpResponse'];
		const webhookData = webhookDataFor(method, additionalData);
		const context = new WebhookContext(workflow, workflowNode, additionalData, 'webhook', webhookData, [], null);

		const responseMode = evaluate<string>(description.responseMode, 'onReceived');
		const responseCode = evaluate<number>(description.responseCode, 200) ?? 200;

		let result: IWebhookResponseData;
		try {
			result = await (nodeType.webhook as (this: WebhookContext) => Promise<IWebhookResponseData>).call(context);
		} catch (error) {
			webhookErrors.push(error as Error);
			send(res, 500, { code: 500, message: 'Workflow Webhook Error: Workflow could not be started!' });
			return;
		} finally {
			// n8n deletes the temporary files of a multipart body once the node's webhook() returned.
			await cleanUpFiles?.();
		}
		const answeredByNode = result.noWebhookResponse === true;
		if (result.workflowData === undefined) {
			if (!answeredByNode) send(res, responseCode, result.webhookResponse ?? { message: 'Webhook call received' });
			return;
		}

		const items = result.workflowData[0] ?? [];
		const runExecutionData = createRunExecutionData({
			executionData: { nodeExecutionStack: [{ node: workflowNode, data: { main: result.workflowData }, source: null }] },
		});
		const run = new WorkflowExecute(additionalData, 'webhook', runExecutionData).processRunExecutionData(workflow) as Promise<IRun>;
		executions.push({ items, run });

		if (responseMode === 'onReceived') {
			if (!answeredByNode) send(res, responseCode, result.webhookResponse ?? { message: 'Workflow was started' });
			return;
		}
		if (responseMode === 'responseNode') {
			const finished = await Promise.race([responseArrived.then(() => undefined), run]);
			const response = responses[0] as IN8nHttpFullResponse | undefined;
			if (response !== undefined) {
				send(res, response.statusCode ?? 200, response.body, (response.headers ?? {}) as Record<string, string>);
				return;
			}
			const failed = finished?.data.resultData.error !== undefined;
			send(res, failed ? 500 : responseCode, failed ? { message: 'Error in workflow' } : undefined);
			return;
		}
		// lastNode
		const finished = await run;
		if (finished.data.resultData.error !== undefined) {
			send(res, 500, { message: 'Error in workflow' });
			return;
		}
		const answer = lastNodeAnswer(
			finished,
			evaluate<string>(description.responseData, 'firstEntryJson'),
			evaluate<string | undefined>(description.responsePropertyName),
			evaluate<string | undefined>(description.responseContentType),
		);
		if ('error' in answer) {
			send(res, 500, { code: 500, message: answer.error });
			return;
		}
		const headers: Record<string, string> = answer.contentType ? { 'content-type': answer.contentType } : {};
		const body = answer.contentType && typeof answer.body !== 'string' ? JSON.stringify(answer.body) : answer.body;
		send(res, responseCode, body, headers);
	};

	server.on('request', (req: IncomingMessage, res: ServerResponse) => {
		handle(req, res).catch((error: unknown) => {
			if (error instanceof HttpRefusal) {
				send(res, error.status, { code: error.status, message: error.message, ...(error.hint ? { hint: error.hint } : {}) });
				return;
			}
			send(res, 500, { code: 500, message: 'There was a problem executing the workflow' });
		});
	});

	return {
		baseUrl,
		webhookUrl: `${baseUrl}/webhook/${urlPath}`,
		executions,
		webhookErrors,
		setCredential: (typeName, data) => {
			const entry = credentials.find(({ type }) => type.name === typeName);
			if (entry === undefined) throw new UnexpectedError(`The host has no credential of type "${typeName}"`);
			if (data === undefined) {
				deletedCredentials.add(typeName);
			} else {
				deletedCredentials.delete(typeName);
				entry.data = data;
			}
		},
		close: async () => {
			for (const httpMethod of methods) await runLifecycle('delete', httpMethod);
			await Promise.allSettled(executions.map((execution) => execution.run));
			await new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
		},
	};
}

/** Settings of the stand-in for n8n's Respond to Webhook node at version 1. */
export interface RespondParameters extends INodeParameters {
	respondWith: 'firstIncomingItem' | 'json' | 'text' | 'noData';
	responseBody?: string;
	options?: { responseCode?: number; responseHeaders?: { entries: Array<{ name: string; value: string }> } };
}

/**
 * Stands in for n8n-nodes-base.respondToWebhook at version 1 (n8n-nodes-base is not a dependency):
 * like it, it hands `{body, headers, statusCode}` to `sendResponse` and passes its items on.
 */
export const RESPOND_TO_WEBHOOK_STAND_IN: INodeType = {
	description: {
		displayName: 'Respond to Webhook',
		name: 'n8n-nodes-base.respondToWebhook',
		group: ['transform'],
		version: [1, 1.1, 1.2, 1.3, 1.4, 1.5],
		description: 'Returns data for Webhook',
		defaults: { name: 'Respond to Webhook' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Respond With', name: 'respondWith', type: 'string', default: 'firstIncomingItem' },
			{ displayName: 'Response Body', name: 'responseBody', type: 'string', default: '' },
			{ displayName: 'Options', name: 'options', type: 'json', default: {} },
		],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const respondWith = this.getNodeParameter('respondWith', 0) as RespondParameters['respondWith'];
		const options = this.getNodeParameter('options', 0, {}) as NonNullable<RespondParameters['options']>;
		const headers: Record<string, string> = {};
		for (const entry of options.responseHeaders?.entries ?? []) headers[entry.name.toLowerCase()] = entry.value;
		let body: unknown;
		if (respondWith === 'firstIncomingItem') body = items[0]?.json;
		else if (respondWith === 'json') body = jsonParse(this.getNodeParameter('responseBody', 0) as string);
		else if (respondWith === 'text') body = this.getNodeParameter('responseBody', 0) as string;
		await this.sendResponse({ body, headers, statusCode: options.responseCode ?? 200 } as IN8nHttpFullResponse);
		return [items];
	},
};

/** A node that turns its input items into other items with `transform`, standing in for Set or Code. */
export function transformNode(name: string, transform: (items: INodeExecutionData[]) => IDataObject[]): DownstreamNode {
	return {
		name,
		type: {
			description: {
				displayName: name,
				name: `harness.${name.replace(/\W+/g, '')}`,
				group: ['transform'],
				version: 1,
				description: 'Test transformation',
				defaults: { name },
				inputs: [NodeConnectionTypes.Main],
				outputs: [NodeConnectionTypes.Main],
				properties: [],
			},
			async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
				return [transform(this.getInputData()).map((json) => ({ json }))];
			},
		},
	};
}
