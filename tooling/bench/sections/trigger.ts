/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- tooling: its tokens and keys are
	fixed test values, not secrets */
import { randomUUID } from 'node:crypto';

import autocannon from 'autocannon';

import type { WorkflowJson } from '../../n8n/n8nInstance';
import type { BenchContext, Rendered, Section, TargetCheck } from '../lib/context';
import { markdownTable } from '../lib/markdown';
import { sleep } from '../../lib/proc';
import { chainWorkflow, startN8n, webhookTrigger } from '../lib/benchN8n';
import { formatCount, median, percentile } from '../lib/stats';
import { barChartSvg } from '../lib/svg';

const BEARER_TOKEN = 'bench-trigger-secret-3f9c2a7e51';
const BEARER_CREDENTIAL = { id: 'benchTriggerBearer', name: 'Records Trigger bearer (benchmark)' };
const HEADER_CREDENTIAL = { id: 'benchWebhookHeader', name: 'Webhook header auth (benchmark)' };

/** The illustrated webhook event of spec §6.2. */
const EVENT_BODY = JSON.stringify({ event: 'invoice.paid', invoice_id: 4711, paid_at: '2026-03-31T10:15:00Z', amount: 12100.5 });

interface TriggerVariant {
	label: string;
	path: string;
	headers: Record<string, string>;
	/** The workflow to create; none when the variant calls another variant's. */
	workflow: WorkflowJson | undefined;
	/** Calls without credentials that the trigger refuses (401 or 403): their answers are not failures. */
	refused?: boolean;
}

interface LoadRun {
	requestsPerSecond: number;
	p50: number;
	p99: number;
	requests: number;
	errors: number;
	non2xx: number;
	/** Every response time of the run in ms, for percentiles over all runs together. */
	samples: number[];
	/** CPU time the n8n server process used during the run, in ms: less shaken by other load than latency. */
	serverCpuMs?: number;
	durationSeconds?: number;
	/** Expression isolates n8n took from its pool during the run (its `expression.pool.acquired` counter). */
	isolatesAcquired?: number;
}

/** A load shape: a fixed request rate below saturation (latency), or as fast as n8n answers (throughput). */
interface Load {
	connections: number;
	/** Requests per second across all connections; absent = as fast as the server answers. */
	rate?: number;
	durationSeconds: number;
}

type VariantRuns = Array<{ label: string; latency: LoadRun[]; saturation: LoadRun[]; refused?: boolean }>;

export interface TriggerData {
	n8nVersion: string;
	nodeVersion: string;
	latencyLoad: Load;
	saturationLoad: Load;
	variants: VariantRuns;
	/** CPU the n8n server uses per second with no calls (its timers, database upkeep), subtracted from the per-call figure. */
	idleCpuMsPerSecond?: number;
	/** The latency runs again on an n8n with a bigger pool of expression isolates (see TUNED_N8N). */
	tuned?: { env: Record<string, string>; variants: VariantRuns; idleCpuMsPerSecond: number };
}

/**
 * n8n 2.x takes an expression isolate for every webhook call to a node other than its own Webhook
 * node, from a pool of one by default that is rebuilt in the background. The setting an operator
 * can change about it, measured beside the defaults.
 */
const TUNED_N8N = { N8N_EXPRESSION_ENGINE_POOL_SIZE: '4' };

