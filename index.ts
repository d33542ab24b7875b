export { RecordsApi } from './credentials/RecordsApi.credentials';
export { RecordsTriggerBasicAuthApi } from './credentials/RecordsTriggerBasicAuthApi.credentials';
export { RecordsTriggerBearerAuthApi } from './credentials/RecordsTriggerBearerAuthApi.credentials';
export { Records } from './nodes/Records/Records.node';
export { RecordsTrigger } from './nodes/RecordsTrigger/RecordsTrigger.node';
export { RecordsReportTrigger } from './nodes/RecordsReportTrigger/RecordsReportTrigger.node';
