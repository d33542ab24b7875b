import { ControlError, isObject, json, type Reply } from '../http';
import type { Permission } from '../seeds';
import type { SandboxState } from '../state';

/** Control endpoints for who may do what: API tokens, users with their row rights, the client list. */

/** `POST /tokens`: {token, userId, permissions, name?, validUntil?}. */
export function addToken(state: SandboxState, input: unknown): Reply {
	if (
		!isObject(input) ||
		typeof input.token !== 'string' ||
		input.token === '' ||
		typeof input.userId !== 'string' ||
		!Array.isArray(input.permissions) ||
		input.permissions.some((p) => p !== 'import' && p !== 'analysis')
	) {
		throw new ControlError('A token needs "token", "userId" and "permissions" (a list of "import"/"analysis")');
	}
	if (!state.users.has(input.userId)) throw new ControlError(`User "${input.userId}" does not exist`);
	const validUntil = typeof input.validUntil === 'string' ? input.validUntil : '2099-12-31T23:59:59Z';
	if (Number.isNaN(Date.parse(validUntil))) throw new ControlError('"validUntil" must be an ISO 8601 date-time');
	state.tokens.set(input.token, {
		token: input.token,
		name: typeof input.name === 'string' ? input.name : 'Custom',
		permissions: input.permissions as Permission[],
		userId: input.userId,
		validUntil,
	});
	return json(200, { status: 'ok' });
}

/** `POST /users`: {id, name?, rights?: "all" | [{columnName, values}]}; reports recompute what the user sees. */
export function addUser(state: SandboxState, input: unknown): Reply {
	if (!isObject(input) || typeof input.id !== 'string' || input.id === '') throw new ControlError('A user needs an "id"');
	const rights = input.rights ?? 'all';
	if (
		rights !== 'all' &&
		(!Array.isArray(rights) || rights.some((rule) => !isObject(rule) || typeof rule.columnName !== 'string' || !Array.isArray(rule.values)))
	) {
		throw new ControlError('"rights" must be "all" or a list of {columnName, values: [...]}');
	}
	state.users.set(input.id, {
		id: input.id,
		name: typeof input.name === 'string' ? input.name : input.id,
		rights:
			rights === 'all'
				? 'all'
				: (rights as Array<Record<string, unknown>>).map((rule) => ({
						columnName: (rule.columnName as string).normalize('NFC'),
						values: (rule.values as unknown[]).map(String),
					})),
	});
	for (const report of state.reports.values()) report.invalidateVisibility();
	return json(200, state.users.get(input.id));
}

/** `POST /clients`: {clients: [{id, name, revenue?, status?}]} replaces the client list. */
export function replaceClients(state: SandboxState, input: unknown): Reply {
	if (!isObject(input) || !Array.isArray(input.clients)) throw new ControlError('Body must be {"clients": [...]}');
	state.clients = input.clients.map((client: unknown, index) => {
		if (!isObject(client) || typeof client.id !== 'number' || typeof client.name !== 'string') {
			throw new ControlError(`clients[${index}] needs an integer "id" and a "name"`);
		}
		return {
			id: client.id,
			name: client.name,
			revenue: typeof client.revenue === 'number' ? client.revenue : 0,
			status: (['active', 'inactive', 'prospect'].includes(client.status as string) ? client.status : 'active') as 'active',
		};
	});
	return json(200, { count: state.clients.length });
}
