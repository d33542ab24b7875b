/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside n8n (Node.js's
	modules, `process`) */
/**
 * What the end-to-end tests' global setup prepares and the tests read: the runtimes under test and
 * the packed package. Apart from harness.ts because the global setup runs outside jest's module
 * system, where `import … from '…/Records.node'` finds the node's `.node.json` codex file before its
 * `.ts` source: nothing here may import a node.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { PackedPackage } from '../../tooling/n8n/package';
import { cacheDir } from '../../tooling/lib/paths';
import { RUNTIMES, runtimeSpec } from '../../tooling/n8n/runtime';

export const e2eDir = join(cacheDir, 'e2e');
const setupFile = join(e2eDir, 'setup.json');

export interface E2eSetup {
	packed: PackedPackage;
}

/** The n8n releases to test against: E2E_RUNTIMES (comma-separated names), default all of them. */
export function runtimeNamesUnderTest(): string[] {
	const names = (process.env.E2E_RUNTIMES ?? Object.keys(RUNTIMES).join(','))
		.split(',')
		.map((name) => name.trim())
		.filter(Boolean);
	names.forEach(runtimeSpec);
	return names;
}

export function writeSetup(setup: E2eSetup): void {
	mkdirSync(e2eDir, { recursive: true });
	writeFileSync(setupFile, JSON.stringify(setup, null, '\t'));
}

/** What the global setup prepared for this run (the packed package). */
export function readSetup(): E2eSetup {
	return JSON.parse(readFileSync(setupFile, 'utf8')) as E2eSetup;
}
