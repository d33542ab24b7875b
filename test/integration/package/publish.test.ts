/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- a
	test: runs in Node.js, not inside n8n (Node.js's modules, `__dirname`, `process`, child
	processes) */
/**
 * Publishing only through the release workflow: a plain `npm publish` from a developer's machine is
 * refused before anything reaches the registry, both by the provenance that package.json's
 * publishConfig demands (the guard that holds with this repository's .npmrc, which turns scripts
 * off) and by the prepublishOnly guard (where scripts run). The registry here is a local stand-in
 * that records what npm sends it.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';

const root = resolve(__dirname, '../../..');

let registry: Server;
let registryUrl: string;
const publishes: string[] = [];

beforeAll(async () => {
	registry = createServer((request, response) => {
		if (request.method === 'PUT') publishes.push(request.url ?? '');
		request.resume();
		request.on('end', () => {
			response.writeHead(request.method === 'PUT' ? 201 : 404, { 'content-type': 'application/json' });
			response.end('{}');
		});
	});
	await new Promise<void>((done) => registry.listen(0, '127.0.0.1', done));
	registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((done) => registry.close(() => done())));
beforeEach(() => publishes.splice(0));

/** `npm publish` to the local registry, as from a laptop: no CI provider, no RELEASE_MODE. */
function npmPublish(extraArgs: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number; output: string }> {
	const env = { ...process.env, ...extraEnv };
	// Nor the log level of an `npm run -s` around the tests, which would silence the refusal.
	for (const name of ['GITHUB_ACTIONS', 'GITLAB_CI', 'RELEASE_MODE', 'npm_config_provenance', 'npm_config_ignore_scripts', 'npm_config_loglevel']) {
		if (!(name in extraEnv)) delete env[name];
	}
	const host = registryUrl.replace(/^http:/, '');
	const args = ['publish', '--registry', registryUrl, `--${host}:_authToken=local-test`, '--update-notifier=false', ...extraArgs];
	return new Promise((done) => {
		const child = spawn('npm', args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.on('close', (code) => done({ code: code ?? -1, output }));
	});
}

describe('npm publish outside the release workflow', () => {
	it('is refused for lack of a provenance statement, and nothing is uploaded', async () => {
		const { code, output } = await npmPublish([]);
		expect(code).not.toBe(0);
		expect(output).toMatch(/provenance generation not supported/i);
		expect(publishes).toEqual([]);
	});

	it('is refused by the prepublishOnly guard where npm runs scripts, with what to do instead', async () => {
		const { code, output } = await npmPublish(['--ignore-scripts=false', '--provenance=false']);
		expect(code).not.toBe(0);
		expect(output).toContain('npm publish is refused here');
		expect(output).toContain('Push a tag v<version> instead.');
		expect(publishes).toEqual([]);
	});

	it('reaches the registry once both guards are satisfied (what the two refusals above hold back)', async () => {
		const { code, output } = await npmPublish(['--ignore-scripts=false', '--provenance=false'], { RELEASE_MODE: 'true' });
		expect({ code, output }).toMatchObject({ code: 0 });
		expect(publishes).toEqual(['/n8n-nodes-records']);
	});
});
