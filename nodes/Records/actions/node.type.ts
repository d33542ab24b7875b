import type { AllEntities } from 'n8n-workflow';

type NodeMap = {
	record: 'import';
	report: 'getRows';
	api: 'request' | 'listClients' | 'createInvoice';
	workflowCall: 'respond';
};

export type RecordsType = AllEntities<NodeMap>;
