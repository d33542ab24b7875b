/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- a
	test: runs in Node.js, not inside n8n (Node.js's modules, `__dirname`, `process`, child
	processes) */
/**
 * n8n Cloud eligibility as n8n's own tool sees it: `n8n-node cloud-support` (node-cli) reports the
 * package eligible only with `"strict": true` in package.json and node-cli's default
 * eslint.config.mjs. Run as a user runs it (`npx n8n-node cloud-support`), in the repository's root.
 * The tests and tooling may be exempt from some of n8n's rules, each file stating which at its top;
 * the package's own files never are.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

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

	it("leaves no rule of n8n-node lint off in the package's own files", () => {
		const files = [
			'index.ts',
			...['nodes', 'credentials'].flatMap((dir) =>
				readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((file) => join(dir, file)),
			),
		].filter((file) => file.endsWith('.ts'));
		expect(files).toContain(join('nodes', 'Records', 'Records.node.ts'));
		// ESLint's directive comments: eslint-disable(-line, -next-line), eslint-enable, and `/* eslint rule: off */`.
		const directive = /\/[/*]\s*eslint(-disable|-enable|\s+[@\w/-]+\s*:)/;
		expect(files.filter((file) => directive.test(readFileSync(join(root, file), 'utf8')))).toEqual([]);
	});
});
