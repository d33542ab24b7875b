import type { INodeParameters, NodeTypeAndVersion } from 'n8n-workflow';

import {
	callToAnswer,
	isRecordsTrigger,
	isRespondToCall,
	responseHeaders,
	type TriggerBefore,
} from '../../../../../nodes/shared/workflowCall/handshake';
import { responseSetupProblem } from '../../../../../nodes/RecordsTrigger/helpers/responseSetup';

const node = (name: string, type: string, parameters?: INodeParameters, disabled = false): NodeTypeAndVersion => ({
	name,
	type,
	typeVersion: 1,
	disabled,
	parameters,
});

const respondToCall = (disabled = false) =>
	node('Respond to Call', 'n8n-nodes-records.records', { resource: 'workflowCall', operation: 'respond' }, disabled);

const trigger = (responseMode: string | undefined, emitted?: TriggerBefore['emitted'], name = 'Records Trigger'): TriggerBefore => ({
	node: node(name, 'n8n-nodes-records.recordsTrigger', responseMode === undefined ? {} : { responseMode }),
	emitted,
});

describe('which nodes are the package\'s', () => {
	it('knows the Records node set to Respond to Call under the names n8n gives installed packages', () => {
		expect(isRespondToCall(respondToCall())).toBe(true);
		expect(
			isRespondToCall(node('R', '@acme/n8n-nodes-records.records', { resource: 'workflowCall', operation: 'respond' })),
		).toBe(true);
		expect(isRespondToCall(node('R', 'n8n-nodes-records.records', { resource: 'record', operation: 'import' }))).toBe(false);
		expect(isRespondToCall(node('R', 'n8n-nodes-records.records'))).toBe(false);
		expect(
			isRespondToCall(node('R', 'n8n-nodes-records.recordsTrigger', { resource: 'workflowCall', operation: 'respond' })),
		).toBe(false);
		expect(isRecordsTrigger(node('T', 'n8n-nodes-records.recordsTrigger'))).toBe(true);
		expect(isRecordsTrigger(node('T', 'n8n-nodes-records.recordsReportTrigger'))).toBe(false);
	});
});

describe('the call a Respond to Call answers', () => {
	it('answers the call of a trigger set to "Using a Respond Node", in the format the call expects', () => {
		expect(callToAnswer([trigger('responseNode', { replyFormat: 'xml' })])).toEqual({
			triggerName: 'Records Trigger',
			replyFormat: 'xml',
		});
		expect(callToAnswer([trigger('responseNode', { replyFormat: 'json' })])).toMatchObject({ replyFormat: 'json' });
		// An item without the field (an older trigger, pinned data) is answered in JSON.
		expect(callToAnswer([trigger('responseNode', {})])).toMatchObject({ replyFormat: 'json' });
	});

	it('picks the trigger that started the execution when several come before the node', () => {
		const answered = callToAnswer([
			trigger('responseNode', undefined, 'Invoices'),
			trigger('responseNode', { replyFormat: 'xml' }, 'Tasks'),
		]);
		expect(answered).toEqual({ triggerName: 'Tasks', replyFormat: 'xml' });
	});

	it('says why there is no call to answer', () => {
		expect(callToAnswer([])).toMatchObject({ problem: expect.stringMatching(/^No Records Trigger comes before this node/) });
		expect(callToAnswer([trigger('responseNode')])).toMatchObject({
			problem: expect.stringMatching(/not started by a call to the Records Trigger "Records Trigger"/),
		});
		expect(callToAnswer([trigger('lastNode', {})])).toMatchObject({
			problem: 'The Records Trigger "Records Trigger" answers the call itself, so this answer would never reach the service',
			hint: expect.stringMatching(/Set the trigger's Respond option to "Using a Respond Node"/),
		});
		// Not set means the trigger's default, Immediately.
		expect(callToAnswer([trigger(undefined, {})])).toHaveProperty('problem');
	});

	it('leaves a Respond option set by an expression to the trigger, which checks it on each call', () => {
		expect(callToAnswer([trigger('={{ "responseNode" }}', {})])).toHaveProperty('triggerName');
	});
});

describe('response headers', () => {
	it('takes names case-insensitively and values as entered, trimmed', () => {
		expect(
			responseHeaders([
				{ name: ' X-Status ', value: ' created ' },
				{ name: 'Content-Type', value: 'application/xml' },
				{ name: 'X-Empty', value: undefined },
			]),
		).toEqual({ headers: { 'x-status': 'created', 'content-type': 'application/xml', 'x-empty': '' } });
		expect(responseHeaders([])).toEqual({ headers: {} });
	});

	it.each([
		['a missing name', [{ name: '', value: 'x' }], /^Header 1 has no name/],
		['a space in the name', [{ name: 'X Status', value: 'x' }], /^Header 1 \("X Status"\): a header name can only hold/],
		['a colon in the name', [{ name: 'X-Status:', value: 'x' }], /a header name can only hold/],
		['a line break in the value', [{ name: 'X-A', value: 'ok\r\nSet-Cookie: a=b' }], /line break/],
		['a Czech letter in the value', [{ name: 'X-A', value: 'Přijato' }], /non-ASCII character .*Percent-encode it/],
		['the same name twice', [{ name: 'X-A', value: '1' }, { name: 'x-a', value: '2' }], /^Header 2 \("x-a"\) appears twice/],
	])('refuses %s, saying which header and what to do', (_what, entries, message) => {
		const result = responseHeaders(entries);
		expect(result).toEqual({ problem: expect.stringMatching(message) });
	});
});

describe('the trigger\'s Respond setup with Respond to Call', () => {
	const respondToWebhook = (typeVersion: number) => ({ ...node('Respond to Webhook', 'n8n-nodes-base.respondToWebhook'), typeVersion });

	it('accepts an enabled Respond to Call as the node that answers', () => {
		expect(responseSetupProblem('responseNode', [respondToCall()])).toBeUndefined();
		expect(responseSetupProblem('responseNode', [node('Set', 'n8n-nodes-base.set'), respondToCall()])).toBeUndefined();
	});

	it('does not count a disabled one, or a Records node doing something else', () => {
		const other = node('Records', 'n8n-nodes-records.records', { resource: 'record', operation: 'import' });
		expect(responseSetupProblem('responseNode', [respondToCall(true)])).toMatch(/no node after the Records Trigger answers the call/);
		expect(responseSetupProblem('responseNode', [other])).toMatch(/no node after the Records Trigger answers the call/);
	});

	it('points a Respond to Webhook node from version 1.1 on to Respond to Call, also next to one', () => {
		for (const version of [1.1, 1.5, 1.6]) {
			expect(responseSetupProblem('responseNode', [respondToCall(), respondToWebhook(version)])).toMatch(
				new RegExp(`is at version ${version}.*Replace it with a Records node set to Workflow Call → Respond to Call`),
			);
		}
		expect(responseSetupProblem('responseNode', [respondToWebhook(1)])).toBeUndefined();
	});

	it('refuses Respond to Call when the trigger answers itself', () => {
		for (const mode of ['onReceived', 'lastNode'] as const) {
			expect(responseSetupProblem(mode, [respondToCall()])).toBe(
				'"Respond to Call" answers the call, but the Records Trigger\'s Respond is not set to "Using a Respond Node", so its answer would never reach the service. Change Respond, or remove that node.',
			);
		}
		expect(responseSetupProblem('lastNode', [respondToCall(true)])).toBeUndefined();
	});
});
