import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { CredentialJson, WorkflowJson } from './n8n';
import { repoRoot } from './paths';

export const examplesDir = join(repoRoot, 'examples');

/**
 * Id and name by which the example workflows refer to their Records API credential. `npm start`
 * and the end-to-end tests create a credential under this id pointing at the Records sandbox.
 */
export const EXAMPLE_CREDENTIAL = { id: 'RecordsSandbox01', name: 'Records sandbox' } as const;

/** The credential the examples use, pointing at a running Records sandbox. */
export function exampleCredential(sandboxBaseUrl: string, token: string): CredentialJson {
	return {
		...EXAMPLE_CREDENTIAL,
		type: 'recordsApi',
		data: { baseUrl: sandboxBaseUrl, token, allowHttp: true },
	};
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
