/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-hardcoded-secrets -- tooling: runs in Node.js, not inside n8n (Node.js's
	modules, `__filename`); its token is a fixed test value, not a secret */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import type { checkCaller as CheckCaller } from '../../../nodes/RecordsTrigger/helpers/callerAuth';
import type { parseContentType as ParseContentType } from '../../../nodes/RecordsTrigger/helpers/contentType';
import type { BodyOptions, receiveBody as ReceiveBody } from '../../../nodes/RecordsTrigger/helpers/incomingBody';
import type { serializeReply as SerializeReply } from '../../../nodes/shared/workflowCall/replyBody';
import { BENCH_BUILD } from '../lib/built-package';
import type { BenchContext, Rendered, Section } from '../lib/context';
import { markdownTable } from '../lib/markdown';
import { formatRatio, median } from '../lib/stats';

/**
 * What a request costs the Records Trigger's main thread per kilobyte: hostile requests (the
 * bodies and headers that make parsers slow, at 64 KB and at the default Max Body Size of 1 MB)
 * next to plain ones of the same size. A cost per kilobyte that stays flat
 * from 64 KB to 1 MB is linear; the worst hostile request against a plain JSON body says how much
 * more an attacker gets per byte sent than an honest caller costs. The answer side: the call's item
 * written back as JSON and as XML by the writer Respond to Call uses, for the plain requests and the
 * ones that made writing slow (many namespace declarations, names that collide once renamed).
 *
 * Measured in the benchmark's process on the compiled package (the trigger's body reading and its
 * Authorization check, the answer's writing: the work that grows with the request), interleaved
 * case by case, medians.
 */

const KB = 1024;

interface BuiltTrigger {
	receiveBody: typeof ReceiveBody;
	parseContentType: typeof ParseContentType;
	checkCaller: typeof CheckCaller;
	serializeReply: typeof SerializeReply;
}

function builtTrigger(): BuiltTrigger {
	const load = createRequire(__filename);
	const helpers = join(BENCH_BUILD, 'nodes', 'RecordsTrigger', 'helpers');
	return {
		...(load(join(helpers, 'incomingBody.js')) as Pick<BuiltTrigger, 'receiveBody'>),
		...(load(join(helpers, 'contentType.js')) as Pick<BuiltTrigger, 'parseContentType'>),
		...(load(join(helpers, 'callerAuth.js')) as Pick<BuiltTrigger, 'checkCaller'>),
		...(load(join(BENCH_BUILD, 'nodes', 'shared', 'workflowCall', 'replyBody.js')) as Pick<BuiltTrigger, 'serializeReply'>),
	};
}

interface Case {
	label: string;
	plain: boolean;
	/** What the trigger does with it, for the table. */
	outcome?: string;
	make(size: number): { kind: 'body'; bytes: Buffer; contentType: string; gzip?: boolean; options?: BodyOptions } | { kind: 'header'; value: string };
}

const fill = (unit: string, size: number) => unit.repeat(Math.max(1, Math.floor(size / unit.length)));

/** Invoices of the illustrated webhook event, as a JSON list of about `size` bytes. */
function plainJson(size: number): string {
	const event = JSON.stringify({ event: 'invoice.paid', invoice_id: 4711, paid_at: '2026-03-31T10:15:00Z', amount: 12100.5, partner: 'Účetní kancelář Šťastná' });
	return `[${Array.from({ length: Math.max(1, Math.floor(size / (event.length + 1))) }, () => event).join(',')}]`;
}

