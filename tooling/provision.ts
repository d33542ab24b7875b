/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions --
	tooling: runs in Node.js, not inside n8n (Node.js's modules, `process`, child processes) */
/**
 * The first step of `npm test` and of CI: makes sure the machine has the programs the tests need
 * beyond Node.js and npm, and installs the missing ones from Debian's packages when it can.
 *
 * - All present: one line, done (a prepared machine never touches apt).
 * - Missing, and root (or password-less sudo) with apt-get: `apt-get install` them, then check again.
 * - Missing otherwise: stop at once with the exact command to run, so that nobody learns of a missing
 *   program from a test failing minutes later.
 *
 * Self-contained on purpose (Node's own modules only): it runs before anything else is known to work.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

interface Requirement {
	/** What the tests run; found on PATH (or the standard system folders) unless an absolute path. */
	programs: string[];
	/** The Debian package that provides the programs. */
	debianPackage: string;
	/** What needs it, for the message. */
	neededFor: string;
}

const requirements: Requirement[] = [
	{ programs: ['redis-server'], debianPackage: 'redis-server', neededFor: "n8n's queue mode in the end-to-end tests" },
	// The browser tests launch exactly this path (Debian's Chromium), not any Chrome on PATH.
	{ programs: ['/usr/bin/chromium'], debianPackage: 'chromium', neededFor: 'the browser tests (editor screenshot, credential view)' },
	{ programs: ['make', 'g++'], debianPackage: 'build-essential', neededFor: "installing n8n (its sqlite3 addon is compiled)" },
	{ programs: ['python3'], debianPackage: 'python3', neededFor: "installing n8n (node-gyp)" },
];

const searchPath = [...(process.env.PATH ?? '').split(delimiter), '/usr/local/bin', '/usr/bin', '/usr/sbin', '/bin'].filter(Boolean);

function isExecutableFile(path: string): boolean {
	try {
		accessSync(path, constants.X_OK);
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

function found(program: string): boolean {
	if (program.startsWith('/')) return isExecutableFile(program);
	return searchPath.some((dir) => isExecutableFile(join(dir, program)));
}

function missingRequirements(): Requirement[] {
	return requirements.filter((requirement) => !requirement.programs.every(found));
}

function describe(missing: Requirement[]): string {
	return missing.map((r) => `  - ${r.programs.join(', ')} (Debian package ${r.debianPackage}): ${r.neededFor}`).join('\n');
}

/** How this process may run apt-get as root: directly, through password-less sudo, or not at all. */
function rootPrefix(): string[] | undefined {
	if (process.getuid?.() === 0) return [];
	const sudo = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 5000 });
	return sudo.status === 0 ? ['sudo', '-n'] : undefined;
}

function run(command: string[]): void {
	process.stderr.write(`$ ${command.join(' ')}\n`);
	const result = spawnSync(command[0], command.slice(1), {
		stdio: 'inherit',
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
	});
	if (result.status !== 0) {
		stop(`${command.join(' ')} failed (${result.error?.message ?? `exit code ${result.status}`}); nothing was tested.`);
	}
}

function stop(message: string): never {
	process.stderr.write(`\n${message}\n\n`);
	process.exit(1);
}

function main(): void {
	const missing = missingRequirements();
	if (missing.length === 0) {
		process.stdout.write('provision: redis-server, chromium, make, g++ and python3 are present\n');
		return;
	}
	const packages = missing.map((r) => r.debianPackage);
	const hasApt = found('apt-get');
	const prefix = hasApt ? rootPrefix() : undefined;
	if (!hasApt) {
		stop(
			`npm test needs programs this machine does not have:\n${describe(missing)}\n` +
				`This machine has no apt-get. Install the equivalents of the Debian packages ${packages.join(', ')} ` +
				'with its package manager (Chromium must be at /usr/bin/chromium), then run npm test again.',
		);
	}
	if (!prefix) {
		stop(
			`npm test needs programs this machine does not have:\n${describe(missing)}\n` +
				'Installing them needs root. Run this, then npm test again:\n\n' +
				`  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`,
		);
	}
	process.stderr.write(`provision: installing ${packages.join(', ')} from Debian's packages for:\n${describe(missing)}\n`);
	run([...prefix, 'apt-get', 'update', '-qq']);
	run([...prefix, 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages]);
	const stillMissing = missingRequirements();
	if (stillMissing.length > 0) {
		stop(`apt-get install ${packages.join(' ')} finished, but these are still missing:\n${describe(stillMissing)}`);
	}
	process.stdout.write(`provision: installed ${packages.join(', ')}\n`);
}

main();
