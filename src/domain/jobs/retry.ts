import { JOBS, type RetriedJobName } from '../../shared/jobs.js';
import { DomainError, isRetryable } from '../errors.js';

/** Which run of a job this is: the queue's retry count, and the retries the job was sent with. */
export interface Attempt {
  retryCount: number;
  retryLimit: number;
  /** Told when the run records its failure (the job context's `failed`: counted by the metrics). */
  failed?: () => void;
  /** The job's last allowed run was lost with its process: this call only records the failure. */
  lost?: boolean;
}

/** The attempt of a run of job `name`; its retry limit comes from the job table (src/shared/jobs.ts). */
export function attemptOf(name: RetriedJobName, ctx: { retryCount: number; failed?: () => void; lost?: boolean }): Attempt {
  return { retryCount: ctx.retryCount, retryLimit: JOBS[name].options.retryLimit, failed: ctx.failed, lost: ctx.lost };
}

/**
 * First thing in a run's `try`: on the queue's call for a lost last run, throws `JOB_LOST` (not
 * retryable), so `retryOrFail` records the failure through the run's own `fail` (refund included) and
 * nothing of the work is done again: the input may be what killed the process each time.
 */
export function throwIfLost(attempt: Attempt): void {
  if (attempt.lost) throw new DomainError('JOB_LOST');
}

export interface FailureHandling {
  /** Whether another run may cure the failure. Default: the error says so (`isRetryable`, src/domain/errors.ts). */
  retryable?: (err: unknown) => boolean;
  /** Called just before the error is thrown again for a retry (to log it). */
  onRetry?: (err: unknown) => void;
  /** Records the failure on the job's record: the last run failed, or the failure is not retryable. */
  fail: (err: unknown) => Promise<void>;
}

/**
 * What a job's run does with an error it does not handle itself: while the failure is retryable and the
 * job has retries left, throw it again (the queue runs the job again; runs are idempotent); otherwise
 * record the failure with `fail` and return, so that the queue does not retry a job whose record failed.
 */
export async function retryOrFail(err: unknown, attempt: Attempt, handling: FailureHandling): Promise<void> {
  const retryable = handling.retryable ?? isRetryable;
  if (retryable(err) && attempt.retryCount < attempt.retryLimit) {
    handling.onRetry?.(err);
    throw err;
  }
  attempt.failed?.();
  await handling.fail(err);
}