function variants(): TriggerVariant[] {
	const webhook = chainWorkflow('benchHookN8n', 'Bench: n8n Webhook', [webhookTrigger('bench-n8n-webhook', randomUUID())]);
	const records = (id: string, path: string, authentication: 'none' | 'bearerToken') =>
		chainWorkflow(id, `Bench: Records Trigger (${authentication})`, [
			{
				id: `records-${authentication}`,
				name: 'Records Trigger',
				type: 'n8n-nodes-records.recordsTrigger',
				typeVersion: 1.1,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { authentication, path, responseMode: 'onReceived', options: {} },
				...(authentication === 'bearerToken' ? { credentials: { recordsTriggerBearerAuthApi: BEARER_CREDENTIAL } } : {}),
			},
		]);
	const webhookWithAuth = webhookTrigger('bench-n8n-webhook-auth', randomUUID());
	webhookWithAuth.parameters.authentication = 'headerAuth';
	webhookWithAuth.credentials = { httpHeaderAuth: HEADER_CREDENTIAL };
	const json = { 'content-type': 'application/json' };
	const bearer = { ...json, authorization: `Bearer ${BEARER_TOKEN}` };
	return [
		{ label: 'n8n Webhook node', path: 'bench-n8n-webhook', headers: json, workflow: webhook },
		{
			label: 'n8n Webhook node, header auth checked',
			path: 'bench-n8n-webhook-auth',
			headers: bearer,
			workflow: chainWorkflow('benchHookN8nAuth', 'Bench: n8n Webhook with header auth', [webhookWithAuth]),
		},
		{
			label: 'Records Trigger',
			path: 'bench-records-trigger',
			headers: json,
			workflow: records('benchHookRecords', 'bench-records-trigger', 'none'),
		},
		{
			label: 'Records Trigger, bearer token checked',
			path: 'bench-records-bearer',
			headers: bearer,
			workflow: records('benchHookRecBearer', 'bench-records-bearer', 'bearerToken'),
		},
		// The same two workflows called by anyone: no Authorization header, refused.
		{ label: 'n8n Webhook node, call without the header refused', path: 'bench-n8n-webhook-auth', headers: json, workflow: undefined, refused: true },
		{ label: 'Records Trigger, call without a token refused', path: 'bench-records-bearer', headers: json, workflow: undefined, refused: true },
	];
}

async function load(url: string, headers: Record<string, string>, shape: Load): Promise<LoadRun> {
	const samples: number[] = [];
	const tracker = autocannon({
		url,
		method: 'POST',
		headers,
		body: EVENT_BODY,
		connections: shape.connections,
		overallRate: shape.rate,
		duration: shape.durationSeconds,
		timeout: 10,
	});
	tracker.on('response', (_client, _status, _bytes, responseTime) => {
		samples.push(responseTime);
	});
	const result = await tracker;
	// Not autocannon's own latency histogram: at a fixed rate it adds coordinated-omission samples
	// spaced 1 ms apart (it divides by the rate per second but counts in milliseconds), which pulls
	// its percentiles towards zero.
	return {
		requestsPerSecond: result.requests.average,
		p50: Math.round(samples.length > 0 ? percentile(samples, 50) : result.latency.p50),
		p99: Math.round(samples.length > 0 ? percentile(samples, 99) : result.latency.p99),
		requests: result.requests.total,
		errors: result.errors + result.timeouts,
		non2xx: result.non2xx,
		samples,
	};
}

/**
 * n8n server CPU time per call over the given runs, its idle use taken off, in ms. NaN when not
 * measured, or when the idle window caught background work and taking it off leaves nothing.
 */
function cpuPerCall(runs: LoadRun[], idleCpuMsPerSecond: number): number {
	const measured = runs.filter((run) => run.serverCpuMs !== undefined);
	const calls = measured.reduce((sum, run) => sum + run.requests, 0);
	const busy = measured.reduce((sum, run) => sum + (run.serverCpuMs ?? 0) - idleCpuMsPerSecond * (run.durationSeconds ?? 0), 0);
	return calls > 0 && busy > 0 ? busy / calls : Number.NaN;
}

/**
 * Expression isolates n8n took per call over the given runs: n8n 2.x takes one per execution, one
 * per credential read in a webhook call, and one for the webhook call itself unless the trigger is
 * its own Webhook node; each is built (and disposed of) at a cost of tens of ms of CPU. NaN when
 * not counted.
 */
function isolatesPerCall(runs: LoadRun[]): number {
	const counted = runs.filter((run) => run.isolatesAcquired !== undefined);
	const calls = counted.reduce((sum, run) => sum + run.requests, 0);
	return calls > 0 ? counted.reduce((sum, run) => sum + (run.isolatesAcquired ?? 0), 0) / calls : Number.NaN;
}

/** n8n's count of expression isolates taken so far, from its Prometheus metrics (N8N_METRICS). */
async function isolatesAcquiredSoFar(baseUrl: string): Promise<number | undefined> {
	const metrics = await fetch(`${baseUrl}/metrics`).then((response) => (response.ok ? response.text() : ''), () => '');
	const match = /^\w*expression_pool_acquired\w*\s+(\d+(?:\.\d+)?)$/m.exec(metrics);
	return match ? Number(match[1]) : undefined;
}

function formatCpuPerCall(ms: number): string {
	return Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : '–';
}

function describeLoad(shape: Load): string {
	return `${shape.connections} connection${shape.connections === 1 ? '' : 's'}, ${shape.rate === undefined ? 'as fast as n8n answers' : `${shape.rate} requests/s`}, ${shape.durationSeconds} s`;
}

