/** Every job the service runs, with its payload type. The registry refuses to boot without a handler for each. */
export interface JobPayloads {
  /** Periodic clean-up of expired idempotency records and rate-limit windows. */
  'maintenance.purge': Record<string, never>;
  /** Runs a submission through its stages (downloading … finalizing); resumes where it stopped. */
  'submission.process': { submissionId: string };
}

export type JobName = keyof JobPayloads;

export const JOB_NAMES: JobName[] = ['maintenance.purge', 'submission.process'];

/** Cron schedules the scheduler keeps (worker and all roles). */
export const JOB_SCHEDULES: Array<{ name: JobName; cron: string }> = [{ name: 'maintenance.purge', cron: '*/10 * * * *' }];
