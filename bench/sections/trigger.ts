import type { Rendered, Section } from '../lib/context';

export const trigger: Section<Record<string, never>> = {
	id: 'trigger',
	title: 'trigger',
	async run(): Promise<Record<string, never>> {
		throw new Error('not written yet');
	},
	render(): Rendered {
		return { markdown: '', charts: [], targets: [] };
	},
};
