/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * The README's quick start done in n8n's editor as its steps say, counting what a user does (the
 * Walk): used by quickStart.e2e.ts. Every label it clicks and value it types comes from the README
 * (readmeQuickStart.ts). n8n 2.x's editor.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

import { REPORTS } from '../../tooling/sandbox/seeds';
import { type StepRecord, wordCount } from './keystrokeModel';
import { expectNamed, quickStartStep, setting, type QuickStartStep } from './readmeQuickStart';

/** The column of the sandbox's bank report that holds the transaction ID (the user's own choice in step 5). */
export const TRANSACTION_ID_COLUMN = 'ID transakce';

/** What a user does, counted step by step, and how long the machine took. */
export class Walk {
	readonly records: StepRecord[] = [];
	private current?: StepRecord;
	private started = 0;

	constructor(private readonly page: Page) {}

	begin(step: QuickStartStep | undefined, title: string): void {
		this.end();
		this.current = { step: step?.number ?? 0, title, clicks: 0, choices: 0, fields: 0, keystrokes: 0, words: step ? wordCount(step.text) : 0, met: [], machineMs: 0 };
		this.started = Date.now();
	}

	end(): void {
		if (!this.current) return;
		this.current.machineMs = Date.now() - this.started;
		this.records.push(this.current);
		this.current = undefined;
	}

	private get step(): StepRecord {
		if (!this.current) throw new Error('begin() a step first');
		return this.current;
	}

	async click(target: Locator): Promise<void> {
		await target.click();
		this.step.clicks++;
	}

	/** Opens a list and picks the option shown with exactly this text. */
	async choose(list: Locator, option: string): Promise<void> {
		await this.click(list);
		const open = this.page.locator('.el-select-dropdown:visible, .el-popper:visible [role="listbox"]');
		await open.first().waitFor({ state: 'visible', timeout: 5000 }).catch(async () => {
			// A list of several choices opens from its text, where it says "Select".
			await this.click(list.locator('.select-trigger, .el-select__tags').first());
		});
		// An option shows its name, and its description under it.
		const item = this.page.locator('.el-select-dropdown__item:visible, [role="option"]:visible').filter({ has: this.page.getByText(option, { exact: true }) });
		await item.first().click();
		this.step.choices++;
	}

	/** Types into a field (clicked first unless n8n focused it), with `replace` over what it holds. */
	async type(field: Locator, text: string, { replace = false, focused = false } = {}): Promise<void> {
		if (focused) await field.waitFor({ state: 'visible' });
		else await this.click(field);
		if (replace) {
			await this.page.keyboard.press('ControlOrMeta+a');
			this.step.keystrokes += 2;
		}
		await this.page.keyboard.type(text);
		this.step.fields++;
		this.step.keystrokes += text.length;
	}

	async press(key: string): Promise<void> {
		await this.page.keyboard.press(key);
		this.step.keystrokes++;
	}

	/** A dialog or notice the user meets and reads. */
	met(text: string): void {
		this.step.met.push(text.replace(/\s+/g, ' ').trim().slice(0, 120));
		this.step.words += wordCount(text);
	}
}


/** A check of the walk: what the README says and the editor shows must agree. */
function must(condition: boolean, message: string): void {
	if (!condition) throw new Error(`The README's quick start and the editor disagree: ${message}`);
}

export interface WalkSetting {
	page: Page;
	n8nUrl: string;
	/** Where the HTTP Request node sends the rows on. */
	receiverUrl: string;
	steps: QuickStartStep[];
	/** Folder for a picture after each step. */
	shots: string;
}

export interface WalkResult {
	records: StepRecord[];
	workflowId: string;
	triggerName: string;
}

