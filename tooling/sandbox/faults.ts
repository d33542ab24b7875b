import type { RowPosition } from './reportState';
import { createRng, type ReportRow } from './seeds';
// Import outcomes (a gateway's answers, records refused in a 2xx): their own block, importOutcomeFaults.ts.
import {
	addImportOutcomeFaults,
	checkImportOutcomeFaults,
	IMPORT_OUTCOME_FAULT_KEYS,
	type ImportOutcomeEffect,
	type ImportOutcomeFaults,
	skipping,
} from './importOutcomeFaults';

/** How a `pastEnd` fault answers an offset past the last row. */
export const PAST_END_ANSWERS = [404, 400, 416, 422, 'errorObject'] as const;

export type PastEndAnswer = (typeof PAST_END_ANSWERS)[number];

/** How a `maxLimit` fault refuses a `limit` above its maximum. */
export const OVER_LIMIT_ANSWERS = [400, 413, 422, 'errorObject'] as const;

export type OverLimitAnswer = (typeof OVER_LIMIT_ANSWERS)[number];

export const FAULT_ROUTES = ['import', 'report', 'clients', 'invoices', 'records', '*'] as const;

export type FaultRoute = (typeof FAULT_ROUTES)[number];

/** A fault rule as posted to `POST /__sandbox/faults`. See README.md for each option. */
export interface FaultRule extends ImportOutcomeFaults {
	route: FaultRoute;
	reportId?: string;
	recordTypeId?: string;
	/** Only requests with this HTTP method. */
	method?: string;
	/** Delay before the request is handled. */
	latencyMs?: number;
	/** Answer with this status instead of handling the request. */
	status?: number;
	/** `Retry-After` header value in seconds (with `status`). */
	retryAfter?: number;
	/** Destroy the connection instead of answering. */
	reset?: boolean;
	/**
	 * With `status` or `reset`: handle the request first (imports ARE stored), then fail the response.
	 * Models "the service may already have processed it".
	 */
	afterProcessing?: boolean;
	/** Handle the request, then hold the response this long before writing it (client timeouts). */
	slowMs?: number;
	/**
	 * Cut the JSON body in half. `true`/`body`: a complete HTTP response whose JSON is cut off;
	 * `connection`: announce the full length, send half, then destroy the connection.
	 */
	truncate?: boolean | 'body' | 'connection';
	/** Reports: silently serve at most this many rows per page, whatever `limit` asked. */
	limitCap?: number;
	/** Reports: refuse (400) a page whose `limit` is above this, as a service with a hard maximum does. */
	maxLimit?: number;
	/** Reports, with `maxLimit`: answer a `limit` above it with 400 (default), 413, 422 or a 200 error object. */
	overLimit?: OverLimitAnswer;
	/**
	 * Reports: refuse (400 `result_window_too_large`) any request whose `offset + limit` is above this,
	 * serving every row up to there: a service that limits how deep a read may go (a result window).
	 */
	maxDepth?: number;
	/** Reports: ignore `offset` (always serve the first page). */
	ignoreOffset?: boolean;
	/**
	 * Reports: serve rows only while the answer stays within this many bytes (at least one row, however
	 * large), without saying so: a service that caps pages by size.
	 */
	pageBytes?: number;
	/**
	 * Reports: answer an offset past the last row (but not offset 0) with 404 `offset_out_of_range`,
	 * 400 `invalid_offset`, 416, 422, or a 200 whose body is an error object instead of an empty page.
	 */
	pastEnd?: PastEndAnswer;
	/** Reports: only requests for this `offset` (0: the first page of every read). */
	pageOffset?: number;
	/**
	 * Reports: once the matching request's page is read, add `count` new generated bank rows at `at`
	 * (see README.md): rows that appear while a client pages through the report.
	 */
	insertRows?: { at: RowPosition; count: number };
	/**
	 * A rate limiter: each token may make `requests` matching requests per window of `windowSeconds`
	 * (fixed windows, counted from the epoch); the rest get 429 with a `Retry-After` of the seconds
	 * until the window ends. Every matching request is logged in the rule's `arrivals`.
	 */
	rateLimit?: { requests: number; windowSeconds: number };
	/** Apply to the next n matching requests only. */
	times?: number;
	/** Apply to each matching request with this probability, from a deterministic RNG seeded by `seed`. */
	probability?: number;
	seed?: number;
}

