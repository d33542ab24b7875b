/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside
	n8n (`process`) */
/**
 * Report read over HTTPS, the path every real user takes. n8n's HTTP helper opens a new connection
 * for every request, so over TLS every page costs a handshake: the number of requests, not the
 * bytes, sets the time. Compares Get Rows with Page Size 100 and with its default (the page size
 * chosen by the node), the raw client on one kept-alive connection and with a new TLS connection per
 * request (the handshake's share), and, inside a real n8n, the HTTP Request node's pagination. Also
 * counts the requests against services that cap pages at 100 or refuse a larger `limit`.
 */
import { randomUUID } from 'node:crypto';

import { nodeOutput, type WorkflowJson } from '../../n8n/n8nInstance';
import { TOKENS } from '../../sandbox/seeds';
import { getRowsParameters } from '../clients/node';
import { checkRows } from '../lib/check';
import type { BenchContext, Rendered, Section, Series, TargetCheck } from '../lib/context';
import { markdownTable } from '../lib/markdown';
import { measure } from '../lib/measure';
import { chainWorkflow, nodeExecutionTime, RECORDS_CREDENTIAL, RECORDS_NODE_TYPE, startN8n, webhookTrigger } from '../lib/benchN8n';
import { SandboxProcess } from '../lib/sandbox';
import { formatCount, formatMiB, formatMs, formatPercent, formatRatio, median } from '../lib/stats';
import { record, sandboxShare, summarize } from '../lib/summary';
import { barChartSvg } from '../lib/svg';
import type { ReadTask } from '../lib/tasks';
import { httpRequestRead } from './n8n-read';

const REPORT_ID = 'bench-https-read';
const CAPPED_REPORT_ID = 'bench-https-capped';
const GUIDE_PAGE_SIZE = 100;

const TODAY = 'Get Report Rows, Page Size 100';
const NEW = 'Get Report Rows defaults (page size chosen by the node)';
const RAW_KEPT = 'raw axios, 100 per page, one kept-alive TLS connection';
const RAW_FRESH = 'raw axios, 100 per page, new TLS connection per request';
const HTTP_NODE = 'HTTP Request (pagination, 100 per page) + Split Out';
/** One chart colour per client, the same in every group. */
const COLOUR: Record<string, number> = { [TODAY]: 0, [NEW]: 1, [RAW_KEPT]: 2, [RAW_FRESH]: 4, [HTTP_NODE]: 5 };

interface Variant {
	label: string;
	task: Pick<ReadTask, 'client' | 'nodeDefaults' | 'newConnectionPerRequest'>;
}

const VARIANTS: Variant[] = [
	{ label: TODAY, task: { client: 'node' } },
	{ label: NEW, task: { client: 'node', nodeDefaults: true } },
	{ label: RAW_KEPT, task: { client: 'raw' } },
	{ label: RAW_FRESH, task: { client: 'raw', newConnectionPerRequest: true } },
];

interface CappedRun {
	service: string;
	label: string;
	requests: number;
	rows: number;
	ok: boolean;
}

interface N8nVariant {
	label: string;
	times: number[];
	medianMs: number;
	rows: number;
	ok: boolean;
}

export interface HttpsReadData {
	rows: number;
	cappedRows: number;
	latencies: Array<{ latencyMs: number; series: Series[]; requests: Record<string, number> }>;
	capped: CappedRun[];
	n8n?: { n8nVersion: string; nodeVersion: string; runs: number; latencies: Array<{ latencyMs: number; variants: N8nVariant[] }> };
	n8nSkipped?: string;
}

async function reportRequests(sandbox: SandboxProcess): Promise<number> {
	return (await sandbox.stats()).requests.report?.total ?? 0;
}

