import { attemptOf } from '../../domain/jobs/retry.js';
import type { PostItemProcessor } from '../../domain/publishing/post-items.processor.js';
import type { JobHandler } from '../../ports/queue.js';

/** post.publish_item: one post item (claim, render, publish); idempotent, see PostItemProcessor. */
export function postItemHandler(processor: PostItemProcessor): JobHandler<'post.publish_item'> {
  return async (payload, ctx) => {
    if (typeof payload?.itemId !== 'string') return;
    await processor.run({
      itemId: payload.itemId,
      token: typeof payload.token === 'string' ? payload.token : undefined,
      jobId: ctx.id,
      attempt: attemptOf('post.publish_item', ctx),
    });
  };
}
