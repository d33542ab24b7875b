/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not
	inside n8n (Node.js's modules) */
/**
 * A tiny npm registry on loopback: what n8n's community-package installer reads from a registry,
 * and nothing more. It serves published tarballs of this package the way registry.npmjs.org does:
 *
 * - `GET /<name>`: the packument (every version's manifest, `dist-tags.latest`), which `npm pack`,
 *   `npm view` and `npm outdated` read;
 * - `GET /<name>/<version or tag>`: one version's manifest, which n8n asks before installing;
 * - `GET /<name>/-/<file>.tgz`: the tarball.
 *
 * Publishing is a call in the test's process (no `npm publish`, which n8n never makes). Every
 * request is recorded, so a test can show the installer fetched from here. Answers are never
 * cached by npm (`no-cache`), so a version published later is seen at once.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { run } from '../lib/proc';

interface Published {
	manifest: Record<string, unknown> & { name: string; version: string };
	tarball: Buffer;
	file: string;
}

export class LoopbackRegistry {
	/** Requests answered, as "METHOD path status", in order. */
	readonly requests: string[] = [];
	private readonly packages = new Map<string, Map<string, Published>>();

	private readonly server: Server = createServer((request, response) => {
		const answer = this.answer(request.url ?? '/');
		this.requests.push(`${request.method ?? 'GET'} ${request.url ?? '/'} ${answer.status}`);
		response.writeHead(answer.status, {
			'content-type': answer.type ?? 'application/json',
			'cache-control': 'no-cache',
			'content-length': Buffer.byteLength(answer.body),
		});
		response.end(answer.body);
	});

	private constructor() {}

	static async start(): Promise<LoopbackRegistry> {
		const registry = new LoopbackRegistry();
		await new Promise<void>((resolve) => registry.server.listen(0, '127.0.0.1', resolve));
		return registry;
	}

	/** The registry's address, for N8N_COMMUNITY_PACKAGES_REGISTRY. */
	get url(): string {
		return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
	}

	/** Publishes a tarball made by `npm pack` (or repackTarball) under the name and version inside it. */
	async publish(tarballPath: string): Promise<{ name: string; version: string }> {
		const { stdout } = await run('tar', ['-xzOf', tarballPath, 'package/package.json']);
		const manifest = JSON.parse(stdout) as Published['manifest'];
		const tarball = readFileSync(tarballPath);
		const file = `${manifest.name}-${manifest.version}.tgz`;
		const versions = this.packages.get(manifest.name) ?? new Map<string, Published>();
		versions.set(manifest.version, { manifest, tarball, file });
		this.packages.set(manifest.name, versions);
		return { name: manifest.name, version: manifest.version };
	}

	close(): Promise<void> {
		return new Promise((resolve) => this.server.close(() => resolve()));
	}

	private answer(url: string): { status: number; body: string | Buffer; type?: string } {
		const path = decodeURIComponent(url.split('?')[0]);
		const notFound = { status: 404, body: JSON.stringify({ error: 'Not found' }) };
		// Unscoped names only (n8n-nodes-…): the name is the first segment.
		const [, name, second, third] = /^\/([^/]+)(?:\/([^/]+))?(?:\/([^/]+))?$/.exec(path) ?? [];
		const versions = name === undefined ? undefined : this.packages.get(name);
		if (!versions) return notFound;
		if (second === undefined) return { status: 200, body: JSON.stringify(this.packument(name, versions)) };
		if (second === '-' && third !== undefined) {
			const published = [...versions.values()].find((entry) => entry.file === third);
			return published ? { status: 200, body: published.tarball, type: 'application/octet-stream' } : notFound;
		}
		const version = second === 'latest' ? this.latest(versions) : second;
		const published = third === undefined ? versions.get(version) : undefined;
		return published ? { status: 200, body: JSON.stringify(this.versionManifest(published)) } : notFound;
	}

	private latest(versions: Map<string, Published>): string {
		// Published in ascending order by the tests: the last one is the latest, as `npm publish` tags it.
		return [...versions.keys()].at(-1) ?? '';
	}

	private versionManifest({ manifest, tarball, file }: Published): Record<string, unknown> {
		return {
			...manifest,
			_id: `${manifest.name}@${manifest.version}`,
			dist: {
				tarball: `${this.url}/${manifest.name}/-/${file}`,
				shasum: createHash('sha1').update(tarball).digest('hex'),
				integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
			},
		};
	}

	private packument(name: string, versions: Map<string, Published>): Record<string, unknown> {
		return {
			_id: name,
			name,
			'dist-tags': { latest: this.latest(versions) },
			versions: Object.fromEntries([...versions].map(([version, published]) => [version, this.versionManifest(published)])),
		};
	}
}

/**
 * The same package under another version: the tarball unpacked, `version` in its package.json
 * changed, `edit` (if given) applied to the unpacked folder, packed again. Without `edit` nothing
 * else differs, as when a release is built from an unchanged tree.
 */
export async function repackTarball(
	tarballPath: string,
	version: string,
	destination: string,
	edit?: (packageDir: string) => void,
): Promise<string> {
	const work = mkdtempSync(join(tmpdir(), 'repack-'));
	try {
		await run('tar', ['-xzf', tarballPath, '-C', work]);
		const manifestFile = join(work, 'package', 'package.json');
		const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { name: string; version: string };
		manifest.version = version;
		writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
		edit?.(join(work, 'package'));
		const output = join(destination, `${manifest.name}-${version}.tgz`);
		await run('tar', ['-czf', output, '-C', work, 'package']);
		return output;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}
