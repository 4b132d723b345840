/**
 * Every job the service runs, in one table: its payload type, the options it is sent with (retries,
 * expiry, singleton key) and its schedule. The domain sends jobs with these options
 * (src/domain/jobs/enqueue.ts), the queue adapter creates one queue per name, the jobs layer registers a
 * handler for each name (boot fails when one is missing) and keeps the schedules. It lives in `shared`
 * because those three layers may all import `shared`, and it imports nothing (docs/architecture.md).
 */

export interface JobPayloads {
  /** Periodic clean-up of expired idempotency records and rate-limit windows. */
  'maintenance.purge': Record<string, never>;
  /** Runs a submission through its stages (downloading … finalizing); resumes where it stopped. */
  'submission.process': { submissionId: string };
  /** Renders one render record's edit to its MP4 (queued → active → completed or failed). */
  'render.process': { renderId: string };
  /** Deletes render files past their plan's retention and marks them expired (every minute). */
  'render.expire': Record<string, never>;
  /** Purges finished submissions past their plan's retention: source, clip previews, stage results (every 5 minutes). */
  'submission.expire': Record<string, never>;
  /** Transcribes one transcription's media (processing → ready, no_speech or failed with a refund). */
  'transcription.process': { transcriptionId: string };
  /** Publishes one post item (render reuse or wait, upload with a resume state, retries with backoff). */
  'post.publish_item': { itemId: string; token?: string };
  /** One attempt of one webhook delivery (signed, POSTed); a failed attempt sends the next one at its time. */
  'webhook.deliver': { deliveryId: string };
  /** Sends again the webhook deliveries whose job went missing (every minute). */
  'webhook.dispatch': Record<string, never>;
  /** One check of a monitor's channel (run `seq` of its watching chain); sends the chain's next run. */
  'monitor.poll': { monitorId: string; seq: number };
  /** Restarts the watching chain of monitors that are on but were not checked for long (every minute). */
  'monitor.revive': Record<string, never>;
  /** Cuts a recorded live batch, clips it with the submission pipeline and settles its credits. */
  'monitor.batch': { batchId: string };
  /** Runs one generation (embedded engine or hosted provider): queued → processing → ready, or failed with a refund. */
  'generation.process': { generationId: string };
  /** Makes one persona portrait: a new current version, or failed with a refund. */
  'persona.portrait': { portraitId: string };
  /** Makes one persona video (head swap): its MP4 and edit, or failed with a refund. */
  'persona.swap': { videoId: string };
}

export type JobName = keyof JobPayloads;

/** The queue's handling of a job: how often and how soon it is retried, when a running one counts as lost. */
export interface JobOptions {
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** A job running longer than this is considered lost and retried. */
  expireInSeconds?: number;
}

export interface JobDefinition<N extends JobName> {
  /** What the job is sent with. A scheduled job is sent by the queue itself, with the queue's defaults. */
  options?: JobOptions;
  /** At most one queued job per key, derived from the payload. */
  singletonKey?: (payload: JobPayloads[N]) => string;
  /** Cron expression (UTC) the scheduler sends the job on (worker and all roles). */
  schedule?: string;
  /**
   * The job has a record that a lost last run would leave unfinished: when the process running the
   * job's last allowed run ends (killed, crashed, taken for dead), the queue gives the handler one more
   * call with `lost` set, and the handler records the failure (`JOB_LOST`, refund included) without
   * doing the work again (src/domain/jobs/retry.ts `throwIfLost`). Jobs without it are either
   * scheduled or have their own sweep (webhook.dispatch, monitor.revive).
   */
  failsWhenLost?: true;
}

