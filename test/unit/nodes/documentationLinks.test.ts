/* eslint-disable @n8n/community-nodes/no-restricted-imports -- a test: runs in Node.js, not inside
	n8n (Node.js's modules) */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { repoRoot } from '../../../tooling/lib/paths';

/**
 * The links n8n shows beside the nodes and credentials (the panel's Docs link, a credential's docs
 * link) land on a page of this repository and, with an anchor, on one of its headings.
 */

const REPOSITORY = 'https://github.com/n8n-nodes-records/n8n-nodes-records';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');

function filesUnder(dir: string, suffix: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith(suffix))
		.map((file) => join(dir, file));
}

function linksOfPackage(): string[] {
	const sources = [...filesUnder(join(repoRoot, 'nodes'), '.node.json'), ...filesUnder(join(repoRoot, 'credentials'), '.ts')];
	return sources.flatMap((file) => readFileSync(file, 'utf8').match(new RegExp(`${REPOSITORY}[^'"\\s]*`, 'g')) ?? []);
}

/** The markdown file a link shows, and its anchor. */
function target(link: string): { file: string; anchor?: string } {
	const [path, anchor] = link.slice(REPOSITORY.length).split('#');
	const file = path === '' ? 'README.md' : path.replace(/^\/blob\/main\//, '');
	return { file, anchor };
}

describe('links to the documentation from nodes and credentials', () => {
	const links = linksOfPackage();

	it('are found (the Docs link of each node and each credential)', () => {
		expect(links.length).toBeGreaterThanOrEqual(6);
	});

	// Issue 48: the panel's Docs link went to #records-node, a heading the README lacked.
	it.each(links.map((link) => [link]))('%s lands on a page and a heading that exist', (link) => {
		const { file, anchor } = target(link);
		const text = readFileSync(join(repoRoot, file), 'utf8');
		if (anchor === undefined) return;
		const anchors = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]));
		expect(anchors).toContain(anchor);
	});
});
