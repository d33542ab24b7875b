/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, no-console -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules, `process`, the console) */
/**
 * `npm run sandbox -- --port 4010 [--host 127.0.0.1] [--bank-rows 100000] [--log] [--tls --ca-file ca.pem]`
 * (or env SANDBOX_PORT): starts the Records sandbox and prints its base URL, demo tokens, record
 * types and reports. `--tls` serves HTTPS with a CA made at start, written to `--ca-file`.
 */
import { writeFileSync } from 'node:fs';

import { REPORTS, TOKEN_DEFINITIONS, USERS, startSandbox } from './server';

function option(name: string): string | undefined {
	const args = process.argv.slice(2);
	const index = args.indexOf(`--${name}`);
	if (index >= 0) return args[index + 1];
	const inline = args.find((arg) => arg.startsWith(`--${name}=`));
	return inline?.slice(name.length + 3);
}

function integerOption(name: string, raw: string | undefined, fallback: number): number {
	if (raw === undefined) return fallback;
	const value = Number(raw);
	if (!Number.isInteger(value) || value < 0) {
		console.error(`--${name} must be a non-negative integer (got "${raw}")`);
		process.exit(2);
	}
	return value;
}

async function main(): Promise<void> {
	if (process.argv.includes('--help') || process.argv.includes('-h')) {
		console.log('Usage: npm run sandbox -- [--port 4010] [--host 127.0.0.1] [--bank-rows 10000] [--log] [--quiet] [--tls --ca-file ca.pem]');
		return;
	}
	const port = integerOption('port', option('port') ?? process.env.SANDBOX_PORT, 4010);
	const bankRows = integerOption('bank-rows', option('bank-rows'), 10_000);
	const tls = process.argv.includes('--tls');
	const caFile = option('ca-file');
	if (tls && !caFile) {
		console.error('--tls needs --ca-file <path>: the CA certificate clients must trust is written there');
		process.exit(2);
	}
	const sandbox = await startSandbox({
		port,
		host: option('host') ?? '127.0.0.1',
		bankRows,
		quiet: process.argv.includes('--quiet'),
		log: process.argv.includes('--log'),
		tls,
	});
	if (caFile && sandbox.ca) writeFileSync(caFile, sandbox.ca.certificatePem);

	const users: Record<string, string> = Object.fromEntries(Object.values(USERS).map((user) => [user.id, user.name]));
	const lines = [
		`Records sandbox listening on ${sandbox.baseUrl}`,
		...(caFile ? [`CA certificate: ${caFile} (curl --cacert, or NODE_EXTRA_CA_CERTS for n8n)`] : []),
		'',
		'Tokens (Authorization: Bearer <token>):',
		...TOKEN_DEFINITIONS.map((token) => {
			const permissions = token.permissions.length > 0 ? token.permissions.join('+') : 'no permission';
			const expired = Date.parse(token.validUntil) <= Date.now() ? ', EXPIRED' : '';
			return `  ${token.name.padEnd(22)} ${token.token}  (${permissions}; user ${token.userId} = ${users[token.userId] ?? '?'}${expired})`;
		}),
		'',
		'Record types (POST /api/3p/import/<id>):',
		...[...sandbox.state.recordTypes.values()].map(
			(type) => `  ${type.id.padEnd(18)} ${type.fields.length} fields, key "${type.keyField ?? '-'}", ${type.records.size} records`,
		),
		'',
		'Reports (GET /api/analysis/reports/<id>/data/table?offset=0&limit=100):',
		...[...sandbox.state.reports.values()].map(
			(report) =>
				`  ${report.id.padEnd(18)} ${String(report.rowCount).padStart(7)} rows${report.apiEnabled ? '' : '  (not available through the API: 404)'}`,
		),
		'',
		`Illustrative: GET ${sandbox.baseUrl}/api/v1/clients?status=active, GET /clients, POST /invoices`,
		`Control (no auth): ${sandbox.baseUrl}/__sandbox/ (reset, records, stats, faults, outbound...), see tooling/sandbox/README.md`,
		`Example: curl -H "Authorization: Bearer ${TOKEN_DEFINITIONS[1].token}" "${sandbox.baseUrl}/api/analysis/reports/${REPORTS.bankTransactions}/data/table?limit=2"`,
		'',
		'Ctrl+C to stop.',
	];
	console.log(lines.join('\n'));

	let stopping = false;
	const stop = (signal: string): void => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: stopping the sandbox`);
		sandbox.close().then(
			() => process.exit(0),
			(error: unknown) => {
				console.error(error);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
	console.error(`Could not start the sandbox: ${(error as Error).message}`);
	process.exit(1);
});
