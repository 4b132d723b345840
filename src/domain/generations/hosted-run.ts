import { isFinal, type HostedGenerationClient, type HostedJobRequest, type HostedJobState } from '../../ports/hosted-generation.js';
import { sleep } from '../../shared/timing.js';

/** Running one job on a hosted engine to its end (generations and personas share it). */

export interface HostedRunOptions {
  /** Pause between status calls. */
  pollMs: number;
  /** The job is cancelled at the provider and answered `failed` (`timed_out`) after this long. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** A job already submitted by an earlier run of the same work: polled instead of submitting again. */
  jobId?: string;
  /** Called once with the provider's job id as soon as it is known (store it, so a retried run resumes). */
  onSubmitted?(jobId: string): Promise<void>;
  /** Status calls that may fail in a row on transport errors before the run gives up. Default 5. */
  maxTransportErrors?: number;
}

export type HostedRunResult = Extract<HostedJobState, { state: 'succeeded' | 'refused' | 'failed' | 'canceled' }> & { jobId: string; timedOut?: boolean };

/**
 * Submits `req` (or resumes `opts.jobId`) and polls until a final state, the deadline (the provider's
 * job is then cancelled) or the signal. A retryable failure while polling (the provider unreachable for a
 * moment) is polled again, up to `maxTransportErrors` in a row; a retryable failure of the submission is
 * answered as it is, for the caller's job to retry.
 */
export async function runHostedJob(client: HostedGenerationClient, req: HostedJobRequest, opts: HostedRunOptions): Promise<HostedRunResult> {
  const deadline = Date.now() + opts.timeoutMs;
  let jobId = opts.jobId;
  let state: HostedJobState;
  if (jobId) state = { state: 'queued' };
  else {
    const submitted = await client.submit(req, opts.signal);
    jobId = submitted.jobId;
    state = submitted.state;
    if (jobId && opts.onSubmitted) await opts.onSubmitted(jobId);
  }
  let transportErrors = 0;
  let polled = false;
  for (;;) {
    if (isFinal(state)) {
      // A retryable failure of a status call (the provider unreachable for a moment) is polled again.
      if (polled && state.state === 'failed' && state.retryable && transportErrors < (opts.maxTransportErrors ?? 5)) {
        transportErrors++;
      } else return { ...state, jobId: jobId ?? '' };
    } else transportErrors = 0;
    if (Date.now() >= deadline) {
      await client.cancel(jobId!).catch(() => undefined);
      return { state: 'failed', detail: `no result within ${opts.timeoutMs} ms`, retryable: false, jobId: jobId!, timedOut: true };
    }
    await sleep(Math.min(opts.pollMs, Math.max(0, deadline - Date.now())), opts.signal);
    state = await client.status(jobId!, opts.signal);
    polled = true;
  }
}
