import { RUNTIMES } from '../../../../tooling/n8n/runtime';
import { lockedPackageCount, readLockfile, rootDependencies, tarballUrl, withTarballUrls, type Lockfile } from '../../../../tooling/n8n/runtimeLock';

describe('the lockfile kept for an n8n release', () => {
	it('gives each registry package its tarball address, scoped, nested and aliased alike', () => {
		const lock: Lockfile = {
			lockfileVersion: 3,
			packages: {
				'': { name: 'n8n-runtime', dependencies: { n8n: '^2.41.1' } },
				'node_modules/lodash': { version: '4.17.21', integrity: 'sha512-a' },
				'node_modules/@n8n/config/node_modules/@scope/pkg': { version: '1.0.0', integrity: 'sha512-b' },
				'node_modules/string-width-cjs': { name: 'string-width', version: '4.2.3', integrity: 'sha512-c' },
				'node_modules/bundled': { version: '1.0.0', inBundle: true },
				'node_modules/local': { resolved: '../local', link: true },
				'node_modules/kept': { version: '2.0.0', integrity: 'sha512-d', resolved: 'https://example.org/kept.tgz' },
			},
		};
		const { packages } = withTarballUrls(lock);
		expect(packages['node_modules/lodash'].resolved).toBe('https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz');
		expect(packages['node_modules/@n8n/config/node_modules/@scope/pkg'].resolved).toBe('https://registry.npmjs.org/@scope/pkg/-/pkg-1.0.0.tgz');
		expect(packages['node_modules/string-width-cjs'].resolved).toBe('https://registry.npmjs.org/string-width/-/string-width-4.2.3.tgz');
		expect(packages['node_modules/bundled'].resolved).toBeUndefined();
		expect(packages['node_modules/local'].resolved).toBe('../local');
		expect(packages['node_modules/kept'].resolved).toBe('https://example.org/kept.tgz');
		expect(packages[''].resolved).toBeUndefined();
		expect(lockedPackageCount(lock)).toBe(5);
		expect(tarballUrl('@a/b', '1.2.3')).toBe('https://registry.npmjs.org/@a/b/-/b-1.2.3.tgz');
	});

	it("exists for the release npm start installs, with that n8n, the release's overrides and every tarball's address", () => {
		const spec = RUNTIMES.v2;
		const lock = readLockfile(spec.n8nVersion);
		expect(lock).toBeDefined();
		if (!lock) return;
		expect(rootDependencies(lock)).toEqual({ n8n: `^${spec.n8nVersion}` });
		expect(lock.packages['node_modules/n8n'].version).toBe(spec.n8nVersion);
		for (const [name, version] of Object.entries(spec.overrides)) {
			expect(lock.packages[`node_modules/${name}`]?.version).toBe(version);
		}
		const withoutAddress = Object.entries(lock.packages).filter(
			([path, entry]) => path !== '' && entry.integrity !== undefined && entry.resolved === undefined,
		);
		expect(withoutAddress).toEqual([]);
	});
});
