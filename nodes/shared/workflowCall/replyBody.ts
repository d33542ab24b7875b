import { toXml } from './xmlWriter';

/** The format of an answer to the service's call: that of the call. */
export type ReplyFormat = 'json' | 'xml';

export interface SerializedReply {
	body: string;
	contentType: string;
}

/**
 * The body of an answer to the service, as the Records Trigger writes it itself and as the
 * Records node's Respond to Call sends it: JSON, or XML under `xmlRootElement`.
 */
export function serializeReply(value: unknown, format: ReplyFormat, xmlRootElement: string): SerializedReply {
	if (format === 'xml') {
		return { body: toXml(xmlRootElement, value), contentType: 'application/xml; charset=utf-8' };
	}
	return { body: JSON.stringify(value ?? null), contentType: 'application/json; charset=utf-8' };
}
