/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * The baseline: what a developer would write by hand with axios against the same endpoints, doing
 * the same work as the node (rows keyed by column name; records sent in batches), with no n8n in
 * between. Its time is the floor the node is compared with.
 */
import * as http from 'node:http';
import * as https from 'node:https';

import axios, { type AxiosInstance } from 'axios';

import { ADAPTIVE_FIRST_PAGE, ADAPTIVE_MAX_PAGE } from '../../../nodes/shared/report/pageSize';
import { importPath } from '../lib/data';

export interface RawReadOptions {
	baseUrl: string;
	token: string;
	reportId: string;
	pageSize: number;
	/** 1 = one page after the other; n = up to n page requests in flight. */
	concurrency: number;
	/** A new TCP (and over HTTPS, TLS) connection for every request, as n8n's HTTP helper makes them. */
	newConnectionPerRequest?: boolean;
	/** The node's adaptive page sizes (1,000 rows, doubling to 5,000), one page at a time, instead of `pageSize`. */
	adaptivePages?: boolean;
	/** Count the rows of each page and drop them (as a poll does) instead of returning them. */
	dropRows?: boolean;
}

interface TableResponse {
	columns: Array<{ id: string; name: string }>;
	rows: Array<Record<string, unknown>>;
}

function axiosFor(baseUrl: string, token: string): AxiosInstance {
	return axios.create({ baseURL: baseUrl, headers: { Authorization: `Bearer ${token}` }, timeout: 60_000 });
}

/** Per-request axios options: a fresh agent, so a new connection (with its TLS handshake), when asked for. */
function connectionOptions(newConnectionPerRequest: boolean | undefined): { httpAgent?: http.Agent; httpsAgent?: https.Agent } {
	return newConnectionPerRequest
		? { httpAgent: new http.Agent({ keepAlive: false }), httpsAgent: new https.Agent({ keepAlive: false }) }
		: {};
}

/** Same output as the node's default: one object per row, keyed by column name. */
function keyByName(page: TableResponse): Array<Record<string, unknown>> {
	const names = page.columns.map((column) => [column.id, column.name] as const);
	return page.rows.map((row) => {
		const named: Record<string, unknown> = {};
		for (const [id, name] of names) named[name] = row[id];
		return named;
	});
}

/**
 * Reads a whole report by increasing offset until a short page (spec §4.2). With concurrency n,
 * n workers claim page numbers in order; pages after the first short one are not requested, and
 * the rows are returned in page order.
 */
export async function readReportRaw(options: RawReadOptions): Promise<{ rows: Array<Record<string, unknown>>; rowCount: number; requests: number }> {
	const client = axiosFor(options.baseUrl, options.token);
	const path = `/api/analysis/reports/${encodeURIComponent(options.reportId)}/data/table`;
	if (options.adaptivePages === true || options.dropRows === true) return await readDropping(client, path, options);
	const pages: Array<Array<Record<string, unknown>>> = [];
	let nextPage = 0;
	let endPage = Number.POSITIVE_INFINITY;
	let requests = 0;
	const worker = async (): Promise<void> => {
		while (nextPage < endPage) {
			const page = nextPage++;
			requests++;
			const { data } = await client.get<TableResponse>(path, {
				params: { offset: page * options.pageSize, limit: options.pageSize },
				...connectionOptions(options.newConnectionPerRequest),
			});
			pages[page] = keyByName(data);
			if (data.rows.length < options.pageSize) endPage = Math.min(endPage, page + 1);
		}
	};
	await Promise.all(Array.from({ length: options.concurrency }, worker));
	const rows: Array<Record<string, unknown>> = [];
	for (let page = 0; page < endPage; page++) {
		for (const row of pages[page]) rows.push(row);
	}
	return { rows, rowCount: rows.length, requests };
}

/**
 * One page after the other, each counted and dropped: the floor of a Report Trigger poll's full read
 * (which compares each page and drops it). With `adaptivePages`, the page sizes of the node's adaptive
 * read: 1,000 rows, doubling after each full page up to 5,000.
 */
async function readDropping(client: AxiosInstance, path: string, options: RawReadOptions): Promise<{ rows: []; rowCount: number; requests: number }> {
	if (options.concurrency !== 1 || options.dropRows !== true) throw new Error('The raw client reads adaptive pages one at a time, dropping the rows');
	let size = options.adaptivePages === true ? ADAPTIVE_FIRST_PAGE : options.pageSize;
	let rowCount = 0;
	let requests = 0;
	for (;;) {
		requests++;
		const { data } = await client.get<TableResponse>(path, {
			params: { offset: rowCount, limit: size },
			...connectionOptions(options.newConnectionPerRequest),
		});
		rowCount += data.rows.length;
		if (data.rows.length < size) return { rows: [], rowCount, requests };
		if (options.adaptivePages === true) size = Math.min(size * 2, ADAPTIVE_MAX_PAGE);
	}
}

export interface RawImportOptions {
	baseUrl: string;
	token: string;
	recordTypeId: string;
	records: Array<Record<string, unknown>>;
	batchSize: number;
	concurrency: number;
	/** A new TCP connection for every request, as n8n's HTTP helper makes them. */
	newConnectionPerRequest?: boolean;
}

/** Posts the records in batches of `batchSize`, with up to `concurrency` batches in flight. */
export async function importRaw(options: RawImportOptions): Promise<{ requests: number; records: number }> {
	const client = axiosFor(options.baseUrl, options.token);
	const path = importPath(options.recordTypeId);
	const batches = Math.ceil(options.records.length / options.batchSize);
	let next = 0;
	let records = 0;
	const worker = async (): Promise<void> => {
		while (next < batches) {
			const batch = next++;
			const data = options.records.slice(batch * options.batchSize, (batch + 1) * options.batchSize);
			await client.post(
				path,
				{ data },
				{ headers: { 'Content-Type': 'application/json' }, ...connectionOptions(options.newConnectionPerRequest) },
			);
			records += data.length;
		}
	};
	await Promise.all(Array.from({ length: Math.min(options.concurrency, batches) }, worker));
	return { requests: batches, records };
}
