/**
 * An MCP client of the MCP example (examples/06-…), as an AI agent's host connects to it, and how
 * its tool results read: shared by mcp.e2e.ts (single n8n) and queue.e2e.ts (the tools run by the
 * worker).
 */
// The SDK's subpaths without `.js`: its `exports` then name its type declarations (which ESLint's
// import resolver checks), and Jest, which runs this file, finds the CommonJS module.
import { Client } from '@modelcontextprotocol/sdk/client/index';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp';

import { EXAMPLE_MCP_PATH } from '../../tooling/examples/examples';

export const MCP_EXAMPLE_FILE = '06-records-tools-for-ai-agents-mcp.json';

/** Where the example serves its tools on an n8n. */
export const mcpUrl = (n8nBaseUrl: string) => new URL(`${n8nBaseUrl}/mcp/${EXAMPLE_MCP_PATH}`);

/** A client connected with the Bearer token the example's credential holds. */
export async function connectMcp(n8nBaseUrl: string, token: string, transport: 'http' | 'sse' = 'http'): Promise<Client> {
	const headers = { authorization: `Bearer ${token}` };
	const url = mcpUrl(n8nBaseUrl);
	const client = new Client({ name: 'records-e2e', version: '1.0.0' });
	await client.connect(
		transport === 'http'
			? new StreamableHTTPClientTransport(url, { requestInit: { headers } })
			: new SSEClientTransport(url, {
					requestInit: { headers },
					eventSourceInit: { fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, ...headers } }) },
				}),
	);
	return client;
}

/** The text of a tool result (n8n answers with one text part), and whether it is flagged as an error. */
export function toolText(result: unknown): { isError: boolean; text: string } {
	const { content, isError } = result as { content?: Array<{ text?: string }>; isError?: boolean };
	return { isError: isError === true, text: (content ?? []).map((part) => part.text ?? '').join('\n') };
}

/** A tool result's JSON: n8n sends the tool node's output items as JSON text. */
export function toolJson<T>(result: unknown): T {
	const { isError, text } = toolText(result);
	if (isError) throw new Error(`The tool answered with an error: ${text}`);
	return JSON.parse(text) as T;
}

/**
 * What n8n puts before the sentence of a failed tool call; no node can take it away. n8n 1.123's MCP
 * Server Trigger answers every thrown error with `Error: <message>` (McpServer.js, its tools/call
 * handler); 2.41's with `<error.name>: <message>` (MessageFormatter.formatError). Neither marks what a
 * tool returns as an error, so a failed call must throw. The Records node names its tool errors
 * "Error" (nodes/Records/actions/tool/error.ts) so that both read the same, as n8n's own do.
 */
export const N8N_TOOL_ERROR_PREFIX = 'Error: ';

/**
 * The sentence of a tool error: after n8n's prefix when the tool ran in the trigger's own process, the
 * `message` of `{"error": {"message", "name"}}` when a worker ran it (queue mode).
 */
function errorSentence(text: string): string {
	try {
		const parsed = JSON.parse(text) as { error?: { message?: unknown; name?: unknown } };
		if (typeof parsed.error?.message === 'string') {
			expect(parsed.error.name).toBe('Error');
			return parsed.error.message;
		}
	} catch {
		// Not JSON: the "<name>: <message>" form.
	}
	expect(text.startsWith(N8N_TOOL_ERROR_PREFIX)).toBe(true);
	return text.slice(N8N_TOOL_ERROR_PREFIX.length);
}

/**
 * A tool error as an agent reads it: n8n's fixed prefix (above) and then the sentence, short, naming
 * what to correct, starting as a sentence (no error class name, no second prefix), with no stack
 * trace and no secret. Returns the sentence.
 */
export function expectAgentReadableError(result: unknown, secrets: string[], ...mentions: RegExp[]): string {
	const { isError, text } = toolText(result);
	expect(isError).toBe(true);
	const sentence = errorSentence(text);
	expect(sentence).toMatch(/^["A-Z]/);
	expect(sentence).not.toMatch(/^[\w.]*(Error|Exception)\b/);
	for (const mention of mentions) expect(sentence).toMatch(mention);
	expect(text).not.toMatch(/\n\s+at /);
	expect(text).not.toMatch(/\[item \d+\]/);
	expect(text).not.toMatch(/\b(NodeOperationError|NodeApiError|OperationalError)\b/);
	for (const secret of secrets) expect(text).not.toContain(secret);
	expect(text.length).toBeLessThan(600);
	return sentence;
}
