import type {
	FunctionsBase,
	IDataObject,
	IHookFunctions,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ReplyFormat } from '../shared/workflowCall/replyBody';
import { wholeNumber } from '../shared/parameters/kit';
import { xmlName } from '../shared/workflowCall/xmlWriter';
import { ANY_EVENT, NO_EVENT } from './description';
import {
	challengeFor,
	checkCaller,
	credentialProblem,
	credentialTypeFor,
	type CallerAuthentication,
	type ExpectedCaller,
	type BasicCredentialData,
	type BearerCredentialData,
} from './helpers/callerAuth';
import { replyFormatFor, writeRefusal, writeReply, type WebhookReplyTarget } from './helpers/reply';
import {
	bodyEncodingOf,
	chooseBodyFormat,
	decodeBody,
	isJsonMediaType,
	isXmlMediaType,
	parseBodyText,
	parseContentType,
	type BodyEncodingChoice,
	type BodyFormat,
	type BodyFormatChoice,
	type Checked,
	type ContentType,
	type Rejection,
} from './helpers/requestBody';
import { responseSetupProblem, type ResponseMode } from './helpers/responseSetup';

type HeaderValue = string | string[] | undefined;

/**
 * The request as n8n hands it to webhook nodes (an Express request), narrowed to what the trigger
 * reads. n8n has usually read the body already (`rawBody`); otherwise the node reads the stream.
 */
interface IncomingCall {
	method?: string;
	headers: Record<string, HeaderValue>;
	rawBody?: unknown;
	body?: unknown;
	readable?: boolean;
	readableEnded?: boolean;
	on(event: 'data', listener: (chunk: Buffer) => void): unknown;
	on(event: 'end', listener: () => void): unknown;
	on(event: 'error', listener: (error: Error) => void): unknown;
}

interface TriggerOptions {
	bodyEncoding?: BodyEncodingChoice;
	includeHeaders?: boolean;
	includeRawBody?: boolean;
	maxBodySizeMb?: number;
	parseBodyAs?: BodyFormatChoice;
	runOnPing?: boolean;
	xmlRootElement?: string;
}

interface ReceivedBody {
	format: BodyFormat;
	value: unknown;
	text?: string;
}

const DEFAULT_MAX_BODY_SIZE_MB = 1;
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization']);
const ALLOWED_METHODS = 'DELETE, GET, HEAD, OPTIONS, POST, PUT';

function header(headers: Record<string, HeaderValue>, name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? value[0] : value;
}

function formatBytes(bytes: number): string {
	if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 100) / 100} MB`;
	if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
	return `${bytes} bytes`;
}

function tooLarge(size: number, limit: number): { rejection: Rejection } {
	return {
		rejection: {
			status: 413,
			code: 'payload_too_large',
			message: `The request body (${formatBytes(size)}) is larger than the ${formatBytes(limit)} this trigger accepts. Send less data per call, or raise the trigger's "Max Body Size" option.`,
		},
	};
}

/**
 * The body bytes, at most `limit` of them. n8n reads the whole body (`rawBody`) before calling a
 * webhook node of version 1, and of later versions for JSON, XML, form and plain-text bodies; when
 * it has not, the stream is read here, discarding everything past the limit so that memory stays
 * bounded while the caller still gets an answer.
 */
async function readBodyBytes(req: IncomingCall, limit: number): Promise<Checked<Buffer | undefined>> {
	if (Buffer.isBuffer(req.rawBody)) {
		return req.rawBody.length > limit ? tooLarge(req.rawBody.length, limit) : { value: req.rawBody };
	}
	const declared = Number(header(req.headers, 'content-length'));
	if (Number.isFinite(declared) && declared > limit) return tooLarge(declared, limit);
	if (req.readable === false || req.readableEnded === true) return { value: undefined };
	const encoding = header(req.headers, 'content-encoding');
	if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
		return {
			rejection: {
				status: 415,
				code: 'unsupported_encoding',
				message: `Compressed request bodies (Content-Encoding ${encoding}) are not accepted here. Send the body uncompressed.`,
			},
		};
	}
	return await new Promise<Checked<Buffer>>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= limit) chunks.push(chunk);
		});
		req.on('end', () => resolve(size > limit ? tooLarge(size, limit) : { value: Buffer.concat(chunks) }));
		req.on('error', reject);
	});
}

async function receiveBody(
	req: IncomingCall,
	contentType: ContentType | undefined,
	options: TriggerOptions,
): Promise<Checked<ReceivedBody>> {
	const limitMb = options.maxBodySizeMb ?? DEFAULT_MAX_BODY_SIZE_MB;
	const limit = Math.max(1, Math.round(limitMb * 1024 * 1024));
	const bytes = await readBodyBytes(req, limit);
	if ('rejection' in bytes) return bytes;
	if (bytes.value === undefined) {
		// The host consumed the stream without keeping the bytes: take what it parsed.
		const value = req.body ?? {};
		const format: BodyFormat =
			typeof value === 'string' ? 'text' : contentType && isXmlMediaType(contentType.mediaType) ? 'xml' : 'json';
		return { value: { format, value } };
	}
	const text = decodeBody(bytes.value, contentType, options.bodyEncoding);
	if ('rejection' in text) return text;
	const format = chooseBodyFormat(options.parseBodyAs ?? 'auto', contentType, text.value);
	const parsed = parseBodyText(text.value, format, contentType, bodyEncodingOf(bytes.value, contentType, options.bodyEncoding));
	if ('rejection' in parsed) return parsed;
	return { value: { format, value: parsed.value, text: text.value } };
}

