/**
 * Plain SVG charts for BENCHMARKS.md: horizontal grouped bars and lines. Hand-written so the report
 * needs no plotting dependency; every chart is self-contained (inline styles, no fonts to load).
 */

const PALETTE = ['#2f6fb3', '#e07b39', '#3a9b5b', '#b5443b', '#7d5fb2', '#8c6d31', '#4c9fb8', '#c25b9a'];
const FONT = 'font-family="Helvetica, Arial, sans-serif"';

function escapeXml(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Rough text width for layout: average glyph width of a sans-serif font. */
function textWidth(text: string, fontSize: number): number {
	return text.length * fontSize * 0.56;
}

/** 1, 2, 5 × 10^n steps that give about `count` ticks from 0 to max. */
function niceTicks(max: number, count = 5): number[] {
	if (!(max > 0)) return [0, 1];
	const rough = max / count;
	const power = 10 ** Math.floor(Math.log10(rough));
	const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
	const ticks: number[] = [];
	for (let value = 0; value <= max + step * 0.001; value += step) ticks.push(Number(value.toPrecision(12)));
	if (ticks[ticks.length - 1] < max) ticks.push(Number((ticks[ticks.length - 1] + step).toPrecision(12)));
	return ticks;
}

function formatTick(value: number): string {
	if (value === 0) return '0';
	if (Math.abs(value) >= 1_000_000) return `${Number((value / 1_000_000).toPrecision(3))}M`;
	if (Math.abs(value) >= 1_000) return `${Number((value / 1_000).toPrecision(3))}k`;
	return String(Number(value.toPrecision(3)));
}

export interface Bar {
	label: string;
	value: number;
	/** Text printed after the bar; defaults to the value. */
	text?: string;
	/** Series index for the colour; bars of the same variant share a colour across groups. */
	series?: number;
}

export interface BarGroup {
	label: string;
	bars: Bar[];
}

export interface BarChart {
	title: string;
	/** Axis caption, e.g. "rows per second (higher is better)". */
	unit: string;
	groups: BarGroup[];
	width?: number;
}

export function barChartSvg(chart: BarChart): string {
	const width = chart.width ?? 860;
	const barHeight = 18;
	const barGap = 6;
	const groupGap = 18;
	const titleHeight = 34;
	const groupLabelHeight = 20;
	const axisHeight = 40;
	const labelWidth = Math.min(
		360,
		Math.max(120, ...chart.groups.flatMap((group) => group.bars.map((bar) => textWidth(bar.label, 12) + 16))),
	);
	const valueTextWidth = Math.max(60, ...chart.groups.flatMap((g) => g.bars.map((b) => textWidth(b.text ?? formatTick(b.value), 11) + 12)));
	const plotLeft = labelWidth;
	const plotWidth = width - plotLeft - valueTextWidth - 10;
	const max = Math.max(0, ...chart.groups.flatMap((group) => group.bars.map((bar) => (Number.isFinite(bar.value) ? bar.value : 0))));
	const ticks = niceTicks(max);
	const scaleMax = ticks[ticks.length - 1];
	const x = (value: number) => plotLeft + (Math.max(0, value) / scaleMax) * plotWidth;

	const parts: string[] = [];
	let y = titleHeight;
	for (const group of chart.groups) {
		parts.push(`<text x="8" y="${y + 14}" font-size="13" font-weight="bold" ${FONT} fill="#222">${escapeXml(group.label)}</text>`);
		y += groupLabelHeight;
		group.bars.forEach((bar, index) => {
			const colour = PALETTE[(bar.series ?? index) % PALETTE.length];
			const value = Number.isFinite(bar.value) ? bar.value : 0;
			const barEnd = x(value);
			parts.push(
				`<text x="${plotLeft - 8}" y="${y + barHeight - 5}" font-size="12" ${FONT} fill="#333" text-anchor="end">${escapeXml(bar.label)}</text>`,
				`<rect x="${plotLeft}" y="${y}" width="${Math.max(1, barEnd - plotLeft).toFixed(1)}" height="${barHeight}" fill="${colour}"/>`,
				`<text x="${(barEnd + 6).toFixed(1)}" y="${y + barHeight - 5}" font-size="11" ${FONT} fill="#333">${escapeXml(bar.text ?? formatTick(bar.value))}</text>`,
			);
			y += barHeight + barGap;
		});
		y += groupGap;
	}
	const plotBottom = y - groupGap + 4;
	const grid = ticks.map((tick) => {
		const tx = x(tick).toFixed(1);
		return [
			`<line x1="${tx}" y1="${titleHeight}" x2="${tx}" y2="${plotBottom}" stroke="#ddd" stroke-width="1"/>`,
			`<text x="${tx}" y="${plotBottom + 16}" font-size="11" ${FONT} fill="#555" text-anchor="middle">${formatTick(tick)}</text>`,
		].join('');
	});
	const height = plotBottom + axisHeight;
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
		`<rect width="100%" height="100%" fill="#fff"/>`,
		`<text x="8" y="22" font-size="15" font-weight="bold" ${FONT} fill="#111">${escapeXml(chart.title)}</text>`,
		...grid,
		`<line x1="${plotLeft}" y1="${titleHeight}" x2="${plotLeft}" y2="${plotBottom}" stroke="#888"/>`,
		...parts,
		`<text x="${(plotLeft + plotWidth / 2).toFixed(1)}" y="${plotBottom + 34}" font-size="12" ${FONT} fill="#333" text-anchor="middle">${escapeXml(chart.unit)}</text>`,
		'</svg>',
		'',
	].join('\n');
}

