/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: types of a module that runs
	in Node.js, not inside n8n (Node.js's `http`) */
/**
 * The part of formidable (the multipart parser n8n's webhook server uses, a dev dependency here at
 * n8n 2.41.1's version) that the webhook harness uses to read multipart/form-data bodies as n8n does.
 */
declare module 'formidable' {
	import type { IncomingMessage } from 'node:http';

	export interface File {
		filepath: string;
		originalFilename: string | null;
		newFilename: string;
		mimetype: string | null;
		size: number;
	}

	export interface Options {
		multiples?: boolean;
		encoding?: string;
		maxFileSize?: number;
		allowEmptyFiles?: boolean;
		minFileSize?: number;
	}

	export type Fields = Record<string, string[] | string | undefined>;
	export type Files = Record<string, File[] | File | undefined>;

	export interface Formidable {
		on(event: 'fileBegin', listener: (formName: string, file: File) => void): this;
		parse(req: IncomingMessage): Promise<[Fields, Files]>;
	}

	export function formidable(options?: Options): Formidable;
	export default formidable;
}
