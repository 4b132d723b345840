import type { SubmissionRetention } from '../../domain/submissions/submissions.retention.js';
import type { JobHandler } from '../../ports/queue.js';

/** submission.expire (cron, every 5 minutes): purges finished submissions past their plan's retention. */
export function submissionExpiryHandler(retention: Pick<SubmissionRetention, 'sweep'>): JobHandler<'submission.expire'> {
  return async () => {
    await retention.sweep();
  };
}