export interface LineSeries {
	name: string;
	points: Array<{ x: number; y: number }>;
	dashed?: boolean;
}

export interface LineChart {
	title: string;
	xLabel: string;
	yLabel: string;
	series: LineSeries[];
	/** Logarithmic x axis, for sizes growing by factors of ten. */
	logX?: boolean;
	logY?: boolean;
	width?: number;
	height?: number;
}

function logTicks(min: number, max: number): number[] {
	const ticks: number[] = [];
	for (let power = Math.floor(Math.log10(min)); 10 ** power <= max * 1.0001; power++) {
		if (10 ** power >= min * 0.9999) ticks.push(10 ** power);
	}
	return ticks.length > 0 ? ticks : [min, max];
}

export function lineChartSvg(chart: LineChart): string {
	const width = chart.width ?? 860;
	const height = chart.height ?? 420;
	const legendWidth = Math.max(150, ...chart.series.map((s) => textWidth(s.name, 12) + 40));
	const left = 70;
	const right = width - legendWidth - 10;
	const top = 40;
	const bottom = height - 50;
	const points = chart.series.flatMap((series) => series.points).filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
	const xs = points.map((p) => p.x);
	const ys = points.map((p) => p.y);
	const xMin = Math.min(...xs);
	const xMax = Math.max(...xs);
	const yMaxRaw = Math.max(...ys);
	const yMinRaw = Math.min(...ys);

	const xTicks = chart.logX ? logTicks(xMin, xMax) : niceTicks(xMax);
	const xLo = chart.logX ? Math.min(xMin, xTicks[0]) : 0;
	const xHi = chart.logX ? Math.max(xMax, xTicks[xTicks.length - 1]) : xTicks[xTicks.length - 1];
	const yTicks = chart.logY
		? logTicks(10 ** Math.floor(Math.log10(yMinRaw)), 10 ** Math.ceil(Math.log10(yMaxRaw)))
		: niceTicks(yMaxRaw);
	const yLo = chart.logY ? yTicks[0] : 0;
	const yHi = yTicks[yTicks.length - 1];

	const sx = (value: number) =>
		chart.logX
			? left + ((Math.log10(value) - Math.log10(xLo)) / (Math.log10(xHi) - Math.log10(xLo) || 1)) * (right - left)
			: left + ((value - xLo) / (xHi - xLo || 1)) * (right - left);
	const sy = (value: number) =>
		chart.logY
			? bottom - ((Math.log10(value) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo) || 1)) * (bottom - top)
			: bottom - ((value - yLo) / (yHi - yLo || 1)) * (bottom - top);

	const parts: string[] = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
		`<rect width="100%" height="100%" fill="#fff"/>`,
		`<text x="8" y="22" font-size="15" font-weight="bold" ${FONT} fill="#111">${escapeXml(chart.title)}</text>`,
	];
	for (const tick of yTicks) {
		const ty = sy(tick).toFixed(1);
		parts.push(
			`<line x1="${left}" y1="${ty}" x2="${right}" y2="${ty}" stroke="#e3e3e3"/>`,
			`<text x="${left - 6}" y="${(Number(ty) + 4).toFixed(1)}" font-size="11" ${FONT} fill="#555" text-anchor="end">${formatTick(tick)}</text>`,
		);
	}
	for (const tick of xTicks) {
		const tx = sx(tick).toFixed(1);
		parts.push(
			`<line x1="${tx}" y1="${top}" x2="${tx}" y2="${bottom}" stroke="#eee"/>`,
			`<text x="${tx}" y="${bottom + 16}" font-size="11" ${FONT} fill="#555" text-anchor="middle">${formatTick(tick)}</text>`,
		);
	}
	parts.push(
		`<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="#888"/>`,
		`<line x1="${left}" y1="${top}" x2="${left}" y2="${bottom}" stroke="#888"/>`,
		`<text x="${((left + right) / 2).toFixed(1)}" y="${height - 12}" font-size="12" ${FONT} fill="#333" text-anchor="middle">${escapeXml(chart.xLabel)}</text>`,
		`<text x="16" y="${((top + bottom) / 2).toFixed(1)}" font-size="12" ${FONT} fill="#333" text-anchor="middle" transform="rotate(-90 16 ${((top + bottom) / 2).toFixed(1)})">${escapeXml(chart.yLabel)}</text>`,
	);
	chart.series.forEach((series, index) => {
		const colour = PALETTE[index % PALETTE.length];
		const valid = series.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y)).sort((a, b) => a.x - b.x);
		if (valid.length > 0) {
			const path = valid.map((p, i) => `${i === 0 ? 'M' : 'L'}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ');
			parts.push(
				`<path d="${path}" fill="none" stroke="${colour}" stroke-width="2"${series.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
				...valid.map((p) => `<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="3.5" fill="${colour}"/>`),
			);
		}
		const ly = top + 6 + index * 20;
		parts.push(
			`<line x1="${right + 14}" y1="${ly}" x2="${right + 36}" y2="${ly}" stroke="${colour}" stroke-width="2"${series.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
			`<text x="${right + 42}" y="${ly + 4}" font-size="12" ${FONT} fill="#333">${escapeXml(series.name)}</text>`,
		);
	});
	parts.push('</svg>', '');
	return parts.join('\n');
}
