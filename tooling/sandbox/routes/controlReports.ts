import { ControlError, HttpError, isObject, json, type Reply } from '../http';
import type { RowPosition, SandboxReport } from '../reportState';
import { BANK_COLUMNS, generateBankRows, type ReportColumn, type ReportRow } from '../seeds';
import { ReportState, type SandboxState } from '../state';

/**
 * Control endpoints for reports: define one (explicit rows, generated bank rows, or a virtual bank
 * report computed on demand), add rows at the top, the end or before any row.
 */

function parseColumns(value: unknown): ReportColumn[] {
	if (!Array.isArray(value) || value.length === 0) throw new ControlError('"columns" must be a non-empty list of {id, name}');
	return value.map((column: unknown, index) => {
		if (!isObject(column) || typeof column.id !== 'string' || typeof column.name !== 'string') {
			throw new ControlError(`columns[${index}] must be {id, name} strings`);
		}
		return { id: column.id, name: column.name.normalize('NFC') };
	});
}

function parseRows(value: unknown): ReportRow[] {
	if (!Array.isArray(value)) throw new ControlError('"rows" must be a list of objects keyed by column id');
	return value.map((row: unknown, index) => {
		if (!isObject(row)) throw new ControlError(`rows[${index}] must be an object keyed by column id`);
		const cells: ReportRow = {};
		for (const [key, cell] of Object.entries(row)) cells[key] = typeof cell === 'string' ? cell : JSON.stringify(cell);
		return cells;
	});
}

export function reportSummary(report: SandboxReport): Record<string, unknown> {
	return {
		id: report.id,
		name: report.name,
		apiEnabled: report.apiEnabled,
		columns: report.columns,
		rowCount: report.rowCount,
		...(report instanceof ReportState ? {} : { virtual: true }),
	};
}

/**
 * `POST /reports`: {id, name?, apiEnabled?, columns, rows} or {id, generate: 'bank', rows: count,
 * virtual?: true}.
 */
export function defineReport(state: SandboxState, body: unknown): Reply {
	if (!isObject(body) || typeof body.id !== 'string' || body.id === '') throw new ControlError('A report needs an "id" string');
	const apiEnabled = body.apiEnabled === undefined ? true : body.apiEnabled === true;
	const name = typeof body.name === 'string' ? body.name : body.id;
	let report: SandboxReport;
	if (body.virtual !== undefined && (body.virtual !== true || body.generate !== 'bank')) {
		throw new ControlError('"virtual": true needs "generate": "bank" (a virtual report computes generated bank rows)');
	}
	if (body.generate !== undefined) {
		if (body.generate !== 'bank') throw new ControlError('"generate" supports only "bank"');
		const count = body.rows;
		if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
			throw new ControlError('With "generate", "rows" is the number of rows to generate');
		}
		if (body.virtual === true) {
			report = state.defineVirtualBankReport(body.id, name, count, apiEnabled);
		} else {
			report = state.defineReport(body.id, name, [...BANK_COLUMNS], generateBankRows(count), apiEnabled);
			report.generator = 'bank';
			report.generated = count;
		}
	} else {
		report = state.defineReport(body.id, name, parseColumns(body.columns), parseRows(body.rows ?? []), apiEnabled);
	}
	return json(200, reportSummary(report));
}

function parsePosition(value: unknown): RowPosition {
	if (value === undefined) return 'end';
	if (value === 'top' || value === 'end' || (typeof value === 'number' && Number.isInteger(value) && value >= 0)) return value;
	throw new ControlError('"at" must be "top", "end" or a row index from 0');
}

/**
 * `POST /reports/:id/rows`: {rows: [...]} or, for a generated report, {generate: count}; `at`:
 * "end" (default), "top" (above the first row, newest first) or a 0-based index (before that row).
 */
export function appendRows(state: SandboxState, reportId: string, body: unknown): Reply {
	const report = state.reports.get(reportId);
	if (!report) throw new HttpError(404, 'report_not_found', `Report "${reportId}" does not exist`);
	if (!isObject(body)) throw new ControlError('Body must be {"rows": [...]} or {"generate": n}');
	const at = parsePosition(body.at);
	if (body.generate !== undefined) {
		const count = body.generate;
		if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) throw new ControlError('"generate" must be a row count');
		if (report.generator !== 'bank') {
			throw new ControlError(`Report "${reportId}" was not generated; append explicit "rows" instead`);
		}
		report.addGenerated(count, at);
	} else {
		if (!(report instanceof ReportState)) throw new ControlError(`Report "${reportId}" is virtual: add rows with {"generate": n}`);
		const rows = parseRows(body.rows);
		// At the top the newest row comes first, as in a report sorted newest first.
		report.insert(report.positionIndex(at), at === 'top' ? rows.reverse() : rows);
	}
	return json(200, reportSummary(report));
}
