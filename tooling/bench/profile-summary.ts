/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, no-console -- tooling: runs in Node.js, not inside
	n8n (Node.js's modules, `process`, the console) */
/**
 * `npm run bench:profile -- <file.cpuprofile> [--top 25] [--filter nodes/] [--callers deepCopy]`
 *
 * Summarises a V8 CPU profile (written by `npm run bench -- --profile`, or `node --cpu-prof`):
 * self time per function and per file, so that the cost of a measurement can be pinned to a
 * file and function. Paths are shown relative to the repository.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

import { repoRoot } from '../lib/paths';

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	hitCount?: number;
	children?: number[];
}

interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples?: number[];
	timeDeltas?: number[];
}

export interface ProfileEntry {
	name: string;
	selfMs: number;
	/** Self time plus the time of everything it called (each sample counted once per entry). */
	totalMs: number;
}

function displayUrl(url: string): string {
	if (url === '') return '(native or V8)';
	const path = url.replace(/^file:\/\//, '');
	return path.startsWith('/') ? relative(repoRoot, path) : path;
}

/**
 * Who calls a function: the time of every sample with `functionName` on its stack, attributed to
 * the frame that called its outermost occurrence, and that frame's caller (two levels).
 */
export function callersOf(profile: CpuProfile, functionName: string): ProfileEntry[] {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const frame = (id: number | undefined) => {
		const node = id === undefined ? undefined : byId.get(id);
		return node ? `${node.callFrame.functionName || '(anonymous)'}  ${displayUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}` : '(root)';
	};
	const totals = new Map<string, number>();
	const samples = profile.samples ?? [];
	const deltas = profile.timeDeltas ?? [];
	for (let index = 0; index < samples.length; index++) {
		const ms = (deltas[index + 1] ?? 0) / 1000;
		let outermost: number | undefined;
		for (let current: number | undefined = samples[index]; current !== undefined; current = parent.get(current)) {
			if (byId.get(current)?.callFrame.functionName === functionName) outermost = current;
		}
		if (outermost === undefined) continue;
		const caller = parent.get(outermost);
		const key = `${frame(caller)}  <-  ${frame(caller === undefined ? undefined : parent.get(caller))}`;
		totals.set(key, (totals.get(key) ?? 0) + ms);
	}
	return [...totals.entries()].map(([name, totalMs]) => ({ name, selfMs: totalMs, totalMs })).sort((a, b) => b.totalMs - a.totalMs);
}

/** Self and total time per function and per file of one profile. */
export function summarizeProfile(profile: CpuProfile): { totalMs: number; byFunction: ProfileEntry[]; byFile: ProfileEntry[] } {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
	const sampleMs = new Map<number, number>();
	const samples = profile.samples ?? [];
	const deltas = profile.timeDeltas ?? [];
	for (let index = 0; index < samples.length; index++) {
		// A sample's duration is the gap to the next sample.
		const ms = (deltas[index + 1] ?? 0) / 1000;
		sampleMs.set(samples[index], (sampleMs.get(samples[index]) ?? 0) + ms);
	}
	const fnKey = (node: ProfileNode) =>
		`${node.callFrame.functionName || '(anonymous)'}  ${displayUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
	const fileKey = (node: ProfileNode) => displayUrl(node.callFrame.url);
	const self = { fn: new Map<string, number>(), file: new Map<string, number>() };
	const total = { fn: new Map<string, number>(), file: new Map<string, number>() };
	for (const [id, ms] of sampleMs) {
		const node = byId.get(id);
		if (!node) continue;
		self.fn.set(fnKey(node), (self.fn.get(fnKey(node)) ?? 0) + ms);
		self.file.set(fileKey(node), (self.file.get(fileKey(node)) ?? 0) + ms);
		const seenFn = new Set<string>();
		const seenFile = new Set<string>();
		for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
			const frame = byId.get(current);
			if (!frame) break;
			const f = fnKey(frame);
			const file = fileKey(frame);
			if (!seenFn.has(f)) {
				seenFn.add(f);
				total.fn.set(f, (total.fn.get(f) ?? 0) + ms);
			}
			if (!seenFile.has(file)) {
				seenFile.add(file);
				total.file.set(file, (total.file.get(file) ?? 0) + ms);
			}
		}
	}
	const entries = (selfMap: Map<string, number>, totalMap: Map<string, number>) =>
		[...totalMap.keys()]
			.map((name) => ({ name, selfMs: selfMap.get(name) ?? 0, totalMs: totalMap.get(name) ?? 0 }))
			.sort((a, b) => b.selfMs - a.selfMs);
	return {
		totalMs: (profile.endTime - profile.startTime) / 1000,
		byFunction: entries(self.fn, total.fn),
		byFile: entries(self.file, total.file),
	};
}

function main(argv: string[]): void {
	const files = argv.filter((arg) => arg.endsWith('.cpuprofile'));
	const topIndex = argv.indexOf('--top');
	const top = topIndex >= 0 ? Number(argv[topIndex + 1]) : 25;
	const filterIndex = argv.indexOf('--filter');
	const filter = filterIndex >= 0 ? argv[filterIndex + 1] : undefined;
	const callersIndex = argv.indexOf('--callers');
	const callersFn = callersIndex >= 0 ? argv[callersIndex + 1] : undefined;
	if (files.length === 0) {
		console.error('Usage: npm run bench:profile -- <file.cpuprofile> [--top 25] [--filter nodes/] [--callers functionName]');
		process.exit(2);
	}
	for (const file of files) {
		const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
		if (callersFn !== undefined) {
			console.log(`${file}: callers of ${callersFn} (ms with it on the stack)`);
			for (const entry of callersOf(profile, callersFn).slice(0, top)) console.log(`${entry.totalMs.toFixed(1).padStart(9)}  ${entry.name}`);
			console.log('');
			continue;
		}
		const summary = summarizeProfile(profile);
		const keep = (entry: ProfileEntry) => filter === undefined || entry.name.includes(filter);
		const line = (entry: ProfileEntry) =>
			`${entry.selfMs.toFixed(1).padStart(9)} ${entry.totalMs.toFixed(1).padStart(9)}  ${entry.name}`;
		console.log(`${file}: ${summary.totalMs.toFixed(0)} ms profiled`);
		console.log(`\n  self ms  total ms  file`);
		for (const entry of summary.byFile.filter(keep).slice(0, top)) console.log(line(entry));
		console.log(`\n  self ms  total ms  function`);
		for (const entry of summary.byFunction.filter(keep).slice(0, top)) console.log(line(entry));
		console.log('');
	}
}

if (require.main === module) main(process.argv.slice(2));
