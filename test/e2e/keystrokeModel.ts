/**
 * How long a person takes for what the quick-start walk recorded, by the keystroke-level model
 * (Card, Moran and Newell, 1980): each click or choice is a mental preparation, a pointing and a
 * button press and release; typing is a move to the keyboard and back and one keystroke per
 * character; reading goes at 200 words a minute (the README step, a dialog, a notice); the machine's
 * own time is what the walk measured. It models a user who knows what to do and makes no mistake:
 * a lower bound for a newcomer. Pure.
 */

/** Seconds per operator (Card, Moran and Newell; Kieras, "Using the Keystroke-Level Model", 2001). */
export const OPERATORS = {
	/** Mental preparation before an action. */
	mental: 1.35,
	/** Pointing at a target with the mouse. */
	point: 1.1,
	/** Pressing and releasing the mouse button. */
	press: 0.2,
	/** Moving a hand between mouse and keyboard. */
	home: 0.4,
	/** One keystroke of an average typist (40 words a minute). */
	keystroke: 0.28,
	/** Reading, per word (200 words a minute). */
	word: 0.3,
} as const;

/** What a user did and met in one step of the walk. */
export interface StepRecord {
	/** The README's step number; 0 for what the walk did that no step names. */
	step: number;
	title: string;
	/** Clicks on buttons, fields and lists (opening a list is a click). */
	clicks: number;
	/** Options picked from an open list. */
	choices: number;
	/** Fields typed into. */
	fields: number;
	/** Keys pressed, typed text and keys such as Escape. */
	keystrokes: number;
	/** Words read: the README step, and dialogs and notices met on the way. */
	words: number;
	/** Dialogs and notices met, by their text's start. */
	met: string[];
	/** Wall time of the step in the browser: n8n's and the browser's share, no person's. */
	machineMs: number;
}

export interface StepEstimate {
	step: number;
	title: string;
	actingSeconds: number;
	readingSeconds: number;
	machineSeconds: number;
	totalSeconds: number;
}

/** A person's time for one recorded step. */
export function estimateStep(record: StepRecord): StepEstimate {
	const { mental, point, press, home, keystroke, word } = OPERATORS;
	const actingSeconds = (record.clicks + record.choices) * (mental + point + press) + record.fields * 2 * home + record.keystrokes * keystroke;
	const readingSeconds = record.words * word;
	const machineSeconds = record.machineMs / 1000;
	return {
		step: record.step,
		title: record.title,
		actingSeconds,
		readingSeconds,
		machineSeconds,
		totalSeconds: actingSeconds + readingSeconds + machineSeconds,
	};
}

/** Words in a text, as a reader counts them. */
export const wordCount = (text: string): number => text.split(/\s+/).filter((part) => /\w/.test(part)).length;
