import type { ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The token the Records service sends as `Authorization: Bearer <token>` when its call API action
 * uses auth OAUTH2. The Records Trigger compares each call's token against this one; nothing is
 * sent anywhere.
 */
export class RecordsTriggerBearerAuthApi implements ICredentialType {
	name = 'recordsTriggerBearerAuthApi';

	displayName = 'Records Trigger Bearer Token API';

	icon = { light: 'file:../icons/records.svg', dark: 'file:../icons/records.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-records/n8n-nodes-records#records-trigger';

	properties: INodeProperties[] = [
		{
			displayName: 'Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The access token the service's call API action sends (auth OAUTH2). Calls carrying any other token are refused with 401.",
		},
	];
}
