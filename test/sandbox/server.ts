import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateBankRows, BANK_COLUMNS, type FieldValue, type Permission, type ReportColumn, type ReportRow, type TokenDefinition, type UserDefinition } from './seeds';
import { SandboxState, type RecordTypeState, type ReportState, type StoredRecord } from './state';
import { createFaultRuleState, faultKinds, parseFaultRule, resolveFaults, type FaultEffect, type FaultTarget } from './faults';
import { ControlError, parseOutboundCall, parseWebhook, performOutboundCall, sendWebhook } from './outbound';

export { SandboxState } from './state';
export * from './seeds';

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
}

export interface Sandbox {
	/** e.g. `http://127.0.0.1:4010`, no trailing slash. */
	baseUrl: string;
	port: number;
	close(): Promise<void>;
	/** Back to the seeds; clears faults, stats and logs. */
	reset(): void;
	/** The in-memory store, for direct assertions. */
	state: SandboxState;
}

/** Largest request body accepted (imports of 100k records fit comfortably). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

const JSON_TYPE = 'application/json; charset=utf-8';

class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
		readonly extra: Record<string, unknown> = {},
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}

	body(): string {
		return JSON.stringify({ error: this.code, message: this.message, ...this.extra });
	}
}

interface Reply {
	status: number;
	/** Already serialised JSON. */
	body: string;
	headers?: Record<string, string>;
}

function json(status: number, value: unknown): Reply {
	return { status, body: JSON.stringify(value) };
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}


function readBody(req: http.IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				reject(new HttpError(413, 'payload_too_large', `Request body exceeds ${MAX_BODY_BYTES} bytes`));
				req.destroy();
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
		// A client that gives up mid-body: settle, so the request is accounted as a reset.
		req.on('close', () => {
			if (!req.complete) reject(new HttpError(400, 'client_closed', 'The client closed the connection before sending the whole body'));
		});
	});
}

function parseJsonBody(text: string, what: string): unknown {
	if (text.trim() === '') throw new HttpError(400, 'invalid_json', `${what}: the request body is empty; send a JSON object`);
	try {
		return JSON.parse(text) as unknown;
	} catch (error) {
		throw new HttpError(400, 'invalid_json', `${what}: the request body is not valid JSON (${(error as Error).message})`);
	}
}

function requireJsonContentType(req: http.IncomingMessage): void {
	const type = (req.headers['content-type'] ?? '').toLowerCase();
	if (!/^application\/([\w.+-]*\+)?json\b/.test(type)) {
		throw new HttpError(
			415,
			'unsupported_media_type',
			`Content-Type must be application/json (got ${type === '' ? 'none' : `"${type}"`})`,
		);
	}
}

/** Parses a query value that must be a non-negative integer (`min` at least). */
function queryInteger(params: URLSearchParams, name: string, fallback: number, min: number): number {
	const raw = params.get(name);
	if (raw === null) return fallback;
	if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
		throw new HttpError(400, 'invalid_parameter', `Query parameter "${name}" must be an integer >= ${min} (got "${raw}")`, {
			parameter: name,
		});
	}
	return Number(raw);
}

/** Describes a record-field mismatch helpfully: the name may differ only in Unicode form or spaces. */
function unknownFieldError(type: RecordTypeState, field: string, index?: number): HttpError {
	const normalized = field.normalize('NFC').trim();
	const near = type.fields.find((known) => known === normalized || known.toLowerCase() === normalized.toLowerCase());
	const hint =
		near === undefined
			? ''
			: near === normalized && field !== normalized
				? ` It differs from the field "${near}" only in Unicode normalization or surrounding spaces; send "${near}" exactly (NFC).`
				: ` Did you mean "${near}"?`;
	const where = index === undefined ? '' : `Record ${index}: `;
	return new HttpError(
		400,
		'unknown_field',
		`${where}unknown field "${field}" for record type "${type.id}".${hint} Known fields: ${type.fields.join(', ')}`,
		{ ...(index === undefined ? {} : { index }), field, knownFields: type.fields },
	);
}

