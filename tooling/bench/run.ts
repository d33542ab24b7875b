/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions,
	no-console -- tooling: runs in Node.js, not inside n8n (Node.js's modules, `process`, the console,
	git for the commit measured) */
/**
 * `npm run bench [-- --quick] [-- --only report-read,import] [-- --profile]`
 *
 * Runs the benchmark sections against the Records sandbox (a separate process on loopback), then
 * writes tooling/bench/results/results.json, the SVG charts in tooling/bench/results/, and BENCHMARKS.md. With
 * --only, the other sections keep their previous results. With --quick (smaller sizes, one run
 * each), everything goes to tooling/bench/results/tmp/ and the committed results stay as they are.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

import { repoRoot } from '../lib/paths';
import { formatDuration } from '../lib/proc';
import { buildForBenchmark } from './lib/built-package';
import type { BenchContext, Rendered, Section, TargetCheck } from './lib/context';
import { describeMachine, type Machine } from './lib/machine';
import { markdownTable } from './lib/markdown';
import { BENCH_TMP, SandboxProcess } from './lib/sandbox';
import { growth } from './sections/growth';
import { hostileInput } from './sections/hostile-input';
import { httpsRead } from './sections/https-read';
import { importRecords } from './sections/import';
import { n8nPollMemory } from './sections/n8n-poll-memory';
import { reportPoll } from './sections/report-poll';
import { reportRead } from './sections/report-read';
import { sandboxCeiling } from './sections/sandbox-ceiling';
import { soak } from './sections/soak';
import { trigger } from './sections/trigger';

// The sections' data types differ; each section only ever receives the data it produced itself.
type AnySection = Section<unknown>;

const SECTIONS: AnySection[] = [sandboxCeiling, reportRead, reportPoll, importRecords, trigger, hostileInput, soak, growth, httpsRead, n8nPollMemory] as AnySection[];

interface StoredSection {
	finishedAt: string;
	durationMs: number;
	quick: boolean;
	/** One-minute load average of the machine when the section started and when it finished. */
	loadAverage?: [number, number];
	/** The run of `npm run bench` that measured it: sections kept from earlier runs say so. */
	run?: BenchRun;
	data?: unknown;
	error?: string;
}

interface Results {
	machine: Machine;
	command: string;
	sections: Record<string, StoredSection>;
}

interface Options {
	quick: boolean;
	only?: string[];
	profile: boolean;
	build: boolean;
	/** Only write BENCHMARKS.md and the charts again from the stored results. */
	renderOnly: boolean;
}

function parseArgs(argv: string[]): Options {
	const options: Options = { quick: false, profile: false, build: true, renderOnly: false };
	for (let index = 0; index < argv.length; index++) {
		const arg = argv[index];
		if (arg === '--quick') options.quick = true;
		else if (arg === '--profile') options.profile = true;
		else if (arg === '--no-build') options.build = false;
		else if (arg === '--render') options.renderOnly = true;
		else if (arg === '--only') options.only = (argv[++index] ?? '').split(',').filter(Boolean);
		else if (arg.startsWith('--only=')) options.only = arg.slice('--only='.length).split(',').filter(Boolean);
		else if (arg === '--help' || arg === '-h') {
			console.log(
				`Usage: npm run bench -- [--quick] [--only ${SECTIONS.map((section) => section.id).join(',')}] [--profile] [--no-build] [--render]\n` +
					'  --quick    small sizes, one run each; results go to tooling/bench/results/tmp/ only\n' +
					'  --only     run these sections; the others keep their stored results\n' +
					'  --profile  write V8 CPU profiles of every measuring process to tooling/bench/results/tmp/profiles/\n' +
					'  --no-build reuse the previous run\'s compiled package (in node_modules/.cache/n8n-nodes-records-bench-<checkout>/build)\n' +
					'  --render   measure nothing: write BENCHMARKS.md and the charts again from the stored results',
			);
			process.exit(0);
		} else throw new Error(`Unknown argument "${arg}" (see --help)`);
	}
	for (const id of options.only ?? []) {
		if (!SECTIONS.some((section) => section.id === id)) {
			throw new Error(`Unknown section "${id}". Sections: ${SECTIONS.map((section) => section.id).join(', ')}`);
		}
	}
	return options;
}

