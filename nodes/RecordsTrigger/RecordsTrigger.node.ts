import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IHookFunctions,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { triggerProperties } from './description';
import { credentialProblem } from './helpers/callerAuth';
import { fieldsFromParameters } from './helpers/webhookFields';
import { assertReadyForCalls, receiveCall, UNANSWERED_CALL_STATUS } from './receive';

export class RecordsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Records Trigger',
		name: 'recordsTrigger',
		icon: { light: 'file:../../icons/records.svg', dark: 'file:../../icons/records.dark.svg' },
		group: ['trigger'],
		// One version, the first published; 1.1 rather than 1 because n8n treats a webhook node of
		// version 1 as its own old Webhook node: it evaluates that node's "binary data" option on every
		// call and reads every body before the node runs. From 1.1 on it does neither, and this node
		// reads bodies of other types itself.
		version: 1.1,
		subtitle: '={{$parameter["responseMode"] === "onReceived" ? "Respond immediately" : $parameter["responseMode"] === "lastNode" ? "Respond when last node finishes" : "Respond with a Respond node"}}',
		// n8n's node picker shows this for the Records node too (it merges a node and its "…Trigger"
		// into one entry with the trigger's description), so it names what both do.
		description:
			"Import records and read reports in Records, and start workflows on the service's calls and webhooks",
		defaults: { name: 'Records Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'recordsTriggerBasicAuthApi',
				required: true,
				testedBy: 'recordsTriggerCredential',
				displayOptions: { show: { authentication: ['basicAuth'] } },
			},
			{
				name: 'recordsTriggerBearerAuthApi',
				required: true,
				testedBy: 'recordsTriggerCredential',
				displayOptions: { show: { authentication: ['bearerToken'] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				// PING arrives as HEAD (or as GET marked X-Records-Ping); OPTIONS is answered by n8n itself.
				httpMethod: 'DELETE,GET,HEAD,POST,PUT',
				// n8n's editor would show these methods joined in a badge four letters wide ("DELET");
				// the setup notice names them instead.
				ndvHideMethod: true,
				isFullPath: true,
				...fieldsFromParameters({
					path: ['path'],
					responseMode: ['responseMode'],
					// What n8n answers when the workflow ends without a Respond node answering (n8n 2.x; the
					// trigger sets the same for n8n 1.x): a failure, never a 200 the service takes for success.
					responseCode: {
						expression: `$parameter["responseMode"] === "responseNode" ? ${UNANSWERED_CALL_STATUS} : $parameter["responseCode"]`,
						resolve: (parameters) =>
							parameters.responseMode === 'responseNode' ? UNANSWERED_CALL_STATUS : (parameters.responseCode as number | undefined),
					},
					responseData: ['responseData'],
					responsePropertyName: ['options', 'responsePropertyName'],
					responseContentType: ['options', 'responseContentType'],
				}),
			},
		],
		eventTriggerDescription: 'Waiting for a call from the Records service to the Test URL',
		activationMessage:
			'The Records service can now call the Production URL (set it as the url of its call API action or in its webhook settings).',
		properties: triggerProperties,
	};

	/**
	 * The service has no API to register a webhook: its calls are set up by pasting the URL into it.
	 * So there is never a registration to find (checkExists is false) and none to remove (delete);
	 * create() does what can be done on n8n's side before the service calls: it checks the
	 * credential and the Respond setup, so that a mistake fails the activation with a clear message
	 * instead of every call.
	 */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				await assertReadyForCalls.call(this);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	methods = {
		credentialTest: {
			/**
			 * The service is the caller, so the credential cannot be tried against it from n8n; this
			 * checks that the stored values can authenticate its calls at all.
			 */
			async recordsTriggerCredential(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const problem = credentialProblem(credential.type, credential.data);
				if (problem !== undefined) return { status: 'Error', message: problem };
				return {
					status: 'OK',
					message:
						'The credential can authenticate the service\'s calls. To check the whole setup, send a PING from the service\'s call API action to the trigger\'s URL.',
				};
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveCall.call(this);
	}
}
