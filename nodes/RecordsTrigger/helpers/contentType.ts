/** A request's Content-Type, read the way the trigger needs it. */
export interface ContentType {
	/** Lower case, without parameters, e.g. `application/json`. */
	mediaType: string;
	charset?: string;
}

export function parseContentType(header: string | undefined): ContentType | undefined {
	if (header === undefined || header.trim() === '') return undefined;
	const [type, ...parameters] = header.split(';');
	const result: ContentType = { mediaType: type.trim().toLowerCase() };
	for (const parameter of parameters) {
		const equals = parameter.indexOf('=');
		if (equals < 0) continue;
		if (parameter.slice(0, equals).trim().toLowerCase() === 'charset') {
			result.charset = parameter
				.slice(equals + 1)
				.trim()
				.replace(/^"(.*)"$/, '$1')
				.toLowerCase();
		}
	}
	return result;
}

export function isJsonMediaType(mediaType: string): boolean {
	return mediaType === 'application/json' || mediaType.endsWith('+json') || mediaType === 'text/json';
}

export function isXmlMediaType(mediaType: string): boolean {
	return mediaType.endsWith('/xml') || mediaType.endsWith('+xml');
}
