/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, no-console -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules, `process`, the console) */
/**
 * Installs the pinned n8n releases this package is tested against into .cache/runtime, and packs
 * the package the way it is published.
 *
 *   tsx tooling/n8n-runtime.ts install [v2|v1|all]   install n8n (default v2 = n8n 2.x on Node.js 24)
 *   tsx tooling/n8n-runtime.ts pack                   npm pack the built package and check its contents
 *   tsx tooling/n8n-runtime.ts lock [v2]              keep the installed release's npm lockfile (tooling/n8n/locks/)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { packPackage } from './n8n/package';
import { cacheDir } from './lib/paths';
import { formatDuration } from './lib/proc';
import { ensureRuntime, runtimeDir, RUNTIMES, runtimeSpec } from './n8n/runtime';
import { lockfilePath, withTarballUrls, type Lockfile } from './n8n/runtimeLock';

const usage = `Usage:
  n8n-runtime install [${Object.keys(RUNTIMES).join('|')}|all]   install pinned n8n releases into .cache/runtime
  n8n-runtime pack                    npm pack the built package into .cache/package and check the tarball
  n8n-runtime lock [v2]               keep the installed release's npm lockfile, so that later installs resolve nothing`;

async function main(argv: string[]): Promise<void> {
	const [command = 'install', ...rest] = argv;
	if (command === 'install') {
		const wanted = rest.length === 0 ? ['v2'] : rest.includes('all') ? Object.keys(RUNTIMES) : rest;
		const specs = wanted.map(runtimeSpec);
		const started = Date.now();
		// In parallel: the downloads wait on the network, the compiles on the CPU.
		await Promise.all(
			specs.map(async (spec) => {
				const runtime = await ensureRuntime(spec);
				console.log(
					`n8n ${spec.n8nVersion} (${spec.name}) on ${runtime.nodeBin}: ready (${formatDuration(Date.now() - started)})`,
				);
			}),
		);
		return;
	}
	if (command === 'pack') {
		const packed = await packPackage(join(cacheDir, 'package'));
		console.log(`${packed.tarball}: ${packed.files.length} files, contents checked`);
		return;
	}
	if (command === 'lock') {
		const spec = runtimeSpec(rest[0] ?? 'v2');
		const installed = JSON.parse(readFileSync(join(runtimeDir(spec), 'package-lock.json'), 'utf8')) as Lockfile;
		const file = lockfilePath(spec.n8nVersion);
		writeFileSync(file, `${JSON.stringify(withTarballUrls(installed), null, '\t')}\n`);
		console.log(`${file}: the lockfile of n8n ${spec.n8nVersion}'s install`);
		return;
	}
	throw new Error(`Unknown command "${command}".\n${usage}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
