/** What the benchmark asks a measurement process to do, and what it reports back. */

export type Client = 'raw' | 'node';

interface RawClientOptions {
	/**
	 * Raw client only: a new TCP connection for every request (a fresh http.Agent each time), as
	 * n8n's HTTP helper makes them, instead of reusing kept-alive connections.
	 */
	newConnectionPerRequest?: boolean;
}

export interface ReadTask extends RawClientOptions {
	kind: 'read';
	client: Client;
	baseUrl: string;
	token: string;
	reportId: string;
	pageSize: number;
	concurrency: number;
	/** Node only: no Page Size option (the node chooses the page size), instead of `pageSize`. */
	nodeDefaults?: boolean;
	/**
	 * Raw client only: the page sizes of the node's adaptive read (1,000 rows, doubling to 5,000),
	 * one page at a time, instead of `pageSize`.
	 */
	adaptivePages?: boolean;
	/** Raw client only: count the rows of each page and drop them, as a poll does, instead of keeping them. */
	dropRows?: boolean;
}

export interface ImportTask extends RawClientOptions {
	kind: 'import';
	client: Client;
	baseUrl: string;
	token: string;
	recordTypeId: string;
	count: number;
	/** Prefix of the records' keys, unique per run. */
	keyPrefix: string;
	batchSize: number;
	concurrency: number;
	/** Node only: the "Retry When Outcome Unknown" option. */
	retryUnknownOutcome?: boolean;
	/** Node only: n8n's "On Error: Continue" setting, so failed batches become error items. */
	continueOnFail?: boolean;
	/** Node only: the records with typed values (numbers, Dates, null) that the node converts. */
	values?: 'typed';
	/**
	 * Node only: instead of Import, a node that sends the batches through n8n's HTTP helper as JSON
	 * and outputs its input items: the least that any import node under n8n's rules can do.
	 */
	helperOnly?: boolean;
}

/** Polls of the Records Report Trigger: the two polls after the one that remembers the report. */
export interface PollTask {
	kind: 'poll';
	client: 'node';
	baseUrl: string;
	token: string;
	reportId: string;
	/** The trigger's New Rows Appear option; 'before' is the trigger built from BASELINE_COMMIT. */
	mode: 'anywhere' | 'end' | 'top' | 'before';
	/** Rows added between the quiet poll and the last one, where the mode expects them. */
	addedRows: number;
	/** The trigger's Max Remembered Rows option (default 200,000: the 100,000-row report grows past 100,000). */
	maxRemembered?: number;
	/** Page Size of the first poll, which only remembers the report (not measured); default 100, 8 in parallel. */
	firstPollPageSize?: number;
	/** The first poll with the trigger's default options too (no Page Size or Parallel Requests of its own). */
	firstPollDefaults?: boolean;
	/** Measure the memory each poll keeps alive (garbage collected before every sample; times not usable). */
	liveMemory?: boolean;
}

/**
 * Import's own work on its input, timed inside the node as n8n-core runs it: the check of every
 * record before the first request, then the conversion of every record (which the node does batch
 * by batch as it sends); no request is made.
 */
export interface ConvertTask {
	kind: 'convert';
	client: 'node';
	count: number;
	/**
	 * The import section's records (text only); the same records parsed from their JSON, as an HTTP
	 * or webhook answer gives them; or the same records with typed values.
	 */
	values: 'text' | 'parsed' | 'typed';
	/**
	 * Instead of Import's reading, only list each record's keys and ask each value's type: the least
	 * that any check of every record can do with these records.
	 */
	keysAndTypesOnly?: boolean;
}

export type Task = ReadTask | ImportTask | PollTask | ConvertTask;

export interface TaskResult {
	/** Wall time of the measured operation alone (no process start, module loading or input building). */
	elapsedMs: number;
	/** For the node: its execution time as n8n-core records it in the run data. */
	/** Rows read or records sent. */
	count: number;
	/** Highest resident memory of the measuring process over its life (VmHWM), in MiB. */
	peakRssMiB: number;
	/** Resident memory just before the operation started (modules loaded, input built), in MiB. */
	rssBeforeMiB: number;
	/** CPU time of the measuring process during the operation (user + system), in ms. */
	cpuMs: number;
	n8nExecutionTimeMs?: number;
	details: Record<string, unknown>;
}

/** Messages from the measuring process to the benchmark. */
export type WorkerMessage =
	| { type: 'ready' }
	| { type: 'result'; result: TaskResult }
	| { type: 'error'; message: string };

/** Messages from the benchmark to the measuring process. */
export type ParentMessage = { type: 'task'; task: Task } | { type: 'go' };
