/**
 * The part of xml2js (a dependency of n8n-workflow, without bundled types) that the webhook harness
 * uses to read XML bodies the way n8n's webhook server does.
 */
declare module 'xml2js' {
	export interface ParserOptions {
		async?: boolean;
		normalize?: boolean;
		normalizeTags?: boolean;
		explicitArray?: boolean;
		tagNameProcessors?: Array<(name: string) => string>;
		attrNameProcessors?: Array<(name: string) => string>;
	}

	export class Parser {
		constructor(options?: ParserOptions);
		parseStringPromise(text: string): Promise<unknown>;
	}
}
