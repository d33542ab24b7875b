import { randomUUID } from 'node:crypto';

import type { WorkflowJson } from '../../n8n/n8nInstance';
import { nodeOutput } from '../../n8n/n8nInstance';
import { TOKENS } from '../../sandbox/seeds';
import { getRowsParameters } from '../clients/node';
import { checkRows } from '../lib/check';
import type { BenchContext } from '../lib/context';
import { chainWorkflow, nodeExecutionTime, RECORDS_CREDENTIAL, RECORDS_NODE_TYPE, startN8n, webhookTrigger } from '../lib/benchN8n';
import { formatMiB, formatMs, median } from '../lib/stats';

type NodeJson = WorkflowJson['nodes'][number];

export interface N8nReadVariant {
	label: string;
	times: number[];
	medianMs: number;
	/** Peak RSS of the n8n server while running this variant alone. */
	peakRssMiB: number;
	/** RSS of the n8n server just before that run. */
	rssBeforeMiB: number;
	rows: number;
	ok: boolean;
}

export interface N8nReadData {
	n8nVersion: string;
	nodeVersion: string;
	runs: number;
	latencies: Array<{ latencyMs: number; variants: N8nReadVariant[] }>;
}

interface ReadSetup {
	reportId: string;
	rows: number;
	pageSize: number;
	concurrency: number;
}

interface N8nVariantSpec {
	label: string;
	/** The variant's nodes, in order; names are unique across variants so that they can share a workflow. */
	nodes: NodeJson[];
	/** Nodes whose execution times add up to the variant's time. */
	timedNodes: string[];
	/** Node whose output holds one item per row, and the key holding the row id. */
	outputNode: string;
	idKey: string;
}

/**
 * The HTTP Request node reading the report with its built-in pagination (offset = `$pageCount ×
 * pageSize`, complete on a short page), then Split Out for one item per row: what a user builds
 * without this package.
 */
