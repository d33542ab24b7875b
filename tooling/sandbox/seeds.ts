/**
 * Fixed seed data of the Records sandbox. Everything here is deterministic, so tests can import these
 * constants and assert against them. See README.md in this folder for the same data in prose.
 */

export type Permission = 'import' | 'analysis';

export interface TokenDefinition {
	/** The bearer token value. */
	token: string;
	/** What an administrator typed as the token's name. */
	name: string;
	permissions: Permission[];
	/** The user the token is assigned to; their data rights bound report rows. */
	userId: string;
	/** ISO 8601 end of validity. */
	validUntil: string;
}

/** Token values: fixed strings shaped like the random ones the service generates. */
export const TOKENS = {
	/** Permission import, user admin. */
	import: 'rk_5f0c9a7e3b8d41c6a2e97f4d1b6c08a3e5d27f91',
	/** Permission analysis, user admin: sees every report row. */
	analysisAdmin: 'rk_a81d4e6f29c0473bb5e8d1c7f03a96e24b7c5d10',
	/** Permission analysis, user jana: sees only the rows her data rights allow. */
	analysisLimited: 'rk_3c7e92b1f5a0486d9e2c4b7a10f8d35e6a9c2b47',
	/** Permissions import and analysis, user admin. */
	full: 'rk_e49b07d2c6a1458f8b3e0d9c72f5a14e8c6b3d05',
	/** Permissions import and analysis, but its validity ended: 401 everywhere. */
	expired: 'rk_7d2f5a8c1e0b4963a4f7c2e9b8d06a31f5e8c274',
	/** Valid, but carries no permission: 401 everywhere. */
	noPermission: 'rk_0b6e3d9a4c7f42e1b8a5d2f0c9e7364a1d8b5f93',
} as const;

export type TokenName = keyof typeof TOKENS;

const FAR_FUTURE = '2099-12-31T23:59:59Z';

export const TOKEN_DEFINITIONS: readonly TokenDefinition[] = [
	{ token: TOKENS.import, name: 'Import', permissions: ['import'], userId: 'admin', validUntil: FAR_FUTURE },
	{
		token: TOKENS.analysisAdmin,
		name: 'Analysis (admin)',
		permissions: ['analysis'],
		userId: 'admin',
		validUntil: FAR_FUTURE,
	},
	{
		token: TOKENS.analysisLimited,
		name: 'Analysis (jana)',
		permissions: ['analysis'],
		userId: 'jana',
		validUntil: FAR_FUTURE,
	},
	{
		token: TOKENS.full,
		name: 'Import and analysis',
		permissions: ['import', 'analysis'],
		userId: 'admin',
		validUntil: FAR_FUTURE,
	},
	{
		token: TOKENS.expired,
		name: 'Expired',
		permissions: ['import', 'analysis'],
		userId: 'admin',
		validUntil: '2024-01-31T23:59:59Z',
	},
	{ token: TOKENS.noPermission, name: 'No permission', permissions: [], userId: 'admin', validUntil: FAR_FUTURE },
];

/**
 * A data right: the user may see a report row only when the row's value in the column of this name
 * is one of `values`. Rules whose column a report does not have do not restrict that report.
 */
export interface DataRightRule {
	columnName: string;
	values: string[];
}

export interface UserDefinition {
	id: string;
	name: string;
	/** `all` = no restriction. */
	rights: 'all' | DataRightRule[];
}

export const USERS = {
	admin: { id: 'admin', name: 'Administrátor', rights: 'all' },
	jana: {
		id: 'jana',
		name: 'Jana Nováková',
		rights: [
			{ columnName: 'Účet', values: ['CZ-PROVOZ'] },
			{ columnName: 'Pracovník', values: ['Jana Nováková'] },
		],
	},
} as const satisfies Record<string, UserDefinition>;

/** Record type ids. */
export const RECORD_TYPES = {
	/** Received invoice (cost), the 22 fields of spec §2.2. */
	receivedInvoices: 'faktury-prijate',
	/** Tasks: Název, Zadal, Zpracovatel. */
	tasks: 'ukoly',
} as const;

/** The 22 field names of the received-invoice record type, exactly as spec §2.2 lists them (NFC). */
export const INVOICE_FIELDS = [
	'Interní číslo',
	'Číslo dokladu',
	'Partner',
	'Pracovník',
	'Vystavil',
	'Stav',
	'Popis',
	'Způsob platby',
	'Kategorie nákladu',
	'Typ',
	'Datum splatnosti',
	'DUZP',
	'Datum přijetí',
	'Datum vystavení',
	'Datum uhrazení',
	'Variabilní symbol',
	'Konstantní symbol',
	'Specifický symbol',
	'Číslo objednávky',
	'Projekt',
	'Kolik to stálo',
	'Sazba DPH',
].map((name) => name.normalize('NFC'));

