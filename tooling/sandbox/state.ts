import {
	type Client,
	type DataRightRule,
	type FieldValue,
	type Permission,
	type RecordTypeDefinition,
	type ReportColumn,
	type ReportRow,
	type TokenDefinition,
	type UserDefinition,
	BANK_COLUMNS,
	COSTS_COLUMNS,
	NOT_SHARED_COLUMNS,
	NOT_SHARED_ROWS,
	REPORTS,
	SEED_CLIENTS,
	SEED_RECORD_TYPES,
	TOKEN_DEFINITIONS,
	USERS,
	generateBankRows,
	generateCostRows,
} from './seeds';
import type { FaultRuleState } from './faults';
import { ReportState, VirtualBankReport, type SandboxReport } from './reportState';

export { ReportState, VirtualBankReport, type SandboxReport } from './reportState';
import { GUESSES, type SandboxGuesses } from './guesses';

/**
 * The seeded bank rows, generated and serialised once per size: resets (before every test) then
 * cost a copy of two arrays. The row objects are frozen because every reset shares them.
 */
const bankSeedCache = new Map<number, { rows: ReportRow[]; json: string[] }>();

function seededBankRows(count: number): { rows: ReportRow[]; json: string[] } {
	let cached = bankSeedCache.get(count);
	if (!cached) {
		const rows = generateBankRows(count).map((row) => Object.freeze(row));
		cached = { rows, json: rows.map((row) => JSON.stringify(row)) };
		bankSeedCache.set(count, cached);
	}
	return cached;
}

export interface StoredRecord {
	id: string;
	fields: Record<string, FieldValue>;
	/** How many times an import (or CRUD/outbound mapping) changed this record after its creation. */
	edits: number;
	createdAt: string;
	updatedAt: string;
}

export class RecordTypeState {
	readonly records = new Map<string, StoredRecord>();

	private readonly byKey = new Map<string, string>();

	private nextId = 1;

	/** Records created / edited through the API since the last reset (seed records not counted). */
	created = 0;

	edited = 0;

	fieldSet: Set<string>;

	constructor(
		readonly id: string,
		public name: string,
		public fields: string[],
		public keyField: string | undefined,
	) {
		this.fieldSet = new Set(fields);
	}

	addFields(fields: string[]): void {
		for (const field of fields) {
			if (!this.fieldSet.has(field)) {
				this.fields.push(field);
				this.fieldSet.add(field);
			}
		}
	}

	keyOf(fields: Record<string, FieldValue>): string | undefined {
		if (this.keyField === undefined) return undefined;
		const value = fields[this.keyField];
		if (value === undefined) return undefined;
		const key = String(value);
		return key === '' ? undefined : key;
	}

	findByKey(key: string): StoredRecord | undefined {
		const id = this.byKey.get(key);
		return id === undefined ? undefined : this.records.get(id);
	}

	create(fields: Record<string, FieldValue>, now: string): StoredRecord {
		const record: StoredRecord = {
			id: String(this.nextId++),
			fields: { ...fields },
			edits: 0,
			createdAt: now,
			updatedAt: now,
		};
		this.records.set(record.id, record);
		const key = this.keyOf(record.fields);
		if (key !== undefined) this.byKey.set(key, record.id);
		return record;
	}

	update(record: StoredRecord, fields: Record<string, FieldValue>, now: string): void {
		const oldKey = this.keyOf(record.fields);
		Object.assign(record.fields, fields);
		record.edits++;
		record.updatedAt = now;
		const newKey = this.keyOf(record.fields);
		if (oldKey !== newKey) {
			if (oldKey !== undefined && this.byKey.get(oldKey) === record.id) this.byKey.delete(oldKey);
			if (newKey !== undefined) this.byKey.set(newKey, record.id);
		}
	}

	delete(id: string): boolean {
		const record = this.records.get(id);
		if (!record) return false;
		const key = this.keyOf(record.fields);
		if (key !== undefined && this.byKey.get(key) === id) this.byKey.delete(key);
		this.records.delete(id);
		return true;
	}

	list(): StoredRecord[] {
		return [...this.records.values()];
	}
}

