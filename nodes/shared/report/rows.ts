/**
 * Pure parts of reading a report: the output key of each column, Czech-formatted cell conversion,
 * and the identity of a row. Built once per report and applied per row, so the per-row work is a
 * plain loop over the columns.
 */
import { hash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';
import { parseCzechDate, parseCzechNumber } from '../czechFormats';

/** A column definition of the report table (spec §2.3). */
export interface ReportColumn {
	id: string;
	name: string;
}

/** A row as the service sends it: keys are column ids. */
export type ReportRow = IDataObject;

export type OutputKeys = 'name' | 'id';

/**
 * - `none`: cells are passed on exactly as the service sent them.
 * - `auto`: in every column, only values that cannot be anything else are converted: numbers with a
 *   decimal comma (`-1 234,50`) and dates `d.m.yyyy` (with an optional time). Whole numbers stay text,
 *   because identifiers such as variable symbols (`0012345`, `2026010045`) look the same.
 * - `columns`: only the columns the user names, as numbers (whole numbers too) or as dates.
 */
export type CzechConversion = 'none' | 'auto' | 'columns';

/**
 * The output key of each column, in column order.
 *
 * By name: the column name (Unicode NFC, so names typed on different systems match); a blank name
 * falls back to the column id. When several columns share a name, the first keeps it and each later
 * one gets ` (2)`, ` (3)`, … — the smallest number whose key no other column has, so a column really
 * named `Částka (2)` keeps its name and a duplicate `Částka` becomes `Částka (3)`.
 *
 * By id: the column id, as the service sends it.
 */
export function columnKeys(columns: readonly ReportColumn[], outputKeys: OutputKeys): string[] {
	if (outputKeys === 'id') return columns.map((column) => column.id);
	const bases = columns.map((column) => {
		const name = typeof column.name === 'string' ? column.name.normalize('NFC').trim() : '';
		return name === '' ? String(column.id) : name;
	});
	const taken = new Set<string>();
	const keys: Array<string | undefined> = bases.map((base) => {
		if (taken.has(base)) return undefined;
		taken.add(base);
		return base;
	});
	return keys.map((key, index) => {
		if (key !== undefined) return key;
		const base = bases[index];
		let n = 2;
		while (taken.has(`${base} (${n})`)) n++;
		const numbered = `${base} (${n})`;
		taken.add(numbered);
		return numbered;
	});
}

/** Splits a list of column references typed by the user: commas or line breaks separate them. */
export function parseColumnList(text: unknown): string[] {
	// A list: from a column dropdown (column IDs), or an expression's result.
	if (Array.isArray(text)) return text.map((entry) => String(entry).normalize('NFC').trim()).filter((e) => e !== '');
	if (typeof text !== 'string') return [];
	return text
		.split(/[,\n]/)
		.map((entry) => entry.normalize('NFC').trim())
		.filter((entry) => entry !== '');
}

/**
 * The indexes of the columns a user's references name. A reference matches a column by its output
 * key (e.g. `Částka (2)`), by its id, or by its name — a name shared by several columns matches them
 * all. References that match nothing are returned in `unknown`.
 */
export function resolveColumns(
	columns: readonly ReportColumn[],
	references: readonly string[],
): { indexes: number[]; unknown: string[] } {
	const byNameKeys = columnKeys(columns, 'name');
	const indexes = new Set<number>();
	const unknown: string[] = [];
	for (const reference of references) {
		const wanted = reference.normalize('NFC').trim();
		let found = false;
		columns.forEach((column, index) => {
			const name = typeof column.name === 'string' ? column.name.normalize('NFC').trim() : '';
			if (byNameKeys[index] === wanted || column.id === wanted || name === wanted) {
				indexes.add(index);
				found = true;
			}
		});
		if (!found) unknown.push(reference);
	}
	return { indexes: [...indexes].sort((a, b) => a - b), unknown };
}

/** How the columns of a report are listed in messages, e.g. `Částka (c3), Částka (2) (c4)`. */
export function describeColumns(columns: readonly ReportColumn[], limit = 30): string {
	const keys = columnKeys(columns, 'name');
	const listed = keys.slice(0, limit).map((key, index) => `${key} (${columns[index].id})`);
	if (keys.length > limit) listed.push(`… ${keys.length - limit} more`);
	return listed.join(', ');
}

type CellConverter = (value: unknown) => unknown;

/** Quick test before any regular expression: Czech numbers and dates start with a digit or minus. */
function mayBeNumberOrDate(value: string): boolean {
	const first = value.charCodeAt(0);
	return (first >= 48 && first <= 57) || first === 45 || first === 0x2212 || first === 32;
}

const convertAuto: CellConverter = (value) => {
	if (typeof value !== 'string' || value.length === 0 || !mayBeNumberOrDate(value)) return value;
	if (value.includes(',')) return parseCzechNumber(value, { requireDecimalComma: true, exactOnly: true }) ?? value;
	if (value.includes('.')) return parseCzechDate(value) ?? value;
	return value;
};

/** In a column the user named: an empty cell becomes null; a value that does not parse stays. */
const convertNumberColumn: CellConverter = (value) => {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return null;
	return parseCzechNumber(value, { exactOnly: true }) ?? value;
};

const convertDateColumn: CellConverter = (value) => {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return null;
	return parseCzechDate(value) ?? value;
};

export interface RowShapeOptions {
	outputKeys: OutputKeys;
	conversion: CzechConversion;
	/** Column indexes converted as numbers, with conversion `columns`. */
	numberColumns?: readonly number[];
	/** Column indexes converted as dates, with conversion `columns`. */
	dateColumns?: readonly number[];
}

export interface RowShaper {
	/** Output key per column. */
	keys: string[];
	/** The output object of one row; the row itself when nothing needs to change. */
	shape: (row: ReportRow) => IDataObject;
}

/**
 * Builds, once per report, the function that turns a row keyed by column ids into the output row.
 * Cells are taken for the columns the service lists; a report without column definitions is passed
 * on as it is.
 */
export function createRowShaper(columns: readonly ReportColumn[], options: RowShapeOptions): RowShaper {
	const keys = columnKeys(columns, options.outputKeys);
	const ids = columns.map((column) => column.id);
	const converters: Array<CellConverter | undefined> = columns.map(() =>
		options.conversion === 'auto' ? convertAuto : undefined,
	);
	if (options.conversion === 'columns') {
		for (const index of options.numberColumns ?? []) converters[index] = convertNumberColumn;
		for (const index of options.dateColumns ?? []) converters[index] = convertDateColumn;
	}
	const converting = converters.some((converter) => converter !== undefined);
	const count = ids.length;

	if (count === 0 || (options.outputKeys === 'id' && !converting)) {
		return { keys, shape: (row) => row };
	}
	if (!converting) {
		return {
			keys,
			shape: (row) => {
				const out: IDataObject = {};
				for (let i = 0; i < count; i++) out[keys[i]] = row[ids[i]] as IDataObject[string];
				return out;
			},
		};
	}
	return {
		keys,
		shape: (row) => {
			const out: IDataObject = {};
			for (let i = 0; i < count; i++) {
				const converter = converters[i];
				const value = row[ids[i]];
				out[keys[i]] = (converter === undefined ? value : converter(value)) as IDataObject[string];
			}
			return out;
		},
	};
}

// ---- Row identity -----------------------------------------------------------------------------

/** Characters of a stored identity: 12 base64url characters = 72 bits of SHA-256. */
export const IDENTITY_LENGTH = 12;
/** The same identity as bytes: the first 9 bytes of the SHA-256 (what its 12 characters encode). */
export const IDENTITY_BYTES = 9;

/**
 * A short, fixed-width identity of a text. 72 bits keep the chance of two of 100,000 remembered rows
 * colliding near 10⁻¹², while 100,000 identities take 1.2 MB in the workflow's static data.
 */
export function identityOf(text: string): string {
	return hash('sha256', text, 'base64url').slice(0, IDENTITY_LENGTH);
}

/**
 * The identity of a text as bytes, written to `target` from `at`: what `identityOf` encodes, without
 * a string per row. (The digest as 'binary' (latin1) text has one character per byte, the cheapest to take apart.)
 */
export function writeIdentity(text: string, target: Uint8Array, at: number): void {
	const digest = hash('sha256', text, 'binary');
	for (let i = 0; i < IDENTITY_BYTES; i++) target[at + i] = digest.charCodeAt(i);
}

/**
 * The text a row is identified by: the cells of the given columns (all columns for a whole-row
 * identity), in column order, independent of output keys and conversion. Each cell is written as its
 * length, a colon and its text: text cells as they are, other cells (numbers, booleans, objects, null
 * for a missing cell) as JSON after a "~". Every cell says where it ends, so no two lists of cells
 * give one text, and text is not escaped character by character as the JSON of the list would.
 *
 * The hash reads text as UTF-8, which turns every lone surrogate into one character: a row holding
 * one is written as the JSON of its cells, which escapes them, after a "!" that no other text
 * starts with.
 */
export function rowIdentityText(row: ReportRow, ids: readonly string[]): string {
	let text = '';
	for (let i = 0; i < ids.length; i++) {
		const cell = row[ids[i]];
		if (typeof cell === 'string') {
			text += `${cell.length}:${cell}`;
		} else {
			const json = JSON.stringify(cell ?? null);
			text += `~${json.length}:${json}`;
		}
	}
	return text.isWellFormed() ? text : `!${JSON.stringify(ids.map((id) => row[id] ?? null))}`;
}

// ---- Report reference -------------------------------------------------------------------------

/** Matches the report id in a URL from the sharing dialog or of the API itself: `…/reports/{id}…`. */
export const REPORT_URL_REGEX = '/reports/([^/?#\\s]+)';
/** A report id: any text without white space or the URL delimiters / ? #. */
export const REPORT_ID_REGEX = '[^/?#\\s]+';

const REPORT_URL = new RegExp(REPORT_URL_REGEX);
const REPORT_ID = new RegExp(`^${REPORT_ID_REGEX}$`);

function percentDecoded(text: string): string | undefined {
	try {
		return decodeURIComponent(text);
	} catch {
		return undefined;
	}
}

/**
 * The report id of the Report parameter, given by ID or by the URL copied from the report's sharing
 * dialog. A URL typed in the ID field is accepted too: what it means is not in doubt.
 */
export function reportIdFromReference(mode: string, value: unknown): string {
	const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
	if (text === '') {
		throw new Error(
			"No report is given. Enter the report ID (or URL) shown in the report's sharing dialog after enabling availability through the API.",
		);
	}
	const looksLikeUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) || text.includes('/reports/');
	if (mode === 'url' || looksLikeUrl) {
		const match = REPORT_URL.exec(text);
		if (!match) {
			throw new Error(
				`The URL "${text}" does not contain "/reports/<report ID>". Copy the URL from the report's sharing dialog, or choose "By ID" and enter the ID.`,
			);
		}
		const id = percentDecoded(match[1]);
		if (id === undefined) {
			throw new Error(`The report ID in the URL "${text}" is not correctly percent-encoded`);
		}
		return id;
	}
	if (!REPORT_ID.test(text)) {
		throw new Error(
			`The report ID "${text}" contains white space or one of / ? #. Enter only the ID from the report's sharing dialog, or choose "By URL" and paste the whole URL.`,
		);
	}
	return text;
}

/** What Get Rows returns of each row when used as a tool (n8n's Simplified / Raw / Selected Fields). */
export type ToolRowOutput = 'simple' | 'raw' | 'fields';

/**
 * The part of a shaped row a tool returns: "simple" leaves out empty cells, which only cost an
 * agent's context; "fields" keeps the given output keys; "raw" keeps every cell.
 */
export function toolRowProjection(output: ToolRowOutput, keys: readonly string[] = []): (row: IDataObject) => IDataObject {
	if (output === 'raw') return (row) => row;
	if (output === 'fields') {
		return (row) => {
			const picked: IDataObject = {};
			for (const key of keys) if (key in row) picked[key] = row[key];
			return picked;
		};
	}
	return (row) => {
		const kept: IDataObject = {};
		for (const key of Object.keys(row)) {
			const value = row[key];
			if (value !== '' && value !== null && value !== undefined) kept[key] = value;
		}
		return kept;
	};
}