export const INVOICE_KEY_FIELD = 'Interní číslo'.normalize('NFC');

export const TASK_FIELDS = ['Název', 'Zadal', 'Zpracovatel'].map((name) => name.normalize('NFC'));

export const TASK_KEY_FIELD = 'Název'.normalize('NFC');

export type FieldValue = string | number;

export interface RecordTypeDefinition {
	id: string;
	name: string;
	fields: string[];
	/** The field whose value decides create (unknown key) or edit (existing key). */
	keyField?: string;
	records: Array<Record<string, FieldValue>>;
}

function invoice(values: Partial<Record<string, string>>): Record<string, string> {
	const record: Record<string, string> = {};
	for (const field of INVOICE_FIELDS) record[field] = values[field] ?? '';
	return record;
}

export const SEED_RECORD_TYPES: readonly RecordTypeDefinition[] = [
	{
		id: RECORD_TYPES.receivedInvoices,
		name: 'Faktury přijaté',
		fields: INVOICE_FIELDS,
		keyField: INVOICE_KEY_FIELD,
		records: [
			invoice({
				'Interní číslo': 'FP-2026-0001',
				'Číslo dokladu': '2026010045',
				Partner: 'Kancelářské potřeby Novák s.r.o.',
				Pracovník: 'Jana Nováková',
				Vystavil: 'Petr Svoboda',
				Stav: 'Uhrazeno',
				Popis: 'Papír a tonery',
				'Způsob platby': 'Převodem',
				'Kategorie nákladu': 'Kancelář',
				Typ: 'Faktura',
				'Datum splatnosti': '24.1.2026',
				DUZP: '10.1.2026',
				'Datum přijetí': '11.1.2026',
				'Datum vystavení': '10.1.2026',
				'Datum uhrazení': '20.1.2026',
				'Variabilní symbol': '2026010045',
				'Konstantní symbol': '0308',
				'Číslo objednávky': 'OBJ-118',
				Projekt: 'Provoz',
				'Kolik to stálo': '4356,00',
				'Sazba DPH': '21',
			}),
			invoice({
				'Interní číslo': 'FP-2026-0002',
				'Číslo dokladu': 'F-77120',
				Partner: 'ČEZ Prodej, a.s.',
				Pracovník: 'Petr Svoboda',
				Stav: 'Ke schválení',
				Popis: 'Elektřina leden',
				'Způsob platby': 'Inkaso',
				'Kategorie nákladu': 'Energie',
				Typ: 'Faktura',
				'Datum splatnosti': '15.2.2026',
				DUZP: '31.1.2026',
				'Datum přijetí': '2.2.2026',
				'Datum vystavení': '1.2.2026',
				'Variabilní symbol': '7712000126',
				Projekt: 'Provoz',
				'Kolik to stálo': '12850,40',
				'Sazba DPH': '21',
			}),
			invoice({
				'Interní číslo': 'FP-2026-0003',
				'Číslo dokladu': 'ZF-3321',
				Partner: 'Stavby Dvořák a syn',
				Pracovník: 'Jana Nováková',
				Stav: 'Nová',
				Popis: 'Záloha na opravu střechy',
				'Způsob platby': 'Převodem',
				'Kategorie nákladu': 'Údržba',
				Typ: 'Zálohová faktura',
				'Datum splatnosti': '1.3.2026',
				'Datum přijetí': '14.2.2026',
				'Datum vystavení': '12.2.2026',
				'Variabilní symbol': '3321',
				'Specifický symbol': '15',
				Projekt: 'Budova B',
				'Kolik to stálo': '50000,00',
				'Sazba DPH': '12',
			}),
		],
	},
	{
		id: RECORD_TYPES.tasks,
		name: 'Úkoly',
		fields: TASK_FIELDS,
		keyField: TASK_KEY_FIELD,
		records: [
			{ Název: 'Zkontrolovat fakturu od ČEZ', Zadal: 'Administrátor', Zpracovatel: 'Jana Nováková' },
			{ Název: 'Objednat tonery', Zadal: 'Jana Nováková', Zpracovatel: 'Petr Svoboda' },
		],
	},
];

/** Report ids. */
export const REPORTS = {
	/** Bank transactions, `bankRows` rows (default 10,000), made available through the API. */
	bankTransactions: 'bank-transactions',
	/** Costs, with two columns named `Částka`, made available through the API. */
	costs: 'costs',
	/** Exists, but not made available through the API: 404. */
	notShared: 'not-shared',
} as const;