export interface Invoice {
	id: number;
	client_id: number;
	amount: number;
	currency: string;
	due_date: string;
	status: 'open';
	created_at: string;
}

export interface ImportLogEntry {
	/** 1-based order in which import requests finished since the last stats reset. */
	seq: number;
	/** 1-based order in which they arrived (differs from `seq` when requests overlap). */
	arrival: number;
	recordTypeId: string;
	/** Records in the request body (0 when the body was unreadable or rejected before parsing). */
	records: number;
	/** Per record stored: its key value, or its JSON when it has no key (for duplicate detection). */
	keys: string[];
	/** Per record of the request, stored or not: its key value, or its JSON when it has no key. */
	sent: string[];
	/** True when the records were stored. */
	processed: boolean;
	/** HTTP status sent, or `reset` when the connection was destroyed. */
	status: number | 'reset';
}

export interface OutboundLogEntry {
	at: string;
	kind: 'call' | 'webhook';
	method: string;
	url: string;
	status?: number;
	ok: boolean;
	error?: string;
	durationMs: number;
}

export class SandboxStats {
	/** Per route: total requests and counts per response status (`reset` for destroyed sockets). */
	requests: Record<string, { total: number; byStatus: Record<string, number> }> = {};

	faults = { total: 0, byRule: {} as Record<string, number>, byKind: {} as Record<string, number> };

	importLog: ImportLogEntry[] = [];

	/** Import requests that arrived since the last stats reset. */
	importArrivals = 0;

	/** How many times each record key was stored by an import, per record type. */
	private readonly storedKeys = new Map<string, Map<string, number>>();

	countRequest(route: string, status: number | 'reset'): void {
		let entry = this.requests[route];
		if (!entry) {
			entry = { total: 0, byStatus: {} };
			this.requests[route] = entry;
		}
		entry.total++;
		const label = String(status);
		entry.byStatus[label] = (entry.byStatus[label] ?? 0) + 1;
	}

	countFault(ruleId: string, kinds: string[]): void {
		this.faults.total++;
		this.faults.byRule[ruleId] = (this.faults.byRule[ruleId] ?? 0) + 1;
		for (const kind of kinds) this.faults.byKind[kind] = (this.faults.byKind[kind] ?? 0) + 1;
	}

	logImport(entry: Omit<ImportLogEntry, 'seq'>): ImportLogEntry {
		const logged = { seq: this.importLog.length + 1, ...entry };
		this.importLog.push(logged);
		return logged;
	}

	markStored(recordTypeId: string, keys: string[]): void {
		let counts = this.storedKeys.get(recordTypeId);
		if (!counts) {
			counts = new Map();
			this.storedKeys.set(recordTypeId, counts);
		}
		for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
	}

	summary(): Record<string, unknown> {
		let received = 0;
		let stored = 0;
		let processedRequests = 0;
		for (const entry of this.importLog) {
			received += entry.records;
			if (entry.processed) {
				stored += entry.records;
				processedRequests++;
			}
		}
		const duplicates: Array<{ recordTypeId: string; key: string; times: number }> = [];
		let duplicateCount = 0;
		for (const [recordTypeId, counts] of this.storedKeys) {
			for (const [key, times] of counts) {
				if (times > 1) {
					duplicateCount++;
					if (duplicates.length < 100) duplicates.push({ recordTypeId, key, times });
				}
			}
		}
		return {
			requests: this.requests,
			faults: this.faults,
			imports: {
				requests: this.importLog.length,
				processedRequests,
				recordsReceived: received,
				recordsStored: stored,
				batchSizes: this.importLog.map((entry) => entry.records),
				duplicateKeyCount: duplicateCount,
				duplicateKeys: duplicates,
			},
		};
	}

	clear(): void {
		this.requests = {};
		this.faults = { total: 0, byRule: {}, byKind: {} };
		this.importLog = [];
		this.importArrivals = 0;
		this.storedKeys.clear();
	}
}

/** Everything the sandbox holds in memory. Tests may read (and change) it directly. */
export class SandboxState {
	recordTypes = new Map<string, RecordTypeState>();

	reports = new Map<string, SandboxReport>();

