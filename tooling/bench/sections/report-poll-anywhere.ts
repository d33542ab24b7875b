/**
 * Part of the report-poll section: Anywhere (the default mode, a full read compared with every
 * remembered row) at 100,000 rows and at its ceiling of 1,000,000, with the trigger's default options.
 * Per poll it reports the memory above the process's baseline (lib/memory-watch.ts): as sampled,
 * garbage included, in the timed runs, and what the poll keeps alive, in a run of its own that
 * collects the garbage before each sample (the memory targets are judged on that); and the time
 * against the raw client reading the same rows in the same run: the same page sizes (the node's
 * adaptive ones), one page at a time, each page counted and dropped as a poll drops it.
 */
import { TOKENS } from '../../sandbox/seeds';
import type { BenchContext, TargetCheck } from '../lib/context';
import { markdownTable } from '../lib/markdown';
import { measure, type Measurement } from '../lib/measure';
import { formatCount, formatMs, formatRatio, median } from '../lib/stats';
import type { PollTask, ReadTask } from '../lib/tasks';

const REPORT_ID = 'bench-poll-anywhere';

/** Memory a poll may need above the process's baseline, by the report's size after the added rows (issue 36). */
const HEAP_LIMIT_MIB: Record<number, number> = { 100_000: 16, 1_000_000: 64 };
/** A poll's time at most, as a multiple of the raw client's read of the same rows. */
const TIME_LIMIT = 1.2;

/** Anywhere on a report of `size` rows once the added rows are in: every run of the node and of the raw client. */
export interface AnywhereRun {
	size: number;
	polls: Measurement[];
	raw: Measurement[];
	/** The run that measured the memory each poll keeps alive. */
	live?: Measurement;
	errors: string[];
}

function sizes(quick: boolean): number[] {
	return quick ? [20_000, 100_000] : [100_000, 1_000_000];
}

export async function measureAnywhere(context: BenchContext, addedRows: number): Promise<AnywhereRun[]> {
	const { sandbox } = context;
	const runs = context.quick ? 1 : 3;
	const results: AnywhereRun[] = sizes(context.quick).map((size) => ({ size, polls: [], raw: [], errors: [] }));
	await sandbox.setFaults([]);
	// Interleaved (raw, node, raw, node ...), so that a slow phase of the machine hits both.
	for (let run = 0; run < runs; run++) {
		for (const result of results) {
			const rows = result.size - addedRows;
			// A fresh virtual report (rows computed on demand) each time: the measured polls add rows to it.
			await sandbox.control('POST', '/reports', { id: REPORT_ID, generate: 'bank', rows, virtual: true });
			const common = { baseUrl: sandbox.baseUrl, token: TOKENS.analysisAdmin, reportId: REPORT_ID };
			const raw: ReadTask = { kind: 'read', client: 'raw', ...common, pageSize: 0, concurrency: 1, adaptivePages: true, dropRows: true };
			const poll: PollTask = { kind: 'poll', client: 'node', ...common, mode: 'anywhere', addedRows, maxRemembered: result.size, firstPollDefaults: true };
			try {
				if (run === 0) {
					result.live = await measure({ ...poll, liveMemory: true }, { sandbox, timeoutMs: 1_800_000 });
					await sandbox.control('POST', '/reports', { id: REPORT_ID, generate: 'bank', rows, virtual: true });
					const { details } = result.live;
					context.log(
						`Anywhere, ${formatCount(result.size)} rows, memory kept alive: first poll ${mib(details.firstHeapMiB)}, no new rows ${mib(details.quietHeapMiB)}, ${addedRows} new rows ${mib(details.addedHeapMiB)} (above the baseline)`,
					);
				}
				const rawRead = await measure(raw, { sandbox, profileDir: context.profileDir, timeoutMs: 1_200_000 });
				result.raw.push(rawRead);
				const polls = await measure(poll, { sandbox, profileDir: context.profileDir, timeoutMs: 1_200_000 });
				result.polls.push(polls);
				const { details } = polls;
				context.log(
					`Anywhere, ${formatCount(result.size)} rows: raw client ${formatMs(rawRead.elapsedMs)} in ${String(rawRead.details.requests)} requests; ` +
						`first poll ${formatMs(Number(details.firstMs))}, ${mib(details.firstHeapMiB)} heap; no new rows ${formatMs(Number(details.quietMs))}, ${mib(details.quietHeapMiB)}; ` +
						`${addedRows} new rows ${formatMs(Number(details.addedMs))}, ${mib(details.addedHeapMiB)} (above the baseline)`,
				);
			} catch (error) {
				const message = (error as Error).message.split('\n').slice(0, 3).join(' ').slice(0, 500);
				context.log(`Anywhere, ${formatCount(result.size)} rows: failed: ${message}`);
				result.errors.push(message);
			}
		}
	}
	await sandbox.reset();
	return results;
}

const mib = (value: unknown) => `${Number(value).toFixed(1)} MiB`;