export interface ReportColumn {
	id: string;
	name: string;
}

export const BANK_COLUMNS: readonly ReportColumn[] = [
	{ id: 'c1', name: 'ID transakce' },
	{ id: 'c2', name: 'Datum' },
	{ id: 'c3', name: 'Částka' },
	{ id: 'c4', name: 'Měna' },
	{ id: 'c5', name: 'Protiúčet' },
	{ id: 'c6', name: 'Variabilní symbol' },
	{ id: 'c7', name: 'Zpráva' },
	{ id: 'c8', name: 'Účet' },
];

/** Column id holding each bank row's unique, increasing transaction id. */
export const BANK_ID_COLUMN = 'c1';

/** Bank accounts of the generated transactions; user jana may see only `CZ-PROVOZ`. */
export const BANK_ACCOUNTS = ['CZ-PROVOZ', 'CZ-MZDY', 'CZ-INVESTICE', 'EUR-HLAVNI'] as const;

export const COSTS_COLUMNS: readonly ReportColumn[] = [
	{ id: 'c1', name: 'Interní číslo' },
	{ id: 'c2', name: 'Partner' },
	{ id: 'c3', name: 'Částka' },
	{ id: 'c4', name: 'Částka' },
	{ id: 'c5', name: 'Datum splatnosti' },
	{ id: 'c6', name: 'Pracovník' },
	{ id: 'c7', name: 'Stav' },
	{ id: 'c8', name: 'Kategorie nákladu' },
];

/** The two columns sharing the name `Částka`: amount without VAT (c3) and with VAT (c4). */
export const COSTS_DUPLICATE_COLUMN_IDS = ['c3', 'c4'] as const;

export const COSTS_ID_COLUMN = 'c1';

export const COSTS_ROW_COUNT = 60;

export type ReportRow = Record<string, string>;

