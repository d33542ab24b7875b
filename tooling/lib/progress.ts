/* eslint-disable @n8n/community-nodes/no-restricted-globals -- tooling: runs in Node.js, not inside
	n8n (`process`) */
import { formatDuration, sleep } from './proc';

let activeProgress = 0;

/**
 * Runs a slow step, showing how long it has been running and what it is at (`progress()`, '' for
 * nothing more), so that it never looks stuck: on a terminal one line updated every second,
 * otherwise a line through `log` every 10 s; then `<label>: done in …`.
 */
export async function withProgress<T>(
	label: string,
	log: (line: string) => void,
	progress: () => string,
	work: () => Promise<T>,
): Promise<T> {
	const started = Date.now();
	// One step at a time updates a single terminal line; parallel steps print lines instead.
	const tty = process.stderr.isTTY === true && activeProgress === 0;
	activeProgress++;
	let finished = false;
	const ticker = (async () => {
		let last = 0;
		while (!finished) {
			await sleep(1000);
			if (finished) break;
			const elapsed = Date.now() - started;
			const text = progress();
			const line = `${label}: ${formatDuration(elapsed)}${text ? `, ${text}` : ''}`;
			if (tty) {
				process.stderr.write(`\r\x1b[2K  ${line}`);
			} else if (elapsed - last >= 10_000) {
				last = elapsed;
				log(line);
			}
		}
		if (tty) process.stderr.write('\r\x1b[2K');
	})();
	try {
		return await work();
	} finally {
		finished = true;
		activeProgress--;
		await ticker;
		log(`${label}: done in ${formatDuration(Date.now() - started)}`);
	}
}
