export type Align = 'left' | 'right';

export interface Table {
	headers: string[];
	rows: string[][];
	/** Per column; numbers read best right-aligned. Default: the first column left, the others right. */
	align?: Align[];
}

function escapeCell(cell: string): string {
	return cell.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function markdownTable({ headers, rows, align }: Table): string {
	const alignment = headers.map((_, index) => align?.[index] ?? (index === 0 ? 'left' : 'right'));
	const lines = [
		`| ${headers.map(escapeCell).join(' | ')} |`,
		`|${alignment.map((side) => (side === 'right' ? '---:' : ':---')).join('|')}|`,
		...rows.map((row) => `| ${row.map(escapeCell).join(' | ')} |`),
	];
	return lines.join('\n');
}