function summarize(variants: VariantRuns, idleCpuMsPerSecond: number) {
	return variants.map((variant) => {
		const samples = variant.latency.flatMap((run) => run.samples ?? []);
		return {
			label: variant.label,
			samples: samples.length,
			p50: Math.round(samples.length > 0 ? percentile(samples, 50) : median(variant.latency.map((run) => run.p50))),
			p99: Math.round(samples.length > 0 ? percentile(samples, 99) : median(variant.latency.map((run) => run.p99))),
			saturatedRate: median(variant.saturation.map((run) => run.requestsPerSecond)),
			saturatedP99: median(variant.saturation.map((run) => run.p99)),
			requests: [...variant.latency, ...variant.saturation].reduce((sum, run) => sum + run.requests, 0),
			failures: [...variant.latency, ...variant.saturation].reduce((sum, run) => sum + run.errors + (variant.refused === true ? 0 : run.non2xx), 0),
			cpuPerCall: cpuPerCall([...variant.latency, ...variant.saturation], idleCpuMsPerSecond),
			isolatesPerCall: isolatesPerCall([...variant.latency, ...variant.saturation]),
		};
	});
}

/** Each Records Trigger is held against the Webhook node doing the same work (no auth / a checked token). */
const PAIRS: Array<[string, string]> = [
	['Records Trigger', 'n8n Webhook node'],
	['Records Trigger, bearer token checked', 'n8n Webhook node, header auth checked'],
	['Records Trigger, call without a token refused', 'n8n Webhook node, call without the header refused'],
];

/** The latency table of the tuned n8n: not a target (n8n's defaults are), a setting operators can change. */
function renderTuned(data: TriggerData): string[] {
	if (!data.tuned) return [];
	const summaries = summarize(data.tuned.variants, data.tuned.idleCpuMsPerSecond);
	const byLabel = new Map(summaries.map((summary) => [summary.label, summary]));
	const counterpart = (label: string) => byLabel.get(PAIRS.find(([records]) => records === label)?.[1] ?? '');
	const ratio = (label: string, of: 'p50' | 'p99') => {
		const baseline = counterpart(label);
		const summary = byLabel.get(label);
		return baseline && summary ? `${(summary[of] / baseline[of]).toFixed(2)}×` : '–';
	};
	const settings = Object.entries(data.tuned.env).map(([key, value]) => `\`${key}=${value}\``).join(', ');
	const runs = data.tuned.variants[0]?.latency.length ?? 0;
	return [
		'',
		`*The same latency runs on an n8n started with ${settings}* (${runs} interleaved runs, ${summaries[0]?.samples ?? 0} calls per trigger). ` +
			"n8n 2.x takes an expression isolate for every webhook call to a node other than its own Webhook node, from a pool that holds one isolate by default and is refilled in the background after each call takes one; this setting is the pool's size. " +
			`"n8n CPU per call" as above, less this n8n's idle use (${data.tuned.idleCpuMsPerSecond.toFixed(0)} ms per second).`,
		'',
		markdownTable({
			headers: [
				'Trigger',
				'p50 latency',
				'p50 vs its Webhook node counterpart',
				'p99 latency',
				'p99 vs its Webhook node counterpart',
				'n8n CPU per call',
				'Calls in all',
				'Failed calls',
			],
			rows: summaries.map((summary) => {
				const records = !summary.label.startsWith('n8n Webhook');
				return [
					summary.label,
					`${summary.p50} ms`,
					records ? ratio(summary.label, 'p50') : '–',
					`${summary.p99} ms`,
					records ? ratio(summary.label, 'p99') : '–',
					formatCpuPerCall(summary.cpuPerCall),
					formatCount(summary.requests),
					formatCount(summary.failures),
				];
			}),
		}),
	];
}

/**
 * Starts an n8n with every trigger's workflow (and `env` beyond its defaults), warms each trigger
 * up, measures the server's idle CPU, then the latency runs, interleaved, and when a saturation load
 * is given, one saturated run per trigger.
 */
