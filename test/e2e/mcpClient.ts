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
 * The sentence of a tool error: n8n's MCP Server Trigger sends "<name>: <message>" when the tool ran
 * in its own process, and `{"error": {"message", "name"}}` when a worker ran it (queue mode).
 */
function errorSentence(text: string): string {
	try {
		const parsed = JSON.parse(text) as { error?: { message?: unknown } };
		if (typeof parsed.error?.message === 'string') return parsed.error.message;
	} catch {
		// Not JSON: the "<name>: <message>" form.
	}
	return text;
}

/**
 * A tool error as an agent reads it: short, naming what to correct, with no stack trace, no secret,
 * and no error class name of n8n's before the sentence. Returns the text.
 */
export function expectAgentReadableError(result: unknown, secrets: string[], ...mentions: RegExp[]): string {
	const { isError, text } = toolText(result);
	expect(isError).toBe(true);
	for (const mention of mentions) expect(errorSentence(text)).toMatch(mention);
	expect(text).not.toMatch(/\n\s+at /);
	expect(text).not.toMatch(/\[item \d+\]/);
	expect(text).not.toMatch(/\b(NodeOperationError|NodeApiError|OperationalError)\b/);
	for (const secret of secrets) expect(text).not.toContain(secret);
	expect(text.length).toBeLessThan(600);
	return text;
}
