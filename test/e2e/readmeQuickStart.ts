/**
 * The README's quick start read as steps, for the browser walk that follows it literally: each
 * numbered step's text without Markdown marks, and the settings its bold text names ("Poll Times:
 * Every X, 10, Minutes", "Report:" followed by "By ID, `bank-transactions`"). The walk takes the
 * labels it clicks from here, so that the README and the editor cannot drift apart unnoticed.
 * Pure: text in, steps out.
 */

export interface QuickStartStep {
	number: number;
	/** The step as a reader sees it: no bold marks, backticks or link targets. */
	text: string;
	/** The bold passages, as a reader sees them. */
	bold: string[];
}

const plain = (markdown: string): string =>
	markdown
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/\*\*|`/g, '')
		.replace(/\s+/g, ' ')
		.trim();

/** The numbered list under the README's "## Quick start" heading. */
export function quickStartSteps(readme: string): QuickStartStep[] {
	const section = /^## Quick start[^\n]*\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
	if (section === undefined) throw new Error('The README has no "## Quick start" section.');
	const raw: Array<{ number: number; markdown: string }> = [];
	let inList = false;
	for (const line of section.split('\n')) {
		const item = /^(\d+)\. (.*)$/.exec(line);
		if (item) {
			raw.push({ number: Number(item[1]), markdown: item[2] });
			inList = true;
		} else if (inList && /^\s+\S/.test(line)) {
			raw[raw.length - 1].markdown += ` ${line.trim()}`;
		} else if (line.trim() !== '') {
			inList = false;
		}
	}
	return raw.map(({ number, markdown }) => ({
		number,
		text: plain(markdown),
		bold: [...markdown.matchAll(/\*\*(.+?)\*\*/g)].map((match) => plain(match[1])),
	}));
}

/** One step by its number; an error naming what the walk expected when the README has no such step. */
export function quickStartStep(steps: QuickStartStep[], number: number): QuickStartStep {
	const step = steps.find((candidate) => candidate.number === number);
	if (!step) throw new Error(`The README's quick start has no step ${number}.`);
	return step;
}

/**
 * What a step's bold text sets `field` to: "Every X, 10, Minutes" for "Poll Times" in
 * "**Poll Times: Every X, 10, Minutes.**". A bold passage may set several fields ("Row Identity: Key
 * Columns, Key Columns: the transaction ID"); a bold field with nothing after its colon
 * ("**Report:** By ID, …") takes the plain text that follows, up to the sentence's end.
 */
export function setting(step: QuickStartStep, field: string): string {
	for (const passage of step.bold) {
		for (const pair of passage.split(/,\s*(?=[A-Z][\w →]*:)/)) {
			const match = /^(.+?):\s*(.*)$/.exec(pair);
			if (!match || match[1] !== field) continue;
			const value = match[2].replace(/\.$/, '').trim();
			if (value !== '') return value;
			const after = step.text.slice(step.text.indexOf(`${field}:`) + field.length + 1);
			return after.split(/\.(?:\s|$)/)[0].trim();
		}
	}
	throw new Error(`Step ${step.number} of the README's quick start sets no "${field}": ${step.text}`);
}

/** Fails unless the step names `phrase` (as a reader sees it), so that the walk does only what the README says. */
export function expectNamed(step: QuickStartStep, phrase: string): string {
	if (!step.text.includes(phrase)) {
		throw new Error(`Step ${step.number} of the README's quick start does not say "${phrase}": ${step.text}`);
	}
	return phrase;
}
