import { attemptOf } from '../../domain/jobs/retry.js';
import type { LiveBatchProcessor } from '../../domain/monitors/live-batches.js';
import type { MonitorPoller } from '../../domain/monitors/monitor-poller.js';
import type { JobHandler } from '../../ports/queue.js';

/** monitor.poll: one check of one monitor (its chain's run `seq`); it sends the chain's next run. */
export function monitorPollHandler(poller: Pick<MonitorPoller, 'poll'>): JobHandler<'monitor.poll'> {
  return async (payload) => {
    await poller.poll(payload.monitorId, payload.seq);
  };
}

/** monitor.revive (every minute): restarts the chain of a monitor that is on but has not been polled for long. */
export function monitorReviveHandler(poller: Pick<MonitorPoller, 'revive'>): JobHandler<'monitor.revive'> {
  return async () => {
    await poller.revive();
  };
}

/** monitor.batch: cuts a recorded live batch, clips it with the submission pipeline and settles its credits. */
export function monitorBatchHandler(batches: Pick<LiveBatchProcessor, 'run'>): JobHandler<'monitor.batch'> {
  return async (payload, ctx) => {
    await batches.run(payload.batchId, attemptOf('monitor.batch', ctx));
  };
}
