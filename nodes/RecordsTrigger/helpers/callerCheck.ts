import type { FunctionsBase, IDataObject, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	callerAuthenticationOf,
	challengeFor,
	credentialProblem,
	credentialsMatch,
	credentialTypeFor,
	offeredCredentials,
	type BasicCredentialData,
	type BearerCredentialData,
	type ExpectedCaller,
} from './callerAuth';
import type { Rejection } from './rejection';

/**
 * Whether a call may go on, from the trigger's authentication and its credential. What is wrong
 * with the credential is told to the workflow's owner (on activation, and in n8n's log on each
 * call), never to the caller: before authentication anyone can call.
 */

type CredentialSource = Pick<FunctionsBase, 'getCredentials' | 'getNode'>;

/** The Authentication parameter, or an error naming the values it may have. */
function checkedAuthentication(context: CredentialSource, value: unknown) {
	const authentication = callerAuthenticationOf(value);
	if ('problem' in authentication) throw new NodeOperationError(context.getNode(), authentication.problem);
	return authentication.value;
}

/** The credential of a checked authentication; a missing or unusable one is an error naming the problem, never the secret. */
async function storedCredential(context: CredentialSource, authentication: 'basicAuth' | 'bearerToken'): Promise<ExpectedCaller> {
	const type = credentialTypeFor(authentication);
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
 * What the configured authentication (the parameter's value, whatever it holds) expects of
 * callers, from the node's credential. An unknown authentication, or a missing or unusable
 * credential, is an error naming the problem, never the secret.
 */
export async function expectedCaller(context: CredentialSource, authenticationValue: unknown): Promise<ExpectedCaller> {
	const authentication = checkedAuthentication(context, authenticationValue);
	switch (authentication) {
		case 'none':
			return { type: 'none' };
		case 'basicAuth':
		case 'bearerToken':
			return await storedCredential(context, authentication);
	}
}

/** What any caller is told when the trigger's own authentication or credential cannot be used. */
const NOT_READY: Rejection = {
	status: 500,
	code: 'trigger_not_ready',
	message: "This URL cannot check callers' credentials at the moment. The workflow's owner must fix the Records Trigger's authentication in n8n.",
};

type CallerRefusal = { rejection: Rejection; headers?: Record<string, string> };

function unauthorized(type: 'basicAuth' | 'bearerToken', reason: 'missing' | 'invalid'): CallerRefusal {
	const challenge = challengeFor({ type }, reason);
	const message =
		reason === 'missing'
			? `This URL needs ${type === 'basicAuth' ? "Basic authentication: set the call API action's auth to BASIC" : "a bearer token: set the call API action's auth to OAUTH2"} with the credentials stored in the Records Trigger.`
			: 'The credentials sent do not match those stored in the Records Trigger.';
	return {
		rejection: { status: 401, code: 'unauthorized', message },
		headers: challenge === undefined ? {} : { 'www-authenticate': challenge },
	};
}

/**
 * Why the caller may not call (no or wrong credentials, or the trigger's own authentication is
 * unusable), if so. A header that no usable credential can match is refused before the credential
 * is read: anyone can send such calls, and reading a credential is most of what a call costs.
 */
export async function callerRefusal(context: IWebhookFunctions, authorization: string | undefined): Promise<CallerRefusal | undefined> {
	const notReady = (error: unknown): CallerRefusal => {
		context.logger.error(`${(error as Error).message} (workflow "${context.getWorkflow().name ?? context.getWorkflow().id}", node "${context.getNode().name}"): its calls are refused with 500.`);
		return { rejection: NOT_READY };
	};
	let authentication;
	try {
		authentication = checkedAuthentication(context, context.getNodeParameter('authentication', 'none'));
	} catch (error) {
		return notReady(error);
	}
	if (authentication === 'none') return undefined;
	const offered = offeredCredentials(authorization, authentication);
	if ('refused' in offered) return unauthorized(authentication, offered.refused);
	let expected: ExpectedCaller;
	try {
		expected = await storedCredential(context, authentication);
	} catch (error) {
		return notReady(error);
	}
	return credentialsMatch(offered.offered, expected) ? undefined : unauthorized(authentication, 'invalid');
}
