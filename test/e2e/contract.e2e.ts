/* eslint-disable @n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals -- a test: runs in Node.js, not inside n8n (Node.js's
	modules, `__dirname`, `process`) */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { N8nInstance, type NodeTypeJson } from '../../tooling/n8n/n8nInstance';
import { readPackageJson } from '../../tooling/n8n/package';
import { readSetup, runtimesUnderTest } from './harness';

/**
 * The public contract as n8n loads it: every node type at its one version, every parameter (name,
 * type, default, option values, nested fields) and every credential type and field of the packed
 * package, compared with test/e2e/contract/descriptions.json, the contract of the first release.
 * Removed or changed entries fail: saved workflows and credentials depend on them. Added entries are
 * allowed and listed. UPDATE_CONTRACT_SNAPSHOT=1 rewrites the snapshot (only when adding on purpose).
 */

const snapshotFile = join(__dirname, 'contract', 'descriptions.json');
const repoRoot = join(__dirname, '..', '..');
const { packed } = readSetup();
const pkg = readPackageJson();

type Flat = Record<string, unknown>;
interface Property {
	name: string;
	type?: string;
	default?: unknown;
	required?: boolean;
	displayOptions?: unknown;
	options?: Array<{ name: string; value?: unknown; values?: Property[] } & Partial<Property>>;
	typeOptions?: Record<string, unknown>;
}

/** Parameters that show text and hold no value: a saved workflow does not depend on them. */
const TEXT_ONLY = new Set(['notice', 'callout']);

/** One key per parameter path, so a change reads as "this parameter's default changed". */
function flattenProperties(properties: Property[], prefix: string, into: Flat): void {
	for (const property of properties) {
		if (property.type !== undefined && TEXT_ONLY.has(property.type)) continue;
		// Several parameters share a name (one "operation" per resource): displayOptions tell them apart.
		const shown = property.displayOptions ? ` ${JSON.stringify(property.displayOptions)}` : '';
		const key = `${prefix}${property.name}${shown}`;
		into[`${key} :type`] = property.type;
		into[`${key} :default`] = property.default ?? null;
		if (property.required) into[`${key} :required`] = true;
		if (property.typeOptions?.multipleValues) into[`${key} :multipleValues`] = true;
		for (const option of property.options ?? []) {
			if ('value' in option) into[`${key} :option ${JSON.stringify(option.value)}`] = option.name;
			else if (Array.isArray(option.values)) flattenProperties(option.values, `${key}.${option.name}.`, into);
			else flattenProperties([option as Property], `${key}.`, into);
		}
	}
}

/** Each node of the package at its one version: a saved workflow names that version. */
function flattenNodes(nodes: NodeTypeJson[]): Flat {
	const flat: Flat = {};
	for (const node of nodes.filter((type) => type.name.startsWith(`${pkg.name}.`))) {
		const prefix = `node ${node.name} v${String(node.version)} `;
		flat[`${prefix}:displayName`] = node.displayName;
		for (const credential of node.credentials ?? []) flat[`${prefix}:credential ${credential.name}`] = true;
		flattenProperties(node.properties as Property[], prefix, flat);
	}
	return flat;
}

function flattenCredentials(types: Array<{ name: string; displayName: string; properties: Property[] }>): Flat {
	const ours = new Set((pkg.n8n?.credentials ?? []).map((file) => {
		const className = file.split('/').pop()!.replace('.credentials.js', '');
		return `${className[0].toLowerCase()}${className.slice(1)}`;
	}));
	const flat: Flat = {};
	for (const type of types.filter((credential) => ours.has(credential.name))) {
		flat[`credential ${type.name} :displayName`] = type.displayName;
		flattenProperties(type.properties, `credential ${type.name} `, flat);
	}
	return flat;
}

/** Removed or changed keys (failures) and added keys (allowed) between the snapshot and now. */
function compare(before: Flat, now: Flat): { broken: string[]; added: string[] } {
	const broken: string[] = [];
	for (const [key, value] of Object.entries(before)) {
		if (!(key in now)) broken.push(`removed: ${key}`);
		else if (JSON.stringify(now[key]) !== JSON.stringify(value))
			broken.push(`changed: ${key}: ${JSON.stringify(value)} → ${JSON.stringify(now[key])}`);
	}
	const added = Object.keys(now).filter((key) => !(key in before));
	return { broken, added };
}

describe.each(runtimesUnderTest())('the public contract in %s', (_title, runtime) => {
	let n8n: N8nInstance;

	beforeAll(async () => {
		n8n = await N8nInstance.create({ runtime, package: packed });
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	test('every node has one version, and no parameter is shown by version', async () => {
		const nodes = (await n8n.exportNodes()).filter((type) => type.name.startsWith(`${pkg.name}.`));
		expect(nodes.filter((node) => Array.isArray(node.version)).map((node) => node.name)).toEqual([]);
		expect(JSON.stringify(nodes.map((node) => node.properties))).not.toContain('@version');
	});

	test('every node and credential parameter of the snapshot survives unchanged', async () => {
		const nodes = flattenNodes(await n8n.exportNodes());
		await n8n.start();
		await n8n.setupOwner();
		const credentials = flattenCredentials(await n8n.editorRequest('GET', '/types/credentials.json'));
		const now = { ...nodes, ...credentials };

		if (process.env.UPDATE_CONTRACT_SNAPSHOT === '1' || !existsSync(snapshotFile)) {
			mkdirSync(join(__dirname, 'contract'), { recursive: true });
			writeFileSync(snapshotFile, `${JSON.stringify(now, null, '\t')}\n`);
		}
		const before = JSON.parse(readFileSync(snapshotFile, 'utf8')) as Flat;
		expect(Object.keys(before).length).toBeGreaterThan(100);

		const { broken, added } = compare(before, now);
		if (added.length > 0) process.stderr.write(`[contract] added since the snapshot:\n  ${added.join('\n  ')}\n`);
		expect(broken).toEqual([]);
	});

	test('n8n serves the one icon file to every node and credential, light and dark', async () => {
		await n8n.start();
		type Typed = { name: string; iconUrl?: string | { light: string; dark: string } };
		const nodes = await n8n.editorRequest<Typed[]>('GET', '/types/nodes.json');
		const credentials = await n8n.editorRequest<Typed[]>('GET', '/types/credentials.json');
		const ours = [
			...nodes.filter((type) => type.name.startsWith(`${pkg.name}.`)),
			...credentials.filter((type) => type.name.startsWith('records')),
		];
		expect(ours.length).toBeGreaterThanOrEqual(6);
		const icons = { light: readFileSync(join(repoRoot, 'icons', 'records.svg'), 'utf8'), dark: readFileSync(join(repoRoot, 'icons', 'records.dark.svg'), 'utf8') };
		for (const type of ours) {
			expect({ type: type.name, iconUrl: typeof type.iconUrl }).toEqual({ type: type.name, iconUrl: 'object' });
			for (const theme of ['light', 'dark'] as const) {
				const url = (type.iconUrl as { light: string; dark: string })[theme];
				const response = await fetch(`${n8n.baseUrl}/${url}`);
				expect({ type: type.name, url, status: response.status }).toEqual({ type: type.name, url, status: 200 });
				expect(await response.text()).toBe(icons[theme]);
			}
		}
	});
});
