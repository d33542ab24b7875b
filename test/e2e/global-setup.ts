/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside n8n (Node.js's
	modules, `process`) */
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { buildPackage, packPackage } from '../../tooling/n8n/package';
import { cacheDir } from '../../tooling/lib/paths';
import { formatDuration } from '../../tooling/lib/proc';
import { ensureRuntime, runtimeSpec } from '../../tooling/n8n/runtime';
import { e2eDir, runtimeNamesUnderTest, writeSetup } from './setup';

/**
 * Once per run: installs the n8n releases under test (minutes the first time, then cached),
 * builds and packs the package, and clears the instance folders of the previous run.
 */
export default async function globalSetup(): Promise<void> {
	const started = Date.now();
	const log = (line: string) => process.stderr.write(`[e2e] ${line}\n`);
	// Jest's own header ends without a newline.
	process.stderr.write('\n');
	await Promise.all(runtimeNamesUnderTest().map((name) => ensureRuntime(runtimeSpec(name), log)));
	await buildPackage();
	const packed = await packPackage(join(cacheDir, 'e2e', 'package'));
	rmSync(join(e2eDir, 'instances'), { recursive: true, force: true });
	writeSetup({ packed });
	log(`ready in ${formatDuration(Date.now() - started)}: ${packed.tarball}`);
}
