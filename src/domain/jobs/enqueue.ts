import type { JobQueue } from '../../ports/queue.js';
import { jobSendOptions, type JobName, type JobPayloads } from '../../shared/jobs.js';

/** `error_code` of a record whose job the queue would not take: nothing will ever run it. */
export const QUEUE_UNAVAILABLE = 'QUEUE_UNAVAILABLE';

/** One job to send: its name and payload, and the moment it may start (absent or null: at once). */
export type JobRequest = { [N in JobName]: { name: N; payload: JobPayloads[N]; startAfter?: Date | null } }[JobName];

/** Sends a job with the job table's options for it (retries, expiry, singleton key; src/shared/jobs.ts). */
export function sendJob(queue: JobQueue, job: JobRequest): Promise<string | null> {
  return send(queue, job.name, job.payload, job.startAfter);
}

function send<N extends JobName>(queue: JobQueue, name: N, payload: JobPayloads[N], startAfter?: Date | null): Promise<string | null> {
  return queue.send(name, payload, { ...jobSendOptions(name, payload), ...(startAfter ? { startAfter } : {}) });
}

/**
 * Sends the jobs of records a transaction has just committed (after the commit, so that no worker looks
 * for a record that is not there yet). When the queue refuses one, `markFailed` records it on the
 * caller's records (failed with `QUEUE_UNAVAILABLE`, so none waits for a job that will never run, and a
 * charge can be refunded) and the queue's error is thrown again. Jobs sent before the refusal stay sent.
 */
export async function enqueueAfterCommit(
  queue: JobQueue,
  jobs: JobRequest | readonly JobRequest[],
  markFailed: (code: typeof QUEUE_UNAVAILABLE) => Promise<void>,
): Promise<void> {
  const list: readonly JobRequest[] = 'name' in jobs ? [jobs] : jobs;
  try {
    for (const job of list) await sendJob(queue, job);
  } catch (err) {
    await markFailed(QUEUE_UNAVAILABLE);
    throw err;
  }
}
