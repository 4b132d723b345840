import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/app.js';
import { makeTalkVideo } from '../helpers/speech-fixtures.js';
import { freePort, runCli, waitForHttp, type Proc } from '../helpers/process.js';
import { probe } from '../../src/adapters/media/ffprobe.js';
import { Cutroom, ok, verifyWebhook, type Submission, type UploadProgress } from '../../sdk/src/index.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let dir: string;
let talk: string;
let server: Proc;
let base: string;
let key: string;
let receiver: Receiver;

beforeAll(async () => {
  dir = tempDir('cutroom-sdk-e2e-');
  talk = (await makeTalkVideo(path.join(dir, 'talk.mp4'), { minutes: 1.1 })).path;
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const dataDir = path.join(dir, 'data');
  // The embedded service as a real process: it makes a workspace and prints (and stores) its API key.
  // Webhooks go to a receiver on this machine: the operator allows private addresses.
  server = runCli(['serve'], {
    CUTROOM_DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_BASE_URL: base,
    CUTROOM_ADMIN_TOKEN: '',
    CUTROOM_WEBHOOKS_ALLOW_PRIVATE: 'true',
  });
  receiver = await startReceiver();
  // A first start from source (tsx) with a fresh database takes a while on a busy 2-core machine.
  await waitForHttp(`${base}/readyz`, 180_000);
  key = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
}, 240_000);
afterAll(async () => {
  await receiver?.close();
  if (server) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the SDK against a running service', () => {
  it('upload → POST /clips → wait → render the best clip → wait → download an MP4', async () => {
    const cutroom = new Cutroom({ baseUrl: `${base}/api/v1`, apiKey: key, pollIntervalMs: () => 500 });
    const size = fs.statSync(talk).size;
    const hook = await ok(cutroom.api.POST('/api/v1/webhooks', { body: { url: receiver.url, events: ['submission.completed', 'render.completed'] } }));

    const progress: UploadProgress[] = [];
    const video = await cutroom.uploadVideo(talk, { onProgress: (p) => progress.push(p) });
    expect(progress.at(-1)).toEqual({ sentBytes: size, totalBytes: size });
    expect(video).toMatchObject({ platform: 'upload', credits_cost: 2 });

    const sub = await ok(cutroom.api.POST('/api/v1/clips', { body: { video_id: video.id, source_language: 'en' } }));
    expect(sub).toMatchObject({ video_id: video.id, status: 'queued', credits_charged: 2 });
    const states: Submission['status'][] = [];
    const done = await cutroom.waitForSubmission(sub.video_id, sub.id, { timeoutMs: 600_000, onPoll: (s) => states.push(s.status) });
    expect(done.status).toBe('completed');
    expect(done.clips_count).toBeGreaterThan(0);
    expect(states.at(-1)).toBe('completed');

    const { clips } = await ok(
      cutroom.api.GET('/api/v1/clips/{videoId}/submissions/{submissionId}/clips', {
        params: { path: { videoId: sub.video_id, submissionId: sub.id }, query: { sort: 'rating', order: 'desc' } },
      }),
    );
    const best = clips[0];
    const render = await ok(
      cutroom.api.POST('/api/v1/clips/{videoId}/submissions/{submissionId}/clips/{clipId}/render', {
        params: { path: { videoId: sub.video_id, submissionId: sub.id, clipId: best.id } },
      }),
    );
    const rendered = await cutroom.waitForRender(render.id, { timeoutMs: 300_000 });
    expect(rendered).toMatchObject({ status: 'completed', progress: 100 });

    const download = await ok(cutroom.api.GET('/api/v1/renders/{renderId}/download', { params: { path: { renderId: rendered.id } } }));
    expect(download.filename).toMatch(/\.mp4$/);
    const file = path.join(dir, download.filename);
    fs.writeFileSync(file, Buffer.from(await (await fetch(download.url)).arrayBuffer()));
    const info = await probe(file);
    expect(info.hasVideo).toBe(true);
    expect(Math.abs(info.duration - (best.end_time - best.start_time))).toBeLessThan(1);

    // The same story pushed to the webhook endpoint, signed: the submission completed, then the render.
    const events = (await receiver.waitFor(2, 60_000)).map((r) => verifyWebhook<any>(r.headers as Record<string, string>, r.body, hook.secret));
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['submission.completed', { id: sub.id, video_id: video.id, status: 'completed', clips_count: done.clips_count }],
      ['render.completed', { id: rendered.id, edit_id: rendered.edit_id, status: 'completed' }],
    ]);
    let deliveries = await ok(cutroom.api.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id: hook.id } } }));
    for (let i = 0; i < 50 && deliveries.deliveries.some((d) => d.status !== 'delivered'); i++) {
      await new Promise((r) => setTimeout(r, 200)); // the last answer is being recorded
      deliveries = await ok(cutroom.api.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id: hook.id } } }));
    }
    expect(deliveries.deliveries.map((d) => [d.event_type, d.status])).toEqual([
      ['render.completed', 'delivered'],
      ['submission.completed', 'delivered'],
    ]);
    await ok(cutroom.api.DELETE('/api/v1/webhooks/{id}', { params: { path: { id: hook.id } } }));

    // The ledger: one charge for the submission, and the download needs no key while the API does.
    const balance = await ok(cutroom.api.GET('/api/v1/balance'));
    expect(balance.balance).toBe(120 - 2);
    await expect(new Cutroom({ baseUrl: base, apiKey: 'key_x.y' }).waitForRender(rendered.id)).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  }, 900_000);
});

