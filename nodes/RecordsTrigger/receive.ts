import type {
	IDataObject,
	IHookFunctions,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ReplyFormat } from '../shared/workflowCall/replyBody';
import { wholeNumber } from '../shared/parameters/kit';
import { ANY_EVENT, NO_EVENT } from './description';
import { header, type BodySource } from './helpers/bodyStream';
import type { CallerAuthentication } from './helpers/callerAuth';
import { callerRefusal, expectedCaller } from './helpers/callerCheck';
import { isJsonMediaType, isXmlMediaType, parseContentType } from './helpers/contentType';
import { bodySizeLimit, receiveBody, type BodyOptions } from './helpers/incomingBody';
import type { Checked, Rejection } from './helpers/rejection';
import { replyFormatFor, writeRefusal, writeReply, type WebhookReplyTarget } from './helpers/reply';
import type { BodyFormat } from './helpers/requestBody';
import { responseSetupProblem, type ResponseMode } from './helpers/responseSetup';

type HeaderValue = string | string[] | undefined;

/** The request as n8n hands it to webhook nodes (an Express request), narrowed to what the trigger reads. */
interface IncomingCall extends BodySource {
	method?: string;
	body?: unknown;
}

interface TriggerOptions extends BodyOptions {
	includeHeaders?: boolean;
	includeRawBody?: boolean;
	runOnPing?: boolean;
	xmlRootElement?: string;
}

/** The status of a call under "Using a Respond Node" that the workflow never answered. */
export const UNANSWERED_CALL_STATUS = 500;

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization']);
const ALLOWED_METHODS = 'DELETE, GET, HEAD, OPTIONS, POST, PUT';

/**
 * The value of the field that names a service webhook's event: `event` of a JSON object; for XML,
 * the root element's child `event`, with or without a namespace prefix (`<r:event>` in
 * `<r:webhook xmlns:r="…">` is the same element as `<event>` in `<webhook xmlns="…">`). A list
 * when XML holds more than one of them.
 */
