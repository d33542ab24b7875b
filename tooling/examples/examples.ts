/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { CredentialJson, WorkflowJson } from '../n8n/n8nInstance';
import { repoRoot } from '../lib/paths';
import { requestText } from '../lib/request';
import { REPORTS } from '../sandbox/seeds';
import { OUTSIDE_SYSTEMS } from './stand-ins';

export const examplesDir = join(repoRoot, 'examples');

/** The Records service's side of the examples: record types and call API actions, for the sandbox. */
export const exampleServiceDir = join(examplesDir, 'sandbox');

/**
 * Id and name by which the example workflows refer to their Records API credential. `npm start`
 * and the end-to-end tests create a credential under this id pointing at the Records sandbox.
 */
export const EXAMPLE_CREDENTIAL = { id: 'RecordsSandbox01', name: 'Records sandbox' } as const;

/**
 * Id and name by which the Records Trigger examples refer to the Basic Auth credential the
 * service's calls must carry, and its values (those of the call files in examples/sandbox).
 */
export const EXAMPLE_CALLER_CREDENTIAL = { id: 'RecordsCalls01', name: 'Records service calls' } as const;
export const EXAMPLE_CALLER = { user: 'records-service', password: 'demo-password-for-calls' } as const;

/**
 * Id and name by which the MCP example refers to the Bearer credential its MCP clients must send.
 * The token is made per installation (`npm start` keeps its own; the tests make theirs).
 */
export const EXAMPLE_MCP_CREDENTIAL = { id: 'RecordsMcp01', name: 'Records MCP clients' } as const;

/** The MCP example's path: its tools are served at `<n8n>/mcp/records-tools`. */
export const EXAMPLE_MCP_PATH = 'records-tools';

/** A token for the MCP example's Bearer credential, too long to guess. */
export function newMcpToken(): string {
	return randomBytes(24).toString('base64url');
}

/** The n8n address the call files of examples/sandbox use: `npm start`'s default. */
export const EXAMPLE_N8N_URL = 'http://127.0.0.1:5678';

/**
 * The credential the examples use, pointing at a running Records sandbox: Allow Plain HTTP only when
 * the sandbox serves plain HTTP (over HTTPS, n8n trusts the sandbox's CA through NODE_EXTRA_CA_CERTS).
 * It names a report the sandbox shares for the connection test, so that opening it in the editor
 * shows a passing test.
 */
export function exampleCredential(sandboxBaseUrl: string, token: string): CredentialJson {
	return {
		...EXAMPLE_CREDENTIAL,
		type: 'recordsApi',
		data: {
			baseUrl: sandboxBaseUrl,
			token,
			allowHttp: sandboxBaseUrl.startsWith('http://'),
			testWith: 'report',
			testReportId: REPORTS.costs,
		},
	};
}

/** The credential the Records Trigger examples check the service's calls against. */
export function exampleCallerCredential(): CredentialJson {
	return { ...EXAMPLE_CALLER_CREDENTIAL, type: 'recordsTriggerBasicAuthApi', data: { ...EXAMPLE_CALLER } };
}

/** The Bearer credential the MCP example's clients must present (`Authorization: Bearer <token>`). */
export function exampleMcpCredential(token: string): CredentialJson {
	return { ...EXAMPLE_MCP_CREDENTIAL, type: 'httpBearerAuth', data: { token } };
}

/** The example workflows; a file without an id gets one derived from its name, so re-imports replace it. */
export function readExamples(): Array<WorkflowJson & { file: string }> {
	if (!existsSync(examplesDir)) return [];
	return readdirSync(examplesDir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => {
			const workflow = JSON.parse(readFileSync(join(examplesDir, file), 'utf8')) as WorkflowJson;
			const id = workflow.id || `ex${createHash('sha1').update(file).digest('hex').slice(0, 14)}`;
			return { ...workflow, id, active: false, file };
		});
}

