/**
 * Pure parts of the Records node used as an AI tool (its `recordsTool` variant, under an AI Agent or
 * behind n8n's MCP Server Trigger): telling tool use apart, finding the arguments an agent fills
 * through `$fromAI()`, and turning a node error into the short text an agent can correct from.
 * No n8n imports.
 */

/**
 * Whether a node type is a tool variant. n8n builds `<node>Tool` for every node with `usableAsTool`,
 * and n8n's own nodes tell tool use by this name (`isToolType` of n8n-workflow 2.x; n8n 1.x has no
 * such helper). It holds wherever the tool runs: in an MCP session, under an AI Agent (in 2.x also
 * when the agent has the engine run the tool node), and when the editor runs a tool node on its own.
 */
export function isToolNodeType(nodeType: string): boolean {
	return (nodeType.split('.').pop() ?? '').endsWith('Tool');
}

/** Keys an agent fills, as n8n allows them: `$fromAI('key', …)`. */
const FROM_AI_CALL = /\$fromAI\(\s*(['"`])([A-Za-z0-9_-]{1,64})\1/g;

/** The `$fromAI()` keys a parameter value (an expression) asks the agent for, in order. */
export function fromAiKeys(value: unknown): string[] {
	if (typeof value !== 'string' || !value.startsWith('=')) return [];
	return [...value.matchAll(FROM_AI_CALL)].map((match) => match[2]);
}

/** A node parameter filled by the agent: its display name (as errors quote it) and its argument. */
export interface ToolArgument {
	label: string;
	key: string;
}

/**
 * The parameters of a node that take a `$fromAI()` value, with the argument each takes. `labels`
 * maps parameter names to display names; a value inside a collection counts for the innermost
 * parameter that has a display name, the value of a resource locator for the locator.
 */
export function toolArguments(parameters: object, labels: ReadonlyMap<string, string>, owner?: string): ToolArgument[] {
	const found: ToolArgument[] = [];
	for (const [name, value] of Object.entries(parameters)) {
		const label = labels.get(name) ?? owner;
		const locator = value !== null && typeof value === 'object' && '__rl' in value;
		if (value !== null && typeof value === 'object' && !locator) {
			found.push(...toolArguments(value as object, labels, label));
			continue;
		}
		// A resource locator's value is the locator parameter's own.
		const [key] = fromAiKeys(locator ? (value as { value?: unknown }).value : value);
		if (key !== undefined && label !== undefined && !found.some((argument) => argument.label === label)) {
			found.push({ label, key });
		}
	}
	return found;
}

/** Where a node error points inside one input item: " [item 0]", " [item 0, record 2 of its JSON]". */
const ITEM_REFERENCE = / ?\[item \d+(?:, record (\d+) of its JSON)?\]/g;

/** A run of one batch is all there is in a tool call: the batch's numbering says nothing to an agent. */
const SINGLE_BATCH = /^Batch 1 of 1 \([^)]*\) for [^:]+ failed: /;

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * How the node's errors name a parameter: `"Label"`, or a label of several words as it stands ("Check
 * the Record Type ID"). A one-word label unquoted is an ordinary word, e.g. in the service's own
 * answer (`Report "x" does not exist`), and stays as it is.
 */
function labelPattern(label: string): RegExp {
	const quoted = `"${escapeRegExp(label)}"`;
	if (!/\s/.test(label)) return new RegExp(quoted, 'g');
	return new RegExp(`${quoted}|(?<![\\w"])${escapeRegExp(label)}(?![\\w"])`, 'g');
}

export interface ToolErrorInput {
	message: string;
	description?: string | null;
	/** The parameters the agent fills, to name the argument to correct instead of the UI's field. */
	arguments: readonly ToolArgument[];
	/** The argument holding the records or other content an error about an item's data is about. */
	contentKey?: string;
}

/**
 * The text an agent gets for a failed tool call: one short paragraph saying what was wrong, in the
 * terms of the tool's arguments (not of the node's fields or input items), and how to correct it.
 */
export function toolErrorText({ message, description, arguments: args, contentKey }: ToolErrorInput): string {
	let record: string | undefined;
	let aboutItem = false;
	const clean = (text: string) =>
		text.replace(ITEM_REFERENCE, (_match, recordIndex: string | undefined) => {
			aboutItem = true;
			record ??= recordIndex;
			return '';
		});
	let text = clean(message).replace(SINGLE_BATCH, '').trim();
	const details = clean(description ?? '').trim();
	if (details !== '' && !text.includes(details)) text = `${text.replace(/[.:]$/, '')}. ${details}`;

	let named = false;
	for (const { label, key } of args) {
		const pattern = labelPattern(label);
		if (pattern.test(text)) {
			named = true;
			text = text.replace(pattern, `argument "${key}"`);
		}
	}
	if (contentKey !== undefined && (record !== undefined || (aboutItem && !named))) {
		const where = record === undefined ? '' : `, record ${Number(record) + 1} of the list`;
		text = `Argument "${contentKey}"${where}: ${text}`;
	}
	return text.charAt(0).toUpperCase() + text.slice(1);
}