function eventFieldOf(body: unknown, format: BodyFormat): unknown {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
	const container = body as IDataObject;
	if (format !== 'xml') return container.event;
	const [root] = Object.values(container);
	if (typeof root !== 'object' || root === null || Array.isArray(root)) return undefined;
	const found = Object.entries(root).filter(([name]) => name === 'event' || /^[^:@#]+:event$/.test(name));
	if (found.length === 0) return undefined;
	return found.length === 1 ? found[0][1] : found.map(([, value]) => value);
}

/** The event a service webhook names in its body, when it names one. */
export function eventNameOf(body: unknown, format: BodyFormat): string | undefined {
	const event = eventFieldOf(body, format);
	return typeof event === 'string' && event.trim() !== '' ? event.trim() : undefined;
}

/** Whether the body has an event field that names no event as text (an object, a list, a number). */
export function eventUnreadable(body: unknown, format: BodyFormat): boolean {
	const event = eventFieldOf(body, format);
	return event !== undefined && event !== null && typeof event !== 'string';
}

export function eventAccepted(event: string | undefined, events: string[], otherEvents: string): boolean {
	if (events.includes(ANY_EVENT)) return true;
	if (event === undefined) return events.includes(NO_EVENT);
	const others = otherEvents
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name !== '');
	return events.includes(event) || others.includes(event);
}

/**
 * Checks, on activation and before each call, everything on n8n's side that the service's calls
 * depend on: the credential, and that the workflow can answer the way "Respond" says.
 */
export async function assertReadyForCalls(this: IHookFunctions): Promise<void> {
	const authentication = this.getNodeParameter('authentication', 'none') as CallerAuthentication;
	await expectedCaller(this, authentication);
	const options = this.getNodeParameter('options', {}) as TriggerOptions;
	const limit = bodySizeLimit(options.maxBodySizeMb);
	if ('problem' in limit) throw new NodeOperationError(this.getNode(), `${limit.problem}.`, { description: 'Set "Max Body Size (MB)" in the options to at most 16.' });
	const responseMode = this.getNodeParameter('responseMode', 'onReceived') as ResponseMode;
	const problem = responseSetupProblem(responseMode, this.getChildNodes(this.getNode().name, { includeNodeParameters: true }));
	if (problem !== undefined) throw new NodeOperationError(this.getNode(), problem);
}

/** The trigger's own Response Body cannot be used: the call gets 500 and what to fix. */
function responseBodyRejection(problem: string): { rejection: Rejection } {
	const message = `The Records Trigger's Response Body ${problem}. Fix it in the node.`;
	return { rejection: { status: 500, code: 'response_body_invalid', message } };
}

function immediateReplyBody(context: IWebhookFunctions): Checked<unknown> {
	let raw: unknown;
	try {
		raw = context.getNodeParameter('responseBody', '{}');
	} catch (error) {
		// For example an expression that refers to data a trigger does not have yet. n8n 1.x gives an
		// immediate answer's expressions no "$json" at all ("Node '…' hasn't been executed").
		const readsRequest = String(context.getNode().parameters.responseBody ?? '').includes('$json');
		const hint = readsRequest
			? '. Expressions in an immediate answer read the call\'s URL only on n8n 2 and later; to answer with values of the call, set Respond to When Last Node Finishes or Using a Respond Node'
			: '';
		return responseBodyRejection(`could not be computed (${(error as Error).message})${hint}`);
	}
	if (typeof raw !== 'string') return { value: raw };
	if (raw.trim() === '') return { value: undefined };
	try {
		return { value: JSON.parse(raw) as unknown };
	} catch (error) {
		return responseBodyRejection(`is not valid JSON (${(error as Error).message})`);
	}
}

/**
 * The Response Code of an immediate answer. An expression can give any value; n8n's 200–599 limit
 * holds only for typed values. Outside it the answer would be an interim 1xx (the caller waits for
 * a real one) or a status HTTP has not got, so the call is refused with the reason instead.
 */
function immediateResponseCode(context: IWebhookFunctions): Checked<number> {
	const refusal = (problem: string) => {
		const message = `The Records Trigger's "Response Code" ${problem}. Fix it in the node.`;
		return { rejection: { status: 500, code: 'response_code_invalid', message } };
	};
	let raw: unknown;
	try {
		raw = context.getNodeParameter('responseCode', 200);
	} catch (error) {
		return refusal(`could not be computed (${(error as Error).message})`);
	}
	try {
		return { value: wholeNumber(context.getNode(), raw, { label: 'Response Code', min: 200, max: 599, fallback: 200 }) };
	} catch (error) {
		// wholeNumber's message: '"Response Code" must be a whole number from 200 to 599 (got 700)'.
		return refusal((error as Error).message.replace(/^"Response Code" /, ''));
	}
}

/**
 * The values of the Path's ":name" segments. n8n's request parameters may hold more (its own route
 * parameter for the whole path), which are not the caller's.
 */
function pathParameters(context: IWebhookFunctions): IDataObject {
	const names = String(context.getNodeParameter('path', ''))
		.split('/')
		.filter((segment) => segment.startsWith(':'))
		.map((segment) => segment.slice(1));
	const params = context.getParamsData() as IDataObject;
	const result: IDataObject = {};
	for (const name of names) if (params[name] !== undefined) result[name] = params[name];
	return result;
}

function visibleHeaders(headers: Record<string, HeaderValue>): IDataObject {
	const result: IDataObject = {};
	for (const [name, value] of Object.entries(headers)) {
		if (!SECRET_HEADERS.has(name.toLowerCase()) && value !== undefined) result[name] = value;
	}
	return result;
}

function declaredFormatOf(contentType: ReturnType<typeof parseContentType>): BodyFormat | undefined {
	if (contentType === undefined) return undefined;
	if (isXmlMediaType(contentType.mediaType)) return 'xml';
	return isJsonMediaType(contentType.mediaType) ? 'json' : undefined;
}

const UNREADABLE_EVENT: Rejection = {
	status: 400,
	code: 'invalid_event',
	message:
		'The event of the call cannot be read: "event" must be text such as invoice.paid (in XML, one <event> element with only text in it, under the root element).',
};

/** The answer to a call whose event the trigger does not start the workflow for. */
function ignoredReply(event: string | undefined): IDataObject {
	return {
		status: 'ignored',
		event: event ?? null,
		message:
			event === undefined
				? 'This trigger only accepts calls that name one of its events.'
				: `The event "${event}" is not one of the events this trigger starts the workflow for.`,
	};
}

/** Handles one call from the service; see the node's description for what each step answers. */
export async function receiveCall(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	// n8n types the request as Express's; without Express's types installed that is `any`.
	const req: IncomingCall = this.getRequestObject();
	const res: WebhookReplyTarget = this.getResponseObject();
	const method = String(req.method ?? 'GET').toUpperCase();
	const headOnly = method === 'HEAD';
	const options = this.getNodeParameter('options', {}) as TriggerOptions;
	// Made a name by the writer, which keeps a prefix only where the answer declares it.
	const xmlRootElement = options.xmlRootElement?.trim() || 'response';
	const contentType = parseContentType(header(req.headers, 'content-type'));
	const accept = header(req.headers, 'accept');
	let format: ReplyFormat = replyFormatFor(declaredFormatOf(contentType), accept);
	const answered: IWebhookResponseData = { noWebhookResponse: true };
	const refuse = ({ status, code, message }: Rejection, extraHeaders: Record<string, string> = {}) => {
		writeRefusal(res, status, code, message, { format, headOnly, headers: extraHeaders });
		return answered;
	};

	if (method === 'OPTIONS') {
		writeReply(res, 204, undefined, { format, xmlRootElement, headers: { allow: ALLOWED_METHODS } });
		return answered;
	}

	const refusal = await callerRefusal(this, header(req.headers, 'authorization'));
	if (refusal) return refuse(refusal.rejection, refusal.headers);

	const responseMode = this.getNodeParameter('responseMode', 'onReceived') as ResponseMode;
	const setupProblem = responseSetupProblem(responseMode, this.getChildNodes(this.getNode().name, { includeNodeParameters: true }));
	if (setupProblem !== undefined) return refuse({ status: 500, code: 'workflow_setup', message: setupProblem });

	const ping = method === 'HEAD' || header(req.headers, 'x-records-ping') === '1';
	if (ping && options.runOnPing !== true) {
		writeReply(res, 200, { status: 'ok' }, { format, xmlRootElement, headOnly });
		return answered;
	}

	const limit = bodySizeLimit(options.maxBodySizeMb);
	if ('problem' in limit) return refuse({ status: 500, code: 'max_body_size_invalid', message: `The Records Trigger's ${limit.problem}. Fix it in the node.` });
	const copyBinaryFile = async (filePath: string, fileName: string, mimeType?: string) =>
		await this.nodeHelpers.copyBinaryFile(filePath, fileName, mimeType);
	const received = await receiveBody(req, contentType, options, limit.bytes, copyBinaryFile);
	if ('rejection' in received) return refuse(received.rejection);
	const body = received.value;
	format = replyFormatFor(body.format, accept);

	const event = eventNameOf(body.value, body.format);
	const events = this.getNodeParameter('events', [ANY_EVENT]) as string[];
	const otherEvents = events.includes(ANY_EVENT) ? '' : (this.getNodeParameter('otherEvents', '') as string);
	if (!eventAccepted(event, events, otherEvents)) {
		// A 200 would tell the service the call was delivered, for an event nobody could read.
		if (eventUnreadable(body.value, body.format)) return refuse(UNREADABLE_EVENT);
		writeReply(res, 200, ignoredReply(event), { format, xmlRootElement, headOnly });
		return answered;
	}

	const json: IDataObject = {
		event: event ?? null,
		method,
		format: body.format,
		replyFormat: format,
		body: body.value as IDataObject,
		query: this.getQueryData() as IDataObject,
		params: pathParameters(this),
	};
	if (ping) json.ping = true;
	if (options.includeHeaders === true) json.headers = visibleHeaders(req.headers);
	if (options.includeRawBody === true) json.rawBody = body.text ?? null;
	const workflowData: INodeExecutionData[][] = [[body.binary === undefined ? { json } : { json, binary: body.binary }]];

	if (responseMode === 'responseNode') {
		// Until a Respond node answers. n8n 1.x answers a workflow that ended without one with an empty
		// answer of whatever status the response holds: a failure then, not a 200 the service takes for
		// success (n8n 2.x uses the webhook's responseCode, which is 500 in this mode).
		res.statusCode = UNANSWERED_CALL_STATUS;
	}
	if (responseMode !== 'onReceived') return { workflowData };

	const replyBody = immediateReplyBody(this);
	if ('rejection' in replyBody) return refuse(replyBody.rejection);
	const responseCode = immediateResponseCode(this);
	if ('rejection' in responseCode) return refuse(responseCode.rejection);
	writeReply(res, responseCode.value, replyBody.value, { format, xmlRootElement, headOnly });
	return { noWebhookResponse: true, workflowData };
}
