import autocannon from 'autocannon';

import type { WorkflowJson } from '../../scripts/lib/n8n';
import type { BenchContext, Rendered, Section, TargetCheck } from '../lib/context';
import { markdownTable } from '../lib/markdown';
import { chainWorkflow, prepareN8n } from '../lib/n8n';
import { formatCount, median } from '../lib/stats';
import { barChartSvg } from '../lib/svg';

const BEARER_TOKEN = 'bench-trigger-secret-3f9c2a7e51';
const BEARER_CREDENTIAL = { id: 'benchTriggerBearer', name: 'Records Trigger bearer (benchmark)' };

/** The illustrated webhook event of spec §6.2. */
const EVENT_BODY = JSON.stringify({ event: 'invoice.paid', invoice_id: 4711, paid_at: '2026-03-31T10:15:00Z', amount: 12100.5 });

interface TriggerVariant {
	label: string;
	path: string;
	headers: Record<string, string>;
	workflow: WorkflowJson;
}

interface LoadRun {
	requestsPerSecond: number;
	p50: number;
	p99: number;
	requests: number;
	errors: number;
	non2xx: number;
}

export interface TriggerData {
	n8nVersion: string;
	nodeVersion: string;
	connections: number;
	durationSeconds: number;
	variants: Array<{ label: string; runs: LoadRun[] }>;
}

function variants(): TriggerVariant[] {
	const webhook = chainWorkflow('benchHookN8n', 'Bench: n8n Webhook', [
		{
			id: 'webhook',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: 'b7d1f6e2-5c3a-4e8b-9f10-2a6c4d8e0b11',
			parameters: { httpMethod: 'POST', path: 'bench-n8n-webhook', responseMode: 'onReceived', options: {} },
		},
	]);
	const records = (id: string, path: string, authentication: 'none' | 'bearerToken') =>
		chainWorkflow(id, `Bench: Records Trigger (${authentication})`, [
			{
				id: `records-${authentication}`,
				name: 'Records Trigger',
				type: 'n8n-nodes-records.recordsTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: authentication === 'none' ? 'c2e8a4f1-7b3d-4c9e-8a21-5f0d3b6e9c22' : 'd3f9b5a2-8c4e-4da0-9b32-6a1e4c7f0d33',
				parameters: { authentication, path, responseMode: 'onReceived', options: {} },
				...(authentication === 'bearerToken' ? { credentials: { recordsTriggerBearerAuthApi: BEARER_CREDENTIAL } } : {}),
			},
		]);
	const json = { 'content-type': 'application/json' };
	return [
		{ label: 'n8n Webhook node', path: 'bench-n8n-webhook', headers: json, workflow: webhook },
		{
			label: 'Records Trigger',
			path: 'bench-records-trigger',
			headers: json,
			workflow: records('benchHookRecords', 'bench-records-trigger', 'none'),
		},
		{
			label: 'Records Trigger, bearer token checked',
			path: 'bench-records-bearer',
			headers: { ...json, authorization: `Bearer ${BEARER_TOKEN}` },
			workflow: records('benchHookRecBearer', 'bench-records-bearer', 'bearerToken'),
		},
	];
}

async function load(url: string, headers: Record<string, string>, connections: number, duration: number): Promise<LoadRun> {
	const result = await autocannon({ url, method: 'POST', headers, body: EVENT_BODY, connections, duration, timeout: 10 });
	return {
		requestsPerSecond: result.requests.average,
		p50: result.latency.p50,
		p99: result.latency.p99,
		requests: result.requests.total,
		errors: result.errors + result.timeouts,
		non2xx: result.non2xx,
	};
}

/**
 * Webhook calls through a real n8n server: the Records Trigger against n8n's own Webhook node,
 * both answering at once ("Immediately") and starting an execution per call, under the same load.
 */
