import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { tlsCodesExplained } from '../nodes/shared/transport/tlsFailure';

/**
 * The report or record type id the connection test probes when the user names none. No
 * installation has one under this id, so a service that accepted the token answers 404, and one
 * that refused it answers 401: the two outcomes the test must tell apart. The spec has no
 * side-effect-free endpoint; a report read and an import of no records change nothing.
 */
export const CONNECTION_TEST_PROBE_ID = 'n8n-connection-test';

/** Why a base URL must not be used, or undefined when it may: the token must not travel unencrypted. */
export function plainHttpRefusal(baseUrl: string, allowHttp: boolean): string | undefined {
	if (!/^http:\/\//i.test(baseUrl.trim()) || allowHttp) return undefined;
	return 'The base URL uses plain http://, which would send the API token unencrypted. Use the https:// address of your installation, or turn on "Allow Plain HTTP (Local Testing Only)" in the credential for a local test server.';
}

/**
 * What the certificate codes mean that n8n's connection test shows alone, and what to do. n8n runs
 * the declarative test below itself and answers a TLS failure bare: 2.41 with the code (its
 * credentials tester's runRequestTest returns `error.cause.code`), 1.123 with Node.js's text for it;
 * the test's rules match only HTTP statuses. A node's test function (`testedBy`) is not used while
 * the credential declares a test, and would have only the deprecated `helpers.request` to send with,
 * which n8n's lint and verification scan refuse. So the form explains every code, from the table the
 * nodes' TLS errors use.
 */
export const TLS_CODES_EXPLAINED = tlsCodesExplained();

export class RecordsApi implements ICredentialType {
	name = 'recordsApi';

	displayName = 'Records API';

	icon = { light: 'file:../icons/records.svg', dark: 'file:../icons/records.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-records/n8n-nodes-records#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://records.example.com',
			required: true,
			description:
				'Address of your installation, without a trailing path. The service requires HTTPS.',
		},
		{
			displayName: 'API Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Created by an administrator under Settings → Import → API keys for import. Give it the import permission to import records, and the analysis permission (bound to a user) to read reports.',
		},
		{
			displayName: 'Test With',
			name: 'testWith',
			type: 'options',
			options: [
				{
					name: 'Report Read (Analysis Permission)',
					value: 'report',
					description: 'Reads one row of a report: for tokens with the analysis permission',
				},
				{
					name: 'Empty Import (Import Permission)',
					value: 'import',
					description:
						'Sends an import with no records, which creates and changes nothing: for tokens with only the import permission',
				},
			],
			default: 'report',
			description: 'How the connection test checks the token, by the permission the token has',
		},
		{
			// Always in view: n8n shows a failed test as "Couldn't connect with these settings" and puts the
			// reason behind "More details", and a test declared here cannot pass on the probe's 404. n8n 1.x
			// shows its own text for the 404 instead of the rule's message below.
			// (Shown only when both IDs are empty, it would become a required field in n8n's public API.)
			displayName:
				'Without a report ID (or record type ID) below, the connection test can only check that the service accepts the token, and n8n shows even an accepted token as "Couldn\'t connect with these settings". Under "More details", "The token was accepted" (on n8n 1.x: "The resource you are requesting could not be found") means the token works. Name a report or record type the token may use for a passing test.',
			name: 'connectionTestNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Report ID for Connection Test',
			name: 'testReportId',
			type: 'string',
			default: '',
			displayOptions: { show: { testWith: ['report'] } },
			description:
				'Optional. A report made available through the API that the connection test reads one row of. Leave empty to test with a probe the service answers with 404 when it accepts the token and 401 when it refuses it.',
		},
		{
			displayName: 'Record Type ID for Connection Test',
			name: 'testRecordTypeId',
			type: 'string',
			default: '',
			displayOptions: { show: { testWith: ['import'] } },
			description:
				'Optional. A record type the connection test sends an import with no records to. Leave empty to test with a probe the service answers with 404 when it accepts the token and 401 when it refuses it.',
		},
		{
			displayName: 'Allow Plain HTTP (Local Testing Only)',
			name: 'allowHttp',
			type: 'boolean',
			default: false,
			description:
				'Whether to allow an http:// base URL. The service requires TLS; turn this on only for a local test server on loopback.',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSSLIssues',
			type: 'boolean',
			default: false,
			// The warning lives in the description: a notice shown only when this is on would make
			// n8n 1.x's public API require that notice's value of everyone who creates this credential.
			// The certificate codes n8n's connection test shows alone are explained here, beside the
			// certificate option (see TLS_CODES_EXPLAINED).
			description: `Whether to connect even when the service's certificate cannot be verified (unknown CA, expired, another host name). Insecure: the token is then sent to whoever answers at this address, even an impostor. Use only on a network you control; prefer trusting your CA by starting n8n with NODE_EXTRA_CA_CERTS set to its certificate file. ${TLS_CODES_EXPLAINED}`,
		},
	];

	/**
	 * Adds the bearer token, and refuses to send it over plain HTTP unless the user allowed that:
	 * every request with this credential, the connection test included, passes through here.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const refusal = plainHttpRefusal(
			`${requestOptions.baseURL ?? ''}${requestOptions.url}`,
			credentials.allowHttp === true,
		);
		if (refusal) throw new Error(refusal);
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.token)}` },
		};
	}

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: `={{$credentials.testWith === "import" ? "/api/3p/import/" + encodeURIComponent($credentials.testRecordTypeId || "${CONNECTION_TEST_PROBE_ID}") : "/api/analysis/reports/" + encodeURIComponent($credentials.testReportId || "${CONNECTION_TEST_PROBE_ID}") + "/data/table?offset=0&limit=1"}}`,
			// n8n resolves every field of the test request as an expression, the method included;
			// the declared type only knows literal methods.
			method: '={{$credentials.testWith === "import" ? "POST" : "GET"}}' as IHttpRequestMethods,
			body: '={{$credentials.testWith === "import" ? { "data": [] } : undefined}}',
			skipSslCertificateValidation: '={{$credentials.ignoreSSLIssues === true}}',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The service refused the token (401): it is invalid, expired, or lacks the permission the test uses ("Test With": analysis for a report read, import for an empty import). Create or renew it under Settings → Import → API keys for import.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'The token was accepted (a refused token gets 401). Nothing more could be tested: no report or record type is named for the connection test, or the one named does not exist or is not made available through the API. The credential can be used; name a report ("Report ID for Connection Test") or record type ("Record Type ID for Connection Test") for a passing test.',
				},
			},
		],
	};
}