/** The examples as n8n imports them: the file names readExamples() adds are not part of a workflow. */
export function exampleWorkflows(): WorkflowJson[] {
	return readExamples().map((example) => {
		const workflow: WorkflowJson & { file?: string } = { ...example };
		delete workflow.file;
		return workflow;
	});
}

/**
 * The nodes of this package in the examples that are not at `current[type]`, the node type's
 * version: new users copy the examples. Each as a sentence naming the file, the node and both versions.
 */
export function outdatedExampleNodes(current: Readonly<Record<string, number>>): string[] {
	return readExamples().flatMap((example) =>
		example.nodes
			.filter((node) => node.type in current && node.typeVersion !== current[node.type])
			.map((node) => `${example.file}: "${node.name}" (${node.type}) is at version ${node.typeVersion}, not ${current[node.type]}`),
	);
}

/**
 * A copy of an example (or of a call file) whose addresses of outside systems (the accounting
 * system, the chat, the ERP, the spreadsheet, the registry ARES) point at their local stand-ins.
 */
export function localizeExample<T>(example: T, standInsBaseUrl: string): T {
	let text = JSON.stringify(example);
	for (const system of OUTSIDE_SYSTEMS) text = text.split(system.address).join(`${standInsBaseUrl}${system.standIn}`);
	return JSON.parse(text) as T;
}

/**
 * What `npm start` and the end-to-end tests import into n8n: the credentials the examples refer to
 * (the Records API one pointing at the sandbox with the given token, the MCP example's with
 * `mcpToken`) and the example workflows, their outside systems pointed at the stand-ins.
 */
export function exampleImports(
	sandboxBaseUrl: string,
	token: string,
	standInsBaseUrl: string,
	mcpToken = newMcpToken(),
): { credentials: CredentialJson[]; workflows: WorkflowJson[] } {
	return {
		credentials: [exampleCredential(sandboxBaseUrl, token), exampleCallerCredential(), exampleMcpCredential(mcpToken)],
		workflows: exampleWorkflows().map((workflow) => localizeExample(workflow, standInsBaseUrl)),
	};
}

/** A call API action of examples/sandbox (call-<name>.json), as the sandbox's outbound/call takes it, calling the given n8n. */
export function readServiceCall(name: string, n8nBaseUrl: string): Record<string, unknown> {
	const text = readFileSync(join(exampleServiceDir, `call-${name}.json`), 'utf8');
	return JSON.parse(text.split(EXAMPLE_N8N_URL).join(n8nBaseUrl.replace(/\/$/, ''))) as Record<string, unknown>;
}

interface ServiceSetup {
	recordTypes: Array<Record<string, unknown> & { id: string }>;
	customFields: Array<{ recordTypeId: string; fields: string[] }>;
	imports: Array<{ recordTypeId: string; data: Array<Record<string, string>> }>;
}

/**
 * Configures a running Records sandbox as examples/sandbox/setup.json describes: the custom record
 * types and fields the examples use, and records imported through the API with the given token.
 * `ca`: the sandbox's CA certificate when it serves HTTPS.
 */
export async function prepareSandboxForExamples(sandboxBaseUrl: string, importToken: string, ca?: string): Promise<void> {
	const setup = JSON.parse(readFileSync(join(exampleServiceDir, 'setup.json'), 'utf8')) as ServiceSetup;
	const send = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
		const response = await requestText(`${sandboxBaseUrl}${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify(body),
			ca,
		});
		if (response.status < 200 || response.status >= 300) {
			throw new Error(`Setting up the sandbox for the examples: POST ${path} answered ${response.status}: ${response.text}`);
		}
	};
	for (const recordType of setup.recordTypes) await send('/__sandbox/record-types', recordType);
	for (const { recordTypeId, fields } of setup.customFields) {
		await send(`/__sandbox/record-types/${encodeURIComponent(recordTypeId)}/fields`, { fields });
	}
	for (const { recordTypeId, data } of setup.imports) {
		await send(`/api/3p/import/${encodeURIComponent(recordTypeId)}`, { data }, { authorization: `Bearer ${importToken}` });
	}
}