export const trigger: Section<TriggerData> = {
	id: 'trigger',
	title: 'Trigger under load',
	async run(context: BenchContext): Promise<TriggerData> {
		const specs = variants();
		const connections = 10;
		const durationSeconds = context.quick ? 3 : 10;
		const runs = context.quick ? 1 : 3;
		const n8n = await prepareN8n(
			context,
			specs.map((spec) => spec.workflow),
			[{ ...BEARER_CREDENTIAL, type: 'recordsTriggerBearerAuthApi', data: { token: BEARER_TOKEN } }],
		);
		const { instance } = n8n;
		for (const spec of specs) await instance.activate(spec.workflow.id);
		await instance.start();
		const data: TriggerData = {
			n8nVersion: instance.n8nVersion,
			nodeVersion: n8n.nodeVersion,
			connections,
			durationSeconds,
			variants: specs.map((spec) => ({ label: spec.label, runs: [] })),
		};
		try {
			for (const spec of specs) {
				await instance.waitForWebhook(spec.path);
				// Warm-up: the first calls compile code paths that later calls reuse.
				await load(`${instance.baseUrl}/webhook/${spec.path}`, spec.headers, connections, context.quick ? 1 : 3);
			}
			for (let run = 0; run < runs; run++) {
				for (const [index, spec] of specs.entries()) {
					const result = await load(`${instance.baseUrl}/webhook/${spec.path}`, spec.headers, connections, durationSeconds);
					context.log(
						`trigger ${spec.label}: ${formatCount(result.requestsPerSecond)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.non2xx} non-2xx, ${result.errors} errors`,
					);
					data.variants[index].runs.push(result);
				}
			}
		} finally {
			await instance.stop();
		}
		return data;
	},
	render(data: TriggerData): Rendered {
		const summaries = data.variants.map((variant) => ({
			label: variant.label,
			requestsPerSecond: median(variant.runs.map((run) => run.requestsPerSecond)),
			p50: median(variant.runs.map((run) => run.p50)),
			p99: median(variant.runs.map((run) => run.p99)),
			requests: variant.runs.reduce((sum, run) => sum + run.requests, 0),
			failures: variant.runs.reduce((sum, run) => sum + run.errors + run.non2xx, 0),
		}));
		const baseline = summaries[0];
		const targets: TargetCheck[] = [];
		for (const summary of summaries.slice(1)) {
			const ratio = summary.p99 / baseline.p99;
			targets.push({
				target: `${summary.label}: p99 latency ≤ 1.1× the Webhook node's`,
				measured: `${ratio.toFixed(2)}× (${summary.p99} ms vs ${baseline.p99} ms)`,
				met: ratio <= 1.1,
			});
		}
		const runs = data.variants[0]?.runs.length ?? 0;
		return {
			markdown: [
				`n8n ${data.n8nVersion} on Node.js ${data.nodeVersion} (\`n8n start\`, regular mode, SQLite), one active workflow per trigger, each answering immediately and starting an execution per call. ` +
					`Load by autocannon from the benchmark process: ${data.connections} connections, ${data.durationSeconds} s per run, the spec's invoice.paid event as the JSON body; ` +
					`each trigger warmed up first, runs interleaved, medians of ${runs} runs. The machine's two cores are shared by n8n and the load generator.`,
				'',
				markdownTable({
					headers: ['Trigger', 'Requests/s', 'p50 latency', 'p99 latency', 'p99 vs Webhook node', 'Calls in all', 'Failed calls'],
					rows: summaries.map((summary) => [
						summary.label,
						formatCount(summary.requestsPerSecond),
						`${summary.p50} ms`,
						`${summary.p99} ms`,
						`${(summary.p99 / baseline.p99).toFixed(2)}×`,
						formatCount(summary.requests),
						formatCount(summary.failures),
					]),
				}),
			].join('\n'),
			targets,
			charts: [
				{
					file: 'trigger.svg',
					alt: 'Trigger latency and throughput',
					svg: barChartSvg({
						title: `Webhook calls through n8n ${data.n8nVersion} (${data.connections} connections)`,
						unit: 'milliseconds (lower is better)',
						groups: [
							{ label: 'p50 latency', bars: summaries.map((s, index) => ({ label: s.label, value: s.p50, text: `${s.p50} ms`, series: index })) },
							{ label: 'p99 latency', bars: summaries.map((s, index) => ({ label: s.label, value: s.p99, text: `${s.p99} ms`, series: index })) },
						],
					}),
				},
			],
		};
	},
};
