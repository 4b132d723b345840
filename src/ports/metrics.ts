/**
 * What the service counts and times, for Prometheus (src/adapters/metrics/prometheus.metrics.ts) or
 * for nobody (`noMetrics`, the default of every constructor that takes one). The domain and the
 * adapters report here; the HTTP layer answers GET /metrics from a `MetricsRegistry`.
 * The names and labels are listed in docs/operations.md.
 */

/** How a job's run ended: ran to its end, threw for another run, or failed for good (its record failed). */
export type JobOutcome = 'completed' | 'retried' | 'failed';

/** Media tools and engines whose time is counted. */
export type ToolName = 'ffmpeg' | 'asr';

export interface Metrics {
  /** One HTTP answer. `route` is the route's pattern (`/api/v1/renders/:renderId`), never the raw URL. */
  httpRequest(m: { method: string; route: string; status: number; seconds: number }): void;
  /** One run of a job handler. */
  jobRun(m: { job: string; outcome: JobOutcome; seconds: number }): void;
  /** Credits really taken (a waived charge is 0) or given back, by the ledger's job type. */
  credits(m: { kind: 'charged' | 'refunded'; jobType: string; amount: number }): void;
  /** Wall-clock seconds of one run of a media tool or a speech engine; `ok` false when it failed. */
  toolRun(m: { tool: ToolName; seconds: number; ok: boolean }): void;
}

/** The Prometheus text exposition of one process's metrics (GET /metrics). */
export interface MetricsRegistry extends Metrics {
  readonly contentType: string;
  /** Every metric family in the text format, gauges collected now. */
  scrape(): Promise<string>;
}

/** Reports to nobody: where no registry is wired (tests, tools). */
export const noMetrics: Metrics = {
  httpRequest() {},
  jobRun() {},
  credits() {},
  toolRun() {},
};
