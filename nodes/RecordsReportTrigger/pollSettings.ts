/** The Records Report Trigger's parameters, checked. */
import type { IDataObject, INode, IPollFunctions } from 'n8n-workflow';

import { choice, wholeNumber } from '../shared/parameters/kit';
import { parseColumnList } from '../shared/report/rows';
import type { ReportReadSettings } from '../shared/report/settings';
import { reportIdFromParameter, reportReadSettings } from '../shared/report/settings';
import type { IdentityKind, NewRowPosition } from './memory';

/** Max Remembered Rows when the option is not set. */
export const DEFAULT_MAX_REMEMBERED = 1_000_000;

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
}

export function pollSettings(context: IPollFunctions, node: INode): PollSettings {
	const rowIdentity = choice<IdentityKind>(node, context.getNodeParameter('rowIdentity', 'hash'), {
		label: 'Row Identity',
		allowed: ['hash', 'columns'],
		fallback: 'hash',
	});
	const options = context.getNodeParameter('options', {}) as IDataObject;
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
			fallback: DEFAULT_MAX_REMEMBERED,
		}),
		outputMode: choice(node, options.outputMode, { label: 'Output Items', allowed: ['row', 'all'] as const, fallback: 'row' }),
		fullCheckEvery,
	};
}