	tokens = new Map<string, TokenDefinition>();

	users = new Map<string, UserDefinition>();

	clients: Client[] = [];

	invoices: Invoice[] = [];

	faults: FaultRuleState[] = [];

	/** Behaviours the guide does not define (guesses.ts); back to the start's on every reset. */
	guesses: SandboxGuesses = { ...GUESSES };

	stats = new SandboxStats();

	outboundLog: OutboundLogEntry[] = [];

	private nextInvoiceId = 1;

	constructor(
		private readonly bankRows: number,
		private readonly initialGuesses: SandboxGuesses = GUESSES,
	) {
		this.seed();
	}

	/** Back to the seeds: records, reports, tokens, users, clients; clears faults, stats and logs. */
	seed(): void {
		this.recordTypes.clear();
		for (const definition of SEED_RECORD_TYPES) this.defineRecordType(definition);
		this.reports.clear();
		const bank = seededBankRows(this.bankRows);
		const report = new ReportState(
			REPORTS.bankTransactions,
			'Bankovní transakce',
			[...BANK_COLUMNS],
			bank.rows.slice(),
			true,
			bank.json.slice(),
		);
		report.generator = 'bank';
		report.generated = this.bankRows;
		this.reports.set(report.id, report);
		this.defineReport(REPORTS.costs, 'Náklady', [...COSTS_COLUMNS], generateCostRows(), true);
		this.defineReport(
			REPORTS.notShared,
			'Mzdy (nesdíleno)',
			[...NOT_SHARED_COLUMNS],
			NOT_SHARED_ROWS.map((row) => ({ ...row })),
			false,
		);
		this.tokens.clear();
		for (const token of TOKEN_DEFINITIONS) this.tokens.set(token.token, { ...token });
		this.users.clear();
		for (const user of Object.values(USERS)) {
			this.users.set(user.id, {
				id: user.id,
				name: user.name,
				rights:
					user.rights === 'all'
						? 'all'
						: user.rights.map((rule: DataRightRule) => ({ columnName: rule.columnName, values: [...rule.values] })),
			});
		}
		this.clients = SEED_CLIENTS.map((client) => ({ ...client }));
		this.invoices = [];
		this.nextInvoiceId = 1;
		this.faults = [];
		this.guesses = { ...this.initialGuesses };
		this.stats.clear();
		this.outboundLog = [];
	}

	defineRecordType(definition: RecordTypeDefinition): RecordTypeState {
		const type = new RecordTypeState(definition.id, definition.name, [...definition.fields], definition.keyField);
		const now = new Date().toISOString();
		for (const fields of definition.records) type.create(fields, now);
		this.recordTypes.set(definition.id, type);
		return type;
	}

	defineReport(
		id: string,
		name: string,
		columns: ReportColumn[],
		rows: ReportRow[],
		apiEnabled: boolean,
	): ReportState {
		const report = new ReportState(id, name, columns, rows, apiEnabled);
		this.reports.set(id, report);
		return report;
	}

	/** A bank report of `rows` rows computed on demand (see VirtualBankReport). */
	defineVirtualBankReport(id: string, name: string, rows: number, apiEnabled: boolean): VirtualBankReport {
		const report = new VirtualBankReport(id, name, [...BANK_COLUMNS], rows, apiEnabled);
		this.reports.set(id, report);
		return report;
	}

	/** All stored records of a type, in creation order (empty for an unknown type). */
	getRecords(recordTypeId: string): StoredRecord[] {
		return this.recordTypes.get(recordTypeId)?.list() ?? [];
	}

	findRecordByKey(recordTypeId: string, key: string): StoredRecord | undefined {
		return this.recordTypes.get(recordTypeId)?.findByKey(key);
	}

	addInvoice(values: Omit<Invoice, 'id' | 'status' | 'created_at'>): Invoice {
		const invoice: Invoice = {
			id: this.nextInvoiceId++,
			...values,
			status: 'open',
			created_at: new Date().toISOString(),
		};
		this.invoices.push(invoice);
		return invoice;
	}

	hasPermission(token: TokenDefinition, permission: Permission): boolean {
		return token.permissions.includes(permission);
	}
}
