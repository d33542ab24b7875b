import { ControlError, HttpError, isObject, json, type Reply } from '../http';
import { BANK_COLUMNS, generateBankRows, type ReportColumn, type ReportRow } from '../seeds';
import type { ReportState, SandboxState } from '../state';

/** Control endpoints for reports: define one (explicit rows or generated bank rows), append rows. */

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

export function reportSummary(report: ReportState): Record<string, unknown> {
	return {
		id: report.id,
		name: report.name,
		apiEnabled: report.apiEnabled,
		columns: report.columns,
		rowCount: report.rows.length,
	};
}

/** `POST /reports`: {id, name?, apiEnabled?, columns, rows} or {id, generate: 'bank', rows: count}. */
export function defineReport(state: SandboxState, body: unknown): Reply {
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
}

/**
 * `POST /reports/:id/rows`: {rows: [...]} or, for a generated report, {generate: count}; with
 * `at: "top"` the rows go above the first one, newest first.
 */
export function appendRows(state: SandboxState, reportId: string, body: unknown): Reply {
	const report = state.reports.get(reportId);
	if (!report) throw new HttpError(404, 'report_not_found', `Report "${reportId}" does not exist`);
	if (!isObject(body)) throw new ControlError('Body must be {"rows": [...]} or {"generate": n}');
	if (body.at !== undefined && body.at !== 'end' && body.at !== 'top') throw new ControlError('"at" must be "end" or "top"');
	let rows: ReportRow[];
	if (body.generate !== undefined) {
		const count = body.generate;
		if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) throw new ControlError('"generate" must be a row count');
		if (report.generator !== 'bank') {
			throw new ControlError(`Report "${reportId}" was not generated; append explicit "rows" instead`);
		}
		rows = generateBankRows(count, report.rows.length);
	} else {
		rows = parseRows(body.rows);
	}
	// At the top the newest row comes first, as in a report sorted newest first.
	if (body.at === 'top') report.prepend(rows.reverse());
	else report.append(rows);
	return json(200, reportSummary(report));
}