export interface FaultRuleState extends FaultRule {
	id: string;
	/** With `skip`: matching requests seen so far. */
	skipped?: number;
	/** Requests this rule has been applied to. */
	applied: number;
	/** Remaining applications when `times` was given. */
	remaining?: number;
	rng: () => number;
	/** With `rateLimit`: every matching request, in order (ms since the epoch, and whether it was let through). */
	arrivals?: Array<{ at: number; token: string; limited: boolean }>;
	/** With `rateLimit`: requests per token in its current window. */
	windows?: Map<string, { start: number; count: number }>;
	/** With `insertRows`: every row it added, in report order per insertion. */
	inserted?: ReportRow[];
}

/** The combined effect of every rule that fires for one request. */
export interface FaultEffect extends ImportOutcomeEffect {
	ruleIds: string[];
	latencyMs: number;
	slowMs: number;
	status?: number;
	retryAfter?: number;
	reset: boolean;
	afterProcessing: boolean;
	truncate?: 'body' | 'connection';
	limitCap?: number;
	maxLimit?: number;
	overLimit?: OverLimitAnswer;
	maxDepth?: number;
	ignoreOffset: boolean;
	pageBytes?: number;
	pastEnd?: PastEndAnswer;
	/** Rules with `insertRows` that fired: the report route adds their rows after reading the page. */
	insertRows: FaultRuleState[];
	/** The 429 comes from a `rateLimit` (its Retry-After is a guess, guesses.ts). */
	rateLimited?: boolean;
}

const RULE_KEYS = new Set<string>([
	'route',
	'reportId',
	'recordTypeId',
	'method',
	'latencyMs',
	'status',
	'retryAfter',
	'reset',
	'afterProcessing',
	'slowMs',
	'truncate',
	'limitCap',
	'maxLimit',
	'overLimit',
	'maxDepth',
	'ignoreOffset',
	'pageBytes',
	'pastEnd',
	'pageOffset',
	'insertRows',
	'skip',
	'rateLimit',
	'times',
	'probability',
	'seed',
	...IMPORT_OUTCOME_FAULT_KEYS,
]);

