import type { Rendered, Section } from '../lib/context';

export const soak: Section<Record<string, never>> = {
	id: 'soak',
	title: 'soak',
	async run(): Promise<Record<string, never>> {
		throw new Error('not written yet');
	},
	render(): Rendered {
		return { markdown: '', charts: [], targets: [] };
	},
};
