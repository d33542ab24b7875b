import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/**
 * Stands in for an empty report or record type ID in the connection test's URL, so that a test run
 * without one (possible through n8n's REST API; the form requires the ID) asks the service for
 * something that does not exist rather than for another path: it gets 401 or 404, never a pass.
 */
export const CONNECTION_TEST_PROBE_ID = 'n8n-connection-test';

/** The connection test's message for a 2xx answer that is not JSON, and so not the API's. */
const NOT_THE_API =
	"The answer is not the Records API's: it is not JSON (a web page, text or nothing), as a login page, a proxy or another service answers. Check that the Base URL is the address of your installation.";

/** Why a base URL must not be used, or undefined when it may: the token must not travel unencrypted. */
export function plainHttpRefusal(baseUrl: string, allowHttp: boolean): string | undefined {
	if (!/^http:\/\//i.test(baseUrl.trim()) || allowHttp) return undefined;
	return 'The base URL uses plain http://, which would send the API token unencrypted. Use the https:// address of your installation, or turn on "Allow Plain HTTP (Local Testing Only)" in the credential for a local test server.';
}

/**
 * Why a Base URL cannot be the address of an installation, or undefined when it can: it must be an
 * http(s) address without a path, because the nodes add the API's paths to it. Said before the
 * connection test sends anything, because the answer to a wrong path proves nothing: a path such as
 * /api/v1 makes every endpoint unknown, and the service answers 404 whatever the token.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
	const example = 'such as https://records.example.com';
	let url: URL;
	try {
		url = new URL(baseUrl.trim());
	} catch {
		return `The Base URL is not a web address. Enter the address of your installation, ${example}.`;
	}
	if (!/^https?:$/.test(url.protocol)) {
		return `The Base URL is not a web address. Enter the address of your installation, ${example}.`;
	}
	const extra = pathOf(url);
	if (extra === undefined) return undefined;
	return `The Base URL has a path (${extra.path}). Enter only the address of your installation, here ${extra.origin}: the nodes add the API's paths themselves.`;
}

/**
 * What an http(s) Base URL has after the installation's address (a path, a query), with the
 * address without it; undefined when it has nothing more or is not such an address.
 */
export function baseUrlPath(baseUrl: string): { path: string; origin: string } | undefined {
	let url: URL;
	try {
		url = new URL(baseUrl.trim());
	} catch {
		return undefined;
	}
	return /^https?:$/.test(url.protocol) ? pathOf(url) : undefined;
}

/** The path and query after an address's origin, with the origin; undefined when there is none. */
function pathOf(url: URL): { path: string; origin: string } | undefined {
	const path = `${url.pathname.replace(/\/+$/, '')}${url.search}`;
	return path === '' ? undefined : { path, origin: url.origin };
}

/**
 * The connection test reads one row of a named report, or sends a named record type an import of no
 * records: the spec has no endpoint every valid token may read, and a probe of something that does
 * not exist can only fail (n8n's tester turns every rule into a failure). So the ID is required for
 * the kind of test chosen, and a valid token with it passes.
 *
 * Only a success passes, and only a 401 is read as the token's fault: a 404 can come before the token is
 * checked (an unknown endpoint), so its message does not say the token was accepted.
 *
 * A connection or certificate failure cannot be explained in the test's result: n8n runs this
 * declarative test itself and answers it with the bare code (2.x) or its own text (1.x) before any
 * rule applies (1.x also shows its own text for 401 and 404), and a node's test function would have
 * only the deprecated `helpers.request`. The hint under Base URL, in view right under the result,
 * names the codes and what to check; docs/credentials.md (the form's link to the docs) explains each.
 */
export class RecordsApi implements ICredentialType {
	name = 'recordsApi';

	displayName = 'Records API';

	icon = { light: 'file:../icons/records.svg', dark: 'file:../icons/records.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-records/n8n-nodes-records/blob/main/docs/credentials.md';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://records.example.com',
			required: true,
			description: 'Address of your installation, without a path (not …/api/v1). The service requires HTTPS.',
			// In view right under the test's result, which shows a connection or TLS failure as a bare
			// code (see above); n8n shows the hint whatever the result.
			hint: 'Test fails with ECONNREFUSED? Check host, port and that the service runs. ENOTFOUND? The host name. A certificate code (UNABLE_TO_VERIFY_LEAF_SIGNATURE…)? Start n8n with NODE_EXTRA_CA_CERTS.',
		},
		{
			displayName: 'API Token',
			name: 'token',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'Created by an administrator under Settings → Import → API keys for import: the analysis permission reads reports, the import permission imports records',
		},
		{
			displayName: 'Test With',
			name: 'testWith',
			type: 'options',
			options: [
				{
					name: 'Report Read (Analysis Permission)',
					value: 'report',
					description: 'Reads one row of a report: for a token with the analysis permission',
				},
				{
					name: 'Empty Import (Import Permission)',
					value: 'import',
					description:
						'Sends a record type an import with no records, which changes nothing: for a token with only the import permission',
				},
			],
			default: 'report',
			description: 'How the connection test checks the token, by the permission the token has',
		},
		{
			displayName: 'Report ID for Connection Test',
			name: 'testReportId',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { testWith: ['report'] } },
			description:
				"A report made available through the API (its ID is in the report's sharing dialog). The connection test reads one row of it.",
		},
		{
			displayName: 'Record Type ID for Connection Test',
			name: 'testRecordTypeId',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { testWith: ['import'] } },
			description:
				'A record type the token may import into. The connection test sends it an import with no records, which changes nothing.',
		},
		{
			displayName: 'Allow Plain HTTP (Local Testing Only)',
			name: 'allowHttp',
			type: 'boolean',
			default: false,
			description:
				'Whether to allow an http:// base URL. The service requires TLS; turn this on only for a local test server.',
		},
		{
			displayName: 'Ignore SSL Issues (Insecure)',
			name: 'ignoreSSLIssues',
			type: 'boolean',
			default: false,
			description:
				"Whether to connect without checking the service's certificate. Insecure: the token could reach an impostor. Prefer starting n8n with NODE_EXTRA_CA_CERTS.",
		},
	];

	/**
	 * Adds the bearer token, and refuses to send it over plain HTTP unless the user allowed that:
	 * every request with this credential, the connection test included, passes through here. Only
	 * the connection test gives a `baseURL` apart (the nodes give whole URLs): its Base URL is
	 * checked here, before anything is sent.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const baseUrlRefusal = requestOptions.baseURL === undefined ? undefined : baseUrlProblem(requestOptions.baseURL);
		if (baseUrlRefusal) throw new Error(baseUrlRefusal);
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
		// n8n reads each rule by its type, in one list (its credentials tester, 1.x and 2.x): the
		// status rules when the request failed, the body rules when it succeeded. The declared type
		// takes one kind per list.
		rules: ([
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
						'Not found (404): the service has no report or record type with the ID given for the connection test, or the Base URL is not the address of your installation. Check both (a report must be made available through the API). This answer does not show whether the token is valid.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						"Forbidden (403): the service, or a proxy in front of it, refused the request. Check the token's permission (\"Test With\") and that the service lets n8n's address in (IP allow-list).",
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 500,
					message:
						"The service failed with an internal error (500). Try again later; if it persists, ask your installation's administrator.",
				},
			},
			// A 2xx proves nothing by itself: a login page behind a redirect, a proxy's page or another
			// service answers 200 too. The API answers JSON (an object, or a list), so an answer that is
			// text (n8n keeps a body it cannot read as JSON as a string) or nothing fails. n8n fails the
			// test when the answer's value at `key` equals `value`; the key's path also reads a string's
			// own properties. The rules apply to both kinds of test, and the import's answer is not
			// specified beyond being JSON, so a JSON answer's shape is not checked.
			{
				type: 'responseSuccessBody',
				properties: { key: 'constructor.name', value: 'String', message: NOT_THE_API },
			},
			{
				type: 'responseSuccessBody',
				properties: { key: 'constructor', value: undefined, message: NOT_THE_API },
			},
		] satisfies Array<IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody>) as IAuthenticateRuleResponseCode[],
	};
}