function isNonNegativeNumber(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** Checks a posted rule; returns an error message, or the rule. */
export function parseFaultRule(input: unknown, index: number): FaultRule | string {
	if (typeof input !== 'object' || input === null || Array.isArray(input)) {
		return `Fault rule ${index} must be an object`;
	}
	const raw = input as Record<string, unknown>;
	for (const key of Object.keys(raw)) {
		if (!RULE_KEYS.has(key)) return `Fault rule ${index}: unknown option "${key}". Known: ${[...RULE_KEYS].join(', ')}`;
	}
	const route = raw.route ?? '*';
	if (typeof route !== 'string' || !(FAULT_ROUTES as readonly string[]).includes(route)) {
		return `Fault rule ${index}: route must be one of ${FAULT_ROUTES.join(', ')}`;
	}
	for (const key of ['reportId', 'recordTypeId', 'method'] as const) {
		if (raw[key] !== undefined && typeof raw[key] !== 'string') return `Fault rule ${index}: ${key} must be a string`;
	}
	for (const key of ['latencyMs', 'retryAfter', 'slowMs', 'limitCap', 'maxLimit', 'maxDepth', 'pageBytes', 'times', 'seed', 'pageOffset', 'skip'] as const) {
		if (raw[key] !== undefined && !isNonNegativeNumber(raw[key])) {
			return `Fault rule ${index}: ${key} must be a non-negative number`;
		}
	}
	if (raw.status !== undefined) {
		if (typeof raw.status !== 'number' || !Number.isInteger(raw.status) || raw.status < 400 || raw.status > 599) {
			return `Fault rule ${index}: status must be an HTTP error status (400-599), e.g. 429, 500, 502, 503, 504`;
		}
	}
	for (const key of ['reset', 'afterProcessing', 'ignoreOffset'] as const) {
		if (raw[key] !== undefined && typeof raw[key] !== 'boolean') return `Fault rule ${index}: ${key} must be a boolean`;
	}
	if (raw.truncate !== undefined && ![true, false, 'body', 'connection'].includes(raw.truncate as string | boolean)) {
		return `Fault rule ${index}: truncate must be true, "body" or "connection"`;
	}
	if (
		raw.probability !== undefined &&
		(!isNonNegativeNumber(raw.probability) || raw.probability > 1)
	) {
		return `Fault rule ${index}: probability must be a number from 0 to 1`;
	}
	if (raw.rateLimit !== undefined) {
		const limit = raw.rateLimit as Record<string, unknown> | null;
		if (
			typeof limit !== 'object' ||
			limit === null ||
			!Number.isInteger(limit.requests) ||
			(limit.requests as number) < 1 ||
			!isNonNegativeNumber(limit.windowSeconds) ||
			limit.windowSeconds === 0 ||
			Object.keys(limit).some((key) => key !== 'requests' && key !== 'windowSeconds')
		) {
			return `Fault rule ${index}: rateLimit must be {"requests": whole number of at least 1, "windowSeconds": number above 0}`;
		}
		if (raw.status !== undefined || raw.reset !== undefined) {
			return `Fault rule ${index}: rateLimit answers 429 itself; leave out status and reset`;
		}
	}
	if (raw.insertRows !== undefined) {
		const problem = insertRowsProblem(raw.insertRows, route);
		if (problem !== undefined) return `Fault rule ${index}: ${problem}`;
	}
	if (raw.limitCap !== undefined && (raw.limitCap as number) < 1) {
		return `Fault rule ${index}: limitCap must be at least 1`;
	}
	if (raw.maxLimit !== undefined && (raw.maxLimit as number) < 1) {
		return `Fault rule ${index}: maxLimit must be at least 1`;
	}
	if (raw.maxDepth !== undefined && (raw.maxDepth as number) < 1) {
		return `Fault rule ${index}: maxDepth must be at least 1`;
	}
	if (raw.overLimit !== undefined && !(OVER_LIMIT_ANSWERS as readonly unknown[]).includes(raw.overLimit)) {
		return `Fault rule ${index}: overLimit must be 400, 413, 422 or "errorObject"`;
	}
	if (raw.pageBytes !== undefined && (raw.pageBytes as number) < 1) {
		return `Fault rule ${index}: pageBytes must be at least 1`;
	}
	if (raw.pastEnd !== undefined && !(PAST_END_ANSWERS as readonly unknown[]).includes(raw.pastEnd)) {
		return `Fault rule ${index}: pastEnd must be 404, 400, 416, 422 or "errorObject"`;
	}
	const outcomeProblem = checkImportOutcomeFaults(raw);
	if (outcomeProblem) return `Fault rule ${index}: ${outcomeProblem}`;
	return { ...(raw as Partial<FaultRule>), route: route as FaultRoute };
}

/** What is wrong with an `insertRows` option, or undefined. */
function insertRowsProblem(value: unknown, route: unknown): string | undefined {
	if (route !== 'report') return 'insertRows applies to report reads: give route "report"';
	const insert = value as Record<string, unknown> | null;
	const at = typeof insert === 'object' && insert !== null ? insert.at : undefined;
	const validAt = at === 'top' || at === 'end' || (Number.isInteger(at) && (at as number) >= 0);
	if (
		typeof insert !== 'object' ||
		insert === null ||
		!validAt ||
		!Number.isInteger(insert.count) ||
		(insert.count as number) < 1 ||
		Object.keys(insert).some((key) => key !== 'at' && key !== 'count')
	) {
		return 'insertRows must be {"at": "top" | "end" | a row index from 0, "count": whole number of at least 1}';
	}
	return undefined;
}

export function createFaultRuleState(rule: FaultRule, id: string): FaultRuleState {
	return {
		...rule,
		method: rule.method?.toUpperCase(),
		id,
		applied: 0,
		remaining: rule.times,
		rng: createRng(rule.seed ?? 1),
		...(rule.rateLimit ? { arrivals: [], windows: new Map() } : {}),
		...(rule.skip !== undefined ? { skipped: 0 } : {}),
		...(rule.insertRows ? { inserted: [] } : {}),
	};
}

export interface FaultTarget {
	route: Exclude<FaultRoute, '*'> | 'other';
	method: string;
	reportId?: string;
	recordTypeId?: string;
	/** The bearer token the request carries (rate limits count per token). */
	token?: string;
	/** Reports: the `offset` asked for (0 when not given; undefined when not a whole number). */
	offset?: number;
}

/** With a rate limit: whether this request is over it, and how many seconds remain of its window. */
function overRateLimit(rule: FaultRuleState, token: string, now: number): number | undefined {
	const { requests, windowSeconds } = rule.rateLimit as { requests: number; windowSeconds: number };
	const windowMs = windowSeconds * 1000;
	const start = Math.floor(now / windowMs) * windowMs;
	const windows = rule.windows as Map<string, { start: number; count: number }>;
	let window = windows.get(token);
	if (!window || window.start !== start) {
		window = { start, count: 0 };
		windows.set(token, window);
	}
	window.count++;
	const limited = window.count > requests;
	rule.arrivals?.push({ at: now, token, limited });
	return limited ? Math.max(1, Math.ceil((start + windowMs - now) / 1000)) : undefined;
}

/**
 * Picks the rules that fire for one request and consumes their `times`. Every firing rule contributes;
 * when several set `status` or `reset`, the first listed wins.
 */
export function resolveFaults(rules: FaultRuleState[], target: FaultTarget, now = Date.now()): FaultEffect | undefined {
	let effect: FaultEffect | undefined;
	for (const rule of rules) {
		if (rule.route !== '*' && rule.route !== target.route) continue;
		if (rule.method !== undefined && rule.method !== target.method) continue;
		if (rule.reportId !== undefined && rule.reportId !== target.reportId) continue;
		if (rule.recordTypeId !== undefined && rule.recordTypeId !== target.recordTypeId) continue;
		if (rule.pageOffset !== undefined && rule.pageOffset !== target.offset) continue;
		if (rule.remaining !== undefined && rule.remaining <= 0) continue;
		if (skipping(rule)) continue;
		if (rule.probability !== undefined && rule.rng() >= rule.probability) continue;
		const rateLimitedFor = rule.rateLimit ? overRateLimit(rule, target.token ?? '', now) : undefined;
		if (rule.rateLimit && rateLimitedFor === undefined) continue;
		if (rule.remaining !== undefined) rule.remaining--;
		rule.applied++;
		effect ??= { ruleIds: [], latencyMs: 0, slowMs: 0, reset: false, afterProcessing: false, ignoreOffset: false, insertRows: [] };
		effect.ruleIds.push(rule.id);
		effect.latencyMs += rule.latencyMs ?? 0;
		effect.slowMs = Math.max(effect.slowMs, rule.slowMs ?? 0);
		const terminalTaken = effect.status !== undefined || effect.reset;
		if (!terminalTaken && rateLimitedFor !== undefined) {
			effect.status = 429;
			effect.retryAfter = rateLimitedFor;
			effect.rateLimited = true;
		} else if (!terminalTaken && (rule.status !== undefined || rule.reset === true)) {
			effect.status = rule.status;
			effect.retryAfter = rule.retryAfter;
			effect.reset = rule.status === undefined && rule.reset === true;
			effect.afterProcessing = rule.afterProcessing === true;
		}
		if (rule.truncate === true || rule.truncate === 'body') effect.truncate ??= 'body';
		if (rule.truncate === 'connection') effect.truncate = 'connection';
		if (rule.limitCap !== undefined) effect.limitCap = Math.min(effect.limitCap ?? Infinity, rule.limitCap);
		if (rule.maxLimit !== undefined) effect.maxLimit = Math.min(effect.maxLimit ?? Infinity, rule.maxLimit);
		if (rule.overLimit !== undefined) effect.overLimit ??= rule.overLimit;
		if (rule.maxDepth !== undefined) effect.maxDepth = Math.min(effect.maxDepth ?? Infinity, rule.maxDepth);
		if (rule.ignoreOffset === true) effect.ignoreOffset = true;
		if (rule.pageBytes !== undefined) effect.pageBytes = Math.min(effect.pageBytes ?? Infinity, rule.pageBytes);
		if (rule.pastEnd !== undefined) effect.pastEnd ??= rule.pastEnd;
		if (rule.insertRows) effect.insertRows.push(rule);
		addImportOutcomeFaults(effect, rule, terminalTaken);
	}
	return effect;
}

/** Names of the fault kinds in an effect, for the stats. */
export function faultKinds(effect: FaultEffect): string[] {
	const kinds: string[] = [];
	if (effect.latencyMs > 0) kinds.push('latency');
	if (effect.status !== undefined) kinds.push(`status_${effect.status}${effect.afterProcessing ? '_after_processing' : ''}`);
	if (effect.reset) kinds.push(effect.afterProcessing ? 'reset_after_processing' : 'reset');
	if (effect.slowMs > 0) kinds.push('slow');
	if (effect.truncate) kinds.push(`truncate_${effect.truncate}`);
	if (effect.limitCap !== undefined) kinds.push('limit_cap');
	if (effect.maxLimit !== undefined) kinds.push('max_limit');
	if (effect.maxDepth !== undefined) kinds.push('max_depth');
	if (effect.ignoreOffset) kinds.push('ignore_offset');
	if (effect.pageBytes !== undefined) kinds.push('page_bytes');
	if (effect.pastEnd !== undefined) kinds.push('past_end');
	if (effect.insertRows.length > 0) kinds.push('insert_rows');
	if (effect.htmlPage) kinds.push(effect.afterProcessing ? 'html_page_after_processing' : 'html_page');
	if (effect.refuseRecord) kinds.push('refuse_records');
	if (effect.refuseBatch) kinds.push(`refuse_batch_${effect.refuseBatch}`);
	if (effect.answerShape) kinds.push(`answer_${effect.answerShape.shape}`);
	return kinds;
}

