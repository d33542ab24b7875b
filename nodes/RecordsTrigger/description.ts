import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_BODY_SIZE_MB, MAX_BODY_SIZE_MB } from './helpers/incomingBody';

/** The "Events" choice for requests whose body names no event: the service's workflow calls. */
export const NO_EVENT = '(no event)';
export const ANY_EVENT = '*';

/** The service's default time-out of a call (spec §4.3, §8). */
export const SERVICE_TIMEOUT_SECONDS = 60;

/**
 * Kept out of the property on purpose: n8n's lint rule for "JSON" in descriptions upper-cases every
 * "json" word of a description written in place, expressions included, and its fix once turned
 * these into "$JSON.query", which does not exist. A test runs each expression suggested here.
 * In an immediate answer "$json" is the request as n8n 2.x read it, not the trigger's item; n8n
 * 1.x has no "$json" there (the node then refuses the call saying so).
 */
const RESPONSE_BODY_DESCRIPTION =
	'Sent as JSON, or as XML when the call is XML. Expressions can read the URL: {{ $json.query.id }} is its "id" query value, {{ $json.params.recordId }} its ":recordId" path value. For values of the body, respond When Last Node Finishes or with a Respond node.';

export const triggerProperties: INodeProperties[] = [
	{
		displayName: `Paste the Production URL above into the Records service: as the url of a workflow's "call API" action, or as its webhook address. The service waits ${SERVICE_TIMEOUT_SECONDS} seconds for an answer by default.`,
		name: 'setupNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Authentication',
		name: 'authentication',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Basic Auth',
				value: 'basicAuth',
				description: "The service's BASIC option: a user name and password",
			},
			{
				name: 'Bearer Token',
				value: 'bearerToken',
				description: "The token the service sends with its OAUTH2 option, as 'Authorization: Bearer'",
			},
			{
				name: 'None',
				value: 'none',
				description: 'Anyone who knows the URL can call it',
			},
		],
		default: 'none',
		description:
			'How calls must prove they come from the service. A call without the right credentials is answered with 401 and starts nothing.',
	},
	{
		displayName: 'Path',
		name: 'path',
		type: 'string',
		default: '',
		placeholder: 'e.g. :recordId',
		description:
			'Leave empty to use the node\'s unique ID. Segments starting with ":" take values from the URL, e.g. ":recordId" when the action\'s URL ends in "/#(ID)"; they appear under "params".',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		noDataExpression: true,
		required: true,
		options: [
			// `action` is what n8n's node picker lists for the trigger (else "On <name>").
			{
				name: 'Any Call or Event',
				value: ANY_EVENT,
				description: 'Every call and every event',
				action: 'When the service calls or sends any event',
			},
			{
				name: "Workflow Calls ('Call API' Actions)",
				value: NO_EVENT,
				description: "Workflow 'call API' calls and other requests whose body has no \"event\" field",
				action: "When a workflow's 'call API' action calls",
			},
			{
				name: 'Invoice Paid',
				value: 'invoice.paid',
				description: 'The event "invoice.paid"',
				action: 'When an invoice is paid',
			},
		],
		default: [ANY_EVENT],
		description:
			'Which requests start the workflow. The others are answered with 200 and start nothing.',
	},
	{
		displayName: 'Other Event Names',
		name: 'otherEvents',
		type: 'string',
		default: '',
		placeholder: 'e.g. invoice.overdue, task.budget_exceeded',
		description:
			"More event names that start the workflow, separated by commas. The service's list of events is open.",
		displayOptions: { hide: { events: [ANY_EVENT] } },
	},
	{
		displayName: 'Respond',
		name: 'responseMode',
		type: 'options',
		options: [
			{
				name: 'Immediately',
				value: 'onReceived',
				description: 'As soon as the call is accepted, with the Response Body below',
			},
			{
				name: 'When Last Node Finishes',
				value: 'lastNode',
				description: 'With the data of the last node that ran',
			},
			{
				name: 'Using a Respond Node',
				value: 'responseNode',
				description:
					'With what a Records node set to Workflow Call → Respond to Call sends, when the workflow reaches it',
			},
		],
		default: 'onReceived',
		description:
			"When and how to answer the service. Its call API action can map fields of the answer into the record (Response processing tab, mapping).",
	},
	{
		displayName: 'Response Code',
		name: 'responseCode',
		type: 'number',
		typeOptions: { minValue: 200, maxValue: 599 },
		default: 200,
		displayOptions: { hide: { responseMode: ['responseNode'] } },
		description: 'The HTTP status of the answer',
	},
	{
		displayName: 'Response Body',
		name: 'responseBody',
		type: 'json',
		default: '{\n  "received": true\n}',
		displayOptions: { show: { responseMode: ['onReceived'] } },
		description: RESPONSE_BODY_DESCRIPTION,
	},
	{
		displayName: 'Response Data',
		name: 'responseData',
		type: 'options',
		options: [
			{
				name: 'All Entries',
				value: 'allEntries',
				description: 'All items of the last node, as a JSON array',
			},
			{
				name: 'First Entry JSON',
				value: 'firstEntryJson',
				description: 'The first item of the last node, as a JSON object (or one property of it)',
			},
			{
				name: 'No Response Body',
				value: 'noData',
				description: 'Only the status code',
			},
		],
		default: 'firstEntryJson',
		displayOptions: { show: { responseMode: ['lastNode'] } },
		description: 'What n8n sends back when the last node finishes',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Body Encoding',
				name: 'bodyEncoding',
				type: 'options',
				options: [
					{ name: 'UTF-8', value: 'utf-8' },
					{ name: 'Windows-1250', value: 'windows-1250' },
					{ name: 'ISO-8859-2', value: 'iso-8859-2' },
				],
				default: 'utf-8',
				description:
					'The character encoding of bodies that declare none (no charset in the Content-Type, no XML declaration), and of a form body\'s percent-encoded bytes. n8n refuses a charset other than UTF-8 on JSON, XML, plain-text and form bodies (422) before this trigger runs: for windows-1250 or ISO-8859-2 callers, choose it here.',
			},
			{
				displayName: 'Include Headers',
				name: 'includeHeaders',
				type: 'boolean',
				default: false,
				description: 'Whether to add the request headers to the output (the Authorization header is left out)',
			},
			{
				displayName: 'Include Raw Body',
				name: 'includeRawBody',
				type: 'boolean',
				default: false,
				description: 'Whether to add the body as received, as text, to the output',
			},
			{
				displayName: 'Max Body Size (MB)',
				name: 'maxBodySizeMb',
				type: 'number',
				typeOptions: { minValue: 0.001, maxValue: MAX_BODY_SIZE_MB, numberPrecision: 3 },
				default: DEFAULT_MAX_BODY_SIZE_MB,
				description: 'Larger bodies are refused with 413 and start nothing. Compressed bodies count as inflated.',
			},
			{
				displayName: 'Parse Body As',
				name: 'parseBodyAs',
				type: 'options',
				options: [
					{
						name: 'Automatic (From Content-Type)',
						value: 'auto',
						description: 'JSON or XML as the Content-Type header says; without one, as the body looks',
					},
					{ name: 'JSON', value: 'json' },
					{ name: 'Text (No Parsing)', value: 'text' },
					{ name: 'XML', value: 'xml' },
				],
				default: 'auto',
				description: 'How to read the request body',
			},
			{
				displayName: 'Property Name',
				name: 'responsePropertyName',
				type: 'string',
				default: 'data',
				displayOptions: { show: { '/responseMode': ['lastNode'], '/responseData': ['firstEntryJson'] } },
				description:
					'Answer with only this property of the first item, e.g. a field holding XML text for an XML call',
			},
			{
				displayName: 'Response Content-Type',
				name: 'responseContentType',
				type: 'string',
				default: '',
				placeholder: 'e.g. application/xml',
				displayOptions: { show: { '/responseMode': ['lastNode'], '/responseData': ['firstEntryJson'] } },
				description:
					'Send the answer with this Content-Type instead of as JSON. For an XML call, use application/xml with a Property Name that holds XML text.',
			},
			{
				displayName: 'Run Workflow on PING',
				name: 'runOnPing',
				type: 'boolean',
				default: false,
				description:
					'Whether a PING check from the service starts the workflow. When off, a PING that passes authentication is answered with 200 and starts nothing.',
			},
			{
				displayName: 'XML Root Element',
				name: 'xmlRootElement',
				type: 'string',
				default: 'response',
				description: 'The root element of XML answers this node sends itself',
			},
		],
	},
];
