/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside
	n8n (`process`) */
/**
 * The first step of `npm test` and of CI: makes sure the machine has the programs the tests need
 * beyond Node.js and npm (tooling/lib/systemPrograms.ts), installing the missing ones from Debian's
 * packages when it can, and otherwise stopping at once with the command to run.
 */
import { ensurePrograms, TEST_REQUIREMENTS } from './lib/systemPrograms';

try {
	const installed = ensurePrograms(TEST_REQUIREMENTS, 'npm test', (line) => process.stderr.write(`provision: ${line}\n`));
	process.stdout.write(
		installed.length > 0
			? `provision: installed ${installed.join(', ')}\n`
			: 'provision: redis-server, chromium, make, g++ and python3 are present\n',
	);
} catch (error) {
	process.stderr.write(`\n${error instanceof Error ? error.message : String(error)}\n\n`);
	process.exit(1);
}
