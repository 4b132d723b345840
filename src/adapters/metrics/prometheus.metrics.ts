import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { JobOutcome, MetricsRegistry, ToolName } from '../../ports/metrics.js';

/** Jobs waiting or running, by name and state, read when Prometheus scrapes. */
export type QueueDepthReader = () => Promise<Array<{ job: string; state: 'queued' | 'active'; count: number }>>;

export interface PrometheusMetricsOptions {
  /** Queue depth, read at each scrape (src/adapters/queue/pgboss.queue.ts `depth`). */
  queueDepth?: QueueDepthReader;
  /** Told when the queue depth could not be read (the gauge is then absent from that scrape). */
  onCollectError?: (err: unknown) => void;
  /** Process metrics of prom-client (CPU, memory, event loop lag, handles). Default true. */
  processMetrics?: boolean;
}

/** From 5 ms to 2 minutes: API answers. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];
/** From 100 ms to 4 hours: job runs (a long submission or transcription takes hours). */
const JOB_BUCKETS = [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400];

/**
 * The metrics of one process in a prom-client registry of its own (never the global one, so that
 * several containers in one test process do not share counters). Names: docs/operations.md.
 */
export class PrometheusMetrics implements MetricsRegistry {
  readonly registry = new Registry();
  private readonly http: Histogram<'method' | 'route' | 'status'>;
  private readonly jobDuration: Histogram<'job' | 'outcome'>;
  private readonly jobsFailed: Counter<'job'>;
  private readonly jobsRetried: Counter<'job'>;
  private readonly creditsCharged: Counter<'job_type'>;
  private readonly creditsRefunded: Counter<'job_type'>;
  private readonly toolSeconds: Record<ToolName, Counter<never>>;
  private readonly toolRuns: Record<ToolName, Counter<'result'>>;

  constructor(opts: PrometheusMetricsOptions = {}) {
    const registers = [this.registry];
    if (opts.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    this.http = new Histogram({
      name: 'cutroom_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    const queueDepth = opts.queueDepth;
    new Gauge({
      name: 'cutroom_queue_jobs',
      help: 'Jobs waiting (queued, including retries not yet due) or running, by job name.',
      labelNames: ['job', 'state'],
      registers,
      async collect() {
        this.reset();
        if (!queueDepth) return;
        try {
          for (const d of await queueDepth()) this.set({ job: d.job, state: d.state }, d.count);
        } catch (err) {
          opts.onCollectError?.(err);
        }
      },
    });
    this.jobDuration = new Histogram({
      name: 'cutroom_job_duration_seconds',
      help: 'Duration of one run of a job handler, by job name and outcome (completed, retried, failed).',
      labelNames: ['job', 'outcome'],
      buckets: JOB_BUCKETS,
      registers,
    });
    this.jobsFailed = new Counter({
      name: 'cutroom_jobs_failed_total',
      help: 'Job runs that failed for good (the record failed).',
      labelNames: ['job'],
      registers,
    });
    this.jobsRetried = new Counter({ name: 'cutroom_jobs_retried_total', help: 'Job runs that threw and will run again.', labelNames: ['job'], registers });
    this.creditsCharged = new Counter({
      name: 'cutroom_credits_charged_total',
      help: 'Credits taken from balances, by job type.',
      labelNames: ['job_type'],
      registers,
    });
    this.creditsRefunded = new Counter({
      name: 'cutroom_credits_refunded_total',
      help: 'Credits given back, by job type.',
      labelNames: ['job_type'],
      registers,
    });
    this.toolSeconds = {
      ffmpeg: new Counter({ name: 'cutroom_ffmpeg_seconds_total', help: 'Wall-clock seconds spent in ffmpeg runs.', registers }),
      asr: new Counter({ name: 'cutroom_asr_seconds_total', help: 'Wall-clock seconds spent transcribing speech.', registers }),
    };
    this.toolRuns = {
      ffmpeg: new Counter({ name: 'cutroom_ffmpeg_runs_total', help: 'ffmpeg runs, by result (ok, error).', labelNames: ['result'], registers }),
      asr: new Counter({ name: 'cutroom_asr_runs_total', help: 'Speech engine transcriptions, by result (ok, error).', labelNames: ['result'], registers }),
    };
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  httpRequest(m: { method: string; route: string; status: number; seconds: number }): void {
    this.http.observe({ method: m.method, route: m.route, status: String(m.status) }, m.seconds);
  }

  jobRun(m: { job: string; outcome: JobOutcome; seconds: number }): void {
    this.jobDuration.observe({ job: m.job, outcome: m.outcome }, m.seconds);
    if (m.outcome === 'failed') this.jobsFailed.inc({ job: m.job });
    if (m.outcome === 'retried') this.jobsRetried.inc({ job: m.job });
  }

  credits(m: { kind: 'charged' | 'refunded'; jobType: string; amount: number }): void {
    if (m.amount <= 0) return;
    (m.kind === 'charged' ? this.creditsCharged : this.creditsRefunded).inc({ job_type: m.jobType }, m.amount);
  }

  toolRun(m: { tool: ToolName; seconds: number; ok: boolean }): void {
    this.toolSeconds[m.tool].inc(m.seconds);
    this.toolRuns[m.tool].inc({ result: m.ok ? 'ok' : 'error' });
  }
}
