/* eslint-disable @n8n/community-nodes/no-restricted-imports, no-console -- tooling: runs in
	Node.js, not inside n8n (Node.js's modules, the console) */
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';

import { handleApi } from './apiHandler';
import { createContext, type SandboxContext, type SandboxOptions } from './context';
import { errorReply, json, writeReply } from './http';
import { handleControl } from './routes/control';
import type { SandboxState } from './state';
import { sandboxTlsServerOptions, type CertificateAuthority } from './tls';

/**
 * The Records sandbox: a real HTTP server implementing the Records Integration API (routes/), its
 * control endpoints under `/__sandbox/` (routes/control.ts) and fault injection (faults.ts), over
 * one in-memory store (state.ts). See README.md.
 */

export { SandboxState } from './state';
export type { SandboxOptions } from './context';
export * from './seeds';

export interface Sandbox {
	/** e.g. `http://127.0.0.1:4010` (`https://` with `tls`), no trailing slash. */
	baseUrl: string;
	/** With `tls`: the CA that signed the server certificate (its PEM is what a client trusts). */
	ca?: CertificateAuthority;
	port: number;
	close(): Promise<void>;
	/** Back to the seeds; clears faults, stats and logs. */
	reset(): void;
	/** The in-memory store, for direct assertions. */
	state: SandboxState;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const ctx = createContext(options);
	const tls = options.tls ? await sandboxTlsServerOptions(options.tls === true ? {} : options.tls) : undefined;
	const server = createServer(requestHandler(ctx), tls?.serverOptions);
	const host = options.host ?? '127.0.0.1';
	await listen(server, options.port ?? 0, host);
	const address = server.address() as AddressInfo;
	const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
	return {
		baseUrl: `${tls ? 'https' : 'http'}://${urlHost}:${address.port}`,
		port: address.port,
		ca: tls?.ca,
		state: ctx.state,
		reset: () => ctx.state.seed(),
		close: () =>
			new Promise<void>((resolve, reject) => {
				ctx.clearDelays();
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			}),
	};
}

/**
 * The one place the sandbox's server is made: plain HTTP, or HTTPS with `tls` options; keep-alive
 * longer than clients' (65 s), no request time limit.
 */
function createServer(handler: http.RequestListener, tls?: https.ServerOptions): http.Server {
	const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
	server.keepAliveTimeout = 65_000;
	server.headersTimeout = 66_000;
	server.requestTimeout = 0;
	return server;
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
	return new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
}

/** Sends `/__sandbox/...` to the control endpoints and everything else to the API. */
function requestHandler(ctx: SandboxContext): http.RequestListener {
	return (req, res) => {
		const method = (req.method ?? 'GET').toUpperCase();
		const url = req.url ?? '/';
		const q = url.indexOf('?');
		const path = q < 0 ? url : url.slice(0, q);
		const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
		const run =
			path === '/__sandbox' || path.startsWith('/__sandbox/')
				? handleControl(ctx, req, method, path, query).then(
						(reply) => writeReply(res, reply),
						(error: unknown) => {
							req.resume();
							writeReply(res, errorReply(error, ctx.options.quiet));
						},
					)
				: handleApi(ctx, req, res, method, path, query);
		run.catch((error: unknown) => {
			if (!ctx.options.quiet) console.error('Sandbox failure:', error);
			if (!res.headersSent && !res.destroyed) writeReply(res, json(500, { error: 'internal_error', message: 'Internal server error' }));
		});
	};
}
