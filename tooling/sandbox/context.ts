/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `setTimeout`, `clearTimeout`) */
import type * as http from 'node:http';

import { GUESSES, type SandboxGuesses } from './guesses';
import { HttpError } from './http';
import type { Permission, TokenDefinition, UserDefinition } from './seeds';
import { SandboxState, type RecordTypeState } from './state';
import type { SandboxTlsOptions } from './tls';

export interface SandboxOptions {
	/** 0 (default) = a random free port. */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** Rows of the seeded `bank-transactions` report; default 10,000. */
	bankRows?: number;
	/** No start-up or error output. */
	quiet?: boolean;
	/** Print one line per API request (method, path, status, duration; never headers). Off by default. */
	log?: boolean;
	/** Serve HTTPS instead of plain HTTP, with a certificate made at start (see tls.ts). */
	tls?: SandboxTlsOptions | boolean;
	/** Behaviours the guide does not define (guesses.ts); the sandbox's guesses by default. */
	guesses?: Partial<SandboxGuesses>;
}

/** What every route of one running sandbox shares: its store (records, reports, faults, stats), options and timers. */
export interface SandboxContext {
	readonly state: SandboxState;
	readonly options: SandboxOptions;
	/** Waits (a fault's latency); pending waits end when the sandbox closes. */
	delay(ms: number): Promise<void>;
	/** Clears pending waits so a closed sandbox keeps no timers alive. */
	clearDelays(): void;
	/** A new fault rule id: f1, f2, ... (kept across resets, so ids are never reused). */
	nextFaultId(): string;
}

export function createContext(options: SandboxOptions): SandboxContext {
	const state = new SandboxState(options.bankRows ?? 10_000, { ...GUESSES, ...options.guesses });
	let faultCount = 0;
	const pendingDelays = new Set<NodeJS.Timeout>();
	return {
		state,
		options,
		delay: (ms) =>
			new Promise((resolve) => {
				const timer = setTimeout(() => {
					pendingDelays.delete(timer);
					resolve();
				}, ms);
				pendingDelays.add(timer);
			}),
		clearDelays: () => {
			for (const timer of pendingDelays) clearTimeout(timer);
			pendingDelays.clear();
		},
		nextFaultId: () => `f${++faultCount}`,
	};
}

/** Checks the Bearer token (spec §5): known, not expired, carrying `permission` (or any), assigned to a user. */
export function authenticate(
	state: SandboxState,
	req: http.IncomingMessage,
	permission?: Permission,
): { token: TokenDefinition; user: UserDefinition } {
	const header = req.headers.authorization;
	if (header === undefined || header === '') {
		throw new HttpError(401, 'unauthorized', 'Missing Authorization header; send "Authorization: Bearer <API token>"');
	}
	const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
	if (!match) throw new HttpError(401, 'unauthorized', 'The Authorization header must be "Bearer <API token>"');
	const token = state.tokens.get(match[1]);
	if (!token) throw new HttpError(401, 'unauthorized', 'The API token is invalid');
	if (Date.parse(token.validUntil) <= Date.now()) {
		throw new HttpError(401, 'unauthorized', `The API token expired (valid until ${token.validUntil})`);
	}
	if (permission !== undefined ? !token.permissions.includes(permission) : token.permissions.length === 0) {
		throw new HttpError(
			401,
			'unauthorized',
			permission !== undefined ? `The API token lacks the "${permission}" permission` : 'The API token carries no permission',
		);
	}
	const user = state.users.get(token.userId);
	if (!user) throw new HttpError(401, 'unauthorized', 'The API token is not assigned to an existing user');
	return { token, user };
}

export function recordType(state: SandboxState, id: string): RecordTypeState {
	const type = state.recordTypes.get(id);
	if (!type) throw new HttpError(404, 'record_type_not_found', `Record type "${id}" does not exist`);
	return type;
}