describe('the `cutroom` CLI against the same service and video', () => {
  it('cutroom clip <file> --out <dir>: plain progress lines (no terminal), the clips table, --render all: every clip’s MP4 in --out; then cutroom jobs and renders get', async () => {
    const out = path.join(dir, 'clips');
    const env = { CUTROOM_URL: base, CUTROOM_API_KEY: key, CUTROOM_POLL_INTERVAL_MS: '500' };
    // No terminal to ask on: --yes accepts the price the CLI prints first.
    const run = runCli(['clip', talk, '--out', out, '--language', 'en', '--render', 'all', '--yes'], env);
    let stdout = '';
    run.child.stdout!.on('data', (d) => (stdout += d));
    const status = await run.exited;
    const output = run.output();
    expect(status, output).toBe(0);
    // Progress as plain lines: upload quarters, each submission state as it changes (timestamped), the render's progress, the file saved.
    expect(output).toMatch(/^upload talk\.mp4: 0% \(0 B of .+\)$/m);
    expect(output).toMatch(/^upload talk\.mp4: 100% \(.+\)$/m);
    expect(output).toMatch(/^submission sub_\w+: queued \(2 credits charged\)$/m);
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\] submission sub_\w+: completed/m);
    expect(output).toMatch(/^#\s+rating\s+start\s+end\s+title\s+clip$/m);
    expect(output).toMatch(/^(\[\d\d:\d\d:\d\d\] render rnd_\w+: completed|render rnd_\w+: completed \(from cache\)$)/m);
    expect(output).not.toMatch(/\u001b\[/);
    // --render all: every clip of the table rendered and saved in --out, each file's path on stdout.
    const rows = [...stdout.matchAll(/^\s*\d+\s+\d+\.\d\s+\S+\s+\S+\s+.+\s(clip_\w+)$/gm)].map((m) => m[1]);
    expect(rows.length).toBeGreaterThan(0);
    const saved = [...output.matchAll(/^saved (.+\.mp4)$/gm)].map((m) => m[1]);
    expect(saved).toHaveLength(rows.length);
    for (const file of saved) {
      expect(path.dirname(file)).toBe(out);
      expect(stdout).toContain(`${file}\n`);
    }
    const files = fs.readdirSync(out);
    expect(files.filter((f) => f.endsWith('.mp4'))).toHaveLength(rows.length);
    expect(files.filter((f) => f.endsWith('.part'))).toEqual([]);
    const info = await probe(saved[0]);
    expect(info.hasVideo).toBe(true);
    expect(info.duration).toBeGreaterThan(5);

    const jobs = runCli(['jobs', '--json'], env);
    expect(await jobs.exited).toBe(0);
    expect(JSON.parse(jobs.output().slice(jobs.output().indexOf('{')))).toEqual({ submissions: [], renders: [], transcriptions: [] });
    const renderId = /render (rnd_\w+): /.exec(output)![1];
    const get = runCli(['renders', 'get', renderId, '--json'], env);
    expect(await get.exited).toBe(0);
    expect(JSON.parse(get.output().slice(get.output().indexOf('{')))).toMatchObject({ id: renderId, status: 'completed', progress: 100 });
  }, 900_000);
});
