/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a test: its passwords and tokens are fixed
	test values, not secrets */
import { EXAMPLE_CALLER } from '../../../tooling/examples/examples';
import { RUNTIMES } from '../../../tooling/n8n/runtime';
import { TOKEN_DEFINITIONS, TOKENS } from '../../../tooling/sandbox/seeds';
import { firstStartNotice, readyText, type Demo } from '../../../tooling/startOutput';

const demo: Demo = {
	url: 'http://localhost:5678',
	owner: { email: 'owner@example.com', password: 'Owner-password-1' },
	sandboxUrl: 'https://127.0.0.1:4010',
	sandboxCaFile: '/somewhere/records-sandbox-ca.pem',
	examples: 6,
	standInsUrl: 'http://127.0.0.1:4011',
	mcpToken: 'mcp-token-0123',
	serverLog: '/somewhere/n8n.log',
};

// Issue 48: the sandbox's token and the Records Trigger's Basic Auth were found only in files.
describe("npm start's ready text", () => {
	const text = readyText(demo);

	it("names every sandbox token with its value, and which one the ready credential holds", () => {
		for (const { name, token } of TOKEN_DEFINITIONS) expect(text).toContain(`${name}: ${token}`);
		expect(text).toMatch(new RegExp(`"Records sandbox" +Records API: https://127\\.0\\.0\\.1:4010, token ${TOKENS.full}`));
	});

	it("names the Records Trigger's Basic Auth user and password, the owner's sign-in and the MCP token", () => {
		expect(text).toContain(`user ${EXAMPLE_CALLER.user}, password ${EXAMPLE_CALLER.password}`);
		expect(text).toContain('owner@example.com / Owner-password-1');
		expect(text).toContain('mcp-token-0123');
	});

	it('says the examples are already imported and active', () => {
		expect(text).toMatch(/6 workflows, already imported and active/);
	});

	it('points the call files at another port only when n8n runs on another one', () => {
		expect(text).not.toContain('change their url');
		expect(readyText({ ...demo, url: 'http://localhost:5679' })).toContain('change their url to http://localhost:5679');
	});
});

describe('the first start notice', () => {
	it('says up front how long the first start takes and what it writes', () => {
		const notice = firstStartNotice(RUNTIMES.v2);
		expect(notice).toContain(`n8n ${RUNTIMES.v2.n8nVersion}`);
		expect(notice).toMatch(/took 13 minutes on a busy 2-core machine with an empty npm cache/);
		expect(notice).toContain(`${RUNTIMES.v2.diskGb} GB written`);
	});
});