/** The event a service webhook names in its body (`event`; for XML, a child of the root element). */
export function eventNameOf(body: unknown, format: BodyFormat): string | undefined {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
	let container = body as IDataObject;
	if (format === 'xml') {
		const [root] = Object.values(container);
		if (typeof root !== 'object' || root === null || Array.isArray(root)) return undefined;
		container = root as IDataObject;
	}
	const event = container.event;
	return typeof event === 'string' && event.trim() !== '' ? event.trim() : undefined;
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

type CredentialSource = Pick<FunctionsBase, 'getCredentials' | 'getNode'>;

/**
 * What the configured authentication expects of callers, from the node's credential. A missing or
 * unusable credential is an error naming the problem, never the secret.
 */
export async function expectedCaller(context: CredentialSource, authentication: CallerAuthentication): Promise<ExpectedCaller> {
	const type = credentialTypeFor(authentication);
	if (type === undefined) return { type: 'none' };
	let data: IDataObject;
	try {
		data = (await context.getCredentials(type)) as IDataObject;
	} catch (error) {
		throw new NodeOperationError(
			context.getNode(),
			`The Records Trigger has no usable ${authentication === 'basicAuth' ? 'Basic Auth' : 'Bearer Token'} credential: select one in the node (${(error as Error).message})`,
		);
	}
	const problem = credentialProblem(type, data);
	if (problem !== undefined) {
		throw new NodeOperationError(context.getNode(), `The Records Trigger's credential cannot be used: ${problem}`);
	}
	return authentication === 'basicAuth'
		? { type: 'basicAuth', credential: data as unknown as BasicCredentialData }
		: { type: 'bearerToken', credential: data as unknown as BearerCredentialData };
}

/**
 * Checks, on activation and before each call, everything on n8n's side that the service's calls
 * depend on: the credential, and that the workflow can answer the way "Respond" says.
 */
export async function assertReadyForCalls(this: IHookFunctions): Promise<void> {
	const authentication = this.getNodeParameter('authentication', 'none') as CallerAuthentication;
	await expectedCaller(this, authentication);
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
		// For example an expression that refers to data a trigger does not have yet.
		return responseBodyRejection(`could not be computed (${(error as Error).message})`);
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

/** Why the caller may not call (no or wrong credentials, or the trigger's own is unusable), if so. */
async function callerRefusal(
	context: IWebhookFunctions,
	authorization: string | undefined,
): Promise<{ rejection: Rejection; headers?: Record<string, string> } | undefined> {
	const authentication = context.getNodeParameter('authentication', 'none') as CallerAuthentication;
	let expected: ExpectedCaller;
	try {
		expected = await expectedCaller(context, authentication);
	} catch (error) {
		return { rejection: { status: 500, code: 'trigger_credential', message: (error as Error).message } };
	}
	const caller = checkCaller(authorization, expected);
	if (caller.ok) return undefined;
	const challenge = challengeFor(expected, caller.reason);
	const message =
		caller.reason === 'missing'
			? `This URL needs ${expected.type === 'basicAuth' ? "Basic authentication: set the call API action's auth to BASIC" : "a bearer token: set the call API action's auth to OAUTH2"} with the credentials stored in the Records Trigger.`
			: 'The credentials sent do not match those stored in the Records Trigger.';
	return {
		rejection: { status: 401, code: 'unauthorized', message },
		headers: challenge === undefined ? {} : { 'www-authenticate': challenge },
	};
}

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
	const xmlRootElement = xmlName(options.xmlRootElement?.trim() || 'response');
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

	const received = await receiveBody(req, contentType, options);
	if ('rejection' in received) return refuse(received.rejection);
	const body = received.value;
	format = replyFormatFor(body.format, accept);

	const event = eventNameOf(body.value, body.format);
	const events = this.getNodeParameter('events', [ANY_EVENT]) as string[];
	const otherEvents = events.includes(ANY_EVENT) ? '' : (this.getNodeParameter('otherEvents', '') as string);
	if (!eventAccepted(event, events, otherEvents)) {
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
	const workflowData: INodeExecutionData[][] = [[{ json }]];

	if (responseMode !== 'onReceived') return { workflowData };

	const replyBody = immediateReplyBody(this);
	if ('rejection' in replyBody) return refuse(replyBody.rejection);
	const responseCode = immediateResponseCode(this);
	if ('rejection' in responseCode) return refuse(responseCode.rejection);
	writeReply(res, responseCode.value, replyBody.value, { format, xmlRootElement, headOnly });
	return { noWebhookResponse: true, workflowData };
}
