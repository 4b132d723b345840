/** Every job the service runs, with its payload type. The registry refuses to boot without a handler for each. */
export interface JobPayloads {
  /** Periodic clean-up of expired idempotency records and rate-limit windows. */
  'maintenance.purge': Record<string, never>;
  /** Runs a submission through its stages (downloading … finalizing); resumes where it stopped. */
  'submission.process': { submissionId: string };
  /** Renders one render record's edit to its MP4 (queued → active → completed or failed). */
  'render.process': { renderId: string };
  /** Deletes render files past their plan's retention and marks them expired (every minute). */
  'render.expire': Record<string, never>;
  /** Publishes one post item (render reuse or wait, upload with a resume state, retries with backoff). */
  'post.publish_item': { itemId: string; token?: string };
  /** Transcribes one transcription's media (processing → ready, no_speech or failed with a refund). */
  'transcription.process': { transcriptionId: string };
}

export type JobName = keyof JobPayloads;

export const JOB_NAMES: JobName[] = ['maintenance.purge', 'submission.process', 'render.process', 'render.expire', 'transcription.process', 'post.publish_item'];

/** Cron schedules the scheduler keeps (worker and all roles). */
export const JOB_SCHEDULES: Array<{ name: JobName; cron: string }> = [
  { name: 'maintenance.purge', cron: '*/10 * * * *' },
  { name: 'render.expire', cron: '* * * * *' },
];