/** From Create workflow on the Overview to a published workflow: the trigger as the README sets it, and an HTTP Request node. */
export async function walkQuickStart({ page, n8nUrl, receiverUrl, steps, shots }: WalkSetting): Promise<WalkResult> {
	const walk = new Walk(page);
	const ndv = page.locator('[data-test-id="ndv"]').first();
	const parameter = (name: string) => ndv.locator(`[data-test-id="parameter-input-${name}"]`).first();
	mkdirSync(shots, { recursive: true });
	const shot = async (name: string) => await page.screenshot({ path: join(shots, `${name}.png`) });

	await page.goto(`${n8nUrl}/home/workflows`, { timeout: 120_000 });
	// A loaded machine takes a while to draw the first page.
	await page.getByText('Create workflow', { exact: true }).first().waitFor({ state: 'visible', timeout: 120_000 });

	// Step 1 is done in Records (with npm start, by the sandbox): the user reads it.
	walk.begin(quickStartStep(steps, 1), 'Share the report (read only: the sandbox has)');

	// Step 2: Create workflow, Add first step, search for and add the trigger; the credential.
	const step2 = quickStartStep(steps, 2);
	const triggerName = /^add a (.+)$/.exec(step2.bold.find((text) => text.startsWith('add a ')) ?? '')?.[1] ?? '';
	must(triggerName === 'Records Report Trigger', `step 2 adds "${triggerName}", not the Records Report Trigger`);
	walk.begin(step2, 'Create workflow, add the trigger');
	await walk.click(page.getByText(expectNamed(step2, 'Create workflow'), { exact: true }).first());
	const addFirstStep = page.locator('[data-test-id="canvas-add-button"]').filter({ hasText: expectNamed(step2, 'Add first step') });
	await walk.click(addFirstStep.locator('[data-test-id="canvas-plus-button"]').first());
	await walk.type(page.locator('[data-test-id="node-creator-search-bar"]').first(), triggerName, { focused: true });
	await walk.click(page.locator('[data-test-id="node-creator-node-item"]').filter({ hasText: triggerName }).first());
	// n8n shows an installed community node's details first, with a button to add it.
	const addToWorkflow = page.getByRole('button', { name: 'Add to workflow' });
	await addToWorkflow.waitFor({ state: 'visible', timeout: 30_000 });
	walk.met(`Node details: ${triggerName}. Starts the workflow when a Records report has rows it has not emitted before. Via npm. Add to workflow`);
	await walk.click(addToWorkflow);
	await parameter('report').waitFor({ state: 'visible', timeout: 60_000 });
	const credentialShown = await ndv.locator('[data-test-id="node-credentials-select"] input').first().inputValue();
	if (credentialShown !== 'Records sandbox') {
	await walk.choose(ndv.locator('[data-test-id="node-credentials-select"]').first(), 'Records sandbox');
	}
	await shot('2-trigger-added');

	// Step 3: Poll Times.
	const step3 = quickStartStep(steps, 3);
	const [mode, value, unit] = setting(step3, 'Poll Times').split(/,\s*/);
	walk.begin(step3, 'Poll Times');
	await walk.choose(parameter('mode'), mode);
	await walk.type(parameter('value').locator('input').first(), value, { replace: true });
	await walk.choose(parameter('unit'), unit);
	await shot('3-poll-times');

	// Step 4: the report, by ID.
	const step4 = quickStartStep(steps, 4);
	const [reportMode, reportId] = setting(step4, 'Report').split(/,\s*/);
	must(reportId === REPORTS.bankTransactions, `step 4's report "${reportId}" is not the sandbox's ${REPORTS.bankTransactions}`);
	walk.begin(step4, 'Report');
	const locatorMode = ndv.locator('[data-test-id="rlc-mode-selector"] input').first();
	if ((await locatorMode.inputValue()) !== reportMode) await walk.choose(ndv.locator('[data-test-id="rlc-mode-selector"]').first(), reportMode);
	await walk.type(ndv.locator('[data-test-id="rlc-input"] input, input[data-test-id="rlc-input"]').first(), reportId);
	await shot('4-report');

	// Step 5: Row Identity, Key Columns.
	const step5 = quickStartStep(steps, 5);
	walk.begin(step5, 'Row Identity and Key Columns');
	await walk.choose(parameter('rowIdentity'), setting(step5, 'Row Identity'));
	must(setting(step5, 'Key Columns') === 'the transaction ID', `step 5's key column is not the transaction ID, which the walk picks as ${TRANSACTION_ID_COLUMN}`);
	await parameter('keyColumns').waitFor({ state: 'visible' });
	await walk.choose(parameter('keyColumns'), TRANSACTION_ID_COLUMN);
	await walk.press('Escape');
	await shot('5-key-columns');

	// Step 6: New Rows Appear.
	const step6 = quickStartStep(steps, 6);
	walk.begin(step6, 'New Rows Appear');
	await walk.choose(parameter('newRowPosition'), setting(step6, 'New Rows Appear'));

	// Step 7: On First Run stays at its default; the user only reads it.
	const step7 = quickStartStep(steps, 7);
	walk.begin(step7, 'On First Run (the default)');
	const firstRun = await parameter('firstRun').locator('input').first().inputValue();
	must(firstRun === setting(step7, 'On First Run'), `On First Run shows "${firstRun}" at its default, not what step 7 says`);

	// Step 8: Options → Convert Czech Formats.
	const step8 = quickStartStep(steps, 8);
	const conversion = setting(step8, 'Options → Convert Czech Formats');
	walk.begin(step8, 'Options → Convert Czech Formats');
	await walk.choose(ndv.locator('[placeholder="Add option"], :text-is("Add option")').first(), 'Convert Czech Formats');
	await walk.choose(parameter('conversion'), conversion);
	await shot('8-options');

	// Step 9: Fetch Test Event, read the sample; connect the node that sends the rows on; publish.
	const step9 = quickStartStep(steps, 9);
	walk.begin(step9, 'Fetch Test Event, connect, publish');
	await walk.click(ndv.getByText(expectNamed(step9, 'Fetch Test Event'), { exact: true }).first());
	const hint = ndv.locator('[data-test-id="node-hint"]').filter({ hasText: 'A sample' }).first();
	await hint.waitFor({ state: 'visible', timeout: 120_000 });
	walk.met(await hint.innerText());
	const pinTip = page.getByText('You can pin this output instead of waiting for a test event.');
	if (await pinTip.first().isVisible().catch(() => false)) walk.met(await pinTip.first().innerText());
	await shot('9-sample');
	await walk.click(page.locator('[data-test-id="ndv-close-button"], [data-test-id="back-to-canvas"]').first());
	// The node that sends them on: an HTTP Request node, as in example 01, posting each row.
	expectNamed(step9, 'an HTTP Request node');
	await page.locator('[data-test-id="canvas-node"]').first().hover();
	await walk.click(page.locator('[data-test-id="canvas-handle-plus"]').first());
	await walk.type(page.locator('[data-test-id="node-creator-search-bar"]').first(), 'HTTP Request', { focused: true });
	await walk.click(page.locator('[data-test-id="node-creator-node-item"]').filter({ hasText: 'HTTP Request' }).first());
	await parameter('url').waitFor({ state: 'visible', timeout: 60_000 });
	await walk.choose(parameter('method'), 'POST');
	await walk.type(parameter('url').locator('input, textarea, [contenteditable="true"]').first(), receiverUrl);
	await walk.click(page.locator('[data-test-id="ndv-close-button"], [data-test-id="back-to-canvas"]').first());
	await walk.click(page.locator('[data-test-id="workflow-open-publish-modal-button"]').first());
	const dialog = page.locator('[role="dialog"]').filter({ hasText: 'Publish workflow' }).first();
	await dialog.waitFor({ state: 'visible', timeout: 30_000 });
	walk.met(await dialog.innerText());
	await shot('9-publish-dialog');
	await walk.click(dialog.locator('[data-test-id="workflow-publish-button"]').first());
	await page.getByText('Published', { exact: true }).first().waitFor({ state: 'visible', timeout: 120_000 });
	await shot('9-published');
	walk.end();

	const workflowId = /\/workflow\/([^/?#]+)/.exec(page.url())?.[1] ?? '';
	return { records: walk.records, workflowId, triggerName };
}