interface BenchRun {
	startedAt: string;
	/** The commit measured; "+ changes" when the working tree differed from it. */
	commit: string;
	cpu: string;
}

function currentCommit(): string {
	try {
		const git = (...args: string[]) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
		return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--untracked-files=no') === '' ? '' : ' + changes'}`;
	} catch {
		return 'unknown commit';
	}
}

const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** When and where the results were measured: one run, or which sections came from which. */
function runsLine(results: Results): string {
	const runs = new Map<string, { run: BenchRun | undefined; sections: string[] }>();
	SECTIONS.forEach((section, index) => {
		const stored = results.sections[section.id];
		if (!stored) return;
		const key = stored.run?.startedAt ?? 'unrecorded';
		const entry = runs.get(key) ?? { run: stored.run, sections: [] };
		entry.sections.push(String(index + 1));
		runs.set(key, entry);
	});
	const describe = (run: BenchRun | undefined) => (run ? `started ${utc(run.startedAt)}, commit ${run.commit}, ${run.cpu}` : 'a run that did not record when or where');
	const list = [...runs.values()];
	if (list.length === 1) return `Measured in one run of \`npm run bench\` (${describe(list[0].run)}), on the machine below.`;
	return `Measured in ${list.length} runs: ${list.map(({ run, sections }) => `sections ${sections.join(', ')} in ${describe(run)}`).join('; ')}. The machine below is the last run's.`;
}

function machineTable(machine: Machine): string {
	return markdownTable({
		headers: ['Machine', ''],
		align: ['left', 'left'],
		rows: [
			['CPU', `${machine.cpu}, ${machine.cores} cores`],
			['Memory', `${machine.memoryGiB} GiB`],
			['OS', machine.os],
			['Node.js (benchmark, raw clients, in-process node runs)', machine.node],
			['n8n-core / n8n-workflow (in-process execution engine)', `${machine.n8nCore} / ${machine.n8nWorkflow}`],
			['n8n (real-n8n comparisons)', `${machine.n8n} on Node.js ${machine.n8nNode}`],
			['axios / autocannon', `${machine.axios} / ${machine.autocannon}`],
		],
	});
}

function targetTable(targets: TargetCheck[]): string {
	if (targets.length === 0) return '_No target was measured in this run._';
	return markdownTable({
		headers: ['Target', 'Measured (medians)', 'Met'],
		align: ['left', 'left', 'left'],
		rows: targets.map((target) => [target.target, target.measured, target.met ? 'yes' : '**no**']),
	});
}

function renderReport(results: Results, rendered: Map<string, Rendered>, outputDir: string, chartPrefix: string): string {
	const targets = SECTIONS.flatMap((section) => rendered.get(section.id)?.targets ?? []);
	const parts: string[] = [
		'# Benchmarks',
		'',
		'<!-- Generated by `npm run bench` (tooling/bench/run.ts); edit tooling/bench/findings.md for the analysis below the results. -->',
		'',
		`Command: \`${results.command}\`. Every section runs against the Records sandbox (\`tooling/sandbox\`) in its own process on loopback; ` +
			'each measured client runs in a fresh process of its own (tooling/bench/workers/), so its peak memory is its own. ' +
			'Times are medians of several runs; ratios compare medians measured in the same run of the benchmark. How to run it and what each figure means: [tooling/bench/README.md](tooling/bench/README.md).',
		'',
		runsLine(results),
		'',
		machineTable(results.machine),
		'',
		'## Targets',
		'',
		targetTable(targets),
		'',
	];
	SECTIONS.forEach((section, index) => {
		const stored = results.sections[section.id];
		parts.push(`## ${index + 1}. ${section.title}`, '');
		if (!stored) {
			parts.push('_Not run yet._', '');
			return;
		}
		const load = stored.loadAverage ? `, load average ${stored.loadAverage[0].toFixed(1)} at the start, ${stored.loadAverage[1].toFixed(1)} at the end` : '';
		const when = `${stored.finishedAt.slice(0, 16).replace('T', ' ')} UTC, took ${formatDuration(stored.durationMs)}${stored.quick ? ', quick mode' : ''}${load}`;
		if (stored.error !== undefined) {
			parts.push(`_Failed (${when}):_`, '', '```', stored.error, '```', '');
			return;
		}
		const output = rendered.get(section.id);
		if (!output) return;
		parts.push(`_Measured ${when}._`, '', output.markdown.trim(), '');
		for (const chart of output.charts) {
			writeFileSync(join(outputDir, chart.file), chart.svg);
			parts.push(`![${chart.alt}](${chartPrefix}${chart.file})`, '');
		}
	});
	const findings = join(repoRoot, 'tooling', 'bench', 'findings.md');
	if (existsSync(findings)) parts.push(readFileSync(findings, 'utf8').trim(), '');
	return parts.join('\n');
}