/** The most any run needed (the targets are limits), and the median time; `live`: the live run's memory. */
function figures(runs: Measurement[], live: Measurement | undefined, poll: 'first' | 'quiet' | 'added') {
	const of = (key: string) => runs.map((run) => Number(run.details[`${poll}${key}`]));
	return {
		ms: median(of('Ms')),
		requests: Math.max(...of('Requests')),
		heapMiB: Math.max(...of('HeapMiB')),
		liveMiB: live === undefined ? Number.NaN : Number(live.details[`${poll}HeapMiB`]),
		rssMiB: Math.max(...of('RssMiB')),
		staticBytes: Math.max(...of('StaticBytes')),
	};
}

function formatBytes(bytes: number): string {
	if (!Number.isFinite(bytes)) return '–';
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function renderAnywhere(results: AnywhereRun[], addedRows: number): { lines: string[]; targets: TargetCheck[] } {
	const targets: TargetCheck[] = [];
	const rows: string[][] = [];
	for (const result of results) {
		const report = `${formatCount(result.size)} rows`;
		if (result.polls.length === 0) {
			rows.push([report, `failed: ${result.errors[0] ?? ''}`, '', '', '', '', '', '', '', '']);
			continue;
		}
		const rawMs = median(result.raw.map((run) => run.elapsedMs));
		const rawRequests = Math.max(...result.raw.map((run) => Number(run.details.requests)));
		const figure = (poll: 'first' | 'quiet' | 'added') => figures(result.polls, result.live, poll);
		const polls = { first: figure('first'), quiet: figure('quiet'), added: figure('added') };
		const names = { first: 'first poll (remembers every row)', quiet: 'no new rows', added: `${addedRows} new rows` } as const;
		for (const poll of ['first', 'quiet', 'added'] as const) {
			const figure = polls[poll];
			rows.push([
				poll === 'first' ? report : '',
				names[poll],
				formatCount(figure.requests),
				formatMs(figure.ms),
				poll === 'first' ? '' : `${formatMs(rawMs)} (${formatCount(rawRequests)} requests)`,
				poll === 'first' ? '' : formatRatio(figure.ms / rawMs),
				mib(figure.liveMiB),
				mib(figure.heapMiB),
				mib(figure.rssMiB),
				formatBytes(figure.staticBytes),
			]);
		}
		const limit = HEAP_LIMIT_MIB[result.size];
		if (limit !== undefined) {
			const most = Math.max(polls.first.liveMiB, polls.quiet.liveMiB, polls.added.liveMiB);
			targets.push({
				target: `Report Trigger, Anywhere, ${report}: the first poll, a poll with no new rows and one with ${addedRows} new rows each keep ≤ ${limit} MiB alive above the process's baseline`,
				measured:
					`${mib(polls.first.liveMiB)}, ${mib(polls.quiet.liveMiB)} and ${mib(polls.added.liveMiB)} (heap and array buffers after a full garbage collection, sampled every 5 ms); ` +
					`as sampled with the garbage: ${mib(polls.first.heapMiB)}, ${mib(polls.quiet.heapMiB)} and ${mib(polls.added.heapMiB)}`,
				met: most <= limit,
			});
		}
		const quiet = polls.quiet.ms / rawMs;
		const added = polls.added.ms / rawMs;
		targets.push({
			target: `Report Trigger, Anywhere, ${report}: a poll with no new rows and one with ${addedRows} new rows ≤ ${TIME_LIMIT}× the raw client's time to read the same rows`,
			measured: `${formatRatio(quiet)} and ${formatRatio(added)} (${formatMs(polls.quiet.ms)} and ${formatMs(polls.added.ms)} vs ${formatMs(rawMs)})`,
			met: quiet <= TIME_LIMIT && added <= TIME_LIMIT,
		});
		const once = result.polls.every((run) => run.count === addedRows && run.details.emittedUnique === addedRows && run.details.quietEmitted === 0);
		targets.push({
			target: `Report Trigger, Anywhere, ${report}: every new row emitted once`,
			measured: once ? `0, then ${addedRows} rows, in every run` : 'rows lost or repeated',
			met: once && result.errors.length === 0,
		});
	}
	const lines = [
		`**Anywhere: memory and time against the raw client** (${results[0]?.polls.length ?? 0} runs each, interleaved with the raw client's): a virtual report of each size once the ${addedRows} rows are added, polled with the trigger's default options (Page Size chosen by the node, one request at a time; Max Remembered Rows the report's size), the first poll included. ` +
			"Memory above the process's baseline (what it held before the poll, garbage collected), the peak of the JavaScript heap in use plus typed arrays and Buffers sampled every 5 ms, n8n's JSON of the static data included (it makes one to save it when the poll changed it): " +
			'*kept alive* in a run of its own that collects the garbage before each sample (what the poll needs; the targets are judged on it); *sampled* in the timed runs, with the garbage not yet collected, V8\'s young generation of up to 16 MiB included (how far V8 lets the heap grow where memory is plentiful). RSS: the resident memory above the same baseline. ' +
			'Raw client: axios reading the same rows with the same page sizes, one page at a time, dropping each page. Times are medians; memory the most any run needed.',
		'',
		markdownTable({
			headers: ['Report', 'Poll', 'Requests', 'Time', 'Raw client', 'vs raw', 'Heap kept alive', 'Heap sampled', 'RSS', 'Static data'],
			rows,
		}),
		'',
	];
	return { lines, targets };
}