async function measureIn(
	context: BenchContext,
	specs: TriggerVariant[],
	env: Record<string, string>,
	plan: { latencyLoad: Load; saturationLoad?: Load; runs: number },
): Promise<{ n8nVersion: string; nodeVersion: string; variants: VariantRuns; idleCpuMsPerSecond: number }> {
	const n8n = await startN8n(
		context,
		specs.flatMap((spec) => (spec.workflow === undefined ? [] : [spec.workflow])),
		[
			{ ...BEARER_CREDENTIAL, type: 'recordsTriggerBearerAuthApi', data: { token: BEARER_TOKEN } },
			{ ...HEADER_CREDENTIAL, type: 'httpHeaderAuth', data: { name: 'Authorization', value: `Bearer ${BEARER_TOKEN}` } },
		],
		// Its metrics endpoint, for the count of expression isolates it takes.
		{ N8N_METRICS: 'true', ...env },
	);
	const { instance } = n8n;
	const variants: VariantRuns = specs.map((spec) => ({ label: spec.label, latency: [], saturation: [], refused: spec.refused }));
	const settings = Object.entries(env).map(([key, value]) => ` (${key}=${value})`).join('');
	const url = (spec: TriggerVariant) => `${instance.baseUrl}/webhook/${spec.path}`;
	const measured = async (spec: TriggerVariant, shape: Load): Promise<LoadRun> => {
		const isolatesBefore = await isolatesAcquiredSoFar(instance.baseUrl);
		const before = n8n.serverCpuMs();
		const result = await load(url(spec), spec.headers, shape);
		const serverCpuMs = n8n.serverCpuMs() - before;
		const isolatesAfter = await isolatesAcquiredSoFar(instance.baseUrl);
		const isolatesAcquired = isolatesBefore === undefined || isolatesAfter === undefined ? undefined : isolatesAfter - isolatesBefore;
		return { ...result, serverCpuMs, durationSeconds: shape.durationSeconds, isolatesAcquired };
	};
	try {
		for (const spec of specs) {
			await instance.waitForWebhook(spec.path);
			// Warm-up: the first calls compile code paths that later calls reuse.
			await load(url(spec), spec.headers, { connections: 2, durationSeconds: context.quick ? 1 : 3 });
		}
		// n8n keeps working for a moment after the warm-up (a pool of 4 isolates refilling took two
		// cores for a second), and when idle it works in bursts (about 0.6 s of CPU every 9–10 s in
		// one-second windows): the idle use is taken after a pause, over a window that holds bursts.
		await sleep((context.quick ? 1 : 3) * 1000);
		const idleSeconds = context.quick ? 3 : 20;
		const idleBefore = n8n.serverCpuMs();
		await sleep(idleSeconds * 1000);
		const idleCpuMsPerSecond = (n8n.serverCpuMs() - idleBefore) / idleSeconds;
		// Runs interleaved, and each run starts with the next trigger, so that a slow phase of the
		// machine hits every trigger alike.
		for (let run = 0; run < plan.runs; run++) {
			for (let turn = 0; turn < specs.length; turn++) {
				const index = (run + turn) % specs.length;
				const spec = specs[index];
				const result = await measured(spec, plan.latencyLoad);
				context.log(`trigger ${spec.label}${settings}, fixed rate: p50 ${result.p50} ms, p99 ${result.p99} ms, n8n CPU ${result.serverCpuMs} ms for ${result.requests} calls, ${result.non2xx} non-2xx, ${result.errors} errors`);
				variants[index].latency.push(result);
			}
		}
		if (plan.saturationLoad) {
			for (const [index, spec] of specs.entries()) {
				const result = await measured(spec, plan.saturationLoad);
				context.log(`trigger ${spec.label}${settings}, saturated: ${formatCount(result.requestsPerSecond)} req/s, p99 ${result.p99} ms`);
				variants[index].saturation.push(result);
			}
		}
		return { n8nVersion: instance.n8nVersion, nodeVersion: n8n.nodeVersion, variants, idleCpuMsPerSecond };
	} finally {
		await n8n.stop();
	}
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
		const latencyLoad: Load = { connections: 2, rate: 4, durationSeconds: context.quick ? 5 : 15 };
		const saturationLoad: Load = { connections: 10, durationSeconds: context.quick ? 3 : 10 };
		// The p99 of a few hundred calls is still a handful of the slowest; with two runs it swung by
		// more than the difference being measured (1.12× to 1.86× between two full runs).
		const measured = await measureIn(context, specs, {}, { latencyLoad, saturationLoad, runs: context.quick ? 1 : 5 });
		const tuned = await measureIn(context, specs, TUNED_N8N, { latencyLoad, runs: context.quick ? 1 : 3 });
		const data: TriggerData = {
			n8nVersion: measured.n8nVersion,
			nodeVersion: measured.nodeVersion,
			latencyLoad,
			saturationLoad,
			variants: measured.variants,
			idleCpuMsPerSecond: measured.idleCpuMsPerSecond,
			tuned: { env: TUNED_N8N, variants: tuned.variants, idleCpuMsPerSecond: tuned.idleCpuMsPerSecond },
		};
		return data;
	},
	render(data: TriggerData): Rendered {
		const summaries = summarize(data.variants, data.idleCpuMsPerSecond ?? 0);
		const byLabel = new Map(summaries.map((summary) => [summary.label, summary]));
		const baselineOf = (label: string) => byLabel.get(PAIRS.find(([records]) => records === label)?.[1] ?? 'n8n Webhook node') ?? summaries[0];
		const targets: TargetCheck[] = [];
		for (const [recordsLabel, webhookLabel] of PAIRS) {
			const summary = byLabel.get(recordsLabel);
			const baseline = byLabel.get(webhookLabel);
			if (!summary || !baseline) continue;
			const ratio = summary.p99 / baseline.p99;
			targets.push({
				target: `${recordsLabel}: p99 latency ≤ 1.1× the ${webhookLabel.replace('n8n ', '')}'s (same load)`,
				measured: `${ratio.toFixed(2)}× (${summary.p99} ms vs ${baseline.p99} ms)`,
				met: ratio <= 1.1,
			});
		}
		const runs = data.variants[0]?.latency.length ?? 0;
		return {
			markdown: [
				`n8n ${data.n8nVersion} on Node.js ${data.nodeVersion} (\`n8n start\`, regular mode, SQLite, executions saved as by default), one active workflow per trigger, each answering immediately and starting an execution per call. ` +
					`Load by autocannon from the benchmark process with the spec's invoice.paid event as the JSON body; every trigger warmed up first. ` +
					`Latency: ${describeLoad(data.latencyLoad)}, ${runs} interleaved runs, each starting with the next trigger; p50 and p99 over every response of those runs (${summaries[0]?.samples ?? 0} per trigger). Throughput: ${describeLoad(data.saturationLoad)}, one run. ` +
					`"n8n CPU per call" is the n8n server process's CPU time over all runs, less its idle use (${(data.idleCpuMsPerSecond ?? Number.NaN).toFixed(0)} ms per second), divided by the calls answered: the cost of a call, less shaken by other load on the machine than latency (– where an idle window that caught background work would leave nothing). ` +
					'The Records Trigger checking a bearer token is compared with the Webhook node checking the same Authorization header through its Header Auth credential; both read their credential on every call they accept. ' +
					'"Isolates per call" is how many expression isolates n8n took from its pool per call (its own `expression.pool.acquired` metric): n8n 2.x takes one for each execution, one for each credential read in a webhook call, and one for the webhook call itself unless the trigger is its own Webhook node; building and disposing of one costs tens of ms of CPU. ' +
					'The two "refused" rows call the same two workflows without an Authorization header, as anyone who knows the URL can (401 from the Records Trigger, 403 from the Webhook node, not counted as failed): the Webhook node reads its credential for them too, the Records Trigger does not. ' +
					'n8n and the load generator share the machine\'s two cores.',
				'',
				markdownTable({
					headers: ['Trigger', 'p50 latency', 'p99 latency', 'p99 vs its Webhook node counterpart', 'Saturated requests/s', 'Saturated p99', 'n8n CPU per call', 'Isolates per call', 'Calls in all', 'Failed calls'],
					rows: summaries.map((summary) => [
						summary.label,
						`${summary.p50} ms`,
						`${summary.p99} ms`,
						summary.label.startsWith('n8n Webhook') ? '–' : `${(summary.p99 / baselineOf(summary.label).p99).toFixed(2)}×`,
						formatCount(summary.saturatedRate),
						`${summary.saturatedP99} ms`,
						formatCpuPerCall(summary.cpuPerCall),
						Number.isFinite(summary.isolatesPerCall) ? summary.isolatesPerCall.toFixed(2) : '–',
						formatCount(summary.requests),
						formatCount(summary.failures),
					]),
				}),
				...renderTuned(data),
			].join('\n'),
			targets,
			charts: [
				{
					file: 'trigger.svg',
					alt: 'Trigger latency',
					svg: barChartSvg({
						title: `Webhook calls through n8n ${data.n8nVersion}: latency at ${data.latencyLoad.rate} requests/s`,
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
