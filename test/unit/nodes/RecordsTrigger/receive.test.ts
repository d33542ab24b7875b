import {
	BASIC_CREDENTIAL_TYPE,
	BEARER_CREDENTIAL_TYPE,
	challengeFor,
	checkCaller,
	credentialProblem,
} from '../../../../nodes/RecordsTrigger/helpers/callerAuth';
import { serializeReply } from '../../../../nodes/shared/workflowCall/replyBody';
import { replyFormatFor } from '../../../../nodes/RecordsTrigger/helpers/reply';
import { decodeBody } from '../../../../nodes/RecordsTrigger/helpers/bodyText';
import { parseContentType } from '../../../../nodes/RecordsTrigger/helpers/contentType';
import { chooseBodyFormat, parseBodyText } from '../../../../nodes/RecordsTrigger/helpers/requestBody';
import { responseSetupProblem } from '../../../../nodes/RecordsTrigger/helpers/responseSetup';
import { eventAccepted, eventNameOf, eventUnreadable } from '../../../../nodes/RecordsTrigger/receive';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('caller authentication', () => {
	const expectedBasic = { type: 'basicAuth', credential: { user: 'records', password: 'tajné heslo' } } as const;
	const expectedBearer = { type: 'bearerToken', credential: { token: 'abc.DEF-123_~+/=' } } as const;

	it('accepts the right Basic credentials (UTF-8 password) and the right bearer token', () => {
		expect(checkCaller(basic('records', 'tajné heslo'), expectedBasic)).toEqual({ ok: true });
		expect(checkCaller('basic   ' + Buffer.from('records:tajné heslo').toString('base64'), expectedBasic)).toEqual({ ok: true });
		expect(checkCaller('Bearer abc.DEF-123_~+/=', expectedBearer)).toEqual({ ok: true });
	});

	it.each([
		['wrong password', basic('records', 'tajne heslo')],
		['wrong user', basic('record', 'tajné heslo')],
		['no colon', `Basic ${Buffer.from('recordstajné heslo').toString('base64')}`],
		['bearer instead of basic', 'Bearer tajné heslo'],
		['garbage', 'Basic !!!'],
	])('refuses Basic with %s', (_what, header) => {
		expect(checkCaller(header, expectedBasic)).toEqual({ ok: false, reason: 'invalid' });
	});

	it('tells a missing Authorization header apart from a wrong one', () => {
		expect(checkCaller(undefined, expectedBasic)).toEqual({ ok: false, reason: 'missing' });
		expect(checkCaller('', expectedBearer)).toEqual({ ok: false, reason: 'missing' });
		expect(checkCaller('Bearer abc.DEF-123_~+/', expectedBearer)).toEqual({ ok: false, reason: 'invalid' });
		expect(checkCaller('Bearer abc.DEF-123_~+/==', expectedBearer)).toEqual({ ok: false, reason: 'invalid' });
	});

	it('lets everything through with authentication none', () => {
		expect(checkCaller(undefined, { type: 'none' })).toEqual({ ok: true });
	});

	it('challenges per RFC 7617 and RFC 6750', () => {
		expect(challengeFor(expectedBasic, 'missing')).toMatch(/^Basic realm=/);
		expect(challengeFor(expectedBearer, 'invalid')).toMatch(/error="invalid_token"/);
		expect(challengeFor({ type: 'none' }, 'missing')).toBeUndefined();
	});

	it('finds credential values that cannot work, without quoting them', () => {
		expect(credentialProblem(BASIC_CREDENTIAL_TYPE, { user: 'a:b', password: 'secret-1' })).toMatch(/contains ":"/);
		expect(credentialProblem(BASIC_CREDENTIAL_TYPE, { user: 'a', password: '' })).toMatch(/password is empty/);
		expect(credentialProblem(BASIC_CREDENTIAL_TYPE, { user: 'a', password: 'pw\n' })).toMatch(/line break/);
		expect(credentialProblem(BASIC_CREDENTIAL_TYPE, { user: 'a', password: 'pw' })).toBeUndefined();
		expect(credentialProblem(BEARER_CREDENTIAL_TYPE, { token: ' tok-123' })).toMatch(/spaces/);
		expect(credentialProblem(BEARER_CREDENTIAL_TYPE, { token: 'tok 123' })).toMatch(/characters/);
		expect(credentialProblem(BEARER_CREDENTIAL_TYPE, { token: 'tok-123' })).toBeUndefined();
		for (const secret of ['pw\n', ' tok-123', 'tok 123']) {
			for (const message of [
				credentialProblem(BASIC_CREDENTIAL_TYPE, { user: 'a', password: secret }),
				credentialProblem(BEARER_CREDENTIAL_TYPE, { token: secret }),
			]) {
				expect(message ?? '').not.toContain(secret.trim());
			}
		}
	});
});

