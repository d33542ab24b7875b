import { NpmProgress } from '../../../../tooling/n8n/installProgress';

/** What npm 11 prints at --loglevel=http and in `npm rebuild --foreground-scripts` (copied from real runs). */
const manifest = (name: string) => `npm http fetch GET 200 https://registry.npmjs.org/${name} 92ms (cache miss)\n`;
const tarball = (name: string, version: string) =>
	`npm http fetch GET 200 https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${version}.tgz 688ms (cache miss)\n`;
const cached = (name: string, version: string) =>
	`npm http cache ${name}@https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${version}.tgz 0ms (cache hit)\n`;

describe('NpmProgress', () => {
	it('says nothing before npm has said anything', () => {
		expect(new NpmProgress().summary()).toBe('');
	});

	it('counts the manifests read while npm resolves, then the packages downloaded, each once', () => {
		const progress = new NpmProgress();
		progress.feed(manifest('n8n') + manifest('@n8n/config') + manifest('lodash'));
		expect(progress.summary()).toBe('resolving dependencies: 3 package manifests read');

		progress.feed(cached('@n8n/config', '2.40.0') + tarball('@n8n/config', '2.40.0') + tarball('lodash', '4.17.21'));
		expect(progress.summary()).toBe('3 package manifests read, 2 packages downloaded');
	});

	it('from a lockfile, counts the packages downloaded against how many it lists', () => {
		const progress = new NpmProgress(2449);
		expect(progress.summary()).toBe('0 of up to 2,449 packages downloaded');
		progress.feed(tarball('@n8n/config', '2.40.0') + cached('lodash', '4.17.21') + tarball('@n8n/config', '2.40.0'));
		expect(progress.summary()).toBe('2 of up to 2,449 packages downloaded');
	});

	it('reads lines cut between chunks', () => {
		const progress = new NpmProgress();
		const text = manifest('n8n') + manifest('lodash');
		progress.feed(text.slice(0, 30));
		progress.feed(text.slice(30, 100));
		progress.feed(text.slice(100));
		expect(progress.summary()).toBe('resolving dependencies: 2 package manifests read');
	});

	it('names the package whose install script runs, and the source file it compiles', () => {
		const progress = new NpmProgress();
		progress.feed('\n> sqlite3@5.1.7 install\n> prebuild-install -r napi || node-gyp rebuild\n\n');
		expect(progress.summary()).toBe('sqlite3: running its install script');
		progress.feed('  CC(target) Release/obj.target/sqlite3/gyp/sqlite3.o\n  CXX(target) Release/obj.target/node_sqlite3/src/backup.o\n');
		expect(progress.summary()).toBe('sqlite3: compiling file 2 (backup.o)');

		progress.feed('> isolated-vm@6.0.2 install\n  CXX(target) Release/obj.target/isolated_vm/src/isolate/class_handle.o\n');
		expect(progress.summary()).toBe('isolated-vm: compiling file 1 (class_handle.o)');
	});

	it('counts in thousands with separators', () => {
		const progress = new NpmProgress();
		progress.feed(Array.from({ length: 1234 }, (_, index) => manifest(`package-${index}`)).join(''));
		expect(progress.summary()).toBe('resolving dependencies: 1,234 package manifests read');
	});
});