export function httpRequestRead(baseUrl: string, reportId: string, pageSize: number): NodeJson[] {
	const http: NodeJson = {
		id: 'http',
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [0, 0],
		parameters: {
			url: `${baseUrl}/api/analysis/reports/${reportId}/data/table`,
			sendQuery: true,
			queryParameters: { parameters: [{ name: 'limit', value: String(pageSize) }] },
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${TOKENS.full}` }] },
			options: {
				pagination: {
					pagination: {
						paginationMode: 'updateAParameterInEachRequest',
						parameters: { parameters: [{ type: 'qs', name: 'offset', value: `={{ $pageCount * ${pageSize} }}` }] },
						paginationCompleteWhen: 'other',
						completeExpression: `={{ $response.body.rows.length < ${pageSize} }}`,
					},
				},
			},
		},
	};
	const splitOut: NodeJson = {
		id: 'split',
		name: 'Split Out',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [0, 0],
		parameters: { fieldToSplitOut: 'rows', options: {} },
	};
	return [http, splitOut];
}

function variants(setup: ReadSetup, baseUrl: string): N8nVariantSpec[] {
	const records = (name: string, concurrency: number): NodeJson => ({
		id: `records-${concurrency}`,
		name,
		type: RECORDS_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: getRowsParameters({ reportId: setup.reportId, pageSize: setup.pageSize, concurrency }),
		credentials: { recordsApi: RECORDS_CREDENTIAL },
	});
	const sequential = 'Get Report Rows (sequential)';
	const parallel = `Get Report Rows (${setup.concurrency} in parallel)`;
	return [
		{ label: 'HTTP Request (pagination) + Split Out', nodes: httpRequestRead(baseUrl, setup.reportId, setup.pageSize), timedNodes: ['HTTP Request', 'Split Out'], outputNode: 'Split Out', idKey: 'c1' },
		{ label: 'Get Report Rows, sequential', nodes: [records(sequential, 1)], timedNodes: [sequential], outputNode: sequential, idKey: 'ID transakce' },
		{
			label: `Get Report Rows, ${setup.concurrency} in parallel`,
			nodes: [records(parallel, setup.concurrency)],
			timedNodes: [parallel],
			outputNode: parallel,
			idKey: 'ID transakce',
		},
	];
}

/**
 * One workflow running every variant, one branch each, one branch after the other (n8n's v1
 * execution order runs branches top to bottom). `rotation` decides which variant goes first, so
 * that across runs each variant takes each place once.
 */
function combinedWorkflow(specs: N8nVariantSpec[], rotation: number, latencyMs: number): { workflow: WorkflowJson; path: string } {
	const path = `bench-read-${latencyMs}ms-${rotation}`;
	const order = specs.map((_, index) => specs[(index + rotation) % specs.length]);
	const trigger = webhookTrigger(path, randomUUID());
	const nodes: NodeJson[] = [trigger];
	const connections: Record<string, unknown> = {};
	const firsts: string[] = [];
	order.forEach((spec, branch) => {
		spec.nodes.forEach((node, step) => {
			nodes.push({ ...node, position: [220 * (step + 1), 200 * branch] });
			if (step > 0) connections[spec.nodes[step - 1].name] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
		});
		firsts.push(spec.nodes[0].name);
	});
	connections[trigger.name] = { main: [firsts.map((node) => ({ node, type: 'main', index: 0 }))] };
	return {
		workflow: {
			id: `benchRead${latencyMs}ms${rotation}`,
			name: `Bench: report read at ${latencyMs} ms, rotation ${rotation}`,
			nodes,
			connections,
			settings: { executionOrder: 'v1' },
			active: false,
		},
		path,
	};
}

/** The report-read comparison inside a real n8n, timed by the node execution times in the run data. */
export async function readInN8n(context: BenchContext, setup: ReadSetup): Promise<N8nReadData> {
	const { sandbox } = context;
	const specs = variants(setup, sandbox.baseUrl);
	const runs = context.quick ? 1 : 3;
	// With latency, the sequential Get Report Rows adds most of the time and little news (the
	// in-process comparison covers it): the run at 20 ms compares the HTTP Request node with the
	// parallel read only.
	const latencies = [
		{ latencyMs: 0, specs },
		{ latencyMs: 20, specs: specs.filter((spec) => spec.label !== 'Get Report Rows, sequential') },
	].map(({ latencyMs, specs: included }) => ({
		latencyMs,
		specs: included,
		combined: Array.from({ length: runs }, (_, rotation) => combinedWorkflow(included, rotation, latencyMs)),
	}));
	const alone = specs.map((spec, index) => {
		const path = `bench-read-alone-${index}`;
		return { path, workflow: chainWorkflow(`benchReadAlone${index}`, `Bench: ${spec.label} alone`, [webhookTrigger(path, randomUUID()), ...spec.nodes]) };
	});
	const n8n = await startN8n(context, [...latencies.flatMap((latency) => latency.combined), ...alone].map((entry) => entry.workflow));
	const data: N8nReadData = { n8nVersion: n8n.instance.n8nVersion, nodeVersion: n8n.nodeVersion, runs, latencies: [] };
	try {
		// Memory: each variant alone in a freshly started server, no added latency.
		await sandbox.setFaults([]);
		const memory: Array<{ peakRssMiB: number; rssBeforeMiB: number }> = [];
		for (const [index, entry] of alone.entries()) {
			if (index > 0) await n8n.restart();
			const { peakRssMiB, rssBeforeMiB } = await n8n.runByWebhook(entry.workflow.id, entry.path);
			memory.push({ peakRssMiB, rssBeforeMiB });
			context.log(`n8n read alone, ${specs[index].label}: server RSS ${formatMiB(rssBeforeMiB)} before, peak ${formatMiB(peakRssMiB)}`);
		}
		for (const { latencyMs, specs: included, combined } of latencies) {
			await sandbox.setFaults(latencyMs > 0 ? [{ route: 'report', latencyMs }] : []);
			const results: N8nReadVariant[] = included.map((spec) => ({
				label: spec.label,
				times: [],
				medianMs: 0,
				...memory[specs.indexOf(spec)],
				rows: 0,
				ok: true,
			}));
			for (const entry of combined) {
				const { run: execution } = await n8n.runByWebhook(entry.workflow.id, entry.path);
				for (const [index, spec] of included.entries()) {
					const time = spec.timedNodes.reduce((sum, node) => sum + nodeExecutionTime(execution, node), 0);
					const rows = nodeOutput(execution, spec.outputNode).map((item) => item.json);
					const check = checkRows(rows, spec.idKey);
					const result = results[index];
					result.times.push(time);
					result.rows = rows.length;
					result.ok &&= rows.length === setup.rows && check.uniqueIds === setup.rows && check.ordered;
					context.log(`n8n read ${latencyMs} ms (${entry.workflow.id}), ${spec.label}: ${formatMs(time)} (${rows.length} rows)`);
				}
			}
			for (const result of results) result.medianMs = median(result.times);
			data.latencies.push({ latencyMs, variants: results });
		}
	} finally {
		await sandbox.setFaults([]);
		await n8n.stop();
	}
	return data;
}
