import type { JobName, JobOptions, JobPayloads } from '../shared/jobs.js';

/** How one job is sent: the job table's options (src/shared/jobs.ts), a singleton key, a start time. */
export interface SendOptions extends JobOptions {
  /** Run no earlier than this moment. */
  startAfter?: Date;
  /** At most one queued job with this key at a time. */
  singletonKey?: string;
}

export interface JobContext {
  id: string;
  name: JobName;
  retryCount: number;
  /** Given by the jobs layer: a run calls it when it records its record's failure (the metrics count a failed run). */
  failed?: () => void;
  /**
   * Set by the queue on the one extra call a job marked `failsWhenLost` gets when its last allowed run
   * was lost with its process: record the failure, do not do the work (src/domain/jobs/retry.ts).
   */
  lost?: boolean;
}

export type JobHandler<N extends JobName> = (payload: JobPayloads[N], ctx: JobContext) => Promise<void>;

export interface JobQueue {
  start(): Promise<void>;
  /** Stops fetching; with `graceful`, running jobs get `timeoutMs` to finish, then go back to the queue. */
  stop(opts: { graceful: boolean; timeoutMs: number }): Promise<void>;
  send<N extends JobName>(name: N, payload: JobPayloads[N], opts?: SendOptions): Promise<string | null>;
  work<N extends JobName>(name: N, handler: JobHandler<N>, opts?: { concurrency?: number }): Promise<void>;
  schedule(name: JobName, cron: string): Promise<void>;
  /**
   * Returns jobs left `active` by a process that died to the queue (they are retried). Only safe
   * where no other process can be running them: the embedded, single-process mode.
   */
  recoverOrphans(): Promise<number>;
  ping(): Promise<void>;
}
