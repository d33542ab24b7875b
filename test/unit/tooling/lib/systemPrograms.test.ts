import { BUILD_TOOLS, planProvision, TEST_REQUIREMENTS } from '../../../../tooling/lib/systemPrograms';

describe('planProvision', () => {
	const compilers = BUILD_TOOLS.filter((requirement) => requirement.debianPackage === 'build-essential');

	it('installs the missing packages from Debian as root, or through password-less sudo', () => {
		expect(planProvision(BUILD_TOOLS, true, [], 'npm start')).toEqual({
			install: [
				['apt-get', 'update', '-qq'],
				['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'build-essential', 'python3'],
			],
		});
		expect(planProvision(compilers, true, ['sudo', '-n'], 'npm start')).toEqual({
			install: [
				['sudo', '-n', 'apt-get', 'update', '-qq'],
				['sudo', '-n', 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'build-essential'],
			],
		});
	});

	it('without root, stops with the exact command to run and what to run again', () => {
		const plan = planProvision(BUILD_TOOLS, true, undefined, 'npm start');
		expect(plan).toEqual({ stop: expect.any(String) });
		const { stop } = plan as { stop: string };
		expect(stop).toContain('  - make, g++ (Debian package build-essential): installing n8n');
		expect(stop).toContain('  - python3 (Debian package python3)');
		expect(stop).toMatch(/Run this, then npm start again:\n\n {2}sudo apt-get update && sudo apt-get install -y --no-install-recommends build-essential python3$/);
	});

	it('without apt-get, names the Debian packages to find equivalents of', () => {
		const { stop } = planProvision(TEST_REQUIREMENTS, false, undefined, 'npm test') as { stop: string };
		expect(stop).toContain('It has no apt-get. Install the equivalents of the Debian packages redis-server, chromium, build-essential, python3');
		expect(stop).toContain('Chromium must be at /usr/bin/chromium');
		expect(stop).toMatch(/then run npm test again\.$/);
	});
});
