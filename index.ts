export { RecordsApi } from './credentials/RecordsApi.credentials';
export { Records } from './nodes/Records/Records.node';
export { RecordsReportTrigger } from './nodes/RecordsReportTrigger/RecordsReportTrigger.node';
