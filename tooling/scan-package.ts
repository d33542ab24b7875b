/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions --
	tooling: runs in Node.js, not inside n8n (Node.js's modules, `__dirname`, `process`, child
	processes) */
/**
 * n8n's verification scan, run locally: the analysis `npx @n8n/scan-community-package` applies to a
 * published package, on this repository's source and on the tarball `npm pack` makes of it.
 *
 * The scanner's command line downloads the package and its provenance-attested source from the
 * registry, which an unpublished version does not have; its exported analysis is the same rule
 * set, so this script feeds it the local equivalents: the source as committed (package.json,
 * nodes/, credentials/) and the packed tarball (compiled .js and the published package.json).
 * Exits 1 with the scanner's report when either fails. Run by `npm test` (`npm run scan`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..');

function run(command: string, args: string[], cwd = root): string {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
	if (result.status !== 0) {
		throw new Error(`${command} ${args.join(' ')} failed (exit code ${result.status}):\n${result.stdout}`);
	}
	return result.stdout;
}

interface PackResult {
	filename: string;
	files: Array<{ path: string }>;
}

async function main(): Promise<void> {
	const work = mkdtempSync(join(tmpdir(), 'records-scan-'));
	// The scanner makes a temporary folder of its own when loaded; keep it inside ours.
	process.env.TMPDIR = work;
	try {
		const { analyzePackage, SOURCE_FILE_PATTERNS } = await import('@n8n/scan-community-package/scanner/scanner.mjs');

		run('npm', ['run', '--silent', 'build']);
		const [packed] = JSON.parse(run('npm', ['pack', '--json', '--silent', '--pack-destination', work])) as PackResult[];
		const unpacked = join(work, 'package');
		mkdirSync(unpacked);
		run('tar', ['-xzf', join(work, packed.filename), '-C', unpacked, '--strip-components=1']);
		const compiled = packed.files.filter((file) => file.path.endsWith('.js')).length;

		const legs = [
			{ name: `source (${SOURCE_FILE_PATTERNS.join(', ')})`, result: await analyzePackage(root, SOURCE_FILE_PATTERNS) },
			{ name: `${packed.filename} (${compiled} .js files, package.json)`, result: await analyzePackage(unpacked, ['**/*.js', 'package.json']) },
		];
		for (const { name, result } of legs) {
			process.stdout.write(`${result.passed ? 'passed' : 'FAILED'}: ${name}${result.message ? `: ${result.message}` : ''}\n`);
			if (result.details) process.stdout.write(`${result.details}\n`);
		}
		if (legs.some((leg) => !leg.result.passed)) process.exitCode = 1;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	process.stderr.write(`scan failed: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exitCode = 1;
});
