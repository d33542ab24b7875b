/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- a test of tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `process`) */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { run, sleep } from '../../../../tooling/lib/proc';

describe('run with a log file', () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), 'proc-test-'));
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	// Issue 48: the install log CONTRIBUTING.md names did not exist while n8n installed (minutes).
	it('holds the command and its output while the command still runs, then its exit', async () => {
		const logFile = join(dir, 'install.log');
		// Split words, so that the command line in the log does not already hold the output.
		const script = "console.log('first', 'line'); console.error('a', 'warning'); setTimeout(() => console.log('last', 'line'), 3000);";
		const running = run(process.execPath, ['-e', script], { logFile });

		let seenWhileRunning = '';
		for (let waited = 0; waited < 2500 && !seenWhileRunning.includes('a warning'); waited += 100) {
			await sleep(100);
			if (existsSync(logFile)) seenWhileRunning = readFileSync(logFile, 'utf8');
		}
		expect(seenWhileRunning).toContain(`$ ${process.execPath} -e`);
		expect(seenWhileRunning).toContain('first line');
		expect(seenWhileRunning).toContain('a warning');
		expect(seenWhileRunning).not.toContain('last line');

		await running;
		const log = readFileSync(logFile, 'utf8');
		expect(log).toContain('last line');
		expect(log.trimEnd().endsWith('[exit 0]')).toBe(true);
		expect(log.split('first line')).toHaveLength(2);
	});

	it('logs what a command sent to its stdout file too', async () => {
		const logFile = join(dir, 'cli.log');
		await run(process.execPath, ['-e', "console.log('to the', 'file')"], { logFile, stdoutFile: join(dir, 'out.txt') });
		expect(readFileSync(logFile, 'utf8')).toContain('to the file');
	});
});
