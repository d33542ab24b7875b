import type { INodeProperties } from 'n8n-workflow';

/**
 * What an agent reads about each operation when the node is used as a tool (the Records Tool, under
 * an AI Agent or behind an MCP Server Trigger): what it does, what it needs, what it returns, and
 * whether it changes data. The arguments themselves are described where the user lets the model
 * fill them (`$fromAI()`), so these still read well beside any user's wording.
 *
 * n8n adds a "Tool Description" field whose automatic text is only the operation's action line
 * ("Read the rows of a report in Records"); a node that has its own `toolDescription` parameter gets
 * none, and n8n sends the parameter's value. Shown only in the tool variant (`@tool`), one default per
 * operation; the node used in a workflow is unchanged.
 */
const TOOL_DESCRIPTIONS: Array<{ show: Record<string, string[]>; hide?: Record<string, string[]>; text: string }> = [
	{
		show: { resource: ['report'], operation: ['getRows'] },
		text: 'Reads rows of a report from Records, the business records system. Read-only: changes nothing. Needs the report ID. Returns one page of rows (each an object of column name to cell text), the offset of that page, and whether more rows follow: to read on, call again with the nextOffset it gives.',
	},
	{
		show: { resource: ['record'], operation: ['import'] },
		text: 'Creates or edits records of one record type (register) in Records. Changes data. Needs the record type ID and the records, each an object of field names (exactly as the record type names them) to values. A record whose key field matches an existing record edits it; otherwise a new record is created. Every record is checked before anything is sent. Returns, for each record, whether it was created or edited, and its ID when the service gives one.',
	},
	{
		show: { resource: ['api'], operation: ['listClients'] },
		text: 'Lists clients in Records. Read-only: changes nothing. Can filter by status. Returns one object per client with its ID, name and the other fields the service keeps; the ID is what creating an invoice needs.',
	},
	{
		show: { resource: ['api'], operation: ['createInvoice'] },
		text: 'Creates an invoice in Records. Changes data: each call creates a new invoice, so call it once per invoice. Needs the client ID (a whole number, from the list of clients), the amount, the three-letter currency code and the due date. Returns the invoice as created, with its ID.',
	},
	// With the method set by an expression n8n shows both of these; the later one wins, so such a tool
	// says that it may change data.
	{
		show: { resource: ['api'], operation: ['request'], method: ['GET', 'HEAD'] },
		text: 'Reads from the Records API with a GET request to a path under the installation, e.g. /api/v1/records/ukoly for the records of a register. Read-only: changes nothing. Returns the response body as JSON.',
	},
	{
		show: { resource: ['api'], operation: ['request'] },
		hide: { method: ['GET', 'HEAD'] },
		text: 'Sends a request to the Records API, to a path under the installation. Changes data: POST, PUT and PATCH create or change records, DELETE deletes them. Returns the response body as JSON.',
	},
	{
		show: { resource: ['workflowCall'], operation: ['respond'] },
		text: "Answers the Records service's call that started this workflow, with the given status and body. Use it once, at the end. Returns what was sent.",
	},
];

export const toolDescriptionProperties: INodeProperties[] = TOOL_DESCRIPTIONS.map(({ show, hide, text }) => ({
	displayName: 'Tool Description',
	name: 'toolDescription',
	type: 'string',
	typeOptions: { rows: 4 },
	default: text,
	displayOptions: { show: { '@tool': [true], ...show }, ...(hide ? { hide } : {}) },
	description:
		'What the AI agent reads about this tool: what it does, what it needs and returns, and whether it changes data. Describe each value the agent fills in its $fromAI() call.',
}));
