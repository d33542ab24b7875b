/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions --
	tooling: runs in Node.js, not inside n8n (Node.js's modules, `process`, child processes) */
/**
 * The programs beyond Node.js and npm that `npm test` and `npm start` need, and getting them from
 * Debian's packages when they are missing:
 *
 * - All present: nothing happens (a prepared machine never touches apt).
 * - Missing, and root (or password-less sudo) with apt-get: `apt-get install` them, then check again.
 * - Missing otherwise: stop at once with the exact command to run, so that nobody learns of a missing
 *   program minutes later, from a compiler error deep in an install or a failing test.
 *
 * Node's own modules only: it runs before anything else is known to work.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export interface Requirement {
	/** What is run; found on PATH (or the standard system folders) unless an absolute path. */
	programs: string[];
	/** The Debian package that provides the programs. */
	debianPackage: string;
	/** What needs it, for the message. */
	neededFor: string;
}

/** What installing n8n compiles its native modules (sqlite3, isolated-vm) with: node-gyp's needs. */
export const BUILD_TOOLS: Requirement[] = [
	{ programs: ['make', 'g++'], debianPackage: 'build-essential', neededFor: "installing n8n (its sqlite3 addon is compiled)" },
	{ programs: ['python3'], debianPackage: 'python3', neededFor: 'installing n8n (node-gyp)' },
];

/** What the whole test suite needs: the build tools, and what the end-to-end tests start. */
export const TEST_REQUIREMENTS: Requirement[] = [
	{ programs: ['redis-server'], debianPackage: 'redis-server', neededFor: "n8n's queue mode in the end-to-end tests" },
	// The browser tests launch exactly this path (Debian's Chromium), not any Chrome on PATH.
	{ programs: ['/usr/bin/chromium'], debianPackage: 'chromium', neededFor: 'the browser tests (editor screenshot, credential view)' },
	...BUILD_TOOLS,
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

/** How this process may run apt-get as root: directly, through password-less sudo, or not at all. */
function rootPrefix(): string[] | undefined {
	if (process.getuid?.() === 0) return [];
	const sudo = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore', timeout: 5000 });
	return sudo.status === 0 ? ['sudo', '-n'] : undefined;
}

function describe(missing: Requirement[]): string {
	return missing.map((r) => `  - ${r.programs.join(', ')} (Debian package ${r.debianPackage}): ${r.neededFor}`).join('\n');
}

/** What to do about missing programs: install them with these commands, or stop with this message. */
export type ProvisionPlan = { install: string[][] } | { stop: string };

/**
 * The decision, apart from the machine: `missing` programs, whether apt-get exists, how root is
 * reached (undefined: it is not), and the command the user runs again afterwards.
 */
export function planProvision(missing: Requirement[], hasApt: boolean, prefix: string[] | undefined, command: string): ProvisionPlan {
	const packages = [...new Set(missing.map((r) => r.debianPackage))];
	const needs = `This machine lacks programs that ${command} needs:\n${describe(missing)}\n`;
	if (!hasApt) {
		return {
			stop:
				`${needs}It has no apt-get. Install the equivalents of the Debian packages ${packages.join(', ')} ` +
				`with its package manager${packages.includes('chromium') ? ' (Chromium must be at /usr/bin/chromium)' : ''}, then run ${command} again.`,
		};
	}
	if (!prefix) {
		return {
			stop:
				`${needs}Installing them needs root. Run this, then ${command} again:\n\n` +
				`  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`,
		};
	}
	return {
		install: [
			[...prefix, 'apt-get', 'update', '-qq'],
			[...prefix, 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages],
		],
	};
}

/**
 * Makes sure `requirements` are met for `command` (what the user typed, for the messages): returns
 * at once when they are, installs them when it can, and otherwise throws with what to run.
 * Returns the Debian packages it installed.
 */
export function ensurePrograms(requirements: Requirement[], command: string, log: (line: string) => void): string[] {
	const missing = requirements.filter((requirement) => !requirement.programs.every(found));
	if (missing.length === 0) return [];
	const hasApt = found('apt-get');
	const plan = planProvision(missing, hasApt, hasApt ? rootPrefix() : undefined, command);
	if ('stop' in plan) throw new Error(plan.stop);
	log(`installing ${missing.map((r) => r.debianPackage).join(', ')} from Debian's packages for:\n${describe(missing)}`);
	for (const step of plan.install) {
		log(`$ ${step.join(' ')}`);
		const result = spawnSync(step[0], step.slice(1), {
			stdio: 'inherit',
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		});
		if (result.status !== 0) throw new Error(`${step.join(' ')} failed (${result.error?.message ?? `exit code ${result.status}`}).`);
	}
	const stillMissing = missing.filter((requirement) => !requirement.programs.every(found));
	if (stillMissing.length > 0) {
		throw new Error(`apt-get install finished, but these are still missing:\n${describe(stillMissing)}`);
	}
	return missing.map((r) => r.debianPackage);
}
