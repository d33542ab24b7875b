/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `process`) */
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import { join } from 'node:path';

import { repoRoot } from '../../lib/paths';
import { RUNTIMES } from '../../n8n/runtime';

export interface Machine {
	cpu: string;
	cores: number;
	memoryGiB: number;
	os: string;
	/** Node.js running the benchmark's own processes (raw clients and in-process node runs). */
	node: string;
	/** n8n-core / n8n-workflow used by the in-process execution harness. */
	n8nCore: string;
	n8nWorkflow: string;
	/** The real n8n release the n8n comparisons run on, and its Node.js. */
	n8n: string;
	n8nNode: string;
	axios: string;
	autocannon: string;
}

function installedVersion(name: string): string {
	try {
		const pkg = JSON.parse(readFileSync(join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
		return pkg.version;
	} catch {
		return 'not installed';
	}
}

export function describeMachine(): Machine {
	const cpus = os.cpus();
	const real = RUNTIMES.v2;
	return {
		cpu: cpus[0]?.model.trim() ?? 'unknown',
		cores: cpus.length,
		memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
		os: `${os.type()} ${os.release()} (${os.arch()})`,
		node: process.version,
		n8nCore: installedVersion('n8n-core'),
		n8nWorkflow: installedVersion('n8n-workflow'),
		n8n: real.n8nVersion,
		n8nNode: typeof real.node === 'string' ? process.version : `v${real.node.version}`,
		axios: installedVersion('axios'),
		autocannon: installedVersion('autocannon'),
	};
}
