/* eslint-disable @n8n/community-nodes/no-restricted-imports -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules) */
import { readFileSync } from 'node:fs';

/** User + system CPU time of a process so far, in ms (/proc/<pid>/stat, 100 clock ticks per second). */
export function processCpuMs(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	// The fields after the command name, which is in parentheses and may contain spaces.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	return (Number(fields[11]) + Number(fields[12])) * 10;
}
