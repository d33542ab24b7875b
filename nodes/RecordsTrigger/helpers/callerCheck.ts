import type { FunctionsBase, IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	challengeFor,
	checkCaller,
	credentialProblem,
	credentialTypeFor,
	type BasicCredentialData,
	type BearerCredentialData,
	type CallerAuthentication,
	type ExpectedCaller,
} from './callerAuth';
import type { Rejection } from './rejection';

/**
 * Whether a call may go on, from the trigger's authentication and its credential. What is wrong
 * with the credential is told to the workflow's owner (on activation, and in n8n's log on each
 * call), never to the caller: before authentication anyone can call.
 */

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

/** What any caller is told when the trigger's own credential is deleted or cannot be used. */
const NOT_READY: Rejection = {
	status: 500,
	code: 'trigger_not_ready',
	message: "This URL cannot check callers' credentials at the moment. The workflow's owner must fix the Records Trigger's authentication in n8n.",
};

/** Why the caller may not call (no or wrong credentials, or the trigger's own are unusable), if so. */
export async function callerRefusal(
	context: IWebhookFunctions,
	authorization: string | undefined,
): Promise<{ rejection: Rejection; headers?: Record<string, string> } | undefined> {
	const authentication = context.getNodeParameter('authentication', 'none') as CallerAuthentication;
	let expected: ExpectedCaller;
	try {
		expected = await expectedCaller(context, authentication);
	} catch (error) {
		context.logger.error(`${(error as Error).message} (workflow "${context.getWorkflow().name ?? context.getWorkflow().id}", node "${context.getNode().name}"): its calls are refused with 500.`);
		return { rejection: NOT_READY };
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
