export { RecordsApi } from './credentials/RecordsApi.credentials';
export { Records } from './nodes/Records/Records.node';