const CASES: Case[] = [
	{ label: 'plain: JSON list of invoice events', plain: true, make: (size) => ({ kind: 'body', bytes: Buffer.from(plainJson(size)), contentType: 'application/json' }) },
	{ label: 'plain: XML list of invoices', plain: true, make: (size) => ({ kind: 'body', bytes: Buffer.from(`<r>${fill('<invoice id="4711"><amount>12100,50</amount><partner>Šťastná</partner></invoice>', size)}</r>`), contentType: 'application/xml' }) },
	{ label: 'form: one name repeated ("a&a&…")', plain: false, make: (size) => ({ kind: 'body', bytes: Buffer.from(fill('a&', size)), contentType: 'application/x-www-form-urlencoded' }) },
	{ label: 'form: one value of percent-escaped UTF-8', plain: false, make: (size) => ({ kind: 'body', bytes: Buffer.from(`a=${fill('%C5%A1', size)}`), contentType: 'application/x-www-form-urlencoded' }) },
	{ label: 'JSON: brackets only ("[[[…")', plain: false, make: (size) => ({ kind: 'body', bytes: Buffer.from(fill('[', size)), contentType: 'application/json' }) },
	{ label: 'JSON: one string of escapes', plain: false, make: (size) => ({ kind: 'body', bytes: Buffer.from(`{"a":"${fill('\\u010d\\"', size)}"}`), contentType: 'text/json' }) },
	{ label: 'JSON: 256 levels, then a long list', plain: false, make: (size) => ({ kind: 'body', bytes: Buffer.from(`${'['.repeat(255)}[${fill('0,', size)}0]${']'.repeat(255)}`), contentType: 'application/json' }) },
	{ label: 'XML: character references', plain: false, make: (size) => ({ kind: 'body', bytes: Buffer.from(`<r>${fill('&#x10D;&amp;', size)}</r>`), contentType: 'application/xml' }) },
	{ label: 'XML: empty elements with attributes', plain: false, make: (size) => ({ kind: 'body', bytes: Buffer.from(`<r>${fill('<a b="&lt;"/>', size)}</r>`), contentType: 'application/xml' }) },
	{ label: 'XML: elements left open', plain: false, make: (size) => ({ kind: 'body', bytes: Buffer.from(fill('<a>', size)), contentType: 'application/xml' }) },
	{ label: 'windows-1250 text in Body Encoding', plain: false, make: (size) => ({ kind: 'body', bytes: Buffer.from(`["${fill('\u009a\u00e1', size)}"]`, 'latin1'), contentType: 'text/json', options: { bodyEncoding: 'windows-1250' } }) },
	{ label: 'gzip: spaces inflating to the size', plain: false, make: (size) => ({ kind: 'body', bytes: Buffer.from(' '.repeat(size)), contentType: 'text/json', gzip: true }) },
	// Node.js refuses headers over 16 KB: a sixteenth of the body sizes, 4 KB and 64 KB, capped at 16 KB.
	{ label: 'Authorization: spaces between two words (4 KB, 16 KB)', plain: false, make: (size) => ({ kind: 'header', value: `Bearer a${' '.repeat(Math.min(size / 16, 16 * KB))}b` }) },
];

/** Calls whose item is written back (the answer side): the request, read as the trigger reads it. */
interface AnswerCase {
	label: string;
	plain: boolean;
	make(size: number): { bytes: Buffer; contentType: string };
}

/** `count` names over ":" and "_" after `first`: all different as sent, one name once ":" becomes "_". */
function collidingNames(first: string, count: number): string[] {
	return Array.from({ length: count }, (_, index) => first + index.toString(2).padStart(16, '0').replace(/0/g, ':').replace(/1/g, '_'));
}

/** Half the size in namespace declarations on the root, half in elements below it that use them. */
function manyDeclarations(size: number): string {
	const count = Math.max(1, Math.floor(size / 2 / 30));
	const declarations = Array.from({ length: count }, (_, index) => ` xmlns:p${index}="urn:records:p${index}"`).join('');
	const elements = Array.from({ length: count }, (_, index) => `<p${index}:line p${index}:no="${index}">x</p${index}:line>`).join('');
	return `<r:webhook xmlns:r="urn:records"${declarations}><r:event>invoice.paid</r:event>${elements}</r:webhook>`;
}

