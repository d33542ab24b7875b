/**
 * What npm is doing during an install or a rebuild, in a few words, read from its output: npm at
 * `--loglevel=http` names every package manifest and tarball it fetches (or takes from its cache),
 * and `npm rebuild --foreground-scripts` shows each install script and the compiler's lines.
 * Pure: fed the output as it comes (chunks may end mid-line), asked for a summary at any time.
 */

/** `npm http fetch GET 200 <url> 92ms (cache miss)` and `npm http cache <name>@<url> 0ms (cache hit)`. */
const HTTP_LINE = /^npm http (?:fetch \S+ \d+ |cache \S*?@?)(https?:\/\/\S+)/;
/** `> isolated-vm@6.0.2 install`: a package's install script starts. */
const SCRIPT_LINE = /^> (@?[^@\s]+)@\S+ (?:preinstall|install|postinstall)$/;
/** node-gyp's make output: a line as each source file's compile starts, naming its object file. */
const COMPILE_LINE = /^\s*(?:CXX|CC)\(target\) (\S+)/;

export class NpmProgress {
	private partial = '';
	private readonly manifests = new Set<string>();
	private readonly tarballs = new Set<string>();
	private script?: string;
	private compiling = 0;
	private compilingFile = '';

	/** `expectedTarballs`: how many packages a lockfile lists, said as "n of …" (npm fetches no manifest then). */
	constructor(private readonly expectedTarballs?: number) {}

	feed(text: string): void {
		const lines = (this.partial + text).split('\n');
		this.partial = lines.pop() ?? '';
		for (const line of lines) this.read(line.trimEnd());
	}

	private read(line: string): void {
		const url = HTTP_LINE.exec(line)?.[1];
		if (url) {
			(url.endsWith('.tgz') ? this.tarballs : this.manifests).add(url);
			return;
		}
		const script = SCRIPT_LINE.exec(line)?.[1];
		if (script) {
			this.script = script;
			this.compiling = 0;
			this.compilingFile = '';
			return;
		}
		const object = COMPILE_LINE.exec(line)?.[1];
		if (object) {
			this.compiling++;
			this.compilingFile = object.split('/').pop() ?? object;
		}
	}

	/** What npm is at, for a progress line: '' before it has said anything. */
	summary(): string {
		const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
		const manifests = count(this.manifests.size, 'package manifest read', 'package manifests read');
		if (this.script) {
			return this.compiling > 0 ? `${this.script}: compiling file ${this.compiling} (${this.compilingFile})` : `${this.script}: running its install script`;
		}
		if (this.expectedTarballs !== undefined) {
			return `${this.tarballs.size.toLocaleString('en-US')} of up to ${this.expectedTarballs.toLocaleString('en-US')} packages downloaded`;
		}
		if (this.tarballs.size > 0) return `${manifests}, ${count(this.tarballs.size, 'package downloaded', 'packages downloaded')}`;
		if (this.manifests.size > 0) return `resolving dependencies: ${manifests}`;
		return '';
	}
}
