/**
 * The one version of each node type of this package, as a workflow names it: the node types n8n
 * loads (`n8n-nodes-records.<name>`) and the tool variant n8n builds of a node usable as a tool.
 */
import { Records } from '../../nodes/Records/Records.node';
import { RecordsReportTrigger } from '../../nodes/RecordsReportTrigger/RecordsReportTrigger.node';
import { RecordsTrigger } from '../../nodes/RecordsTrigger/RecordsTrigger.node';

function nodeVersions(): Record<string, number> {
	const versions: Record<string, number> = {};
	for (const { description } of [new Records(), new RecordsTrigger(), new RecordsReportTrigger()]) {
		const version = Number(description.version);
		versions[`n8n-nodes-records.${description.name}`] = version;
		if (description.usableAsTool) versions[`n8n-nodes-records.${description.name}Tool`] = version;
	}
	return versions;
}

let versions: Readonly<Record<string, number>> | undefined;

/**
 * Made when first asked, not when the module loads: the e2e global setup loads this module through
 * Node's own resolution, where `nodes/Records/Records.node` names the `.json` file beside the `.ts`
 * one; the tests, which ask, load it through jest's, which takes the `.ts`.
 */
export function packageNodeVersions(): Readonly<Record<string, number>> {
	versions ??= nodeVersions();
	return versions;
}