/** Checks one record's fields: known names, string or number values. */
function validateFields(type: RecordTypeState, item: unknown, index?: number): Record<string, FieldValue> {
	const where = index === undefined ? 'The record' : `Record ${index}`;
	if (!isObject(item)) {
		throw new HttpError(
			400,
			'invalid_record',
			`${where} must be an object of field names to values (got ${item === null ? 'null' : Array.isArray(item) ? 'an array' : typeof item})`,
			index === undefined ? {} : { index },
		);
	}
	for (const [field, value] of Object.entries(item)) {
		if (!type.fieldSet.has(field)) throw unknownFieldError(type, field, index);
		if (!(typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))) {
			throw new HttpError(
				400,
				'invalid_value',
				`${where}: field "${field}" must be a string or a number (got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value})`,
				{ ...(index === undefined ? {} : { index }), field },
			);
		}
	}
	return item as Record<string, FieldValue>;
}

/** Identity of an imported record for duplicate detection: its key, or its JSON when it has none. */
function identityOf(type: RecordTypeState | undefined, item: unknown): string {
	if (type && isObject(item)) {
		const key = type.keyOf(item as Record<string, FieldValue>);
		if (key !== undefined) return key;
	}
	return JSON.stringify(item);
}

type ApiRoute = FaultTarget['route'];

/** Per-request facts the route handlers share with the request handler. */
interface RequestContext {
	effect: FaultEffect | undefined;
	importOutcome?: ImportOutcome;
}

interface ImportOutcome {
	reply: Reply;
	records: number;
	keys: string[];
	processed: boolean;
}

interface RouteMatch {
	route: ApiRoute;
	target: FaultTarget;
	needsBody: boolean;
	handle: (body: string, context: RequestContext) => Reply | Promise<Reply>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const state = new SandboxState(options.bankRows ?? 10_000);
	let nextFaultId = 1;

	/** Fault delays still running; cleared on close so a closed sandbox keeps no timers alive. */
	const pendingDelays = new Set<NodeJS.Timeout>();
	const delay = (ms: number): Promise<void> =>
		new Promise((resolve) => {
			const timer = setTimeout(() => {
				pendingDelays.delete(timer);
				resolve();
			}, ms);
			pendingDelays.add(timer);
		});