const ANSWER_CASES: AnswerCase[] = [
	{ label: 'plain: JSON list of invoice events', plain: true, make: (size) => ({ bytes: Buffer.from(plainJson(size)), contentType: 'application/json' }) },
	{ label: 'plain: XML list of invoices', plain: true, make: (size) => ({ bytes: Buffer.from(`<r>${fill('<invoice id="4711"><amount>12100,50</amount><partner>Šťastná</partner></invoice>', size)}</r>`), contentType: 'application/xml' }) },
	{ label: 'XML: many namespace declarations on the root', plain: false, make: (size) => ({ bytes: Buffer.from(manyDeclarations(size)), contentType: 'application/xml' }) },
	{
		label: 'XML: attribute names that collide once renamed ("a:_:…", "a_::…")',
		plain: false,
		make: (size) => ({ bytes: Buffer.from(`<r><e${collidingNames('a', Math.floor(size / 22)).map((name) => ` ${name}="1"`).join('')}/></r>`), contentType: 'application/xml' }),
	},
	{
		label: 'JSON: "@" keys that collide once written as XML',
		plain: false,
		make: (size) => ({
			bytes: Buffer.from(JSON.stringify({ event: 'invoice.paid', data: Object.fromEntries(collidingNames('@a', Math.floor(size / 24)).map((name) => [name, '1'])) })),
			contentType: 'application/json',
		}),
	},
];

type AnswerFormat = 'json' | 'xml';
const ANSWER_FORMATS: AnswerFormat[] = ['json', 'xml'];

export interface AnswerRow {
	label: string;
	plain: boolean;
	/** Microseconds per kilobyte of the request, writing its item as JSON and as XML, at each size; medians. */
	usPerKb: Record<AnswerFormat, Record<string, number>>;
}

export interface HostileRow {
	label: string;
	plain: boolean;
	outcome: string;
	/** Microseconds per kilobyte at each size measured, medians. */
	usPerKb: Record<string, number>;
}

export interface HostileData {
	sizes: number[];
	runs: number;
	rows: HostileRow[];
	/** The answer side; absent from results stored before it was measured. */
	answers?: AnswerRow[];
}

async function timeOnce(trigger: BuiltTrigger, made: ReturnType<Case['make']>): Promise<{ ms: number; bytes: number; outcome: string }> {
	if (made.kind === 'header') {
		const expected = { type: 'bearerToken', credential: { token: 'bench-token.3f9c' } } as const;
		const start = performance.now();
		const checked = trigger.checkCaller(made.value, expected);
		return { ms: performance.now() - start, bytes: made.value.length, outcome: checked.ok ? 'accepted' : '401' };
	}
	const source = {
		headers: made.gzip ? { 'content-encoding': 'x-gzip' } : {},
		rawBody: made.gzip ? gzipSync(made.bytes) : made.bytes,
		on: () => undefined,
	};
	const noFiles = async () => {
		throw new Error('no files here');
	};
	const start = performance.now();
	const result = await trigger.receiveBody(source, trigger.parseContentType(made.contentType), made.options ?? {}, 16 * 1024 * KB, noFiles);
	const ms = performance.now() - start;
	return { ms, bytes: made.bytes.length, outcome: 'value' in result ? `read (${result.value.format})` : `${result.rejection.status} ${result.rejection.code}` };
}

/**
 * The item the trigger emits for the call (what Respond to Call answers with at its defaults),
 * read once; the part to time is the writing.
 */
async function itemFor(trigger: BuiltTrigger, made: ReturnType<AnswerCase['make']>): Promise<Record<string, unknown>> {
	const source = { headers: {}, rawBody: made.bytes, on: () => undefined };
	const noFiles = async () => {
		throw new Error('no files here');
	};
	const read = await trigger.receiveBody(source, trigger.parseContentType(made.contentType), {}, 16 * 1024 * KB, noFiles);
	if (!('value' in read)) throw new Error(`The trigger refused the answer side's "${made.contentType}" request: ${read.rejection.message}`);
	return { event: 'invoice.paid', method: 'POST', format: read.value.format, replyFormat: read.value.format, body: read.value.value, query: {}, params: {} };
}

function timeAnswer(trigger: BuiltTrigger, item: Record<string, unknown>, format: AnswerFormat): number {
	const start = performance.now();
	trigger.serializeReply(item, format, 'response');
	return performance.now() - start;
}

