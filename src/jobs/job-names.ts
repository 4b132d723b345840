/** Every job the service runs, with its payload type. The registry refuses to boot without a handler for each. */
export interface JobPayloads {
  /** Periodic clean-up of expired idempotency records and rate-limit windows. */
  'maintenance.purge': Record<string, never>;
}

export type JobName = keyof JobPayloads;

export const JOB_NAMES: JobName[] = ['maintenance.purge'];

/** Cron schedules the scheduler keeps (worker and all roles). */
export const JOB_SCHEDULES: Array<{ name: JobName; cron: string }> = [{ name: 'maintenance.purge', cron: '*/10 * * * *' }];