	const authenticate = (req: http.IncomingMessage, permission?: Permission): { token: TokenDefinition; user: UserDefinition } => {
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
				permission !== undefined
					? `The API token lacks the "${permission}" permission`
					: 'The API token carries no permission',
			);
		}
		const user = state.users.get(token.userId);
		if (!user) throw new HttpError(401, 'unauthorized', 'The API token is not assigned to an existing user');
		return { token, user };
	};

	const recordType = (id: string): RecordTypeState => {
		const type = state.recordTypes.get(id);
		if (!type) throw new HttpError(404, 'record_type_not_found', `Record type "${id}" does not exist`);
		return type;
	};

	// ---- §4.1 import --------------------------------------------------------------------------

	const importRecords = (req: http.IncomingMessage, recordTypeId: string, text: string): ImportOutcome => {
		authenticate(req, 'import');
		const type = recordType(recordTypeId);
		requireJsonContentType(req);
		const body = parseJsonBody(text, 'Import');
		if (!isObject(body)) throw new HttpError(400, 'invalid_body', 'The body must be a JSON object {"data": [records]}');
		if (!('data' in body)) throw new HttpError(400, 'missing_data', 'The body has no "data" property; send {"data": [records]}');
		const data = body.data;
		if (!Array.isArray(data)) {
			throw new HttpError(400, 'invalid_data', `"data" must be an array of record objects (got ${data === null ? 'null' : typeof data})`);
		}
		const records = data.map((item, index) => validateFields(type, item, index));
		const now = new Date().toISOString();
		const results: Array<{ index: number; status: 'created' | 'edited'; id: string }> = [];
		const keys: string[] = [];
		let created = 0;
		let edited = 0;
		records.forEach((fields, index) => {
			const key = type.keyOf(fields);
			keys.push(key ?? JSON.stringify(fields));
			const existing = key === undefined ? undefined : type.findByKey(key);
			if (existing) {
				type.update(existing, fields, now);
				type.edited++;
				edited++;
				results.push({ index, status: 'edited', id: existing.id });
			} else {
				const record = type.create(fields, now);
				type.created++;
				created++;
				results.push({ index, status: 'created', id: record.id });
			}
		});
		state.stats.markStored(recordTypeId, keys);
		return {
			reply: json(200, { status: 'ok', created, edited, results }),
			records: records.length,
			keys,
			processed: true,
		};
	};

	/** Best effort count of the records in a body that was not processed, for the import log. */
	const describeUnprocessedImport = (recordTypeId: string, text: string | undefined): { records: number; keys: string[] } => {
		if (text === undefined) return { records: 0, keys: [] };
		try {
			const body = JSON.parse(text) as unknown;
			if (isObject(body) && Array.isArray(body.data)) {
				const type = state.recordTypes.get(recordTypeId);
				return { records: body.data.length, keys: body.data.map((item: unknown) => identityOf(type, item)) };
			}
		} catch {
			// An unreadable body simply has no records to log.
		}
		return { records: 0, keys: [] };
	};

	// ---- §4.2 report table ------------------------------------------------------------------------

	const readReport = (req: http.IncomingMessage, reportId: string, query: URLSearchParams, effect: FaultEffect | undefined): Reply => {
		const { user } = authenticate(req, 'analysis');
		const report = state.reports.get(reportId);
		if (!report || !report.apiEnabled) {
			throw new HttpError(404, 'report_not_found', `Report "${reportId}" does not exist or is not available through the API`);
		}
		let offset = queryInteger(query, 'offset', 0, 0);
		let limit = queryInteger(query, 'limit', 100, 1);
		if (effect?.ignoreOffset) offset = 0;
		if (effect?.limitCap !== undefined) limit = Math.min(limit, effect.limitCap);
		const visible = report.visibleTo(user);
		const page = visible.json.slice(offset, offset + limit);
		return { status: 200, body: `{"columns":${report.columnsJson},"rows":[${page.join(',')}]}` };
	};

	// ---- §4.4 illustrative endpoints ----------------------------------------------------------------

	const listClients = (req: http.IncomingMessage, query: URLSearchParams): Reply => {
		authenticate(req);
		const status = query.get('status');
		const offset = queryInteger(query, 'offset', 0, 0);
		const limit = queryInteger(query, 'limit', 100, 1);
		const matching = status === null || status === '' ? state.clients : state.clients.filter((c) => c.status === status);
		return json(200, {
			data: matching.slice(offset, offset + limit).map(({ id, name, revenue }) => ({ id, name, revenue })),
			total: matching.length,
		});
	};

	const createInvoice = (req: http.IncomingMessage, text: string): Reply => {
		authenticate(req);
		requireJsonContentType(req);
		const body = parseJsonBody(text, 'Invoice');
		if (!isObject(body)) throw new HttpError(400, 'invalid_body', 'The body must be a JSON object');
		const invalid = (field: string, expected: string): HttpError =>
			new HttpError(400, 'invalid_field', `"${field}" must be ${expected} (got ${JSON.stringify(body[field]) ?? 'nothing'})`, { field });
		const clientId = body.client_id;
		if (typeof clientId !== 'number' || !Number.isInteger(clientId)) throw invalid('client_id', 'an integer');
		if (!state.clients.some((c) => c.id === clientId)) {
			throw new HttpError(400, 'invalid_field', `"client_id" ${clientId} is not a known client`, { field: 'client_id' });
		}
		const amount = body.amount;
		if (typeof amount !== 'number' || !Number.isFinite(amount)) throw invalid('amount', 'a number');
		const currency = body.currency;
		if (typeof currency !== 'string' || currency.trim() === '') throw invalid('currency', 'a non-empty string such as "CZK"');
		const due = body.due_date;
		if (typeof due !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(due) || Number.isNaN(Date.parse(due))) {
			throw invalid('due_date', 'a date string such as "2026-12-31"');
		}
		const unknown = Object.keys(body).filter((key) => !['client_id', 'amount', 'currency', 'due_date'].includes(key));
		if (unknown.length > 0) {
			throw new HttpError(400, 'unknown_field', `Unknown invoice field(s): ${unknown.join(', ')}. Known: client_id, amount, currency, due_date`, {
				field: unknown[0],
			});
		}
		const invoice = state.addInvoice({ client_id: clientId, amount, currency, due_date: due });
		return json(201, invoice);
	};

	// ---- sandbox-only CRUD over all records ------------------------------------------------------

	const recordJson = (record: StoredRecord): Record<string, unknown> => ({
		id: record.id,
		fields: record.fields,
		createdAt: record.createdAt,
		updatedAt: record.updatedAt,
	});

	const recordsCrud = (
		req: http.IncomingMessage,
		method: string,
		recordTypeId: string,
		recordId: string | undefined,
		query: URLSearchParams,
		text: string,
	): Reply => {
		authenticate(req, method === 'GET' ? undefined : 'import');
		const type = recordType(recordTypeId);
		const find = (): StoredRecord => {
			const record = type.records.get(recordId as string);
			if (!record) throw new HttpError(404, 'record_not_found', `Record "${recordId}" does not exist in "${recordTypeId}"`);
			return record;
		};
		const now = new Date().toISOString();
		if (recordId === undefined) {
			if (method === 'GET') {
				const offset = queryInteger(query, 'offset', 0, 0);
				const limit = queryInteger(query, 'limit', 100, 1);
				const all = type.list();
				return json(200, { data: all.slice(offset, offset + limit).map(recordJson), total: all.length });
			}
			requireJsonContentType(req);
			const fields = validateFields(type, parseJsonBody(text, 'Record'));
			const key = type.keyOf(fields);
			if (key !== undefined && type.findByKey(key)) {
				throw new HttpError(409, 'duplicate_key', `A record with ${type.keyField} "${key}" already exists`);
			}
			const record = type.create(fields, now);
			type.created++;
			return json(201, recordJson(record));
		}
		if (method === 'GET') return json(200, recordJson(find()));
		if (method === 'DELETE') {
			const record = find();
			type.delete(record.id);
			return json(200, { id: record.id, deleted: true });
		}
		const record = find();
		requireJsonContentType(req);
		const fields = validateFields(type, parseJsonBody(text, 'Record'));
		type.update(record, fields, now);
		type.edited++;
		return json(200, recordJson(record));
	};

	// ---- routing --------------------------------------------------------------------------------

	const methodNotAllowed = (allowed: string): HttpError =>
		new HttpError(405, 'method_not_allowed', `Use ${allowed} on this path`, {}, { allow: allowed });

	const decode = (segment: string): string => {
		try {
			return decodeURIComponent(segment).normalize('NFC');
		} catch {
			throw new HttpError(400, 'invalid_path', `Malformed percent-encoding in "${segment}"`);
		}
	};

	const matchApi = (req: http.IncomingMessage, method: string, path: string, query: URLSearchParams): RouteMatch | undefined => {
		const parts = path.split('/').filter((part) => part !== '');
		if (parts[0] === 'api' && parts[1] === '3p' && parts[2] === 'import' && parts.length === 4) {
			const recordTypeId = decode(parts[3]);
			return {
				route: 'import',
				target: { route: 'import', method, recordTypeId },
				needsBody: true,
				handle: (body, context) => {
					if (method !== 'POST') throw methodNotAllowed('POST');
					context.importOutcome = importRecords(req, recordTypeId, body);
					return context.importOutcome.reply;
				},
			};
		}
		if (
			parts[0] === 'api' &&
			parts[1] === 'analysis' &&
			parts[2] === 'reports' &&
			parts.length === 6 &&
			parts[4] === 'data' &&
			parts[5] === 'table'
		) {
			const reportId = decode(parts[3]);
			return {
				route: 'report',
				target: { route: 'report', method, reportId },
				needsBody: false,
				handle: (_body, context) => {
					if (method !== 'GET') throw methodNotAllowed('GET');
					return readReport(req, reportId, query, context.effect);
				},
			};
		}
		if ((parts.length === 3 && parts[0] === 'api' && parts[1] === 'v1' && parts[2] === 'clients') || (parts.length === 1 && parts[0] === 'clients')) {
			const illustrative = parts.length === 1;
			return {
				route: 'clients',
				target: { route: 'clients', method },
				needsBody: false,
				handle: () => {
					if (method !== 'GET') throw methodNotAllowed('GET');
					if (!illustrative) return listClients(req, query);
					authenticate(req);
					return json(200, { clients: state.clients.map(({ id, name }) => ({ id, name })) });
				},
			};
		}
		if (parts.length === 1 && parts[0] === 'invoices') {
			return {
				route: 'invoices',
				target: { route: 'invoices', method },
				needsBody: method === 'POST',
				handle: (body) => {
					if (method === 'GET') {
						authenticate(req);
						return json(200, { invoices: state.invoices });
					}
					if (method !== 'POST') throw methodNotAllowed('GET, POST');
					return createInvoice(req, body);
				},
			};
		}
		if (parts[0] === 'api' && parts[1] === 'v1' && parts[2] === 'records' && (parts.length === 4 || parts.length === 5)) {
			const recordTypeId = decode(parts[3]);
			const recordId = parts.length === 5 ? decode(parts[4]) : undefined;
			return {
				route: 'records',
				target: { route: 'records', method, recordTypeId },
				needsBody: method === 'POST' || method === 'PUT',
				handle: (body) => {
					const allowed = recordId === undefined ? ['GET', 'POST'] : ['GET', 'PUT', 'DELETE'];
					if (!allowed.includes(method)) throw methodNotAllowed(allowed.join(', '));
					return recordsCrud(req, method, recordTypeId, recordId, query, body);
				},
			};
		}
		return undefined;
	};

	// ---- control endpoints ----------------------------------------------------------------------

	const parseColumns = (value: unknown): ReportColumn[] => {
		if (!Array.isArray(value) || value.length === 0) throw new ControlError('"columns" must be a non-empty list of {id, name}');
		return value.map((column: unknown, index) => {
			if (!isObject(column) || typeof column.id !== 'string' || typeof column.name !== 'string') {
				throw new ControlError(`columns[${index}] must be {id, name} strings`);
			}
			return { id: column.id, name: column.name.normalize('NFC') };
		});
	};

	const parseRows = (value: unknown): ReportRow[] => {
		if (!Array.isArray(value)) throw new ControlError('"rows" must be a list of objects keyed by column id');
		return value.map((row: unknown, index) => {
			if (!isObject(row)) throw new ControlError(`rows[${index}] must be an object keyed by column id`);
			const cells: ReportRow = {};
			for (const [key, cell] of Object.entries(row)) cells[key] = typeof cell === 'string' ? cell : JSON.stringify(cell);
			return cells;
		});
	};

	const defineReport = (body: unknown): Reply => {
		if (!isObject(body) || typeof body.id !== 'string' || body.id === '') throw new ControlError('A report needs an "id" string');
		const apiEnabled = body.apiEnabled === undefined ? true : body.apiEnabled === true;
		const name = typeof body.name === 'string' ? body.name : body.id;
		let report: ReportState;
		if (body.generate !== undefined) {
			if (body.generate !== 'bank') throw new ControlError('"generate" supports only "bank"');
			const count = body.rows;
			if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
				throw new ControlError('With "generate", "rows" is the number of rows to generate');
			}
			report = state.defineReport(body.id, name, [...BANK_COLUMNS], generateBankRows(count), apiEnabled);
			report.generator = 'bank';
		} else {
			report = state.defineReport(body.id, name, parseColumns(body.columns), parseRows(body.rows ?? []), apiEnabled);
		}
		return json(200, reportSummary(report));
	};

	const reportSummary = (report: ReportState): Record<string, unknown> => ({
		id: report.id,
		name: report.name,
		apiEnabled: report.apiEnabled,
		columns: report.columns,
		rowCount: report.rows.length,
	});

	const appendRows = (reportId: string, body: unknown): Reply => {
		const report = state.reports.get(reportId);
		if (!report) throw new HttpError(404, 'report_not_found', `Report "${reportId}" does not exist`);
		if (!isObject(body)) throw new ControlError('Body must be {"rows": [...]} or {"generate": n}');
		if (body.generate !== undefined) {
			const count = body.generate;
			if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) throw new ControlError('"generate" must be a row count');
			if (report.generator !== 'bank') {
				throw new ControlError(`Report "${reportId}" was not generated; append explicit "rows" instead`);
			}
			report.append(generateBankRows(count, report.rows.length));
		} else {
			report.append(parseRows(body.rows));
		}
		return json(200, reportSummary(report));
	};

	const defineRecordType = (body: unknown): Reply => {
		if (!isObject(body) || typeof body.id !== 'string' || body.id === '') throw new ControlError('A record type needs an "id" string');
		if (!Array.isArray(body.fields) || body.fields.some((field) => typeof field !== 'string' || field === '')) {
			throw new ControlError('"fields" must be a list of field names');
		}
		const fields = (body.fields as string[]).map((field) => field.normalize('NFC'));
		const keyField = typeof body.keyField === 'string' ? body.keyField.normalize('NFC') : undefined;
		if (keyField !== undefined && !fields.includes(keyField)) throw new ControlError(`keyField "${keyField}" is not one of the fields`);
		const records = body.records ?? [];
		if (!Array.isArray(records)) throw new ControlError('"records" must be a list of records');
		const type = state.defineRecordType({
			id: body.id,
			name: typeof body.name === 'string' ? body.name : body.id,
			fields,
			keyField,
			records: [],
		});
		const now = new Date().toISOString();
		records.forEach((record: unknown, index) => {
			try {
				type.create(validateFields(type, record, index), now);
			} catch (error) {
				throw new ControlError((error as Error).message);
			}
		});
		return json(200, recordTypeSummary(type));
	};

	const recordTypeSummary = (type: RecordTypeState): Record<string, unknown> => ({
		id: type.id,
		name: type.name,
		fields: type.fields,
		keyField: type.keyField ?? null,
		recordCount: type.records.size,
	});

	const handleControl = async (
		req: http.IncomingMessage,
		method: string,
		path: string,
		query: URLSearchParams,
	): Promise<Reply> => {
		const parts = path.split('/').filter((part) => part !== '').slice(1).map(decode);
		const route = `${method} /${parts.join('/')}`;
		const body = async (): Promise<unknown> => {
			const text = await readBody(req);
			return text.trim() === '' ? {} : parseJsonBody(text, 'Control request');
		};
		if (route === 'POST /reset') {
			state.seed();
			return json(200, { status: 'reset' });
		}
		if (route === 'GET /' || route === 'GET /info') {
			return json(200, {
				recordTypes: [...state.recordTypes.values()].map(recordTypeSummary),
				reports: [...state.reports.values()].map(reportSummary),
				users: [...state.users.values()],
				tokens: [...state.tokens.values()].map(({ name, permissions, userId, validUntil }) => ({ name, permissions, userId, validUntil })),
			});
		}
		if (route === 'GET /record-types') return json(200, [...state.recordTypes.values()].map(recordTypeSummary));
		if (route === 'POST /record-types') return defineRecordType(await body());
		if (method === 'POST' && parts[0] === 'record-types' && parts[2] === 'fields' && parts.length === 3) {
			const type = recordType(parts[1]);
			const input = await body();
			if (!isObject(input) || !Array.isArray(input.fields) || input.fields.some((f) => typeof f !== 'string' || f === '')) {
				throw new ControlError('Body must be {"fields": ["New field", ...]}');
			}
			type.addFields((input.fields as string[]).map((field) => field.normalize('NFC')));
			return json(200, recordTypeSummary(type));
		}
		if (method === 'GET' && parts[0] === 'records' && parts.length === 2) {
			const type = recordType(parts[1]);
			const all = type.list();
			const offset = queryInteger(query, 'offset', 0, 0);
			const limit = queryInteger(query, 'limit', all.length, 0);
			return json(200, {
				recordTypeId: type.id,
				keyField: type.keyField ?? null,
				fields: type.fields,
				created: type.created,
				edited: type.edited,
				total: all.length,
				records: all.slice(offset, offset + limit),
			});
		}
		if (route === 'GET /reports') return json(200, [...state.reports.values()].map(reportSummary));
		if (route === 'POST /reports') return defineReport(await body());
		if (method === 'POST' && parts[0] === 'reports' && parts[2] === 'rows' && parts.length === 3) {
			return appendRows(parts[1], await body());
		}
		if (route === 'POST /tokens') {
			const input = await body();
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
		if (route === 'POST /users') {
			const input = await body();
			if (!isObject(input) || typeof input.id !== 'string' || input.id === '') throw new ControlError('A user needs an "id"');
			const rights = input.rights ?? 'all';
			if (
				rights !== 'all' &&
				(!Array.isArray(rights) ||
					rights.some((rule) => !isObject(rule) || typeof rule.columnName !== 'string' || !Array.isArray(rule.values)))
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
		if (route === 'POST /clients') {
			const input = await body();
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
		if (route === 'GET /stats') return json(200, state.stats.summary());
		if (route === 'POST /stats/reset') {
			state.stats.clear();
			return json(200, { status: 'reset' });
		}
		if (route === 'GET /imports') return json(200, state.stats.importLog);
		if (route === 'GET /faults') {
			return json(200, state.faults.map(({ rng: _rng, windows: _windows, ...rule }) => rule));
		}
		if (route === 'POST /faults') {
			const input = await body();
			const list: unknown[] = Array.isArray(input) ? input : isObject(input) && Array.isArray(input.rules) ? input.rules : [input];
			const parsed = list.map((rule, index) => {
				const result = parseFaultRule(rule, index);
				if (typeof result === 'string') throw new ControlError(result);
				return result;
			});
			const added = parsed.map((rule) => createFaultRuleState(rule, `f${nextFaultId++}`));
			state.faults.push(...added);
			return json(200, { faults: added.map(({ rng: _rng, windows: _windows, ...rule }) => rule) });
		}
		if (route === 'DELETE /faults') {
			state.faults = [];
			return json(200, { status: 'cleared' });
		}
		if (route === 'POST /outbound/call') return json(200, await performOutboundCall(state, parseOutboundCall(await body())));
		if (route === 'POST /outbound/webhook') return json(200, await sendWebhook(state, parseWebhook(await body())));
		if (route === 'GET /outbound/log') return json(200, state.outboundLog);
		throw new HttpError(404, 'not_found', `No sandbox control endpoint ${route}; see test/sandbox/README.md`);
	};

	// ---- the request handler --------------------------------------------------------------------

	const write = (res: http.ServerResponse, reply: Reply, truncate?: 'body' | 'connection'): void => {
		if (res.destroyed) return;
		const full = Buffer.from(reply.body, 'utf8');
		const headers: Record<string, string | number> = { 'content-type': JSON_TYPE, ...reply.headers };
		if (truncate === undefined) {
			headers['content-length'] = full.length;
			res.writeHead(reply.status, headers);
			res.end(full);
			return;
		}
		const half = full.subarray(0, Math.floor(full.length / 2));
		if (truncate === 'body') {
			headers['content-length'] = half.length;
			res.writeHead(reply.status, headers);
			res.end(half);
			return;
		}
		headers['content-length'] = full.length;
		res.writeHead(reply.status, headers);
		res.write(half, () => res.destroy());
	};

	const errorReply = (error: unknown): Reply => {
		if (error instanceof HttpError) return { status: error.status, body: error.body(), headers: error.headers };
		if (error instanceof ControlError) return json(400, { error: 'invalid_control_request', message: error.message });
		if (!options.quiet) console.error('Sandbox internal error:', error);
		return json(500, { error: 'internal_error', message: 'Internal server error' });
	};

	const handleApi = async (req: http.IncomingMessage, res: http.ServerResponse, method: string, path: string, query: URLSearchParams): Promise<void> => {
		const started = performance.now();
		const match = matchApi(req, method, path, query);
		if (!match) {
			// Drain so the keep-alive connection stays usable.
			req.resume();
			const reply = errorReply(new HttpError(404, 'not_found', `No such endpoint: ${method} ${path}`));
			write(res, reply);
			state.stats.countRequest('unknown', reply.status);
			return;
		}
		const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
		const effect = state.faults.length > 0 ? resolveFaults(state.faults, { ...match.target, token }) : undefined;
		if (effect) state.stats.countFault(effect.ruleIds.join('+'), faultKinds(effect));
		let text: string | undefined;
		let status: number | 'reset';
		const context: RequestContext = { effect };
		const arrival = match.route === 'import' ? ++state.stats.importArrivals : 0;
		const logImport = (finalStatus: number | 'reset'): void => {
			if (match.route !== 'import') return;
			const outcome = context.importOutcome ?? { ...describeUnprocessedImport(match.target.recordTypeId ?? '', text), processed: false };
			state.stats.logImport({
				arrival,
				recordTypeId: match.target.recordTypeId ?? '',
				records: outcome.records,
				keys: outcome.keys,
				processed: outcome.processed,
				status: finalStatus,
			});
		};
		if (effect?.reset && !effect.afterProcessing) {
			req.socket.destroy();
			state.stats.countRequest(match.route, 'reset');
			logImport('reset');
			return;
		}
		if (effect && effect.latencyMs > 0) await delay(effect.latencyMs);
		let reply: Reply;
		try {
			if (match.needsBody) text = await readBody(req);
			else req.resume();
			if (effect?.status !== undefined && !effect.afterProcessing) {
				throw faultError(effect);
			}
			reply = await match.handle(text ?? '', context);
		} catch (error) {
			reply = errorReply(error);
		}
		// Handled (when it succeeded) before failing the response: the service may have processed it.
		if (effect?.afterProcessing && effect.status !== undefined) reply = errorReply(faultError(effect));
		if (effect && effect.slowMs > 0) await delay(effect.slowMs);
		if (effect?.afterProcessing && effect.reset) {
			req.socket.destroy();
			status = 'reset';
		} else if (res.destroyed || req.socket.destroyed) {
			status = 'reset';
		} else {
			write(res, reply, effect?.truncate);
			status = reply.status;
		}
		state.stats.countRequest(match.route, status);
		logImport(status);
		if (options.log) {
			const faults = effect ? ` faults ${effect.ruleIds.join('+')}: ${faultKinds(effect).join(', ')}` : '';
			console.log(`${method} ${path}${query.size > 0 ? `?${query.toString()}` : ''} -> ${status} ${Math.round(performance.now() - started)} ms${faults}`);
		}
	};

	const faultError = (effect: FaultEffect): HttpError => {
		const status = effect.status as number;
		const headers: Record<string, string> = {};
		if (effect.retryAfter !== undefined) headers['retry-after'] = String(effect.retryAfter);
		const messages: Record<number, [string, string]> = {
			429: ['rate_limited', 'Too many requests; slow down'],
			500: ['internal_error', 'Internal server error'],
			502: ['bad_gateway', 'Bad gateway'],
			503: ['service_unavailable', 'Service temporarily unavailable'],
			504: ['gateway_timeout', 'Gateway timeout'],
		};
		const [code, message] = messages[status] ?? ['injected_error', `Error ${status}`];
		return new HttpError(status, code, `${message} (fault injected by the sandbox)`, {}, headers);
	};

	const server = http.createServer((req, res) => {
		const method = (req.method ?? 'GET').toUpperCase();
		const url = req.url ?? '/';
		const q = url.indexOf('?');
		const path = q < 0 ? url : url.slice(0, q);
		const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
		const run = path === '/__sandbox' || path.startsWith('/__sandbox/')
			? handleControl(req, method, path, query).then(
					(reply) => write(res, reply),
					(error: unknown) => {
						req.resume();
						write(res, errorReply(error));
					},
				)
			: handleApi(req, res, method, path, query);
		run.catch((error: unknown) => {
			if (!options.quiet) console.error('Sandbox failure:', error);
			if (!res.headersSent && !res.destroyed) write(res, json(500, { error: 'internal_error', message: 'Internal server error' }));
		});
	});
	server.keepAliveTimeout = 65_000;
	server.headersTimeout = 66_000;
	server.requestTimeout = 0;

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
			server.off('error', reject);
			resolve();
		});
	});
	const address = server.address() as AddressInfo;
	const host = options.host ?? '127.0.0.1';
	const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;

	return {
		baseUrl: `http://${urlHost}:${address.port}`,
		port: address.port,
		state,
		reset: () => state.seed(),
		close: () =>
			new Promise<void>((resolve, reject) => {
				for (const timer of pendingDelays) clearTimeout(timer);
				pendingDelays.clear();
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			}),
	};
}
