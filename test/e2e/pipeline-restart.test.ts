import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { freePort, runCli, waitForHttp, type Proc } from '../helpers/process.js';
import { makeTalkVideo } from '../helpers/speech-fixtures.js';

const procs: Proc[] = [];
afterAll(() => {
  for (const p of procs) p.child.kill('SIGKILL');
});

describe('a submission survives a crash of the embedded service', () => {
  it('killed mid-pipeline, restarted, it completes without a second charge or duplicate clips', async () => {
    const dataDir = tempDir();
    const talk = (await makeTalkVideo(path.join(dataDir, 'talk.mp4'), { minutes: 2 })).path;
    const port = await freePort();
    const env = { CUTROOM_DATA_DIR: dataDir, PORT: String(port), CUTROOM_ADMIN_TOKEN: '', PUBLIC_BASE_URL: `http://127.0.0.1:${port}` };
    const base = `http://127.0.0.1:${port}/api/v1`;
    const start = async () => {
      const p = runCli(['serve'], env);
      procs.push(p);
      await waitForHttp(`http://127.0.0.1:${port}/readyz`, 120_000);
      return p;
    };
    let server = await start();
    const key = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return res.json();
    };

    const up = await call('POST', '/videos/upload', { file_name: 'talk.mp4', file_size: fs.statSync(talk).size, content_type: 'video/mp4' });
    await fetch(up.upload_url, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: fs.readFileSync(talk) });
    const video = await call('POST', '/videos/upload/complete', { video_id: up.video_id, file_name: 'talk.mp4' });
    const sub = await call('POST', '/clips', { video_id: up.video_id });
    expect(sub.credits_charged).toBe(video.credits_cost);

    // Wait until the transcript is kept and the next stage runs, then kill the process without warning.
    const stagesAfterAsr = ['video_analysis', 'analyzing', 'finalizing'];
    let status = '';
    for (let i = 0; i < 3000 && !stagesAfterAsr.includes(status); i++) {
      status = (await call('GET', `/clips/${up.video_id}/submissions/${sub.id}`)).status;
      expect(status).not.toBe('failed');
      if (status === 'completed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(stagesAfterAsr).toContain(status);
    server.child.kill('SIGKILL');
    await server.exited;

    server = await start();
    let final: any;
    for (let i = 0; i < 3000; i++) {
      final = await call('GET', `/clips/${up.video_id}/submissions/${sub.id}`);
      if (final.status === 'completed' || final.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(final).toMatchObject({ status: 'completed', error_code: null });
    const clips = await call('GET', `/clips/${up.video_id}/submissions/${sub.id}/clips?limit=100`);
    expect(clips.pagination.total_count).toBe(final.clips_count);
    const spans = clips.clips.map((c: any) => `${c.start_time}-${c.end_time}`);
    expect(new Set(spans).size).toBe(spans.length);
    const ledger = (await call('GET', '/balance/history?limit=100')).entries.filter((e: any) => e.job_id === sub.id);
    expect(ledger.map((e: any) => [e.kind, e.amount])).toEqual([['charge', -video.credits_cost]]);
    expect((await call('GET', '/balance')).balance).toBe(120 - video.credits_cost);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 1_200_000);
});
