import type { ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * What the Records service must send when its call API action uses auth BASIC. The Records Trigger
 * compares each call's Authorization header against these values; nothing is sent anywhere.
 */
export class RecordsTriggerBasicAuthApi implements ICredentialType {
	name = 'recordsTriggerBasicAuthApi';

	displayName = 'Records Trigger Basic Auth API';

	icon = { light: 'file:../icons/records.svg', dark: 'file:../icons/records.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-records/n8n-nodes-records#records-trigger';

	properties: INodeProperties[] = [
		{
			displayName: 'User',
			name: 'user',
			type: 'string',
			default: '',
			required: true,
			description: "The user name entered in the service's call API action (auth BASIC)",
		},
		{
			displayName: 'Password',
			name: 'password',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: "The password entered in the service's call API action (auth BASIC)",
		},
	];
}
