import type { WorkflowJson } from '../../scripts/lib/n8n';
import { nodeOutput } from '../../scripts/lib/n8n';
import { TOKENS } from '../../test/sandbox/seeds';
import { getRowsParameters } from '../clients/node';
import { checkRows } from '../lib/check';
import type { BenchContext } from '../lib/context';
import { linearWorkflow, nodeExecutionTime, prepareN8n, RECORDS_CREDENTIAL, RECORDS_NODE_TYPE } from '../lib/n8n';
import { formatMiB, formatMs, median } from '../lib/stats';

export interface N8nReadVariant {
	label: string;
	times: number[];
	medianMs: number;
	peakRss: number[];
	peakRssMiB: number;
	rows: number;
	ok: boolean;
}

export interface N8nReadData {
	n8nVersion: string;
	nodeVersion: string;
	runs: number;
	/** Peak RSS of an `n8n execute` of a workflow that does nothing: n8n's own share of the figures. */
	idlePeakRssMiB: number;
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
	workflow: WorkflowJson;
	/** Nodes whose execution times add up to the variant's time. */
	timedNodes: string[];
	/** Node whose output holds one item per row, and the key holding the row id. */
	outputNode: string;
	idKey: string;
}

function variants(setup: ReadSetup, baseUrl: string): N8nVariantSpec[] {
	const http = {
		id: 'http',
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [0, 0] as [number, number],
		parameters: {
			url: `${baseUrl}/api/analysis/reports/${setup.reportId}/data/table`,
			sendQuery: true,
			queryParameters: { parameters: [{ name: 'limit', value: String(setup.pageSize) }] },
			sendHeaders: true,
			headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${TOKENS.full}` }] },
			options: {
				pagination: {
					pagination: {
						paginationMode: 'updateAParameterInEachRequest',
						parameters: { parameters: [{ type: 'qs', name: 'offset', value: `={{ $pageCount * ${setup.pageSize} }}` }] },
						paginationCompleteWhen: 'other',
						completeExpression: `={{ $response.body.rows.length < ${setup.pageSize} }}`,
					},
				},
			},
		},
	};
	const splitOut = {
		id: 'split',
		name: 'Split Out',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: { fieldToSplitOut: 'rows', options: {} },
	};
	const records = (concurrency: number) => ({
		id: `records-${concurrency}`,
		name: 'Get Report Rows',
		type: RECORDS_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0] as [number, number],
		parameters: getRowsParameters({ reportId: setup.reportId, pageSize: setup.pageSize, concurrency }),
		credentials: { recordsApi: RECORDS_CREDENTIAL },
	});
	return [
		{
			label: 'HTTP Request (pagination) + Split Out',
			workflow: linearWorkflow('benchReadHttp', 'Bench: read with HTTP Request', [http, splitOut]),
			timedNodes: ['HTTP Request', 'Split Out'],
			outputNode: 'Split Out',
			idKey: 'c1',
		},
		{
			label: 'Get Report Rows, sequential',
			workflow: linearWorkflow('benchReadSeq', 'Bench: Get Report Rows sequential', [records(1)]),
			timedNodes: ['Get Report Rows'],
			outputNode: 'Get Report Rows',
			idKey: 'ID transakce',
		},
		{
			label: `Get Report Rows, ${setup.concurrency} in parallel`,
			workflow: linearWorkflow('benchReadPar', 'Bench: Get Report Rows parallel', [records(setup.concurrency)]),
			timedNodes: ['Get Report Rows'],
			outputNode: 'Get Report Rows',
			idKey: 'ID transakce',
		},
	];
}

/** The report-read comparison inside a real n8n, timed by the node execution times in the run data. */
export async function readInN8n(context: BenchContext, setup: ReadSetup): Promise<N8nReadData> {
	const { sandbox } = context;
	const specs = variants(setup, sandbox.baseUrl);
	const idle = linearWorkflow('benchIdle', 'Bench: nothing', []);
	const n8n = await prepareN8n(context, [idle, ...specs.map((spec) => spec.workflow)]);
	const runs = context.quick ? 1 : 3;
	const idlePeakRssMiB = (await n8n.execute(idle.id)).peakRssMiB;
	context.log(`n8n ${n8n.instance.n8nVersion}: idle execute peak RSS ${formatMiB(idlePeakRssMiB)}`);
	const data: N8nReadData = { n8nVersion: n8n.instance.n8nVersion, nodeVersion: n8n.nodeVersion, runs, idlePeakRssMiB, latencies: [] };
	for (const latencyMs of [0, 20]) {
		await sandbox.setFaults(latencyMs > 0 ? [{ route: 'report', latencyMs }] : []);
		const results: N8nReadVariant[] = specs.map((spec) => ({ label: spec.label, times: [], medianMs: 0, peakRss: [], peakRssMiB: 0, rows: 0, ok: true }));
		for (let run = 0; run < runs; run++) {
			for (const [index, spec] of specs.entries()) {
				const { run: execution, peakRssMiB } = await n8n.execute(spec.workflow.id);
				const time = spec.timedNodes.reduce((sum, node) => sum + nodeExecutionTime(execution, node), 0);
				const rows = nodeOutput(execution, spec.outputNode).map((item) => item.json);
				const check = checkRows(rows, spec.idKey);
				const result = results[index];
				result.times.push(time);
				result.peakRss.push(peakRssMiB);
				result.rows = rows.length;
				result.ok &&= rows.length === setup.rows && check.uniqueIds === setup.rows && check.ordered;
				context.log(`n8n read ${latencyMs} ms, ${spec.label}: ${formatMs(time)} (${rows.length} rows), peak ${formatMiB(peakRssMiB)}`);
			}
		}
		for (const result of results) {
			result.medianMs = median(result.times);
			result.peakRssMiB = median(result.peakRss);
		}
		data.latencies.push({ latencyMs, variants: results });
	}
	await sandbox.setFaults([]);
	return data;
}
