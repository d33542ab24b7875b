/**
 * Whether a call may go on: the Authentication parameter fails closed on any value it does not
 * know, and a header no usable credential can match is refused before the credential is read.
 */
import * as fc from 'fast-check';
import type { IWebhookFunctions } from 'n8n-workflow';

import { BEARER_CREDENTIAL_TYPE, CALLER_AUTHENTICATIONS } from '../../../../../nodes/RecordsTrigger/helpers/callerAuth';
import { callerRefusal, expectedCaller } from '../../../../../nodes/RecordsTrigger/helpers/callerCheck';
import { triggerProperties } from '../../../../../nodes/RecordsTrigger/description';

const SEEDED = { seed: 46, numRuns: 200 };
const TOKEN = 'abc.DEF-123_~+/=';
const BASIC = { user: 'records', password: 'tajné heslo' };

/** A webhook context holding `authentication`, counting how often the credential is read. */
function contextWith(authentication: unknown) {
	const reads: string[] = [];
	const logged: string[] = [];
	const context = {
		getNodeParameter: (name: string, fallback: unknown) => (name === 'authentication' ? authentication : fallback),
		getCredentials: async (type: string) => {
			reads.push(type);
			return type === BEARER_CREDENTIAL_TYPE ? { token: TOKEN } : { ...BASIC };
		},
		getNode: () => ({ name: 'Records Trigger', type: 'n8n-nodes-records.recordsTrigger', typeVersion: 1.1, parameters: {} }),
		getWorkflow: () => ({ id: 'w1', name: 'Calls' }),
		logger: { error: (message: string) => void logged.push(message) },
	};
	return { context: context as unknown as IWebhookFunctions, reads, logged };
}

const KNOWN = CALLER_AUTHENTICATIONS.map((option) => option.value as string);
const unknownAuthentication = fc.oneof(
	fc.constantFrom('bearer', 'headerAuth', 'BearerToken', 'basic', 'None', ' none', 'none ', '', 'NONE', 'jwtAuth'),
	fc.string(),
	fc.constantFrom(undefined, null, 0, false, true, {}, ['none']),
).filter((value) => !KNOWN.includes(value as string));

describe('an Authentication value the trigger does not know', () => {
	it('the allowed values are exactly the options of the parameter', () => {
		const parameter = triggerProperties.find((property) => property.name === 'authentication');
		const values = (parameter?.options ?? []).map((option) => ('value' in option ? option.value : undefined));
		expect([...values].sort()).toEqual([...KNOWN].sort());
	});

	it('"bearer", "headerAuth", "BearerToken" and any other unknown value: activation fails naming the allowed values', async () => {
		await fc.assert(
			fc.asyncProperty(unknownAuthentication, async (value) => {
				const { context, reads } = contextWith(value);
				await expect(expectedCaller(context, value)).rejects.toThrow(/"basicAuth" \(Basic Auth\), "bearerToken" \(Bearer Token\), "none" \(None\)/);
				expect(reads).toEqual([]);
			}),
			SEEDED,
		);
	});

	it('any unknown value: every call is refused with 500, the reason logged, never let in as with None', async () => {
		await fc.assert(
			fc.asyncProperty(unknownAuthentication, fc.option(fc.constantFrom(`Bearer ${TOKEN}`, 'Basic cmVjb3Jkczp4'), { nil: undefined }), async (value, authorization) => {
				const { context, logged } = contextWith(value);
				const refusal = await callerRefusal(context, authorization);
				expect(refusal?.rejection).toMatchObject({ status: 500, code: 'trigger_not_ready' });
				expect(logged.join('\n')).toMatch(/does not know.*"none" \(None\)/);
			}),
			SEEDED,
		);
	});

	it('the exact value "none" lets a call without credentials in', async () => {
		const { context, reads } = contextWith('none');
		expect(await callerRefusal(context, undefined)).toBeUndefined();
		expect(reads).toEqual([]);
	});
});

describe('a call refused before the credential is read', () => {
	const basicHeader = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

	it.each([
		['bearerToken', undefined, 'missing'],
		['bearerToken', '', 'missing'],
		['bearerToken', `Basic ${TOKEN}`, 'invalid'],
		['bearerToken', 'Bearer token with spaces', 'invalid'],
		['bearerToken', 'Bearer tok"en', 'invalid'],
		['basicAuth', undefined, 'missing'],
		['basicAuth', `Bearer ${TOKEN}`, 'invalid'],
		['basicAuth', `Basic ${Buffer.from('no colon').toString('base64')}`, 'invalid'],
		['basicAuth', basicHeader('', 'tajné heslo'), 'invalid'],
		['basicAuth', basicHeader('records', ''), 'invalid'],
	] as const)('%s with Authorization %p: 401 (%s) without reading the credential', async (authentication, authorization, reason) => {
		const { context, reads } = contextWith(authentication);
		const refusal = await callerRefusal(context, authorization);
		expect(refusal?.rejection).toMatchObject({ status: 401, code: 'unauthorized' });
		expect(refusal?.headers?.['www-authenticate']).toMatch(reason === 'invalid' && authentication === 'bearerToken' ? /invalid_token/ : /realm=/);
		expect(reads).toEqual([]);
	});

	it('a header that could match reads the credential once and is judged by it', async () => {
		for (const [authentication, right, wrong] of [
			['bearerToken', `Bearer ${TOKEN}`, 'Bearer abc.DEF-123_~+/'],
			['basicAuth', basicHeader(BASIC.user, BASIC.password), basicHeader(BASIC.user, 'tajne heslo')],
		] as const) {
			const accepted = contextWith(authentication);
			expect(await callerRefusal(accepted.context, right)).toBeUndefined();
			expect(accepted.reads).toHaveLength(1);
			const refused = contextWith(authentication);
			expect((await callerRefusal(refused.context, wrong))?.rejection.status).toBe(401);
			expect(refused.reads).toHaveLength(1);
		}
	});
});
