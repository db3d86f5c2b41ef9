// Transitional: the D6 error body moved to src/http/error.ts, shared by server/, events/ and
// faucet/. Only pipeline/indexer-query.ts still imports it from here, while the indexer's
// filter fields are being reworked elsewhere; once that file imports '../../http/error',
// delete this one.

export { badRequest } from '../../http/error';
