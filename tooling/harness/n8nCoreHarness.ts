/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/require-node-api-error --
	tooling: runs in Node.js, not inside n8n (Node.js's modules, `@n8n/config`, `@n8n/di`,
	`process`); its errors are not a node's */
/**
 * Runs the package's nodes and credential through n8n's own execution engine (n8n-core), over real
 * HTTP. What is real and what is stubbed, and why: see README.md next to this file.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { GlobalConfig, InstanceSettingsConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import {
	ExecuteContext,
	ExecutionLifecycleHooks,
	ExternalSecretsProxy,
	LoadOptionsContext,
	PollContext,
	RoutingNode,
	TriggersAndPollers,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialsDecrypted,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IRun,
	ITriggerFunctions,
	ITriggerResponse,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	createRunExecutionData,
	deepCopy,
	ExecutionBaseError,
	ICredentialsHelper,
	NodeConnectionTypes,
	NodeHelpers,
	UnexpectedError,
	Workflow,
} from 'n8n-workflow';

// From source, as tests take node classes: the package's entry would also load all three nodes'
// sources into every benchmark worker that runs the built node through this harness.
import { RecordsApi } from '../../credentials/RecordsApi.credentials';

export interface RecordsCredentialData {
	baseUrl: string;
	token: string;
	allowHttp?: boolean;
	ignoreSSLIssues?: boolean;
	testWith?: 'report' | 'import';
	testReportId?: string;
	testRecordTypeId?: string;
}

export interface RunNodeOptions {
	nodeType: INodeType;
	parameters: INodeParameters;
	credentials?: RecordsCredentialData;
	/** Items the start node emits into the node under test; default one empty item. */
	input?: Array<IDataObject | INodeExecutionData>;
	/**
	 * Hand the input items to the engine as they are, like n8n hands a node the previous node's
	 * output, instead of a deep copy (the default, which keeps a test's own data out of reach of the
	 * node). For benchmarks: the copy doubles the input in memory, which n8n does not.
	 */
	shareInput?: boolean;
	continueOnFail?: boolean;
	/** n8n's Retry On Fail in the node's settings: n8n runs the node again after it failed. */
	retryOnFail?: { maxTries: number; waitBetweenTries: number };
	typeVersion?: number;
	nodeName?: string;
}

export interface RunNodeResult {
	/** The node's first output. */
	items: INodeExecutionData[];
	outputs: INodeExecutionData[][];
	/** The error the node threw, when the run failed. */
	error?: ExecutionBaseError;
	executionTimeMs: number;
	/** The whole run as n8n records it, for assertions the fields above do not cover. */
	run: IRun;
}

export interface RunPollOptions {
	nodeType: INodeType;
	parameters: INodeParameters;
	credentials?: RecordsCredentialData;
	/** The workflow's static data; pass the object returned by the previous call to persist it. */
	staticData?: IDataObject;
	mode?: 'trigger' | 'manual';
	nodeName?: string;
	typeVersion?: number;
	/**
	 * The workflow polled. By default every call polls a workflow of its own, as if each poll ran in
	 * a separate n8n process: what a node keeps in its process (the Report Trigger's running polls)
	 * is not shared. Polls given the same id share it, as polls of one n8n do.
	 */
	workflowId?: string;
	/**
	 * What `getPollBudgetMs()` answers (n8n's durable scheduler gives a poll its budget this way);
	 * n8n-core's default otherwise; null: the poll has no `getPollBudgetMs` at all, as on n8n 1.x.
	 */
	pollBudgetMs?: number | null;
	/** The node's id; polls of one node keep it (a renamed node too), a copied workflow's node may not. */
	nodeId?: string;
	/**
	 * Answers the node's HTTP requests in place of n8n's HTTP client (a service simulated in memory,
	 * for tests that poll thousands of times); real HTTP otherwise.
	 */
	httpRequest?: (options: IHttpRequestOptions) => Promise<unknown>;
	/**
	 * Return the workflow's static data as the poll left it, without the copy made otherwise (a
	 * benchmark measuring the poll's memory); n8n serializes it only to save it, when it changed.
	 */
	liveStaticData?: boolean;
}