describe('request bodies', () => {
	it('reads Content-Type with its charset', () => {
		expect(parseContentType('Application/JSON; charset="UTF-8"')).toEqual({ mediaType: 'application/json', charset: 'utf-8' });
		expect(parseContentType(undefined)).toBeUndefined();
	});

	it('chooses the parser from the Content-Type, else from the first character', () => {
		const json = parseContentType('application/json');
		const xml = parseContentType('text/xml');
		expect(chooseBodyFormat('auto', json, '{"a":1}')).toBe('json');
		expect(chooseBodyFormat('auto', xml, '<a/>')).toBe('xml');
		expect(chooseBodyFormat('auto', parseContentType('application/soap+xml'), '<a/>')).toBe('xml');
		expect(chooseBodyFormat('auto', parseContentType('text/plain'), '<a/>')).toBe('text');
		expect(chooseBodyFormat('auto', undefined, ' <a/>')).toBe('xml');
		expect(chooseBodyFormat('auto', undefined, '[1]')).toBe('json');
		expect(chooseBodyFormat('xml', json, '<a/>')).toBe('xml');
		expect(chooseBodyFormat('auto', json, '  ')).toBe('none');
	});

	it('decodes the declared charset and refuses bytes that are not valid in it', () => {
		const cp1250 = Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x9a, 0x22, 0x7d]); // {"a":"š"}
		expect(decodeBody(cp1250, parseContentType('application/json; charset=windows-1250'))).toEqual({ value: '{"a":"š"}' });
		const refused = decodeBody(cp1250, parseContentType('application/json'));
		expect(refused).toMatchObject({ rejection: { status: 400, code: 'invalid_encoding' } });
		expect(decodeBody(Buffer.from('x'), parseContentType('text/plain; charset=klingon'))).toMatchObject({
			rejection: { status: 415 },
		});
	});

	it('decodes undeclared bodies in the "Body Encoding" chosen, and a declared charset still wins', () => {
		const cp1250 = Uint8Array.from([0x22, 0x9a, 0x9d, 0x9e, 0x22]); // "šťž" in windows-1250
		const latin2 = Uint8Array.from([0x22, 0xb9, 0xbb, 0xbe, 0x22]); // "šťž" in ISO-8859-2
		expect(decodeBody(cp1250, parseContentType('application/json'), 'windows-1250')).toEqual({ value: '"šťž"' });
		expect(decodeBody(latin2, undefined, 'iso-8859-2')).toEqual({ value: '"šťž"' });
		expect(decodeBody(latin2, parseContentType('text/json; charset=iso-8859-2'), 'windows-1250')).toEqual({ value: '"šťž"' });
	});

	it('advises what leads to success on n8n when the body is not valid UTF-8', () => {
		const refused = decodeBody(Uint8Array.from([0x9a]), parseContentType('application/json'));
		expect('rejection' in refused && refused.rejection.message).toBe(
			'The body is not valid UTF-8. If the caller sends windows-1250 or ISO-8859-2, choose it in the trigger\'s option "Body Encoding" and send no charset in the Content-Type, or declare the charset with a content type n8n passes on as it is, e.g. "text/json; charset=windows-1250" (on application/json, application/xml (and other XML types), text/plain and form bodies n8n refuses such a charset with 422 before this trigger runs).',
		);
	});

	it('takes the encoding from an XML declaration when the Content-Type names none', () => {
		const bytes = Buffer.concat([
			Buffer.from('<?xml version="1.0" encoding="windows-1250"?><a>'),
			Buffer.from([0x9a]),
			Buffer.from('</a>'),
		]);
		expect(decodeBody(bytes, parseContentType('application/xml'))).toEqual({
			value: '<?xml version="1.0" encoding="windows-1250"?><a>š</a>',
		});
	});

	it('explains malformed JSON and XML with the parser\'s reason', () => {
		const json = parseBodyText('{"a":', 'json', parseContentType('application/json'));
		expect(json).toMatchObject({ rejection: { status: 400, code: 'invalid_json' } });
		expect('rejection' in json && json.rejection.message).toMatch(/not valid JSON .*application\/json/);
		const xml = parseBodyText('<a><b></a>', 'xml', undefined);
		expect('rejection' in xml && xml.rejection.message).toMatch(/not acceptable XML: Expected <\/b> but found <\/a>/);
	});

	it('parses form bodies with repeated keys as lists', () => {
		expect(parseBodyText('a=1&b=x+y&a=2', 'form', undefined)).toEqual({ value: { a: ['1', '2'], b: 'x y' } });
	});
});

