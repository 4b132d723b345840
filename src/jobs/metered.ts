import { retryLimitOf, type JobName } from '../shared/jobs.js';
import type { JobOutcome, Metrics } from '../ports/metrics.js';
import type { JobHandler } from '../ports/queue.js';

/**
 * The handler, with each run timed and counted by outcome: `completed` when it returns, `failed` when it
 * recorded its record's failure (retryOrFail, through the context's `failed`) or threw on its last
 * allowed run, `retried` when it threw with retries left.
 */
export function metered<N extends JobName>(name: N, handler: JobHandler<N>, metrics: Metrics): JobHandler<N> {
  const retryLimit = retryLimitOf(name);
  return async (payload, ctx) => {
    const started = performance.now();
    let outcome: JobOutcome = 'completed';
    try {
      await handler(payload, {
        ...ctx,
        failed: () => {
          outcome = 'failed';
          ctx.failed?.();
        },
      });
    } catch (err) {
      outcome = ctx.retryCount < retryLimit ? 'retried' : 'failed';
      throw err;
    } finally {
      metrics.jobRun({ job: name, outcome, seconds: (performance.now() - started) / 1000 });
    }
  };
}
