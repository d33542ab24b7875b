/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { run } from '../../../../tooling/lib/proc';
import { LoopbackRegistry, repackTarball } from '../../../../tooling/n8n/registry';
import { npmEnv } from '../../../../tooling/n8n/runtime';

/** npm itself reads the registry, as n8n's installer runs it (`npm view`, `npm pack`). */
describe('the loopback registry, read by npm', () => {
	let work: string;
	let registry: LoopbackRegistry;
	const npm = async (args: string[]) =>
		await run('npm', [...args, `--registry=${registry.url}`], {
			cwd: work,
			env: npmEnv({ npm_config_cache: join(work, 'npm-cache') }),
		});

	beforeAll(async () => {
		work = mkdtempSync(join(tmpdir(), 'registry-test-'));
		mkdirSync(join(work, 'src', 'package', 'dist'), { recursive: true });
		writeFileSync(
			join(work, 'src', 'package', 'package.json'),
			JSON.stringify({ name: 'n8n-nodes-registry-probe', version: '1.0.0', main: 'dist/index.js' }),
		);
		writeFileSync(join(work, 'src', 'package', 'dist', 'index.js'), 'module.exports = 1;\n');
		const first = join(work, 'n8n-nodes-registry-probe-1.0.0.tgz');
		await run('tar', ['-czf', first, '-C', join(work, 'src'), 'package']);
		registry = await LoopbackRegistry.start();
		await registry.publish(first);
		await registry.publish(await repackTarball(first, '1.0.1', work));
	});

	afterAll(async () => {
		await registry?.close();
		rmSync(work, { recursive: true, force: true });
	});

	test('npm view finds the last published version as latest, and each version by number', async () => {
		expect(JSON.parse((await npm(['view', 'n8n-nodes-registry-probe@latest', 'version', '--json'])).stdout)).toBe('1.0.1');
		expect(JSON.parse((await npm(['view', 'n8n-nodes-registry-probe', 'versions', '--json'])).stdout)).toEqual(['1.0.0', '1.0.1']);
		const answer = await fetch(`${registry.url}/n8n-nodes-registry-probe/1.0.0`);
		expect(((await answer.json()) as { version: string }).version).toBe('1.0.0');
	});

	test('npm pack downloads a version whose integrity npm checks; the repacked one differs only in its version', async () => {
		mkdirSync(join(work, 'out'), { recursive: true });
		const packed = (await run('npm', ['pack', 'n8n-nodes-registry-probe@1.0.1', '--quiet', `--registry=${registry.url}`], {
			cwd: join(work, 'out'),
			env: npmEnv({ npm_config_cache: join(work, 'npm-cache') }),
		})).stdout.trim();
		expect(packed).toBe('n8n-nodes-registry-probe-1.0.1.tgz');
		const manifest = JSON.parse((await run('tar', ['-xzOf', join(work, 'out', packed), 'package/package.json'])).stdout) as Record<string, unknown>;
		expect(manifest).toEqual({ name: 'n8n-nodes-registry-probe', version: '1.0.1', main: 'dist/index.js' });
		expect((await run('tar', ['-xzOf', join(work, 'out', packed), 'package/dist/index.js'])).stdout).toBe('module.exports = 1;\n');
		expect(registry.requests).toContain('GET /n8n-nodes-registry-probe/-/n8n-nodes-registry-probe-1.0.1.tgz 200');
	});

	test('an unknown package or version is a 404, as npm expects', async () => {
		expect((await fetch(`${registry.url}/n8n-nodes-unknown`)).status).toBe(404);
		expect((await fetch(`${registry.url}/n8n-nodes-registry-probe/9.9.9`)).status).toBe(404);
		const view = await run('npm', ['view', 'n8n-nodes-registry-probe@9.9.9', 'version', `--registry=${registry.url}`], {
			cwd: work,
			env: npmEnv({ npm_config_cache: join(work, 'npm-cache') }),
			allowFailure: true,
		});
		expect(view.stdout.trim()).toBe('');
	});
});