export const httpsRead: Section<HttpsReadData> = {
	id: 'https-read',
	title: 'Report read over HTTPS',
	async run(context: BenchContext): Promise<HttpsReadData> {
		const rows = context.quick ? 20_000 : 100_000;
		const cappedRows = 10_000;
		// Two runs each: at 100,000 rows and 20 ms, a read at Page Size 100 alone takes about a minute.
		const runs = context.quick ? 1 : 2;
		const sandbox = await SandboxProcess.start({ tls: true });
		const caFile = sandbox.caFile ?? '';
		// The measuring processes and n8n trust the sandbox's CA the way n8n documents it.
		const previousCa = process.env.NODE_EXTRA_CA_CERTS;
		process.env.NODE_EXTRA_CA_CERTS = caFile;
		const https: BenchContext = { ...context, sandbox };
		context.log(`HTTPS sandbox (pid ${sandbox.pid}) at ${sandbox.baseUrl}`);
		try {
			await sandbox.defineBankReport(REPORT_ID, rows);
			await sandbox.defineBankReport(CAPPED_REPORT_ID, cappedRows);
			const data: HttpsReadData = { rows, cappedRows, latencies: [], capped: [] };
			const read = async (variant: Variant, reportId: string) => {
				await sandbox.resetStats();
				const measurement = await measure(
					{ kind: 'read', baseUrl: sandbox.baseUrl, token: TOKENS.analysisAdmin, reportId, pageSize: GUIDE_PAGE_SIZE, concurrency: 1, ...variant.task },
					{ sandbox, profileDir: context.profileDir },
				);
				return { measurement, requests: await reportRequests(sandbox) };
			};

			for (const latencyMs of [0, 20]) {
				await sandbox.setFaults(latencyMs > 0 ? [{ route: 'report', latencyMs }] : []);
				const series: Series[] = [];
				const requests: Record<string, number> = {};
				for (let run = 0; run < runs; run++) {
					for (const variant of VARIANTS) {
						const { measurement, requests: sent } = await read(variant, REPORT_ID);
						record(series, variant.label, measurement);
						requests[variant.label] = sent;
						context.log(`https read ${latencyMs} ms, ${variant.label}: ${formatMs(measurement.n8nExecutionTimeMs ?? measurement.elapsedMs)}, ${sent} requests, peak ${formatMiB(measurement.peakRssMiB)}`);
					}
				}
				data.latencies.push({ latencyMs, series, requests });
			}

			for (const [service, fault] of [
				['caps pages at 100 rows (silently)', { route: 'report', limitCap: GUIDE_PAGE_SIZE }],
				['refuses a limit above 100 (400)', { route: 'report', maxLimit: GUIDE_PAGE_SIZE }],
			] as const) {
				await sandbox.setFaults([fault]);
				for (const variant of VARIANTS.slice(0, 2)) {
					const { measurement, requests } = await read(variant, CAPPED_REPORT_ID);
					const { details } = measurement;
					const ok = measurement.count === cappedRows && details.uniqueIds === cappedRows && details.ordered === true;
					data.capped.push({ service, label: variant.label, requests, rows: measurement.count, ok });
					context.log(`https read, service ${service}, ${variant.label}: ${requests} requests, ${measurement.count} rows`);
				}
			}
			await sandbox.setFaults([]);

			try {
				// One run each: the HTTP Request node and Page Size 100 take over a minute each at 20 ms.
				data.n8n = await readInN8n(https, caFile, rows, 1);
			} catch (error) {
				data.n8nSkipped = (error as Error).message;
				context.log(`https read in real n8n skipped: ${data.n8nSkipped}`);
			}
			return data;
		} finally {
			if (previousCa === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
			else process.env.NODE_EXTRA_CA_CERTS = previousCa;
			await sandbox.stop();
		}
	},
	render: renderHttpsRead,
};

/** The HTTP Request node and Get Rows (Page Size 100, default) in a real n8n given the CA with NODE_EXTRA_CA_CERTS. */
async function readInN8n(context: BenchContext, caFile: string, rows: number, runs: number): Promise<NonNullable<HttpsReadData['n8n']>> {
	const { sandbox } = context;
	const records = (name: string, nodeDefaults: boolean): WorkflowJson['nodes'][number] => ({
		id: `records-${nodeDefaults ? 'defaults' : 'pages-of-100'}`,
		name,
		type: RECORDS_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: getRowsParameters({ reportId: REPORT_ID, pageSize: GUIDE_PAGE_SIZE, concurrency: 1, nodeDefaults }),
		credentials: { recordsApi: RECORDS_CREDENTIAL },
	});
	const specs = [
		{ label: HTTP_NODE, nodes: httpRequestRead(sandbox.baseUrl, REPORT_ID, GUIDE_PAGE_SIZE), timed: ['HTTP Request', 'Split Out'], output: 'Split Out', idKey: 'c1' },
		{ label: TODAY, nodes: [records('Get Rows 100', false)], timed: ['Get Rows 100'], output: 'Get Rows 100', idKey: 'ID transakce' },
		{ label: NEW, nodes: [records('Get Rows', true)], timed: ['Get Rows'], output: 'Get Rows', idKey: 'ID transakce' },
	].map((spec, index) => {
		const path = `bench-https-${index}`;
		return { ...spec, path, workflow: chainWorkflow(`benchHttps${index}`, `Bench: ${spec.label} over HTTPS`, [webhookTrigger(path, randomUUID()), ...spec.nodes]) };
	});
	const n8n = await startN8n(context, specs.map((spec) => spec.workflow), [], { NODE_EXTRA_CA_CERTS: caFile });
	const result: NonNullable<HttpsReadData['n8n']> = { n8nVersion: n8n.instance.n8nVersion, nodeVersion: n8n.nodeVersion, runs, latencies: [] };
	try {
		for (const latencyMs of [0, 20]) {
			await sandbox.setFaults(latencyMs > 0 ? [{ route: 'report', latencyMs }] : []);
			const variants: N8nVariant[] = specs.map((spec) => ({ label: spec.label, times: [], medianMs: 0, rows: 0, ok: true }));
			for (let run = 0; run < runs; run++) {
				for (const [index, spec] of specs.entries()) {
					const { run: execution } = await n8n.runByWebhook(spec.workflow.id, spec.path);
					const time = spec.timed.reduce((sum, node) => sum + nodeExecutionTime(execution, node), 0);
					const output = nodeOutput(execution, spec.output).map((item) => item.json);
					const check = checkRows(output, spec.idKey);
					const variant = variants[index];
					variant.times.push(time);
					variant.rows = output.length;
					variant.ok &&= output.length === rows && check.uniqueIds === rows && check.ordered;
					context.log(`n8n https read ${latencyMs} ms, ${spec.label}: ${formatMs(time)} (${output.length} rows)`);
				}
			}
			for (const variant of variants) variant.medianMs = median(variant.times);
			result.latencies.push({ latencyMs, variants });
		}
	} finally {
		await sandbox.setFaults([]);
		await n8n.stop();
	}
	return result;
}

function renderHttpsRead(data: HttpsReadData): Rendered {
	const targets: TargetCheck[] = [];
	const bars: Array<{ label: string; bars: Array<{ label: string; value: number; text: string; series: number }> }> = [];
	const lines: string[] = [
		`${formatCount(data.rows)} rows of a generated bank report read to the end, one page after the other, over HTTPS (the sandbox with a CA made at start, trusted through \`NODE_EXTRA_CA_CERTS\`). ` +
			'Get Rows with Page Size 100 asks for 100 rows per page (the guide\'s default); without a Page Size, it starts at 1,000 rows and doubles after each full page up to 5,000. ' +
			"The raw client reads 100 rows per page on one kept-alive TLS connection, and with a new TLS connection per request, as n8n's HTTP helper makes them: the difference between the two is the handshakes' cost. " +
			'Added latency is a per-request delay in the sandbox. Fresh process per measurement; medians; the node\'s time is the execution time n8n-core records.',
		'',
	];
	for (const { latencyMs, series: all, requests } of data.latencies) {
		const summaries = new Map(all.map((entry) => [entry.label, summarize(entry)]));
		const today = summaries.get(TODAY);
		lines.push(
			`**${latencyMs} ms added latency** (${all[0]?.runs.length ?? 0} runs each)`,
			'',
			markdownTable({
				headers: ['Client', 'Median time', 'Range', 'Requests', 'Rows/s', 'Speed-up vs Page Size 100', 'Peak RSS', 'Sandbox CPU', 'Rows unique, in order'],
				rows: all.map((entry) => {
					const summary = summarize(entry);
					const ok = entry.runs.every((run) => run.count === data.rows && run.details.uniqueIds === data.rows && run.details.ordered === true);
					return [
						entry.label,
						formatMs(summary.medianMs),
						`${formatMs(summary.minMs)}–${formatMs(summary.maxMs)}`,
						formatCount(requests[entry.label] ?? 0),
						formatCount(summary.perSecond),
						today ? formatRatio(today.medianMs / summary.medianMs) : '–',
						formatMiB(summary.peakRssMiB),
						sandboxShare(summary.sandboxBusy),
						ok ? `${formatCount(summary.count)} ✔` : `✘ ${formatCount(summary.count)}`,
					];
				}),
			}),
			'',
		);
		const kept = summaries.get(RAW_KEPT);
		const fresh = summaries.get(RAW_FRESH);
		const adaptive = summaries.get(NEW);
		if (kept && fresh && today) {
			const handshakes = Math.max(0, fresh.medianMs - kept.medianMs);
			lines.push(
				`TLS handshakes (a new connection per request minus one kept-alive connection, ${formatCount(requests[RAW_FRESH] ?? 0)} requests): ${formatMs(handshakes)}, ` +
					`${formatPercent(handshakes / fresh.medianMs)} of the raw client's time with new connections and ${formatPercent(Math.min(1, handshakes / today.medianMs))} of Get Report Rows' at Page Size 100.`,
				'',
			);
		}
		if (today && adaptive) {
			const speedUp = today.medianMs / adaptive.medianMs;
			const memory = adaptive.peakRssMiB / today.peakRssMiB;
			if (latencyMs === 20) {
				targets.push({
					target: `HTTPS, 20 ms: the defaults read ${formatCount(data.rows)} rows ≥ 5× faster than Page Size 100`,
					measured: `${formatRatio(speedUp)} (${formatMs(adaptive.medianMs)} vs ${formatMs(today.medianMs)})`,
					met: speedUp >= 5,
				});
			}
			targets.push({
				target: `HTTPS, ${latencyMs} ms: the defaults' peak memory within 10 % of Page Size 100's`,
				measured: `${formatPercent(memory - 1)} (${formatMiB(adaptive.peakRssMiB)} vs ${formatMiB(today.peakRssMiB)})`,
				met: memory <= 1.1,
			});
		}
		bars.push({
			label: `over HTTPS, ${latencyMs} ms added latency`,
			bars: all.map((entry) => {
				const perSecond = summarize(entry).perSecond;
				return { label: entry.label, value: perSecond, text: `${formatCount(perSecond)} rows/s`, series: COLOUR[entry.label] };
			}),
		});
	}

	lines.push(
		`**Services that limit pages** (${formatCount(data.cappedRows)} rows, no added latency): requests each setting sends.`,
		'',
		markdownTable({
			headers: ['Service', 'Node', 'Requests', 'Rows unique, in order'],
			rows: data.capped.map((run) => [run.service, run.label, formatCount(run.requests), run.ok ? `${formatCount(run.rows)} ✔` : `✘ ${formatCount(run.rows)}`]),
		}),
		'',
	);
	const capped = data.capped.filter((run) => run.service.startsWith('caps'));
	const cappedToday = capped.find((run) => run.label === TODAY);
	const cappedNew = capped.find((run) => run.label === NEW);
	if (cappedToday && cappedNew) {
		targets.push({
			target: 'HTTPS, a service capping pages at 100: the defaults send at most one request more than Page Size 100',
			measured: `${formatCount(cappedNew.requests)} vs ${formatCount(cappedToday.requests)} requests${cappedNew.ok ? '' : ', rows wrong'}`,
			met: cappedNew.requests <= cappedToday.requests + 1 && cappedNew.ok,
		});
	}

	if (data.n8n) {
		lines.push(
			`**Inside n8n ${data.n8n.n8nVersion}** (Node.js ${data.n8n.nodeVersion}, started with \`NODE_EXTRA_CA_CERTS\`, workflows started by a webhook; node execution times from the run data; ${data.n8n.runs === 1 ? 'one run each' : `medians of ${data.n8n.runs} runs`}).`,
			'',
		);
		for (const { latencyMs, variants } of data.n8n.latencies) {
			const http = variants.find((variant) => variant.label === HTTP_NODE);
			lines.push(
				`*${latencyMs} ms added latency, inside n8n*`,
				'',
				markdownTable({
					headers: ['Node', 'Median node time', 'Rows/s', 'Speed-up vs HTTP Request', 'Rows unique, in order'],
					rows: variants.map((variant) => [
						variant.label,
						formatMs(variant.medianMs),
						formatCount((data.rows * 1000) / variant.medianMs),
						http ? formatRatio(http.medianMs / variant.medianMs) : '–',
						variant.ok ? `${formatCount(variant.rows)} ✔` : `✘ ${formatCount(variant.rows)}`,
					]),
				}),
				'',
			);
			const adaptive = variants.find((variant) => variant.label === NEW);
			if (latencyMs === 20 && http && adaptive) {
				const speedUp = http.medianMs / adaptive.medianMs;
				targets.push({
					target: `HTTPS, 20 ms, inside n8n: the defaults read ${formatCount(data.rows)} rows ≥ 20× faster than the HTTP Request node`,
					measured: `${formatRatio(speedUp)} (${formatMs(adaptive.medianMs)} vs ${formatMs(http.medianMs)})`,
					met: speedUp >= 20,
				});
			}
			bars.push({
				label: `inside n8n over HTTPS, ${latencyMs} ms`,
				bars: variants.map((variant) => ({
					label: variant.label,
					value: (data.rows * 1000) / variant.medianMs,
					text: `${formatCount((data.rows * 1000) / variant.medianMs)} rows/s`,
					series: COLOUR[variant.label],
				})),
			});
		}
	} else {
		lines.push(`Real-n8n comparison not run: ${data.n8nSkipped ?? 'unknown reason'}.`, '');
	}

	return {
		markdown: lines.join('\n'),
		targets,
		charts: [
			{
				file: 'https-read.svg',
				alt: 'Report read over HTTPS, rows per second per client',
				svg: barChartSvg({ title: `Report read over HTTPS: ${formatCount(data.rows)} rows`, unit: 'rows per second (higher is better)', groups: bars }),
			},
		],
	};
}
