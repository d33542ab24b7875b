/**
 * n8n Cloud eligibility as n8n's own tool sees it: `n8n-node cloud-support` (node-cli) reports the
 * package eligible only with `"strict": true` in package.json and node-cli's default
 * eslint.config.mjs. Run as a user runs it (`npx n8n-node cloud-support`), in the repository's root.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(__dirname, '../../..');

function nodeCli(...args: string[]): string {
	const result = spawnSync('npx', ['--no-install', 'n8n-node', ...args], {
		cwd: root,
		encoding: 'utf8',
		env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
	});
	expect(result.status).toBe(0);
	return result.stdout + result.stderr;
}

describe('n8n Cloud support', () => {
	it('is reported enabled by `n8n-node cloud-support`: strict mode and the default ESLint config', () => {
		const report = nodeCli('cloud-support');
		expect(report).toContain('Cloud support is ENABLED');
		expect(report).toContain('Strict mode: enabled');
		expect(report).toContain('ESLint config: using default config');
	});
});
