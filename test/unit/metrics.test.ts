import { describe, expect, it } from 'vitest';
import { metered } from '../../src/jobs/metered.js';
import { attemptOf, retryOrFail } from '../../src/domain/jobs/retry.js';
import { meteredAsr } from '../../src/adapters/metrics/tool.metrics.js';
import { PrometheusMetrics } from '../../src/adapters/metrics/prometheus.metrics.js';
import type { JobOutcome, Metrics } from '../../src/ports/metrics.js';
import type { AsrEngine } from '../../src/ports/asr.js';

class RecordingMetrics implements Metrics {
  readonly jobs: Array<{ job: string; outcome: JobOutcome }> = [];
  readonly tools: Array<{ tool: string; ok: boolean }> = [];
  httpRequest() {}
  credits() {}
  jobRun(m: { job: string; outcome: JobOutcome }) {
    this.jobs.push({ job: m.job, outcome: m.outcome });
  }
  toolRun(m: { tool: string; ok: boolean }) {
    this.tools.push({ tool: m.tool, ok: m.ok });
  }
}

const retryable = Object.assign(new Error('try later'), { retryable: true });

describe('job runs by outcome (src/jobs/metered.ts)', () => {
  it('completed when the run returns; retried when it throws with retries left; failed on its last run', async () => {
    const m = new RecordingMetrics();
    const ok = metered('render.process', async () => {}, m);
    const boom = metered(
      'render.process',
      async () => {
        throw retryable;
      },
      m,
    );
    await ok({ renderId: 'r' }, { id: '1', name: 'render.process', retryCount: 0 });
    await expect(boom({ renderId: 'r' }, { id: '2', name: 'render.process', retryCount: 0 })).rejects.toBe(retryable);
    await expect(boom({ renderId: 'r' }, { id: '2', name: 'render.process', retryCount: 2 })).rejects.toBe(retryable);
    expect(m.jobs.map((j) => j.outcome)).toEqual(['completed', 'retried', 'failed']);
  });

  it('failed when the run records its failure through retryOrFail and returns', async () => {
    const m = new RecordingMetrics();
    const recorded: string[] = [];
    const handler = metered(
      'render.process',
      async (_payload, ctx) => {
        await retryOrFail(new Error('permanent'), attemptOf('render.process', ctx), { fail: async () => void recorded.push('failed') });
      },
      m,
    );
    await handler({ renderId: 'r' }, { id: '1', name: 'render.process', retryCount: 0 });
    expect(recorded).toEqual(['failed']);
    expect(m.jobs).toEqual([{ job: 'render.process', outcome: 'failed' }]);
  });

  it('a scheduled job (no retries in the table) that throws counts as failed', async () => {
    const m = new RecordingMetrics();
    const sweep = metered(
      'submission.expire',
      async () => {
        throw new Error('storage down');
      },
      m,
    );
    await expect(sweep({}, { id: '1', name: 'submission.expire', retryCount: 0 })).rejects.toThrow('storage down');
    expect(m.jobs).toEqual([{ job: 'submission.expire', outcome: 'failed' }]);
  });
});

describe('meteredAsr', () => {
  it('times each transcription, ok or not, and keeps the engine as it is', async () => {
    const m = new RecordingMetrics();
    let fail = false;
    const engine: AsrEngine = {
      name: 'fake',
      supportsLanguage: (lang) => lang === 'en',
      async transcribe() {
        if (fail) throw new Error('engine crashed');
        return { language: 'en', words: [], segments: [] };
      },
    };
    const asr = meteredAsr(engine, m);
    expect(asr.name).toBe('fake');
    expect(asr.supportsLanguage('en')).toBe(true);
    expect(asr.supportsLanguage('pt')).toBe(false);
    expect(await asr.transcribe('a.wav', {})).toEqual({ language: 'en', words: [], segments: [] });
    fail = true;
    await expect(asr.transcribe('a.wav', {})).rejects.toThrow('engine crashed');
    expect(m.tools).toEqual([
      { tool: 'asr', ok: true },
      { tool: 'asr', ok: false },
    ]);
  });
});

describe('PrometheusMetrics', () => {
  it('keeps its own registry: counters of two instances do not mix; queue depth is read at each scrape', async () => {
    let depth = 3;
    const a = new PrometheusMetrics({ processMetrics: false, queueDepth: async () => [{ job: 'render.process', state: 'queued', count: depth }] });
    const b = new PrometheusMetrics({ processMetrics: false });
    a.credits({ kind: 'charged', jobType: 'submission', amount: 5 });
    a.credits({ kind: 'charged', jobType: 'submission', amount: 0 });
    a.toolRun({ tool: 'asr', seconds: 1.5, ok: true });
    expect(await a.scrape()).toContain('cutroom_credits_charged_total{job_type="submission"} 5');
    expect(await a.scrape()).toContain('cutroom_asr_seconds_total 1.5');
    expect(await a.scrape()).toContain('cutroom_queue_jobs{job="render.process",state="queued"} 3');
    depth = 0;
    expect(await a.scrape()).toContain('cutroom_queue_jobs{job="render.process",state="queued"} 0');
    expect(await b.scrape()).not.toContain('job_type="submission"');
    expect(await b.scrape()).toContain('cutroom_asr_seconds_total 0');
  });

  it('a queue depth that cannot be read leaves the gauge out of that scrape and says why', async () => {
    const errors: unknown[] = [];
    const m = new PrometheusMetrics({
      processMetrics: false,
      queueDepth: async () => {
        throw new Error('database down');
      },
      onCollectError: (err) => errors.push(err),
    });
    const text = await m.scrape();
    expect(text).toContain('# TYPE cutroom_queue_jobs gauge');
    expect(text).not.toMatch(/^cutroom_queue_jobs\{/m);
    expect(errors).toHaveLength(1);
  });
});
