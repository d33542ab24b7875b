/**
 * What `npm start` tells the user: how long a first start takes, before it starts, and once
 * everything runs, where to go and every demo secret a user needs (the sandbox's tokens, the
 * credentials' values), so that nobody has to look for them in files. Builds text only.
 */
import {
	EXAMPLE_CALLER,
	EXAMPLE_CALLER_CREDENTIAL,
	EXAMPLE_CREDENTIAL,
	EXAMPLE_MCP_CREDENTIAL,
	EXAMPLE_MCP_PATH,
	EXAMPLE_N8N_URL,
} from './examples/examples';
import type { RuntimeSpec } from './n8n/runtime';
import { RECORD_TYPES, REPORTS, TOKEN_DEFINITIONS, TOKENS } from './sandbox/seeds';

/**
 * Said before the first start installs n8n. The time was measured: 12 min 44 s for `npm start` on a
 * loaded 2-core machine with an empty npm cache (download 6 min 30 s, compile 4 min 11 s).
 */
export function firstStartNotice(spec: RuntimeSpec): string {
	return (
		`first start: n8n ${spec.n8nVersion} is installed into .cache/ once (about 1 GB downloaded, ${spec.diskGb} GB written). ` +
		'That took 13 minutes on a busy 2-core machine with an empty npm cache (downloading 6, compiling 4); later starts take seconds.'
	);
}

export interface Demo {
	url: string;
	owner: { email: string; password: string };
	sandboxUrl: string;
	sandboxCaFile: string;
	examples: number;
	standInsUrl: string;
	mcpToken: string;
	serverLog: string;
}

/** What `npm start` prints once everything runs: where to go, and every demo secret a user needs. */
export function readyText(demo: Demo): string {
	const tokens = TOKEN_DEFINITIONS.map(({ name, token }) => `${name}: ${token}`);
	return [
		'',
		`  n8n:              ${demo.url}`,
		`  sign in as:       ${demo.owner.email} / ${demo.owner.password}`,
		`  examples:         ${demo.examples} workflows, already imported and active (Overview); importing one again clashes with its active copy. How to try each: examples/README.md`,
		'  credentials:',
		`    "${EXAMPLE_CREDENTIAL.name}"  Records API: ${demo.sandboxUrl}, token ${TOKENS.full} (import and analysis); its connection test reads the report ${REPORTS.costs}`,
		`    "${EXAMPLE_CALLER_CREDENTIAL.name}"  Records Trigger Basic Auth: user ${EXAMPLE_CALLER.user}, password ${EXAMPLE_CALLER.password}`,
		`    "${EXAMPLE_MCP_CREDENTIAL.name}"  the MCP server's bearer token: ${demo.mcpToken}`,
		`  Records sandbox:  ${demo.sandboxUrl}  (HTTPS; record types ${Object.values(RECORD_TYPES).join(', ')} and the examples'; reports ${Object.values(REPORTS).join(', ')})`,
		`  sandbox tokens:   ${tokens.slice(0, 3).join(', ')}`,
		`                    ${tokens.slice(3).join(', ')}`,
		`  sandbox CA:       ${demo.sandboxCaFile}  (n8n runs with NODE_EXTRA_CA_CERTS set to it; for curl: --cacert ${demo.sandboxCaFile})`,
		`  stand-ins:        ${demo.standInsUrl}  (what the examples sent: ${demo.standInsUrl}/__received)`,
		`  MCP server:       ${demo.url}/mcp/${EXAMPLE_MCP_PATH}  (header Authorization: Bearer ${demo.mcpToken}; see examples/README.md)`,
		...(new URL(EXAMPLE_N8N_URL).port === new URL(demo.url).port
			? []
			: [`  note:             the call files in examples/sandbox call ${EXAMPLE_N8N_URL}; change their url to ${demo.url}`]),
		`  logs:             ${demo.serverLog}`,
		'',
		'  Press Ctrl-C to stop.',
		'',
	].join('\n');
}