let pollWorkflows = 0;

export interface RunPollResult {
	items: INodeExecutionData[] | null;
	staticData: IDataObject;
	/** Whether the poll changed the static data: n8n saves it after the poll only then. */
	staticDataChanged: boolean;
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

const CREDENTIAL_ID = 'records-credential';
const CREDENTIAL_NAME = 'Records account';
const START_NODE_NAME = 'When clicking "Execute workflow"';
const START_NODE_TYPE = 'harness.manualStart';

export function loadCredentialType(): ICredentialType {
	return new RecordsApi();
}

/**
 * The credential data n8n hands to nodes: the stored values with the type's defaults filled in,
 * as n8n's CredentialsHelper.applyDefaultsAndOverwrites does (there are no overwrites here).
 */
function withCredentialDefaults(
	type: ICredentialType,
	data: ICredentialDataDecryptedObject,
): ICredentialDataDecryptedObject {
	const resolved = NodeHelpers.getNodeParameters(
		type.properties,
		deepCopy(data) as INodeParameters,
		true,
		false,
		null,
		null,
	);
	return (resolved ?? {}) as ICredentialDataDecryptedObject;
}

/** A credential of one execution: its type and its stored, decrypted values. */
export interface StoredCredential {
	type: ICredentialType;
	data: ICredentialDataDecryptedObject;
}

/**
 * Serves the credential data of one execution. Authentication calls the credential type's own
 * `authenticate`, as n8n's CredentialsHelper does for function-style authentication.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly stored: Map<string, StoredCredential>;

	constructor(credentials: StoredCredential[]) {
		super();
		this.stored = new Map(credentials.map((entry) => [entry.type.name, entry]));
	}

	private entry(typeName: string): StoredCredential {
		const entry = this.stored.get(typeName);
		if (!entry) throw new UnexpectedError(`Unknown credential type "${typeName}"`);
		return entry;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.entry(typeName).type;
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate !== undefined) {
			throw new UnexpectedError(
				`The harness only supports function-style authenticate; "${typeName}" declares a generic one`,
			);
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		throw new UnexpectedError(
			`Encrypted credentials are not available in the harness (${type} "${nodeCredentials.name}")`,
		);
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const entry = this.stored.get(type);
		if (entry === undefined) {
			throw new UnexpectedError(`No credential of type "${type}" named "${nodeCredentials.name}"`);
		}
		return withCredentialDefaults(entry.type, entry.data);
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.entry(type).type.properties;
	}
}

let containerReady = false;

/**
 * n8n-core resolves its services (instance settings, logger, outbound HTTP, error reporter) from
 * its DI container. They are the real ones; only the settings folder is moved to a temporary
 * directory, so that nothing is written to the user's home folder, and n8n's log is silent unless
 * N8N_LOG_LEVEL asks for it (the error reporter logs every node error, which would drown the test
 * output).
 */
export function prepareContainer(): void {
	if (containerReady) return;
	const config = new InstanceSettingsConfig();
	const n8nFolder = mkdtempSync(join(tmpdir(), 'records-harness-'));
	Object.assign(config, { n8nFolder, userHome: n8nFolder, enforceSettingsFilePermissions: false });
	Container.set(InstanceSettingsConfig, config);
	if (process.env.N8N_LOG_LEVEL === undefined) Container.get(GlobalConfig).logging.level = 'silent';
	containerReady = true;
}

export interface AdditionalDataOptions {
	hooks?: ExecutionLifecycleHooks;
	/** The n8n instance's address, for the URLs n8n hands to nodes; default `http://localhost:5678`. */
	baseUrl?: string;
}

/** What n8n passes to every execution besides the workflow: credentials, hooks, its URLs. */
export function additionalDataFor(
	credentialsHelper: ICredentialsHelper,
	{ hooks, baseUrl = 'http://localhost:5678' }: AdditionalDataOptions = {},
): IWorkflowExecuteAdditionalData {
	const unsupported = (what: string) => async () => {
		throw new UnexpectedError(`${what} is not available in the test harness`);
	};
	const additionalData: IWorkflowExecuteAdditionalData = {
		credentialsHelper,
		hooks,
		// Without a secrets manager, as in an n8n without external secrets configured.
		externalSecretsProxy: new ExternalSecretsProxy(),
		executionId: `harness-${randomUUID()}`,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${baseUrl}/rest`,
		instanceBaseUrl: `${baseUrl}/`,
		formBaseUrl: `${baseUrl}/form`,
		formWaitingBaseUrl: `${baseUrl}/form-waiting`,
		formTestBaseUrl: `${baseUrl}/form-test`,
		webhookBaseUrl: `${baseUrl}/webhook`,
		webhookWaitingBaseUrl: `${baseUrl}/webhook-waiting`,
		webhookTestBaseUrl: `${baseUrl}/webhook-test`,
		mcpBaseUrl: `${baseUrl}/mcp`,
		mcpTestBaseUrl: `${baseUrl}/mcp-test`,
		variables: {},
		executeWorkflow: unsupported('Executing sub-workflows'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: unsupported('The task runner'),
	};
	return additionalData;
}

/**
 * INodeTypes over the given types, looked up by their description name like n8n's node registry
 * (versioned types resolved by NodeHelpers.getVersionedNodeType).
 */
export function nodeTypesFor(...types: Array<INodeType | IVersionedNodeType>): INodeTypes {
	const byName = new Map<string, INodeType | IVersionedNodeType>();
	for (const type of types) byName.set(type.description.name, type);
	return {
		getByName(name) {
			const type = byName.get(name);
			if (!type) throw new UnexpectedError(`Unknown node type "${name}"`);
			return type;
		},
		getByNameAndVersion(name, version) {
			const type = byName.get(name);
			if (!type) throw new UnexpectedError(`Unknown node type "${name}"`);
			return NodeHelpers.getVersionedNodeType(type, version);
		},
		getKnownTypes() {
			return Object.fromEntries(
				[...byName.keys()].map((name) => [name, { className: name, sourcePath: '' }]),
			);
		},
	};
}

function toExecutionItem(item: IDataObject | INodeExecutionData): INodeExecutionData {
	const keys = Object.keys(item);
	const isExecutionItem =
		typeof item.json === 'object' &&
		item.json !== null &&
		!Array.isArray(item.json) &&
		keys.every((key) => ['json', 'binary', 'pairedItem', 'error'].includes(key));
	return deepCopy(isExecutionItem ? (item as INodeExecutionData) : { json: item as IDataObject });
}

/**
 * A start node that behaves like n8n's Manual Trigger: run in manual mode, the engine calls its
 * trigger function and it emits the given items.
 */
function manualStartType(items: INodeExecutionData[]): INodeType {
	return {
		description: {
			displayName: 'Manual Start',
			name: START_NODE_TYPE,
			group: ['trigger'],
			version: 1,
			description: 'Starts the test workflow with the given items',
			defaults: { name: START_NODE_NAME },
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		},
		async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
			const manualTriggerFunction = async () => {
				this.emit([items]);
			};
			return { manualTriggerFunction };
		},
	};
}

function latestVersion(type: INodeType | IVersionedNodeType): number {
	const { version } = type.description as { version: number | number[] };
	return Array.isArray(version) ? Math.max(...version) : version;
}

/** The node under test as the workflow holds it: its type at the asked (or latest) version, a copy of its parameters. */
function nodeUnderTest(
	options: Pick<RunNodeOptions, 'nodeType' | 'parameters' | 'typeVersion'>,
	id: string,
	name: string,
	credentials: INode['credentials'],
): INode {
	return {
		id,
		name,
		type: options.nodeType.description.name,
		typeVersion: options.typeVersion ?? latestVersion(options.nodeType),
		position: [0, 0],
		parameters: deepCopy(options.parameters),
		credentials,
	};
}

function credentialsFor(
	nodeType: INodeType,
	data: RecordsCredentialData | undefined,
): { stored: StoredCredential[]; refs: INode['credentials'] } {
	if (!data) return { stored: [], refs: undefined };
	const type = loadCredentialType();
	const typeName = type.name;
	const usesIt = (nodeType.description.credentials ?? []).some((c) => c.name === typeName);
	if (!usesIt) {
		throw new UnexpectedError(
			`Node type "${nodeType.description.name}" does not declare the "${typeName}" credential`,
		);
	}
	return {
		stored: [{ type, data: { ...data } }],
		refs: { [typeName]: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
	};
}

/**
 * The node type with its execute() observed: the engine keeps only a plain copy of a thrown error
 * in the run data, and tests want the error object itself (its class, its fields).
 */
function observingErrors(nodeType: INodeType, onError: (error: unknown) => void): INodeType {
	const { execute } = nodeType;
	if (!execute) return nodeType;
	const observed = Object.create(nodeType) as INodeType;
	observed.execute = async function (this: IExecuteFunctions) {
		try {
			return await execute.call(this);
		} catch (error) {
			onError(error);
			throw error;
		}
	} as INodeType['execute'];
	return observed;
}

/**
 * The tool variant of a node type as n8n names it (`<name>Tool`), which is how the node and n8n's
 * `@tool` display option tell tool use. The harness runs it as a workflow node, the way n8n 2.x runs
 * a tool node an AI Agent calls; `$fromAI()` values come from the input item, as there.
 */
export function toolVariant(nodeType: INodeType): INodeType {
	const variant = Object.create(nodeType) as INodeType;
	variant.description = { ...nodeType.description, name: `${nodeType.description.name}Tool` };
	return variant;
}

/**
 * Runs `nodeType` in a two-node workflow (manual start → node) through n8n's WorkflowExecute, the
 * way n8n runs a workflow started by hand in the editor. Rejects with n8n's WorkflowHasIssuesError,
 * before any request, when the node's parameters fail its description's own checks.
 */
export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	prepareContainer();
	const nodeName = options.nodeName ?? options.nodeType.description.defaults.name ?? 'Node';
	const input = options.shareInput
		? (options.input as INodeExecutionData[] | undefined) ?? [{ json: {} }]
		: (options.input ?? [{}]).map(toExecutionItem);
	const startType = manualStartType(input);
	const { stored, refs } = credentialsFor(options.nodeType, options.credentials);
	let thrown: unknown;

	const startNode: INode = {
		id: 'start',
		name: START_NODE_NAME,
		type: START_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const node: INode = {
		...nodeUnderTest(options, 'node-under-test', nodeName, refs),
		position: [200, 0],
		...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		...(options.retryOnFail ? { retryOnFail: true, ...options.retryOnFail } : {}),
	};
	const connections = {
		[START_NODE_NAME]: {
			[NodeConnectionTypes.Main]: [[{ node: nodeName, type: NodeConnectionTypes.Main, index: 0 }]],
		},
	};
	const workflow = new Workflow({
		id: 'harness-workflow',
		name: 'Harness workflow',
		nodes: [startNode, node],
		connections,
		active: false,
		nodeTypes: nodeTypesFor(startType, observingErrors(options.nodeType, (e) => (thrown = e))),
		settings: { executionOrder: 'v1' },
	});
	const workflowData: IWorkflowBase = {
		id: workflow.id,
		name: workflow.name ?? '',
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: [startNode, node],
		connections,
		settings: workflow.settings,
	};
	const mode: WorkflowExecuteMode = 'manual';
	const hooks = new ExecutionLifecycleHooks(mode, 'harness-execution', workflowData);
	const additionalData = additionalDataFor(new HarnessCredentialsHelper(stored), { hooks });

	const started = performance.now();
	const run = await new WorkflowExecute(additionalData, mode).run({ workflow, startNode });
	const executionTimeMs = performance.now() - started;

	const task = run.data.resultData.runData[nodeName]?.[0];
	const outputs = task?.data?.[NodeConnectionTypes.Main]?.map((items) => items ?? []) ?? [];
	const recorded = task?.error ?? run.data.resultData.error;
	const error =
		recorded === undefined
			? undefined
			: thrown instanceof ExecutionBaseError
				? thrown
				: recorded;
	return { items: outputs[0] ?? [], outputs, error, executionTimeMs, run };
}

/**
 * Calls the node's poll() once through n8n-core's PollContext and TriggersAndPollers, as an
 * active workflow's poll tick (mode "trigger") or the editor's "Fetch test event" (mode "manual").
 * The workflow's static data lives in the Workflow object, as in n8n; the returned copy carries
 * it to the next call.
 */
export async function runPoll(options: RunPollOptions): Promise<RunPollResult> {
	prepareContainer();
	const nodeName = options.nodeName ?? options.nodeType.description.defaults.name ?? 'Trigger';
	const { stored, refs } = credentialsFor(options.nodeType, options.credentials);
	const node = nodeUnderTest(options, options.nodeId ?? 'poll-node', nodeName, refs);
	const workflow = new Workflow({
		id: options.workflowId ?? `harness-poll-workflow-${++pollWorkflows}`,
		name: 'Harness poll workflow',
		nodes: [node],
		connections: {},
		active: options.mode !== 'manual',
		nodeTypes: nodeTypesFor(options.nodeType),
		staticData: deepCopy(options.staticData ?? {}),
	});
	const additionalData = additionalDataFor(new HarnessCredentialsHelper(stored));
	const manual = options.mode === 'manual';
	const context = new PollContext(
		workflow,
		workflow.getNode(nodeName) ?? node,
		additionalData,
		manual ? 'manual' : 'trigger',
		manual ? 'manual' : 'activate',
		undefined,
		undefined,
		undefined,
		undefined,
		undefined,
		typeof options.pollBudgetMs === 'number' ? () => options.pollBudgetMs as number : undefined,
	);
	// n8n 1.x: its poll functions have no budget to ask for.
	if (options.pollBudgetMs === null) Reflect.deleteProperty(context, 'getPollBudgetMs');
	const { httpRequest } = options;
	if (httpRequest !== undefined) {
		context.helpers.httpRequestWithAuthentication = async (_type: string, request: IHttpRequestOptions) =>
			await httpRequest(request);
	}
	const result = await Container.get(TriggersAndPollers).runPollFunction(
		workflow,
		workflow.getNode(nodeName) ?? node,
		context,
	);
	const staticDataChanged = (workflow.staticData as { __dataChanged?: boolean }).__dataChanged === true;
	return {
		items: result === null ? null : (result[0] ?? []),
		// A plain copy without ObservableObject's change markers, as n8n stores it.
		staticData: options.liveStaticData === true ? workflow.staticData : (JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject),
		staticDataChanged,
	};
}

export interface RunLoadOptionsOptions {
	nodeType: INodeType;
	/** The name of the method under the node's methods.loadOptions. */
	method: string;
	/** The node's parameters as the editor holds them when it loads the list. */
	parameters: INodeParameters;
	credentials?: RecordsCredentialData;
	typeVersion?: number;
}

/**
 * Loads a dropdown's options as the editor does: the node's loadOptions method called in n8n-core's
 * LoadOptionsContext, with the node's current parameters and its credentials.
 */
export async function runLoadOptions(options: RunLoadOptionsOptions): Promise<INodePropertyOptions[]> {
	prepareContainer();
	const method = options.nodeType.methods?.loadOptions?.[options.method];
	if (method === undefined) throw new Error(`The node has no loadOptions method "${options.method}"`);
	const { stored, refs } = credentialsFor(options.nodeType, options.credentials);
	const node: INode = {
		id: 'load-options-node',
		name: options.nodeType.description.defaults.name ?? 'Node',
		type: options.nodeType.description.name,
		typeVersion: options.typeVersion ?? latestVersion(options.nodeType),
		position: [0, 0],
		parameters: deepCopy(options.parameters),
		credentials: refs,
	};
	const workflow = new Workflow({
		name: 'Harness load options workflow',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: nodeTypesFor(options.nodeType),
	});
	const additionalData = additionalDataFor(new HarnessCredentialsHelper(stored));
	// What the editor sends: the parameters as the user set them.
	additionalData.currentNodeParameters = deepCopy(options.parameters);
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters');
	return await method.call(context);
}

/** A value at a dotted path, as lodash's get() reads the keys of responseSuccessBody rules. */
function valueAtPath(value: unknown, path: string): unknown {
	let current = value;
	for (const key of path.split('.')) {
		// As lodash's get, which n8n uses: a string's or a number's own properties are read too.
		if (current === null || current === undefined) return undefined;
		current = (Object(current) as Record<string, unknown>)[key];
	}
	return current;
}

/** Stands in for n8n-nodes-base.noOp, the node n8n's credentials tester borrows. */
const NO_OP_TYPE: INodeType = {
	description: {
		displayName: 'No Operation, do nothing',
		name: 'n8n-nodes-base.noOp',
		group: ['organization'],
		version: 1,
		description: 'No Operation',
		defaults: { name: 'No Operation, do nothing' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
};

/**
 * Tests credential data with the credential type's declarative `test`, following n8n's
 * CredentialsTester: the test request is the routing of a temporary node's only property, run by
 * RoutingNode in an ExecuteContext, and failed requests are matched against the rules by status.
 */
export async function testCredential(data: RecordsCredentialData): Promise<CredentialTestResult> {
	prepareContainer();
	const credentialType = loadCredentialType();
	const typeName = credentialType.name;
	const { test } = credentialType;
	if (!test) return { status: 'Error', message: 'No testing function found for this credential.' };

	const stored: StoredCredential[] = [{ type: credentialType, data: { ...data } }];
	const credentialsDecrypted: ICredentialsDecrypted = {
		id: CREDENTIAL_ID,
		name: CREDENTIAL_NAME,
		type: typeName,
		data: withCredentialDefaults(credentialType, stored[0].data),
	};

	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: NO_OP_TYPE.description.name,
		typeVersion: latestVersion(NO_OP_TYPE),
		position: [0, 0],
		credentials: { [typeName]: { id: CREDENTIAL_ID, name: CREDENTIAL_NAME } },
	};
	const testNodeType: INodeType = {
		description: {
			...NO_OP_TYPE.description,
			credentials: [{ name: typeName, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.request },
					default: '',
				},
			],
		},
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: nodeTypesFor(testNodeType),
	});
	const additionalData = additionalDataFor(new HarnessCredentialsHelper(stored));
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData({ resultData: { runData: {} } }),
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	const routingNode = new RoutingNode(context, testNodeType, credentialsDecrypted);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await routingNode.runNode();
	} catch (caught) {
		const error = caught as {
			message?: unknown;
			cause?: { code?: unknown; response?: { status: number; statusText?: string } };
		};
		const response = error.cause?.response;
		if (response) {
			for (const rule of test.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === response.status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (response.status < 199 || response.status > 299) {
				return {
					status: 'Error',
					message: response.statusText || `Received HTTP status code: ${response.status}`,
				};
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: String(error.cause.code) };
		}
		return { status: 'Error', message: String(error.message) };
	}
	for (const rule of test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const body = response?.[0]?.[0]?.json;
		if (valueAtPath(body, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
