import { INVOICE_FIELDS, INVOICE_KEY_FIELD, RECORD_TYPES } from '../../sandbox/seeds';

/** Received invoices: 22 Czech field names (spec §2.2), keyed by "Interní číslo". */
export const IMPORT_RECORD_TYPE = RECORD_TYPES.receivedInvoices;
export const IMPORT_KEY_FIELD = INVOICE_KEY_FIELD;

/** The path that imports records of a record type (spec §4.1). */
export function importPath(recordTypeId: string): string {
	return `/api/3p/import/${encodeURIComponent(recordTypeId)}`;
}

const PARTNERS = ['ČEZ Prodej, a.s.', 'Alza.cz a.s.', 'Kancelářské potřeby s.r.o.', 'Účetní služby Novák', 'Škoda Auto a.s.'];
const STATES = ['Nová', 'Schválená', 'Zaplacená'];

function date(day: number): string {
	const d = new Date(Date.UTC(2025, 0, 1) + day * 86_400_000);
	return `${d.getUTCDate()}.${d.getUTCMonth() + 1}.${d.getUTCFullYear()}`;
}

/**
 * `count` invoice records as the service expects them (strings; d.m.yyyy dates; decimal-comma
 * amounts), each with a unique key `<prefix>-<n>`, so that the sandbox can tell a record sent twice.
 */
export function invoiceRecords(count: number, prefix: string): Array<Record<string, string>> {
	const records: Array<Record<string, string>> = [];
	for (let i = 0; i < count; i++) {
		const values: Record<string, string> = {
			'Interní číslo': `${prefix}-${i + 1}`,
			'Číslo dokladu': `FP-${2025_000_000 + i}`,
			Partner: PARTNERS[i % PARTNERS.length],
			Pracovník: 'Jana Nováková',
			Vystavil: 'Administrátor',
			Stav: STATES[i % STATES.length],
			Popis: `Faktura za služby, položka ${i + 1}`,
			'Způsob platby': i % 4 === 0 ? 'Hotově' : 'Převodem',
			'Kategorie nákladu': 'Služby',
			Typ: 'Faktura přijatá',
			'Datum splatnosti': date((i % 365) + 14),
			DUZP: date(i % 365),
			'Datum přijetí': date((i % 365) + 2),
			'Datum vystavení': date(i % 365),
			'Datum uhrazení': i % 3 === 2 ? date((i % 365) + 10) : '',
			'Variabilní symbol': String(2025_000_000 + i),
			'Konstantní symbol': '0308',
			'Specifický symbol': '',
			'Číslo objednávky': `OBJ-${i % 997}`,
			Projekt: i % 2 === 0 ? 'Provoz' : 'Investice',
			'Kolik to stálo': `${(1000 + ((i * 7919) % 99_000)).toLocaleString('en-US').replace(/,/g, '')},${String(i % 100).padStart(2, '0')}`,
			'Sazba DPH': i % 5 === 0 ? '12' : '21',
		};
		const record: Record<string, string> = {};
		for (const field of INVOICE_FIELDS) record[field] = values[field] ?? '';
		records.push(record);
	}
	return records;
}

function instant(day: number): Date {
	return new Date(Date.UTC(2025, 0, 1, 9, 30) + day * 86_400_000);
}

/**
 * The same records with the values a Code or Set node gives before an import: amounts and the VAT
 * rate as numbers, dates as Dates, empty fields as null; the node converts every one of them.
 */
export function typedInvoiceRecords(count: number, prefix: string): Array<Record<string, unknown>> {
	return invoiceRecords(count, prefix).map((text, i) => {
		const record: Record<string, unknown> = {};
		for (const field of INVOICE_FIELDS) record[field] = text[field] === '' ? null : text[field];
		record['Kolik to stálo'] = 1000 + ((i * 7919) % 99_000) + (i % 100) / 100;
		record['Sazba DPH'] = i % 5 === 0 ? 12 : 21;
		record['Datum splatnosti'] = instant((i % 365) + 14);
		record.DUZP = instant(i % 365);
		record['Datum přijetí'] = instant((i % 365) + 2);
		record['Datum vystavení'] = instant(i % 365);
		record['Datum uhrazení'] = i % 3 === 2 ? instant((i % 365) + 10) : null;
		return record;
	});
}

export { INVOICE_FIELDS };
