/**
 * The sandbox's guesses: behaviours the integration guide does not define, each a named setting with
 * the guide-only choice beside the current guess, so that a test can show it does not depend on the
 * guess. `GUESSES` is what the sandbox does by default; `GUIDE_ONLY` assumes nothing the guide does
 * not say. See README.md ("Guesses").
 */

export interface SandboxGuesses {
	/**
	 * The status of a report page whose `limit` is above a `maxLimit` fault. Guess: 400
	 * `invalid_limit`; guide only: 500, the only error status the guide lists besides 401 and 404.
	 */
	tooLargeLimitStatus: 400 | 500;
	/**
	 * The answer to an import (§4.1: "not shown"). Guess: `results`, a JSON summary listing each
	 * record's outcome; guide only: `empty`, 200 with no body.
	 */
	importAnswer: 'results' | 'empty';
	/**
	 * The headers of a `rateLimit` fault's 429 (§5: rate limiting is announced, its values are not
	 * shown). Guess: `retryAfter`, the seconds left of the window; guide only: `none`.
	 */
	rateLimitHeaders: 'retryAfter' | 'none';
}

export const GUESSES: SandboxGuesses = { tooLargeLimitStatus: 400, importAnswer: 'results', rateLimitHeaders: 'retryAfter' };

export const GUIDE_ONLY: SandboxGuesses = { tooLargeLimitStatus: 500, importAnswer: 'empty', rateLimitHeaders: 'none' };

/** The two sets by name, as tests run both: `describe.each(GUESS_SETS)`. */
export const GUESS_SETS = [
	['the sandbox\'s guesses', GUESSES],
	['the guide only', GUIDE_ONLY],
] as const;

const CHOICES: { [K in keyof SandboxGuesses]: ReadonlyArray<SandboxGuesses[K]> } = {
	tooLargeLimitStatus: [400, 500],
	importAnswer: ['results', 'empty'],
	rateLimitHeaders: ['retryAfter', 'none'],
};

/**
 * Checks posted guesses: `"guess"`, `"guide"`, or an object with some of the settings (the others
 * keep their current value). An error message, or the settings.
 */
export function parseGuesses(input: unknown, current: SandboxGuesses): SandboxGuesses | string {
	if (input === 'guess') return { ...GUESSES };
	if (input === 'guide') return { ...GUIDE_ONLY };
	if (typeof input !== 'object' || input === null || Array.isArray(input)) {
		return 'Guesses must be "guess", "guide" or an object of settings';
	}
	const next: Record<string, unknown> = { ...current };
	for (const [key, value] of Object.entries(input)) {
		const allowed = (CHOICES as Record<string, readonly unknown[]>)[key];
		if (!allowed) return `Unknown guess "${key}". Known: ${Object.keys(CHOICES).join(', ')}`;
		if (!allowed.includes(value)) return `${key} must be one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
		next[key] = value;
	}
	return next as unknown as SandboxGuesses;
}
