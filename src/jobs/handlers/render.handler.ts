import { attemptOf } from '../../domain/jobs/retry.js';
import type { RenderProcessor } from '../../domain/renders/renders.processor.js';
import type { JobHandler } from '../../ports/queue.js';

/** render.process: renders one render's edit; a retried job starts the render again from scratch. */
export function renderHandler(processor: RenderProcessor): JobHandler<'render.process'> {
  return async (payload, ctx) => {
    if (typeof payload?.renderId !== 'string') return;
    await processor.process(payload.renderId, attemptOf('render.process', ctx));
  };
}

/** render.expire (cron, every minute): deletes files past their retention and marks the renders expired. */
export function renderExpiryHandler(processor: RenderProcessor): JobHandler<'render.expire'> {
  return async () => {
    await processor.expire();
  };
}
