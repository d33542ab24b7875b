import { serializeReply, type ReplyFormat } from '../../shared/workflowCall/replyBody';
import type { BodyFormat } from './requestBody';

/** The response object n8n hands to webhook nodes, narrowed to what the trigger uses (Node's ServerResponse API). */
export interface WebhookReplyTarget {
	headersSent?: boolean;
	/** The connection is gone (the caller went away): nobody reads an answer. */
	destroyed?: boolean;
	statusCode?: number;
	writeHead(status: number, headers: Record<string, string>): unknown;
	end(body?: string): unknown;
}

/** Statuses whose answers never have a body (RFC 9110 §6.4.1): no Content-Length or Content-Type either. */
const WITHOUT_BODY = new Set([204, 304]);

function acceptQuality(accept: string, matches: (mediaType: string) => boolean): { q: number; position: number } {
	let best = { q: 0, position: Number.MAX_SAFE_INTEGER };
	accept.split(',').forEach((entry, position) => {
		const [type, ...parameters] = entry.split(';');
		if (!matches(type.trim().toLowerCase())) return;
		const qParameter = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
		const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
		if (Number.isFinite(q) && (q > best.q || (q === best.q && position < best.position))) best = { q, position };
	});
	return best;
}

/**
 * XML when the call sent XML; JSON when it sent JSON; otherwise (no body, e.g. GET, DELETE) what the
 * Accept header prefers, JSON on a tie or when it says nothing.
 */
export function replyFormatFor(bodyFormat: BodyFormat | undefined, accept: string | undefined): ReplyFormat {
	if (bodyFormat === 'xml') return 'xml';
	if (bodyFormat === 'json') return 'json';
	if (accept === undefined || accept.trim() === '') return 'json';
	const xml = acceptQuality(accept, (type) => type.endsWith('/xml') || type.endsWith('+xml'));
	const json = acceptQuality(accept, (type) => type.endsWith('/json') || type.endsWith('+json'));
	if (xml.q > json.q || (xml.q === json.q && xml.q > 0 && xml.position < json.position)) return 'xml';
	return 'json';
}

export interface ReplyOptions {
	format: ReplyFormat;
	xmlRootElement: string;
	/** No body is written (HEAD). */
	headOnly?: boolean;
	headers?: Record<string, string>;
}

/** Answers the request directly; n8n is then told the node responded (`noWebhookResponse`). */
export function writeReply(res: WebhookReplyTarget, status: number, value: unknown, options: ReplyOptions): void {
	if (res.headersSent || res.destroyed) return;
	const headers: Record<string, string> = { ...options.headers };
	if (value === undefined || options.headOnly || WITHOUT_BODY.has(status)) {
		res.writeHead(status, headers);
		res.end();
		return;
	}
	const { body, contentType } = serializeReply(value, options.format, options.xmlRootElement);
	res.writeHead(status, {
		...headers,
		'content-type': contentType,
		'content-length': String(Buffer.byteLength(body, 'utf8')),
	});
	res.end(body);
}

/** The body of an answer that refuses the call: `{code, message}`, as JSON or as `<error>` XML. */
export function writeRefusal(
	res: WebhookReplyTarget,
	status: number,
	code: string,
	message: string,
	options: Omit<ReplyOptions, 'xmlRootElement'>,
): void {
	writeReply(res, status, { code, message }, { ...options, xmlRootElement: 'error' });
}