/** The answer side: each case's item written as JSON and XML, interleaved, µs per KB of the request. */
async function measureAnswers(trigger: BuiltTrigger, sizes: number[], runs: number, context: BenchContext): Promise<AnswerRow[]> {
	const prepared = await Promise.all(
		ANSWER_CASES.map(async (entry) => ({
			entry,
			bySize: await Promise.all(sizes.map(async (size) => {
				const made = entry.make(size);
				return { size, kb: made.bytes.length / KB, item: await itemFor(trigger, made) };
			})),
		})),
	);
	const samples = new Map<string, number[]>();
	const key = (label: string, format: AnswerFormat, size: number) => `${label}\n${format}\n${size}`;
	for (let run = -1; run < runs; run++) {
		for (const { entry, bySize } of prepared) {
			for (const { size, kb, item } of bySize) {
				for (const format of ANSWER_FORMATS) {
					const ms = timeAnswer(trigger, item, format);
					// Run -1 warms the code up and is not counted.
					if (run >= 0) samples.set(key(entry.label, format, size), [...(samples.get(key(entry.label, format, size)) ?? []), (ms * 1000) / kb]);
				}
			}
		}
	}
	const rows = ANSWER_CASES.map((entry) => ({
		label: entry.label,
		plain: entry.plain,
		usPerKb: Object.fromEntries(
			ANSWER_FORMATS.map((format) => [format, Object.fromEntries(sizes.map((size) => [String(size), median(samples.get(key(entry.label, format, size)) ?? [])]))]),
		) as AnswerRow['usPerKb'],
	}));
	for (const row of rows) {
		context.log(`answer to ${row.label}: ${ANSWER_FORMATS.map((format) => `${format} ${sizes.map((size) => `${row.usPerKb[format][String(size)].toFixed(2)}`).join(' / ')}`).join(', ')} µs/KB at ${sizes.map((size) => size / KB).join(' / ')} KB`);
	}
	return rows;
}

