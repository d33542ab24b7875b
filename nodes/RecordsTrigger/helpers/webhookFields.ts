import type { INodeParameters, NodeParameterValueType } from 'n8n-workflow';

import { valueAtPath } from '../../shared/parameters/path';

/**
 * n8n 2.x looks for native resolvers of a webhook description's fields under this registered
 * symbol (n8n-workflow's `WEBHOOK_RESOLVERS`). The symbol is made here rather than imported so
 * that the package still loads in n8n 1.x, whose n8n-workflow does not export it and simply never
 * looks at the property.
 */
const WEBHOOK_RESOLVERS = Symbol.for('n8n.webhookDescriptionResolvers');

interface NativeResolver {
	template: string;
	resolve: (parameters: INodeParameters) => NodeParameterValueType | undefined;
}

/** A field computed from the parameters: the expression (without `={{ }}`) and the same as a function. */
export interface ComputedField {
	expression: string;
	resolve: (parameters: INodeParameters) => NodeParameterValueType | undefined;
}

/**
 * Webhook description fields that read a node parameter (a path of parameter names) or compute
 * from them, given twice from one declaration: as an expression such as `={{$parameter["a"]["b"]}}`
 * (what the editor and n8n 1.x evaluate) and as a plain function of the parameters. n8n 2.x calls
 * the function instead of evaluating the expression in its expression sandbox when the node's
 * parameters hold no expression; evaluating them cost about 9 ms of CPU per call to the trigger
 * (bench/findings.md).
 */
export function fieldsFromParameters<Field extends string>(
	fields: Record<Field, readonly string[] | ComputedField>,
): Record<Field, string> {
	const templates = {} as Record<Field, string>;
	const resolvers: Record<string, NativeResolver> = {};
	for (const field of Object.keys(fields) as Field[]) {
		const source = fields[field];
		const computed = Array.isArray(source) ? undefined : (source as ComputedField);
		const path = computed === undefined ? (source as readonly string[]) : [];
		const template = computed
			? `={{${computed.expression}}}`
			: `={{$parameter${path.map((segment) => `["${segment}"]`).join('')}}}`;
		templates[field] = template;
		resolvers[field] = {
			template,
			resolve: computed?.resolve ?? ((parameters) => valueAtPath(parameters, path) as NodeParameterValueType | undefined),
		};
	}
	return Object.assign(templates, { [WEBHOOK_RESOLVERS]: resolvers });
}
