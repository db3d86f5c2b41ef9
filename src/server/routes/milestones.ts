// /api/core/v2/milestones/… (api.md §2.12–2.13): the milestone payload by ID or index,
// JSON or raw payload bytes, and the UTXO changes it applied.

import type Router from '@koa/router';
import { notFound } from '../../http/error';
import { payloadJsonText } from '../../http/json-text';
import { sendJsonOrBinary } from '../middleware/media';
import { id32Param, indexParam } from '../lib/params';
import type { ServerServices } from '../services';
import type { MilestoneRecord } from '../../store-contract';

export function milestonesRoutes(router: Router, { store }: ServerServices): void {
  const byId = (raw: string): MilestoneRecord => {
    const id = id32Param(raw, 'milestoneId');
    const record = store.getMilestoneById(id);
    if (record === null) throw notFound(`milestone ${id} not found`);
    return record;
  };
  const byIndex = (raw: string): MilestoneRecord => {
    const index = indexParam(raw);
    const record = index === 0 ? null : store.getMilestoneByIndex(index);
    if (record === null) throw notFound(`milestone ${index} not found`);
    return record;
  };
  const changes = (record: MilestoneRecord) => {
    const found = store.getUtxoChanges(record.index);
    if (found === null) throw notFound(`utxo changes of milestone ${record.index} not found`);
    return { index: found.index, createdOutputs: found.createdOutputs, consumedOutputs: found.consumedOutputs };
  };

  router.get('/api/core/v2/milestones/by-index/:index', (ctx) => {
    const record = byIndex(ctx.params.index);
    sendJsonOrBinary(ctx, record.payload, () => payloadJsonText(record.payload));
  });
  router.get('/api/core/v2/milestones/by-index/:index/utxo-changes', (ctx) => {
    ctx.body = changes(byIndex(ctx.params.index));
  });
  router.get('/api/core/v2/milestones/:milestoneId', (ctx) => {
    const record = byId(ctx.params.milestoneId);
    sendJsonOrBinary(ctx, record.payload, () => payloadJsonText(record.payload));
  });
  router.get('/api/core/v2/milestones/:milestoneId/utxo-changes', (ctx) => {
    ctx.body = changes(byId(ctx.params.milestoneId));
  });
}
