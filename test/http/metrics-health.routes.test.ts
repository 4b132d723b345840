import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { buildOpsApp } from '../../src/http/ops.app.js';
import { runFfmpeg } from '../../src/adapters/media/ffmpeg-run.js';

/** The value of one sample line `name{labels} value` of the text format; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const body = /\{([^}]*)\}/.exec(line)?.[1] ?? '';
    const got = Object.fromEntries([...body.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

const FAMILIES = [
  'cutroom_http_request_duration_seconds',
  'cutroom_queue_jobs',
  'cutroom_job_duration_seconds',
  'cutroom_jobs_failed_total',
  'cutroom_jobs_retried_total',
  'cutroom_credits_charged_total',
  'cutroom_credits_refunded_total',
  'cutroom_ffmpeg_seconds_total',
  'cutroom_asr_seconds_total',
];

describe('GET /metrics, /healthz and /readyz', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ workers: true });
  });
  afterAll(async () => {
    // The last test closed the database: what closing writes there (the process's heartbeat row) finds it closed.
    await t?.close().catch((err: Error) => {
      if (!/closed/i.test(String(err.cause ?? err))) throw err;
      fs.rmSync(t.dataDir, { recursive: true, force: true });
    });
  });

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${t.adminToken}` } });
    expect(res.statusCode).toBe(200);
    return res;
  };

  it('refuses without the admin token, or with an API key', async () => {
    const ws = await t.workspace();
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).json()).toEqual({ code: 'UNAUTHORIZED' });
    const withKey = await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-api-key': ws.key } });
    expect(withKey.statusCode).toBe(401);
    const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer not-the-token-0123456789abcdef0123' } });
    expect(wrong.statusCode).toBe(401);
  });

  it('answers the text format with the named families after requests, a job, credits and an ffmpeg run', async () => {
    const ws = await t.workspace({ credits: 50 });
    expect((await t.api(ws.key, 'GET', '/workspace')).status).toBe(200);
    expect((await t.api(ws.key, 'GET', '/renders/rnd_missing1')).status).toBe(404);
    expect((await t.api(ws.key, 'GET', '/renders/rnd_missing2')).status).toBe(404);
    await t.app.inject({ method: 'GET', url: '/no/such/route' });
    await t.c.credits.charge({ workspaceId: ws.id, amount: 7, reason: 'metrics test', jobType: 'metrics_test', jobId: 'job-1' });
    await t.c.credits.refund({ workspaceId: ws.id, jobType: 'metrics_test', jobId: 'job-1', reason: 'metrics test' });
    await runFfmpeg(['-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '0.2', '-f', 'null', '-']);
    await t.c.queue.send('maintenance.purge', {});

    let text: string;
    for (let i = 0; i < 100; i++) {
      text = (await scrape()).body;
      if (sample(text, 'cutroom_job_duration_seconds_count', { job: 'maintenance.purge', outcome: 'completed' })) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const res = await scrape();
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    text = res.body;
    for (const family of FAMILIES) expect(text, family).toContain(`# TYPE ${family} `);

    // Route patterns, never raw URLs: both 404s of /renders/:renderId fall in one series.
    expect(sample(text, 'cutroom_http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/renders/:renderId', status: '404' })).toBe(2);
    expect(sample(text, 'cutroom_http_request_duration_seconds_count', { route: '/api/v1/workspace', status: '200' })).toBe(1);
    expect(sample(text, 'cutroom_http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBe(1);
    expect(text).not.toContain('rnd_missing');
    expect(sample(text, 'cutroom_job_duration_seconds_count', { job: 'maintenance.purge', outcome: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'cutroom_credits_charged_total', { job_type: 'metrics_test' })).toBe(7);
    expect(sample(text, 'cutroom_credits_refunded_total', { job_type: 'metrics_test' })).toBe(7);
    expect(sample(text, 'cutroom_ffmpeg_runs_total', { result: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'cutroom_ffmpeg_seconds_total')).toBeGreaterThan(0);
    // Queue depth is read at each scrape; process metrics come with prom-client.
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('a worker answers /healthz, /readyz and /metrics (admin token) on its own port', async () => {
    const ops = await buildOpsApp(t.c, { logger: false });
    try {
      expect((await ops.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
      expect((await ops.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      expect((await ops.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
      const m = await ops.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${t.adminToken}` } });
      expect(m.statusCode).toBe(200);
      expect(m.body).toContain('# TYPE cutroom_job_duration_seconds histogram');
      expect((await ops.inject({ method: 'GET', url: '/api/v1/workspace' })).statusCode).toBe(404);
    } finally {
      await ops.close();
    }
  });

  it('/readyz answers 503 while the storage does not answer, 200 once it does again; /healthz stays 200', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    // The local driver's folder replaced by a file: nothing can be written there.
    const root = path.join(t.dataDir, 'files');
    const kept = `${root}.kept`;
    fs.renameSync(root, kept);
    fs.writeFileSync(root, 'not a folder');
    try {
      const down = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ code: 'SERVICE_UNAVAILABLE' });
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      fs.rmSync(root);
      fs.renameSync(kept, root);
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  // Last: it closes the database.
  it('/readyz answers 503 once the database is closed; /healthz stays 200', async () => {
    await t.c.queue.stop({ graceful: false, timeoutMs: 1000 });
    await t.c.database.close();
    const down = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ code: 'SERVICE_UNAVAILABLE' });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
