/**
 * Fault options for import outcomes, a block of faults.ts's rules kept apart: what a gateway, sign-in
 * proxy or captive portal in front of the service can answer, records the service refuses inside a
 * 2xx answer, and the shapes a real back end answers in (importAnswers.ts). The answers Record →
 * Import must read for what they say, and never take for an import when they do not say it.
 */
import { BATCH_REFUSAL_SHAPES, type BatchRefusalShape, IMPORT_ANSWER_SHAPES, type ImportAnswerShape } from './importAnswers';

function isNonNegativeNumber(value: unknown): value is number {
	return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

export interface ImportOutcomeFaults {
	/**
	 * Answer 200 with an HTML sign-in page (`text/html`), as a sign-in proxy or captive portal in
	 * front of the service does: before the request is handled (nothing stored), or with
	 * `afterProcessing` after it was (the records are stored).
	 */
	htmlPage?: boolean;
	/** Imports: refuse these records of the request (0-based); the others are stored, the answer lists both. */
	refuseRecords?: number[];
	/** Imports: refuse each record with this probability, drawn from the rule's RNG (`seed`). */
	refuseProbability?: number;
	/** Let the first n matching requests through untouched (not counted as applied). */
	skip?: number;
	/** Imports: answer in this shape of a real back end (importAnswers.ts), whatever the guess. */
	answerShape?: ImportAnswerShape;
	/** Imports: store nothing, and answer 200 saying at the top that the import failed, in this shape. */
	refuseBatch?: BatchRefusalShape;
}

/** The part of a request's fault effect (faults.ts, FaultEffect) that these options make. */
export interface ImportOutcomeEffect {
	status?: number;
	reset: boolean;
	afterProcessing: boolean;
	htmlPage?: boolean;
	refuseRecord?: (index: number) => boolean;
	answerShape?: { shape: ImportAnswerShape; random: () => number };
	refuseBatch?: BatchRefusalShape;
}

/** The part of a rule's state (faults.ts, FaultRuleState) these options read. */
export interface ImportOutcomeRule extends ImportOutcomeFaults {
	afterProcessing?: boolean;
	/** With `skip`: matching requests seen so far. */
	skipped?: number;
	rng: () => number;
}

export const IMPORT_OUTCOME_FAULT_KEYS = ['htmlPage', 'refuseRecords', 'refuseProbability', 'skip', 'answerShape', 'refuseBatch'];

/** Checks the import-outcome options of a posted rule; an error message, or undefined. */
export function checkImportOutcomeFaults(raw: Record<string, unknown>): string | undefined {
	if (raw.htmlPage !== undefined && typeof raw.htmlPage !== 'boolean') return 'htmlPage must be a boolean';
	if (raw.htmlPage === true && (raw.status !== undefined || raw.reset !== undefined)) {
		return 'htmlPage answers 200 itself; leave out status and reset';
	}
	if (
		raw.refuseRecords !== undefined &&
		(!Array.isArray(raw.refuseRecords) || !raw.refuseRecords.every((i) => Number.isInteger(i) && (i as number) >= 0))
	) {
		return 'refuseRecords must be a list of record indexes (whole numbers from 0)';
	}
	if (
		raw.refuseProbability !== undefined &&
		(!isNonNegativeNumber(raw.refuseProbability) || raw.refuseProbability > 1)
	) {
		return 'refuseProbability must be a number from 0 to 1';
	}
	if (raw.skip !== undefined && !(Number.isInteger(raw.skip) && (raw.skip as number) >= 0)) {
		return 'skip must be a whole number from 0';
	}
	if (raw.answerShape !== undefined && !(IMPORT_ANSWER_SHAPES as readonly unknown[]).includes(raw.answerShape)) {
		return `answerShape must be one of ${IMPORT_ANSWER_SHAPES.join(', ')}`;
	}
	if (raw.refuseBatch !== undefined && !(BATCH_REFUSAL_SHAPES as readonly unknown[]).includes(raw.refuseBatch)) {
		return `refuseBatch must be one of ${BATCH_REFUSAL_SHAPES.join(', ')}`;
	}
	return undefined;
}

/** With `skip`: whether this matching request is one of those let through (and counts it). */
export function skipping(rule: ImportOutcomeRule): boolean {
	if (rule.skip === undefined) return false;
	rule.skipped = (rule.skipped ?? 0) + 1;
	return rule.skipped <= rule.skip;
}

export function addImportOutcomeFaults(effect: ImportOutcomeEffect, rule: ImportOutcomeRule, terminalTaken: boolean): void {
	if (rule.htmlPage === true && !terminalTaken && effect.status === undefined && !effect.reset) {
		effect.htmlPage = true;
		effect.afterProcessing = rule.afterProcessing === true;
	}
	if (rule.answerShape !== undefined) effect.answerShape ??= { shape: rule.answerShape, random: rule.rng };
	if (rule.refuseBatch !== undefined) effect.refuseBatch ??= rule.refuseBatch;
	const { refuseRecords, refuseProbability } = rule;
	if (refuseRecords !== undefined || refuseProbability !== undefined) {
		const listed = new Set(refuseRecords ?? []);
		const earlier = effect.refuseRecord;
		effect.refuseRecord = (index) =>
			(earlier?.(index) ?? false) || listed.has(index) || (refuseProbability !== undefined && rule.rng() < refuseProbability);
	}
}