/** Small deterministic PRNG (mulberry32); the same seed always yields the same sequence. */
export function createRng(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const BANK_MESSAGES = [
	'Platba faktury',
	'Nájem kanceláře',
	'Mzda',
	'Úhrada zálohy',
	'Přeplatek energie',
	'Poplatek za vedení účtu',
	'Platba kartou',
	'Příchozí platba od odběratele',
	'Pojištění vozidla',
	'Daň z přidané hodnoty',
] as const;

const BANK_CODES = ['0100', '0300', '0600', '0800', '2010', '3030', '5500', '6210'] as const;

function formatAmount(cents: number): string {
	const sign = cents < 0 ? '-' : '';
	const abs = Math.abs(cents);
	const fraction = String(abs % 100).padStart(2, '0');
	return `${sign}${Math.floor(abs / 100)},${fraction}`;
}

const DAY_MS = 86_400_000;
const BANK_START = Date.UTC(2024, 0, 1);

/** The "ID transakce" of the bank report's row number `n` (counted from 1). */
export const bankTransactionId = (n: number): string => `TX${String(n).padStart(8, '0')}`;

/** The "ID transakce" of `count` bank rows, from row number `from` (counted from 1). */
export const bankTransactionIds = (from: number, count: number): string[] =>
	Array.from({ length: count }, (_, index) => bankTransactionId(from + index));

/** Bank transaction row number `n` (1-based): it depends only on `n`. */
export function bankRow(n: number): ReportRow {
	const rng = createRng(n * 2654435761);
	const account = BANK_ACCOUNTS[Math.floor(rng() * BANK_ACCOUNTS.length)];
	const incoming = rng() < 0.35;
	const cents = Math.floor(rng() * 5_000_000) + 100;
	const date = new Date(BANK_START + Math.floor(n / 40) * DAY_MS);
	const hasSymbol = rng() < 0.8;
	return {
		c1: bankTransactionId(n),
		c2: `${date.getUTCDate()}.${date.getUTCMonth() + 1}.${date.getUTCFullYear()}`,
		c3: formatAmount(incoming ? cents : -cents),
		c4: account === 'EUR-HLAVNI' ? 'EUR' : 'CZK',
		c5: `${String(Math.floor(rng() * 1e9)).padStart(9, '0')}/${BANK_CODES[Math.floor(rng() * BANK_CODES.length)]}`,
		c6: hasSymbol ? String(Math.floor(rng() * 1e10)) : '',
		c7: BANK_MESSAGES[Math.floor(rng() * BANK_MESSAGES.length)],
		c8: account,
	};
}

/**
 * Bank transaction rows number `from + 1` .. `from + count` (1-based), identical for the same numbers
 * whatever the batch: row n depends only on n, so appended rows continue a generated report seamlessly.
 */
export function generateBankRows(count: number, from = 0): ReportRow[] {
	const rows: ReportRow[] = new Array<ReportRow>(count);
	for (let i = 0; i < count; i++) rows[i] = bankRow(from + i + 1);
	return rows;
}

const COST_PARTNERS = [
	'Kancelářské potřeby Novák s.r.o.',
	'ČEZ Prodej, a.s.',
	'Stavby Dvořák a syn',
	'O2 Czech Republic a.s.',
	'Úklidová služba Čistá',
	'Alza.cz a.s.',
] as const;

const COST_WORKERS = ['Jana Nováková', 'Petr Svoboda', 'Administrátor'] as const;
const COST_STATES = ['Nová', 'Ke schválení', 'Schváleno', 'Uhrazeno'] as const;
const COST_CATEGORIES = ['Kancelář', 'Energie', 'Údržba', 'Telekomunikace', 'IT'] as const;

export function generateCostRows(count = COSTS_ROW_COUNT): ReportRow[] {
	const rng = createRng(20260101);
	const rows: ReportRow[] = [];
	for (let n = 1; n <= count; n++) {
		const net = Math.floor(rng() * 8_000_000) + 1000;
		const vat = rng() < 0.8 ? 21 : 12;
		const due = new Date(Date.UTC(2026, 0, 5) + n * 3 * DAY_MS);
		rows.push({
			c1: `FP-2025-${String(n).padStart(4, '0')}`,
			c2: COST_PARTNERS[Math.floor(rng() * COST_PARTNERS.length)],
			c3: formatAmount(net),
			c4: formatAmount(Math.round((net * (100 + vat)) / 100)),
			c5: `${due.getUTCDate()}.${due.getUTCMonth() + 1}.${due.getUTCFullYear()}`,
			c6: COST_WORKERS[n % COST_WORKERS.length],
			c7: COST_STATES[Math.floor(rng() * COST_STATES.length)],
			c8: COST_CATEGORIES[Math.floor(rng() * COST_CATEGORIES.length)],
		});
	}
	return rows;
}

export const NOT_SHARED_COLUMNS: readonly ReportColumn[] = [
	{ id: 'c1', name: 'Pracovník' },
	{ id: 'c2', name: 'Mzda' },
];

export const NOT_SHARED_ROWS: readonly ReportRow[] = [
	{ c1: 'Jana Nováková', c2: '48000,00' },
	{ c1: 'Petr Svoboda', c2: '52000,00' },
];

/** Clients of the illustrative `/api/v1/clients` and `/clients` endpoints (spec §4.4). */
export interface Client {
	id: number;
	name: string;
	revenue: number;
	status: 'active' | 'inactive' | 'prospect';
}

const CLIENT_NAMES = [
	'Alfa Trade s.r.o.',
	'Beta Stavby a.s.',
	'Gama Logistika s.r.o.',
	'Delta Software s.r.o.',
	'Epsilon Potraviny a.s.',
	'Zéta Energie s.r.o.',
	'Éta Reality s.r.o.',
	'Théta Design s.r.o.',
	'Ióta Doprava a.s.',
	'Kappa Elektro s.r.o.',
	'Lambda Strojírny a.s.',
	'Mí Textil s.r.o.',
	'Ný Farma s.r.o.',
	'Ksí Tisk s.r.o.',
	'Omikron Služby s.r.o.',
	'Pí Pekárna s.r.o.',
	'Ró Nábytek a.s.',
	'Sigma Účetnictví s.r.o.',
	'Tau Sklo s.r.o.',
	'Ypsilon Hotely a.s.',
	'Fí Zdraví s.r.o.',
	'Chí Chemie a.s.',
	'Psí Média s.r.o.',
	'Omega Stav s.r.o.',
	'Česká Kávovarna s.r.o.',
] as const;

const CLIENT_STATUSES = ['active', 'active', 'inactive', 'prospect'] as const;

export const SEED_CLIENTS: readonly Client[] = CLIENT_NAMES.map((name, index) => ({
	id: index + 1,
	name,
	revenue: Math.round(((index * 7919) % 100_000) * 12.5 + 1000) / 4,
	status: CLIENT_STATUSES[index % CLIENT_STATUSES.length],
}));

/** Defaults of the illustrative webhook (spec §6.2). */
export const DEFAULT_WEBHOOK_PAYLOAD = {
	event: 'invoice.paid',
	invoice_id: 123,
	paid_at: '2026-11-21T10:00:00Z',
	amount: 1234.5,
} as const;
