// /api/core/v2/outputs/{outputId} (+ /metadata), api.md §2.8–2.9. Binary is the bare
// serialized output; JSON wraps it with its metadata.

import type Router from '@koa/router';
import { notFound } from '../../http/error';
import { outputBodyJsonText } from '../../http/json-text';
import { outputNotFound } from '../lib/not-found';
import { sendJsonOrBinary, sendJsonText } from '../middleware/media';
import { outputIdParam } from '../lib/params';
import type { ServerServices } from '../services';

export function outputsRoutes(router: Router, { store }: ServerServices): void {
  router.get('/api/core/v2/outputs/:outputId', (ctx) => {
    const id = outputIdParam(ctx.params.outputId);
    const found = store.getOutput(id);
    if (found === null) throw notFound(outputNotFound(id));
    sendJsonOrBinary(ctx, found.output, () => outputBodyJsonText(found.output, found.metadata));
  });

  router.get('/api/core/v2/outputs/:outputId/metadata', (ctx) => {
    const id = outputIdParam(ctx.params.outputId);
    const found = store.getOutput(id);
    if (found === null) throw notFound(outputNotFound(id));
    sendJsonText(ctx, found.metadata);
  });
}
