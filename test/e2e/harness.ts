/* eslint-disable @n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside
	n8n (`process`) */
import type { WorkflowJson } from '../../tooling/n8n/n8nInstance';
import { packageNodeVersions } from '../../tooling/n8n/nodeVersions';
import { installedRuntime, runtimeSpec, type Runtime } from '../../tooling/n8n/runtime';
import { runtimeNamesUnderTest } from './setup';

export { e2eDir, type E2eSetup, readSetup, runtimeNamesUnderTest, writeSetup } from './setup';

/** Installed runtimes under test, as [title, runtime] rows for describe.each. */
export function runtimesUnderTest(): Array<[string, Runtime]> {
	return runtimeNamesUnderTest().map((name) => {
		const runtime = installedRuntime(runtimeSpec(name));
		if (!runtime) throw new Error(`n8n runtime ${name} is not installed; run \`npm run e2e:install -- ${name}\`.`);
		const node = runtime.spec.node === 'system' ? process.versions.node : runtime.spec.node.version;
		return [`n8n ${runtime.spec.n8nVersion} on Node.js ${node}`, runtime];
	});
}

/**
 * A node for workflow(): a node of this package at its version and any other at 1 unless given,
 * positioned and given an id automatically.
 */
export interface NodeSpec {
	name: string;
	type: string;
	typeVersion?: number;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	id?: string;
}

/** A workflow whose nodes run one after another, in the order given (the first is the trigger). */
export function workflow(id: string, name: string, nodes: NodeSpec[]): WorkflowJson {
	const connections: Record<string, unknown> = {};
	nodes.slice(1).forEach((node, index) => {
		connections[nodes[index].name] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
	});
	return {
		id,
		name,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: nodes.map((node, index) => ({
			typeVersion: packageNodeVersions()[node.type] ?? 1,
			...node,
			id: node.id ?? `${id}-${index}`,
			position: [index * 220, 0],
		})),
		connections,
	};
}

export const manualTrigger: NodeSpec = { name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} };
