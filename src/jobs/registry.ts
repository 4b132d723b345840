import { JOB_NAMES, JOB_SCHEDULES, type JobName } from '../shared/jobs.js';
import type { JobHandler, JobQueue } from '../ports/queue.js';

export type HandlerMap = { [N in JobName]: JobHandler<N> };

/**
 * Registers a handler for every job name, each run by `concurrency` fetch loops (at most that many
 * jobs of one kind at once in this process: CUTROOM_WORKER_CONCURRENCY); boot fails when one is missing.
 */
export async function registerHandlers(queue: JobQueue, handlers: Partial<HandlerMap>, concurrency: number): Promise<void> {
  const missing = JOB_NAMES.filter((n) => typeof handlers[n] !== 'function');
  if (missing.length > 0) throw new Error(`No job handler registered for: ${missing.join(', ')}`);
  for (const name of JOB_NAMES) {
    await queue.work(name, handlers[name] as JobHandler<typeof name>, { concurrency });
  }
}

export async function registerSchedules(queue: JobQueue): Promise<void> {
  for (const { name, cron } of JOB_SCHEDULES) await queue.schedule(name, cron);
}