describe('events', () => {
	it('finds the event in a JSON body and under the root element of an XML body', () => {
		expect(eventNameOf({ event: 'invoice.paid', invoice_id: 1 }, 'json')).toBe('invoice.paid');
		expect(eventNameOf({ webhook: { event: 'invoice.paid' } }, 'xml')).toBe('invoice.paid');
		expect(eventNameOf({ data: [] }, 'json')).toBeUndefined();
		expect(eventNameOf([{ event: 'x' }], 'json')).toBeUndefined();
	});

	it('named case: an XML event under a namespace prefix is read as the default-namespace form is', () => {
		const prefixed = parseBodyText('<r:webhook xmlns:r="urn:records"><r:event>invoice.paid</r:event></r:webhook>', 'xml', undefined);
		const unprefixed = parseBodyText('<webhook xmlns="urn:records"><event>invoice.paid</event></webhook>', 'xml', undefined);
		for (const body of [prefixed, unprefixed]) {
			expect('value' in body && eventNameOf(body.value, 'xml')).toBe('invoice.paid');
			expect('value' in body && eventUnreadable(body.value, 'xml')).toBe(false);
		}
	});

	it('named case: an event that is there but cannot be read as a name is told apart from no event', () => {
		expect(eventUnreadable({ event: { name: 'invoice.paid' } }, 'json')).toBe(true);
		expect(eventUnreadable({ event: 42 }, 'json')).toBe(true);
		expect(eventUnreadable({ webhook: { event: { '@id': '1', '#text': 'invoice.paid' } } }, 'xml')).toBe(true);
		expect(eventUnreadable({ webhook: { event: 'invoice.paid', 'r:event': 'task.done' } }, 'xml')).toBe(true);
		expect(eventUnreadable({ webhook: { invoice: '1' } }, 'xml')).toBe(false);
		expect(eventUnreadable({ event: null }, 'json')).toBe(false);
		expect(eventUnreadable({ data: 1 }, 'json')).toBe(false);
	});

	it('filters: any, chosen, other names typed in, and calls without an event', () => {
		expect(eventAccepted('anything', ['*'], '')).toBe(true);
		expect(eventAccepted(undefined, ['*'], '')).toBe(true);
		expect(eventAccepted('invoice.paid', ['invoice.paid'], '')).toBe(true);
		expect(eventAccepted('invoice.overdue', ['invoice.paid'], '')).toBe(false);
		expect(eventAccepted('invoice.overdue', ['invoice.paid'], ' task.done , invoice.overdue')).toBe(true);
		expect(eventAccepted(undefined, ['invoice.paid'], '')).toBe(false);
		expect(eventAccepted(undefined, ['(no event)'], '')).toBe(true);
	});
});

describe('replies', () => {
	it('answers in the format of the call, else as the Accept header prefers', () => {
		expect(replyFormatFor('xml', 'application/json')).toBe('xml');
		expect(replyFormatFor('json', 'application/xml')).toBe('json');
		expect(replyFormatFor('none', 'application/xml, text/xml;q=0.9, */*;q=0.1')).toBe('xml');
		expect(replyFormatFor('none', 'application/json, */*;q=0.1')).toBe('json');
		expect(replyFormatFor('none', 'application/json;q=0.5, application/xml')).toBe('xml');
		expect(replyFormatFor(undefined, undefined)).toBe('json');
		expect(replyFormatFor('text', '*/*')).toBe('json');
	});

	it('serialises JSON and XML with their content types', () => {
		expect(serializeReply({ a: 1 }, 'json', 'response')).toEqual({
			body: '{"a":1}',
			contentType: 'application/json; charset=utf-8',
		});
		expect(serializeReply({ a: 1 }, 'xml', 'response').body).toBe(
			'<?xml version="1.0" encoding="UTF-8"?><response><a>1</a></response>',
		);
	});
});

describe('Respond setup', () => {
	const respond = (typeVersion: number, disabled = false) => ({
		name: 'Respond to Webhook',
		type: 'n8n-nodes-base.respondToWebhook',
		typeVersion,
		disabled,
	});

	it('needs an enabled Respond to Webhook node for responseNode, at a version that answers for this trigger', () => {
		expect(responseSetupProblem('responseNode', [])).toMatch(/no node after the Records Trigger answers the call/);
		expect(responseSetupProblem('responseNode', [respond(1, true)])).toMatch(/no node after the Records Trigger answers the call/);
		expect(responseSetupProblem('responseNode', [respond(1.5)])).toMatch(/is at version 1.5/);
		expect(responseSetupProblem('responseNode', [respond(1)])).toBeUndefined();
	});

	it('refuses a Respond to Webhook node whose answer would never be sent', () => {
		expect(responseSetupProblem('onReceived', [respond(1)])).toMatch(/would never reach the service/);
		expect(responseSetupProblem('lastNode', [])).toBeUndefined();
	});
});
