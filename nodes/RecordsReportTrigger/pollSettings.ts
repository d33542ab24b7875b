/** The Records Report Trigger's parameters, checked, and what its node version decides. */
import type { IDataObject, INode, IPollFunctions } from 'n8n-workflow';

import { choice, wholeNumber } from '../shared/parameters/kit';
import { parseColumnList } from '../shared/report/rows';
import type { ReportReadSettings } from '../shared/report/settings';
import { reportIdFromParameter, reportReadSettings } from '../shared/report/settings';
import type { IdentityKind, NewRowPosition } from './memory';

/** From this node version the ordered modes remember a bounded window, not every row. */
export const BOUNDED_MEMORY_VERSION = 1.2;
/** Max Remembered Rows when the option is not set: version 1.2's, and the versions' before. */
export const DEFAULT_MAX_REMEMBERED = 1_000_000;
export const LEGACY_MAX_REMEMBERED = 100_000;

export interface PollSettings {
	reportId: string;
	rowIdentity: IdentityKind;
	keyColumns: string[];
	firstRun: 'remember' | 'emit';
	position: NewRowPosition;
	read: ReportReadSettings;
	maxRemembered: number;
	outputMode: 'row' | 'all';
	/** Ordered modes: a full read every this many polls; 0 never. */
	fullCheckEvery: number;
	bounded: boolean;
}

export function pollSettings(context: IPollFunctions, node: INode): PollSettings {
	const rowIdentity = choice<IdentityKind>(node, context.getNodeParameter('rowIdentity', 'hash'), {
		label: 'Row Identity',
		allowed: ['hash', 'columns'],
		fallback: 'hash',
	});
	const options = context.getNodeParameter('options', {}) as IDataObject;
	const current = node.typeVersion >= BOUNDED_MEMORY_VERSION;
	const fullCheckEvery = wholeNumber(node, options.fullCheckEvery, {
		label: 'Full Check Every',
		min: 0,
		max: 1_000_000,
		fallback: 0,
	});
	return {
		reportId: reportIdFromParameter(node, context.getNodeParameter('report')),
		rowIdentity,
		keyColumns: parseColumnList(rowIdentity === 'columns' ? context.getNodeParameter('keyColumns', '') : ''),
		firstRun: choice(node, context.getNodeParameter('firstRun', 'remember'), {
			label: 'On First Run',
			allowed: ['remember', 'emit'] as const,
			fallback: 'remember',
		}),
		position: choice<NewRowPosition>(node, context.getNodeParameter('newRowPosition', 'anywhere'), {
			label: 'New Rows Appear',
			allowed: ['anywhere', 'end', 'top'],
			fallback: 'anywhere',
		}),
		read: reportReadSettings(node, options),
		maxRemembered: wholeNumber(node, options.maxRemembered, {
			label: 'Max Remembered Rows',
			min: 1,
			max: 100_000_000,
			fallback: current ? DEFAULT_MAX_REMEMBERED : LEGACY_MAX_REMEMBERED,
		}),
		outputMode: choice(node, options.outputMode, { label: 'Output Items', allowed: ['row', 'all'] as const, fallback: 'row' }),
		fullCheckEvery,
		// The full check compares every row, so it needs every row remembered.
		bounded: current && fullCheckEvery === 0,
	};
}