/** Renders every stored section and writes BENCHMARKS.md and the charts. */
function writeReport(results: Results, outputDir: string, reportFile: string, quick: boolean): Map<string, Rendered> {
	const rendered = new Map<string, Rendered>();
	for (const section of SECTIONS) {
		const stored = results.sections[section.id];
		if (stored?.data !== undefined) rendered.set(section.id, section.render(stored.data, results.machine));
	}
	writeFileSync(reportFile, renderReport(results, rendered, outputDir, quick ? '' : 'tooling/bench/results/'));
	return rendered;
}

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
	const started = Date.now();
	const outputDir = options.quick ? BENCH_TMP : join(repoRoot, 'tooling', 'bench', 'results');
	const resultsFile = join(outputDir, 'results.json');
	const reportFile = options.quick ? join(BENCH_TMP, 'BENCHMARKS.md') : join(repoRoot, 'BENCHMARKS.md');
	mkdirSync(outputDir, { recursive: true });
	const machine = describeMachine();
	const previous: Results | undefined = existsSync(resultsFile)
		? (JSON.parse(readFileSync(resultsFile, 'utf8')) as Results)
		: undefined;
	const command = `npm run bench${options.quick ? ' -- --quick' : ''}`;
	const run: BenchRun = { startedAt: new Date(started).toISOString(), commit: currentCommit(), cpu: `${machine.cpu}, ${machine.cores} cores` };
	const results: Results = { machine, command, sections: { ...(previous?.sections ?? {}) } };
	const log = (line: string) => console.log(`[bench ${formatDuration(Date.now() - started).padStart(9)}] ${line}`);
	log(`${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node.js ${machine.node}`);

	if (options.renderOnly) {
		if (!previous) throw new Error(`No stored results in ${resultsFile} to render`);
		results.command = previous.command;
		results.machine = previous.machine;
		writeReport(results, outputDir, reportFile, options.quick);
		log(`wrote ${reportFile} from ${resultsFile}`);
		return;
	}
	if (options.build) {
		log('compiling the package (the benchmark measures the compiled JavaScript)');
		const complaints = await buildForBenchmark();
		if (complaints) log(`the compiler reported errors; measuring what it emitted:\n${complaints}`);
	}
	const sandbox = await SandboxProcess.start();
	log(`sandbox (pid ${sandbox.pid}) at ${sandbox.baseUrl}`);
	const context: BenchContext = {
		quick: options.quick,
		sandbox,
		profileDir: options.profile ? join(BENCH_TMP, 'profiles') : undefined,
		log,
		shared: new Map(),
	};
	const stop = () => {
		void sandbox.stop().finally(() => process.exit(130));
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
	try {
		for (const section of SECTIONS) {
			if (options.only && !options.only.includes(section.id)) continue;
			log(`== ${section.title}`);
			const sectionStarted = Date.now();
			const loadBefore = loadavg()[0];
			const stored = (): StoredSection => ({
				finishedAt: new Date().toISOString(),
				durationMs: Date.now() - sectionStarted,
				quick: options.quick,
				loadAverage: [loadBefore, loadavg()[0]],
				run,
			});
			try {
				const data = await section.run(context);
				results.sections[section.id] = { ...stored(), data };
			} catch (error) {
				const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
				log(`${section.title} failed: ${message}`);
				results.sections[section.id] = { ...stored(), error: message };
			}
			writeFileSync(resultsFile, `${JSON.stringify(results, null, '\t')}\n`);
		}
	} finally {
		await sandbox.stop();
	}

	const rendered = writeReport(results, outputDir, reportFile, options.quick);
	log(`wrote ${reportFile} and ${resultsFile} (${formatDuration(Date.now() - started)} in all)`);
	const missed = [...rendered.values()].flatMap((output) => output.targets).filter((target) => !target.met);
	for (const target of missed) log(`target missed: ${target.target}: ${target.measured}`);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
