/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from '../lib/paths';
import { run } from '../lib/proc';
import { npmEnv } from './runtime';

interface PackageJson {
	name: string;
	version: string;
	n8n?: { nodes?: string[]; credentials?: string[] };
}

export function readPackageJson(dir = repoRoot): PackageJson {
	return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** Compiles the package into dist/ with the repository's own build script. */
export async function buildPackage(): Promise<void> {
	// From clean, so files of deleted sources cannot linger in dist/ and get published.
	await run('npm', ['run', 'clean'], { cwd: repoRoot, env: npmEnv() });
	await run('npm', ['run', 'build'], { cwd: repoRoot, env: npmEnv() });
}

/** What may be published: the compiled code, the manifest, and the documents npm always includes. */
const allowedInTarball = [/^package\.json$/, /^README(\.md)?$/i, /^LICEN[SC]E(\.md|\.txt)?$/i, /^dist\/.+/];

/**
 * Why a tarball's file list is not publishable, or an empty list when it is: files outside the
 * allowed set (sources, tests, sandbox, caches) and paths of the `n8n` block that are not in it,
 * which n8n would fail to load after installing the package.
 */
export function tarballProblems(files: string[], pkg: PackageJson): string[] {
	const problems: string[] = [];
	const unexpected = files.filter((file) => !allowedInTarball.some((pattern) => pattern.test(file)));
	if (unexpected.length > 0) {
		problems.push(
			`${unexpected.length} file(s) outside dist/, package.json, README and LICENSE: ${unexpected.slice(0, 10).join(', ')}${unexpected.length > 10 ? ', …' : ''}`,
		);
	}
	// A map names the .ts sources it was made from, which the package does not ship: a stack trace
	// in n8n would point users at files they cannot open.
	const maps = files.filter((file) => file.endsWith('.map'));
	if (maps.length > 0) {
		problems.push(`${maps.length} source map(s) whose .ts sources are not in the package: ${maps.slice(0, 3).join(', ')}${maps.length > 3 ? ', …' : ''}`);
	}
	const declared = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	if (declared.length === 0) problems.push('package.json has no n8n.nodes or n8n.credentials entries');
	for (const path of declared) {
		if (!files.includes(path.replace(/^\.\//, ''))) problems.push(`n8n block lists ${path}, which is not in the tarball`);
	}
	return problems;
}

export interface PackedPackage {
	tarball: string;
	name: string;
	version: string;
	files: string[];
}

/**
 * Packs the built package with `npm pack`, exactly what `npm publish` would upload, and checks the
 * tarball's contents. Fails with the list of problems when it is not publishable.
 */
export async function packPackage(destination: string): Promise<PackedPackage> {
	mkdirSync(destination, { recursive: true });
	const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: repoRoot,
		env: npmEnv(),
	});
	const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>;
	const tarball = join(destination, packed.filename);
	const listing = await run('tar', ['-tzf', tarball]);
	const files = listing.stdout
		.split('\n')
		.filter((line) => line && !line.endsWith('/'))
		.map((line) => line.replace(/^package\//, ''));
	const pkg = readPackageJson();
	const problems = tarballProblems(files, pkg);
	if (problems.length > 0) {
		throw new Error(`The npm package ${packed.filename} is not publishable:\n- ${problems.join('\n- ')}\nAdjust "files" in package.json or the build so that only dist/ is shipped.`);
	}
	return { tarball, name: pkg.name, version: pkg.version, files };
}

/** n8n's folder for community packages inside an instance's user folder. */
export function communityNodesDir(userFolder: string): string {
	return join(userFolder, '.n8n', 'nodes');
}

/**
 * Installs a packed package the way n8n's community-package installer leaves it: unpacked into
 * <user folder>/.n8n/nodes/node_modules/<name> and listed in that folder's package.json, where n8n
 * discovers it at start. The package has no runtime dependencies (n8n-workflow is a peer that n8n
 * provides), so unpacking is the whole install. Replaces an earlier install of the same package.
 *
 * n8n provides the peer through NODE_PATH, which Node.js consults only after every node_modules
 * folder above the package: under this repository that walk reaches the repository's own
 * n8n-workflow (a dev dependency) first, and the package would run with a second copy of it, a
 * release other than n8n's, whose error classes n8n does not recognize (`instanceof` fails). So
 * `n8nWorkflowDir`, n8n's own copy, is linked beside the package, where the walk finds it first.
 */
export async function installPackage(packed: PackedPackage, userFolder: string, n8nWorkflowDir?: string): Promise<string> {
	const nodesDir = communityNodesDir(userFolder);
	const target = join(nodesDir, 'node_modules', packed.name);
	rmSync(target, { recursive: true, force: true });
	mkdirSync(target, { recursive: true });
	if (n8nWorkflowDir) {
		const peer = join(nodesDir, 'node_modules', 'n8n-workflow');
		rmSync(peer, { recursive: true, force: true });
		symlinkSync(n8nWorkflowDir, peer, 'dir');
	}
	await run('tar', ['-xzf', packed.tarball, '-C', target, '--strip-components=1']);
	const manifest = join(nodesDir, 'package.json');
	// No "name": these manifests pile up under .cache, and jest reports equally named packages as collisions.
	let nodesPackage: { private?: boolean; dependencies?: Record<string, string> } = { private: true };
	try {
		nodesPackage = JSON.parse(readFileSync(manifest, 'utf8')) as typeof nodesPackage;
	} catch {
		// First package in this instance.
	}
	nodesPackage.dependencies = { ...nodesPackage.dependencies, [packed.name]: packed.version };
	writeFileSync(manifest, JSON.stringify(nodesPackage, null, '\t'));
	return target;
}
