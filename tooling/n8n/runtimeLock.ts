/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
/**
 * The npm lockfile of an n8n release's install, kept in the repository (tooling/n8n/locks/): npm
 * installs that exact tree with `npm ci`, fetching each tarball by its address and checksum, instead
 * of resolving n8n's 2,400 dependencies again (about 2,600 registry requests with an empty cache,
 * and a tree that changes whenever a dependency publishes). Made from an install
 * (`tsx tooling/n8n-runtime.ts lock v2`) with every package's tarball address written in, as npm
 * leaves it out on machines set to omit it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from '../lib/paths';

export const REGISTRY = 'https://registry.npmjs.org';

/** The part of package-lock.json (version 3) this module reads and writes. */
export interface Lockfile {
	lockfileVersion: number;
	packages: Record<string, LockedPackage>;
	[key: string]: unknown;
}

export interface LockedPackage {
	name?: string;
	version?: string;
	resolved?: string;
	integrity?: string;
	link?: boolean;
	dependencies?: Record<string, string>;
	[key: string]: unknown;
}

/** Where the lockfile of an n8n release is kept. */
export function lockfilePath(n8nVersion: string): string {
	return join(repoRoot, 'tooling', 'n8n', 'locks', `n8n-${n8nVersion}.package-lock.json`);
}

export function readLockfile(n8nVersion: string): Lockfile | undefined {
	const file = lockfilePath(n8nVersion);
	return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Lockfile) : undefined;
}

/** A package's name at a lockfile path: `node_modules/a/node_modules/@s/b` holds `@s/b` (an alias says its own). */
function packageName(path: string, entry: LockedPackage): string {
	return entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

/** The registry's address of a package's tarball: `<registry>/@s/b/-/b-1.2.3.tgz`. */
export function tarballUrl(name: string, version: string): string {
	const base = name.startsWith('@') ? name.slice(name.indexOf('/') + 1) : name;
	return `${REGISTRY}/${name}/-/${base}-${version}.tgz`;
}

/**
 * The lockfile with each registry package's tarball address written in, so that `npm ci` fetches
 * no package manifest. (npm replaces the registry's host with the one a user has configured.)
 */
export function withTarballUrls(lock: Lockfile): Lockfile {
	const packages: Record<string, LockedPackage> = {};
	for (const [path, entry] of Object.entries(lock.packages)) {
		const fromRegistry = path !== '' && !entry.link && entry.version !== undefined && entry.integrity !== undefined;
		packages[path] = fromRegistry && entry.resolved === undefined ? addressed(entry, tarballUrl(packageName(path, entry), entry.version as string)) : entry;
	}
	return { ...lock, packages };
}

/** The entry with `resolved` after `version`, where npm writes it (so that npm's next write changes nothing). */
function addressed(entry: LockedPackage, resolved: string): LockedPackage {
	const result: LockedPackage = {};
	for (const [key, value] of Object.entries(entry)) {
		result[key] = value;
		if (key === 'version') result.resolved = resolved;
	}
	return result;
}

/** How many packages npm fetches at most for this lockfile (some are for other platforms). */
export function lockedPackageCount(lock: Lockfile): number {
	return Object.entries(lock.packages).filter(([path, entry]) => path !== '' && !entry.link).length;
}

/** The dependencies the lockfile's root declares, which package.json must declare alike for `npm ci`. */
export function rootDependencies(lock: Lockfile): Record<string, string> {
	return lock.packages['']?.dependencies ?? {};
}
