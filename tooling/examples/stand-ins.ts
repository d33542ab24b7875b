/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { repoRoot } from '../lib/paths';

/**
 * The systems outside the Records service that the example workflows talk to, by the address the
 * examples use and the path of their local stand-in. `npm start` and the end-to-end tests point the
 * examples at the stand-ins (localizeExample), so that every example runs without the internet.
 */
export const OUTSIDE_SYSTEMS = [
	{ name: 'accounting system', address: 'https://accounting.example.com', standIn: '/accounting' },
	{ name: 'chat incoming webhook', address: 'https://chat.example.com', standIn: '/chat' },
	{ name: 'ERP', address: 'https://erp.example.com', standIn: '/erp' },
	{ name: 'published spreadsheet (CSV export)', address: 'https://docs.google.com/spreadsheets/d', standIn: '/sheets' },
	{ name: 'company registry ARES', address: 'https://ares.gov.cz/ekonomicke-subjekty-v-be/rest', standIn: '/ares' },
] as const;

/** The price list the spreadsheet stand-in serves unless a test sets another. */
export const PRICE_LIST_FILE = join(repoRoot, 'examples', 'data', 'cenik.csv');

/** A company as the registry ARES describes it (the subset of its fields the examples read). */
export interface RegistryCompany {
	ico: string;
	obchodniJmeno: string;
	pravniForma: string;
	datumVzniku: string;
	dic?: string;
	sidlo: { textovaAdresa: string; nazevObce: string; psc: number };
}

/** Fictional companies (IČO with valid check digits) the registry stand-in knows. */
export const REGISTRY_COMPANIES: readonly RegistryCompany[] = [
	{
		ico: '27182819',
		obchodniJmeno: 'Pekárna U Mlýna s.r.o.',
		pravniForma: '112',
		datumVzniku: '2011-03-15',
		dic: 'CZ27182819',
		sidlo: { textovaAdresa: 'Mlýnská 1250/12, Holešovice, 17000 Praha 7', nazevObce: 'Praha', psc: 17000 },
	},
	{
		ico: '41421353',
		obchodniJmeno: 'Kovárna Dvořák a.s.',
		pravniForma: '121',
		datumVzniku: '1994-07-01',
		dic: 'CZ41421353',
		sidlo: { textovaAdresa: 'Průmyslová 455/3, Slezské Předměstí, 50003 Hradec Králové', nazevObce: 'Hradec Králové', psc: 50003 },
	},
	{
		ico: '17320500',
		obchodniJmeno: 'Ing. Jana Svobodová',
		pravniForma: '101',
		datumVzniku: '2019-09-02',
		sidlo: { textovaAdresa: 'Na Vyhlídce 8, Žabovřesky, 61600 Brno', nazevObce: 'Brno', psc: 61600 },
	},
];

/** One request a stand-in received (headers without Authorization). */
export interface ReceivedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: unknown;
	receivedAt: string;
}

export interface StandIns {
	baseUrl: string;
	port: number;
	/** Every request to a stand-in, in arrival order (GET /__received shows them too). */
	received: ReceivedRequest[];
	/** The requests whose path starts with the given prefix, e.g. "/accounting/". */
	receivedAt(prefix: string): ReceivedRequest[];
	/** The CSV the spreadsheet stand-in serves; undefined: examples/data/cenik.csv, read at each request. */
	priceList: string | undefined;
	close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify(body));
}

function parseBody(text: string, contentType: string | undefined): unknown {
	if (text === '') return null;
	if (contentType?.includes('json')) {
		try {
			return JSON.parse(text) as unknown;
		} catch {
			return text;
		}
	}
	return text;
}

/**
 * Starts the stand-ins on one port: a receiver that answers every POST/PUT under /accounting,
 * /chat and /erp as the real systems would accept it, the spreadsheet's CSV export under /sheets,
 * and ARES's "ekonomické subjekty" lookup under /ares (404 NENALEZENO for an unknown IČO, 400 for a
 * malformed one). Node built-ins only; dev tooling like the Records sandbox.
 */
export async function startStandIns({ port = 0, host = '127.0.0.1' } = {}): Promise<StandIns> {
	const received: ReceivedRequest[] = [];
	const standIns = {
		received,
		receivedAt: (prefix: string) => received.filter((request) => request.path.startsWith(prefix)),
		priceList: undefined as string | undefined,
	};

	const handle = (req: IncomingMessage, res: ServerResponse, text: string): void => {
		const url = new URL(req.url ?? '/', 'http://stand-in');
		const path = decodeURIComponent(url.pathname);
		if (path === '/__received') {
			if (req.method === 'DELETE') received.length = 0;
			sendJson(res, 200, received);
			return;
		}
		const headers = Object.fromEntries(
			Object.entries(req.headers)
				.filter(([name]) => name !== 'authorization')
				.map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]),
		);
		received.push({
			method: req.method ?? 'GET',
			path,
			query: Object.fromEntries(url.searchParams),
			headers,
			body: parseBody(text, req.headers['content-type']),
			receivedAt: new Date().toISOString(),
		});

		const ares = /^\/ares\/ekonomicke-subjekty\/([^/]+)$/.exec(path);
		if (ares && req.method === 'GET') {
			const ico = ares[1];
			if (!/^\d{8}$/.test(ico)) {
				sendJson(res, 400, { kod: 'CHYBA_VSTUPU', popis: `Neplatné IČO "${ico}": IČO má 8 číslic.` });
				return;
			}
			const company = REGISTRY_COMPANIES.find((candidate) => candidate.ico === ico);
			if (!company) {
				sendJson(res, 404, { kod: 'NENALEZENO', popis: `Ekonomický subjekt s IČO ${ico} nebyl nalezen.` });
				return;
			}
			sendJson(res, 200, company);
			return;
		}
		if (/^\/sheets\/[^/]+\/export$/.test(path) && req.method === 'GET') {
			res.writeHead(200, {
				'content-type': 'text/csv; charset=utf-8',
				'content-disposition': 'attachment; filename="cenik.csv"',
			});
			res.end(standIns.priceList ?? readFileSync(PRICE_LIST_FILE, 'utf8'));
			return;
		}
		if (/^\/(accounting|chat|erp)\//.test(path) && (req.method === 'POST' || req.method === 'PUT')) {
			sendJson(res, req.method === 'POST' ? 201 : 200, { id: received.length, status: 'accepted' });
			return;
		}
		sendJson(res, 404, { error: 'not_found', message: `No stand-in answers ${req.method} ${path}` });
	};

	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, resolve);
	});
	const actualPort = (server.address() as AddressInfo).port;
	return Object.assign(standIns, {
		baseUrl: `http://${host}:${actualPort}`,
		port: actualPort,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	});
}
