import type { AllEntities } from 'n8n-workflow';

type NodeMap = {
	record: 'import';
	report: 'getRows';
	client: 'getMany';
	invoice: 'create';
	customApi: 'request';
	workflowCall: 'respond';
};

export type RecordsType = AllEntities<NodeMap>;