export const JOBS = {
  'maintenance.purge': { schedule: '*/10 * * * *' },
  /** A submission may take long on a long video; retries after a crash come quickly. */
  'submission.process': { options: { expireInSeconds: 4 * 3600, retryLimit: 2, retryDelaySeconds: 2 }, failsWhenLost: true },
  /**
   * One ffmpeg run may take 55 minutes before it is killed (RENDER_TIMEOUT_MS); the job expires a
   * little later. One queued job per render.
   */
  'render.process': {
    options: { expireInSeconds: 3600, retryLimit: 2, retryDelaySeconds: 5 },
    singletonKey: (p: JobPayloads['render.process']) => `render:${p.renderId}`,
    failsWhenLost: true,
  },
  'render.expire': { schedule: '* * * * *' },
  'submission.expire': { schedule: '*/5 * * * *' },
  /** A run may take long on long audio; retries after a crash come quickly. */
  'transcription.process': { options: { expireInSeconds: 4 * 3600, retryLimit: 2, retryDelaySeconds: 2 }, failsWhenLost: true },
  /**
   * The job's own retries cover crashes and unexpected errors (the same job id comes back and the item's
   * resume state prevents a second publication); a network's retryable failure is retried by sending the
   * job again after a backoff instead.
   */
  'post.publish_item': { options: { retryLimit: 3, retryDelaySeconds: 2, expireInSeconds: 2 * 3600 }, failsWhenLost: true },
  /**
   * An attempt records its own failure and schedules the next (the retry schedule of docs/webhooks.md);
   * the job's retries only cover a crash or a database error around it. An attempt lasts at most the
   * sender's timeout (60 s at most) and reading an excerpt.
   */
  'webhook.deliver': { options: { retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: 5 * 60 } },
  'webhook.dispatch': { schedule: '* * * * *' },
  /** A check is short (a feed, a playlist and its new segments); a lost run is retried at once. The monitor's lease and chain number keep one watcher per monitor. */
  'monitor.poll': { options: { retryLimit: 2, retryDelaySeconds: 1, expireInSeconds: 15 * 60 } },
  'monitor.revive': { schedule: '* * * * *' },
  /** Like a submission: a batch may take a while to clip; one queued job per batch. */
  'monitor.batch': {
    options: { expireInSeconds: 4 * 3600, retryLimit: 2, retryDelaySeconds: 2 },
    singletonKey: (p: JobPayloads['monitor.batch']) => `monitor-batch:${p.batchId}`,
    failsWhenLost: true,
  },
  /**
   * A hosted generation polls its provider up to CUTROOM_GENERATION_TIMEOUT_MS (6 h at most); a retry
   * after a crash resumes the provider's job. One queued job per generation.
   */
  'generation.process': {
    options: { expireInSeconds: 7 * 3600, retryLimit: 2, retryDelaySeconds: 5 },
    singletonKey: (p: JobPayloads['generation.process']) => `generation:${p.generationId}`,
    failsWhenLost: true,
  },
  /** A portrait takes seconds; a retry after a crash draws it again. One queued job per portrait. */
  'persona.portrait': {
    options: { expireInSeconds: 1800, retryLimit: 2, retryDelaySeconds: 2 },
    singletonKey: (p: JobPayloads['persona.portrait']) => `persona-portrait:${p.portraitId}`,
    failsWhenLost: true,
  },
  /** A swap of up to 30 s of video; a retry after a crash starts it again. One queued job per video. */
  'persona.swap': {
    options: { expireInSeconds: 3 * 3600, retryLimit: 2, retryDelaySeconds: 5 },
    singletonKey: (p: JobPayloads['persona.swap']) => `persona-swap:${p.videoId}`,
    failsWhenLost: true,
  },
} as const satisfies { readonly [N in JobName]: JobDefinition<N> };

/** The table seen through its general type (what a function of any job name reads). */
const DEFINITIONS: { readonly [N in JobName]: JobDefinition<N> } = JOBS;

/** Every job name, in the table's order (queues are created and handlers registered in it). */
export const JOB_NAMES = Object.keys(JOBS) as JobName[];

/** Cron schedules the scheduler keeps. */
export const JOB_SCHEDULES: ReadonlyArray<{ name: JobName; cron: string }> = JOB_NAMES.flatMap((name) => {
  const cron = DEFINITIONS[name].schedule;
  return cron ? [{ name, cron }] : [];
});

/** The jobs that are sent with a retry limit: their runs retry a failure or fail their record (src/domain/jobs/retry.ts). */
export type RetriedJobName = { [N in JobName]: (typeof JOBS)[N] extends { options: { retryLimit: number } } ? N : never }[JobName];

/** Whether a run lost on the job's last allowed run is handed to its handler to record the failure. */
export function failsWhenLost(name: JobName): boolean {
  return DEFINITIONS[name].failsWhenLost === true;
}

/** The retries a job is sent with (0 for a scheduled job: its next run comes with the schedule). */
export function retryLimitOf(name: JobName): number {
  return DEFINITIONS[name].options?.retryLimit ?? 0;
}

/** The options a job is sent with: the table's, plus its singleton key for this payload. */
export function jobSendOptions<N extends JobName>(name: N, payload: JobPayloads[N]): JobOptions & { singletonKey?: string } {
  const def = DEFINITIONS[name];
  return { ...def.options, ...(def.singletonKey ? { singletonKey: def.singletonKey(payload) } : {}) };
}