export const hostileInput: Section<HostileData> = {
	id: 'hostile-input',
	title: 'Records Trigger: hostile input per kilobyte',
	async run(context: BenchContext): Promise<HostileData> {
		const trigger = builtTrigger();
		const sizes = [64 * KB, 1024 * KB];
		const runs = context.quick ? 3 : 15;
		const samples = new Map<string, Map<number, number[]>>();
		const outcomes = new Map<string, string>();
		const made = new Map(CASES.map((entry) => [entry.label, new Map(sizes.map((size) => [size, entry.make(size)]))]));
		// Warm-up, then interleaved runs: every case once per round, so a slow phase hits all alike.
		for (const entry of CASES) for (const size of sizes) await timeOnce(trigger, made.get(entry.label)?.get(size) as ReturnType<Case['make']>);
		for (let run = 0; run < runs; run++) {
			for (const entry of CASES) {
				for (const size of sizes) {
					const { ms, bytes, outcome } = await timeOnce(trigger, made.get(entry.label)?.get(size) as ReturnType<Case['make']>);
					const bySize = samples.get(entry.label) ?? new Map<number, number[]>();
					bySize.set(size, [...(bySize.get(size) ?? []), (ms * 1000) / (bytes / KB)]);
					samples.set(entry.label, bySize);
					outcomes.set(entry.label, outcome);
				}
			}
		}
		const rows = CASES.map((entry) => ({
			label: entry.label,
			plain: entry.plain,
			outcome: outcomes.get(entry.label) ?? '',
			usPerKb: Object.fromEntries(sizes.map((size) => [String(size), median(samples.get(entry.label)?.get(size) ?? [])])),
		}));
		for (const row of rows) context.log(`${row.label}: ${sizes.map((size) => `${row.usPerKb[String(size)].toFixed(2)} µs/KB at ${size / KB} KB`).join(', ')} (${row.outcome})`);
		const answers = await measureAnswers(trigger, sizes, runs, context);
		return { sizes, runs, rows, answers };
	},
	render(data: HostileData): Rendered {
		const largest = String(data.sizes[data.sizes.length - 1]);
		const plainJson = data.rows.find((row) => row.plain && row.label.includes('JSON'));
		const plainXml = data.rows.find((row) => row.plain && row.label.includes('XML'));
		const worst = data.rows.filter((row) => !row.plain).sort((a, b) => b.usPerKb[largest] - a.usPerKb[largest])[0];
		const sizeLabel = (size: number) => (size >= 1024 * KB ? `${size / (1024 * KB)} MB` : `${size / KB} KB`);
		const table = markdownTable({
			headers: ['Request', 'Trigger answers', ...data.sizes.map((size) => `µs/KB at ${sizeLabel(size)}`), `vs plain JSON at ${sizeLabel(Number(largest))}`],
			rows: data.rows.map((row) => [
				row.label,
				row.outcome,
				...data.sizes.map((size) => row.usPerKb[String(size)].toFixed(2)),
				plainJson ? formatRatio(row.usPerKb[largest] / plainJson.usPerKb[largest]) : '–',
			]),
		});
		const summary =
			worst && plainJson
				? `The worst hostile request, ${worst.label.toLowerCase()}, costs ${worst.usPerKb[largest].toFixed(2)} µs per kilobyte at ${sizeLabel(Number(largest))}; a plain JSON body of the same size ${plainJson.usPerKb[largest].toFixed(2)} µs (${formatRatio(worst.usPerKb[largest] / plainJson.usPerKb[largest])})${plainXml ? `, a plain XML one ${plainXml.usPerKb[largest].toFixed(2)} µs (${formatRatio(worst.usPerKb[largest] / plainXml.usPerKb[largest])})` : ''}.`
				: '';
		return {
			markdown: [
				`The Records Trigger's own work on a request (reading, decoding and parsing the body; checking the Authorization header), per kilobyte of the request, median of ${data.runs} interleaved runs on the compiled package. A cost per kilobyte that stays flat as the size grows is linear in the size. ${summary}`,
				'',
				table,
				...(data.answers ? ['', ...renderAnswers(data.answers, data.sizes, sizeLabel)] : []),
			].join('\n'),
			charts: [],
			targets: [],
		};
	},
};

/** The answer side's paragraph and table. */
function renderAnswers(answers: AnswerRow[], sizes: number[], sizeLabel: (size: number) => string): string[] {
	const largest = String(sizes[sizes.length - 1]);
	const plainJson = answers.find((row) => row.plain && row.label.includes('JSON'));
	const costliest = (format: AnswerFormat) => answers.filter((row) => !row.plain).sort((a, b) => b.usPerKb[format][largest] - a.usPerKb[format][largest])[0];
	const worstXml = costliest('xml');
	const summary =
		worstXml && plainJson
			? ` The costliest hostile answer, ${worstXml.label.toLowerCase()} written as XML, costs ${worstXml.usPerKb.xml[largest].toFixed(2)} µs per kilobyte of the request at ${sizeLabel(Number(largest))} (${worstXml.usPerKb.xml[sizes[0]].toFixed(2)} µs at ${sizeLabel(sizes[0])}); a plain JSON call's item written as XML ${plainJson.usPerKb.xml[largest].toFixed(2)} µs, as JSON ${plainJson.usPerKb.json[largest].toFixed(2)} µs.`
			: '';
	const table = markdownTable({
		headers: ['Request', ...ANSWER_FORMATS.flatMap((format) => sizes.map((size) => `${format.toUpperCase()} answer, µs/KB at ${sizeLabel(size)}`))],
		rows: answers.map((row) => [row.label, ...ANSWER_FORMATS.flatMap((format) => sizes.map((size) => row.usPerKb[format][String(size)].toFixed(2)))]),
	});
	return [
		`The answer side: the call's item (as the trigger emits it) written back as Respond to Call writes it at its defaults, as JSON and as XML, per kilobyte of the request, medians of the same runs.${summary}`,
		'',
		table,
	];
}
