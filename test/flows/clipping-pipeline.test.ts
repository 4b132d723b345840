import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { makeVideo } from '../helpers/media-fixtures.js';
import { makeTalkVideo } from '../helpers/speech-fixtures.js';
import { startStaticServer, type StaticServer } from '../helpers/static-server.js';
import { pollSubmission, readyVideo } from '../helpers/videos.js';
import { probe } from '../../src/adapters/media/ffprobe.js';
import { apiCall } from '../helpers/process.js';
import { readWavInfo } from '../../src/adapters/asr/wav.js';
import { submissions } from '../../src/adapters/db/schema/index.js';

let t: TestApp;
let base: string;
let dir: string;
let talk: string;
let silent: string;
let srv: StaticServer;

beforeAll(async () => {
  dir = tempDir('cutroom-pipeline-');
  talk = (await makeTalkVideo(path.join(dir, 'talk.mp4'), { minutes: 2 })).path;
  silent = await makeVideo(path.join(dir, 'silent.mp4'), { seconds: 70, width: 160, height: 90, fps: 5, audio: true });
  srv = await startStaticServer(dir);
  const port = 20000 + Math.floor(Math.random() * 20000);
  t = await createTestApp({ workers: true, env: { PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, CUTROOM_ALLOW_PRIVATE_SOURCES: 'true' } });
  await t.app.listen({ port, host: '127.0.0.1' });
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await t?.close();
  await srv?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const api = (key: string, method: string, url: string, body?: unknown) => apiCall(base, key, method, url, body);

describe('clipping a talk end to end', () => {
  it('upload → complete → POST /clips → completed → clips by rating with playable previews; credits exact', async () => {
    const ws = await t.workspace({ credits: 10 });
    const size = fs.statSync(talk).size;
    const up = await api(ws.key, 'POST', '/videos/upload', { file_name: 'talk.mp4', file_size: size, content_type: 'video/mp4' });
    expect((await fetch(up.body.upload_url, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: fs.readFileSync(talk) })).status).toBe(200);
    const done = await api(ws.key, 'POST', '/videos/upload/complete', { video_id: up.body.video_id, file_name: 'talk.mp4' });
    expect(done.status).toBe(200);
    const cost = done.body.credits_cost;
    expect(cost).toBe(Math.ceil(done.body.duration / 60));

    const sub = await api(ws.key, 'POST', '/clips', { video_id: up.body.video_id, source_language: 'en' });
    expect(sub.status).toBe(201);
    expect(sub.body.credits_charged).toBe(cost);
    const seen = new Set<string>();
    const final = await pollSubmission(t, ws.key, up.body.video_id, sub.body.id, (s) => {
      seen.add(s.status);
      return s.status === 'completed' || s.status === 'failed';
    });
    expect(final).toMatchObject({ status: 'completed', error_code: null, credits_charged: cost });
    expect(final.clips_count).toBeGreaterThan(0);
    expect(final.queue_position).toBeUndefined();

    const clips = await api(ws.key, 'GET', `/clips/${up.body.video_id}/submissions/${sub.body.id}/clips?sort=rating&order=desc`);
    expect(clips.status).toBe(200);
    expect(clips.body.pagination.total_count).toBe(final.clips_count);
    const ratings = clips.body.clips.map((c: any) => c.rating);
    expect(ratings).toEqual([...ratings].sort((a: number, b: number) => b - a));
    for (const c of clips.body.clips) {
      expect(Object.keys(c).sort()).toEqual(
        [
          'download_url',
          'edit_id',
          'end_time',
          'has_template_applied',
          'id',
          'language',
          'matched',
          'play_url',
          'rating',
          'reason',
          'review',
          'score_details',
          'start_time',
          'title',
        ].sort(),
      );
      expect(Object.keys(c.score_details).sort()).toEqual(['coherence', 'delivery', 'hook', 'value']);
      expect(c.reason).toMatch(/^About .+\.$/);
      expect(c.matched).toEqual([]);
      expect(c.rating).toBeGreaterThanOrEqual(0);
      expect(c.rating).toBeLessThanOrEqual(10);
      expect(c.language).toBe('en');
      expect(c.title.length).toBeGreaterThan(0);
      expect(c.end_time).toBeGreaterThan(c.start_time);
    }
    expect(new Set(clips.body.clips.map((c: any) => c.title.toLowerCase())).size).toBe(clips.body.clips.length);
    const byStart = (await api(ws.key, 'GET', `/clips/${up.body.video_id}/submissions/${sub.body.id}/clips?sort=start_time&order=asc`)).body.clips;
    for (let i = 1; i < byStart.length; i++) expect(byStart[i].start_time).toBeGreaterThanOrEqual(byStart[i - 1].end_time - 0.01);

    // The best clip's preview is a real MP4 of the clip's length, streamable with Range.
    const best = clips.body.clips[0];
    const ranged = await fetch(best.play_url, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);
    const bytes = Buffer.from(await (await fetch(best.download_url)).arrayBuffer());
    const file = path.join(dir, 'best.mp4');
    fs.writeFileSync(file, bytes);
    const info = await probe(file);
    expect(info.hasVideo).toBe(true);
    expect(info.hasAudio).toBe(true);
    expect(Math.abs(info.duration - (best.end_time - best.start_time))).toBeLessThan(0.5);

    // Credits: exactly one charge, no refund.
    const ledger = (await api(ws.key, 'GET', '/balance/history')).body.entries;
    expect(ledger.filter((e: any) => e.job_id === sub.body.id).map((e: any) => [e.kind, e.amount])).toEqual([['charge', -cost]]);
    expect((await api(ws.key, 'GET', '/balance')).body.balance).toBe(10 - cost);
    expect(seen.has('completed')).toBe(true);
  }, 900_000);

  it('a failed submission has an error code and is refunded automatically', async () => {
    const ws = await t.workspace({ credits: 5 });
    const video = await readyVideo(t, ws.id, silent);
    const sub = await api(ws.key, 'POST', '/clips', { video_id: video });
    expect(sub.body.credits_charged).toBe(2);
    const final = await pollSubmission(t, ws.key, video, sub.body.id, (s) => s.status === 'completed' || s.status === 'failed');
    expect(final).toMatchObject({ status: 'failed', error_code: 'NO_SPEECH', clips_count: 0 });
    const ledger = (await api(ws.key, 'GET', '/balance/history')).body.entries.filter((e: any) => e.job_id === sub.body.id);
    expect(ledger.map((e: any) => [e.kind, e.amount])).toEqual([
      ['refund', 2],
      ['charge', -2],
    ]);
    expect((await api(ws.key, 'GET', '/balance')).body.balance).toBe(5);
  }, 300_000);
});

describe('a submission with a timeframe works only on that stretch', () => {
  it('transcribes, analyses and clips only the paid stretch; clip times stay in the source timeline', async () => {
    const ws = await t.workspace({ credits: 10 });
    const video = await readyVideo(t, ws.id, talk);
    const timeframe = { start: 40, end: 110 };
    // What the speech engine is given: the WAV of the stretch, nothing before or after it.
    const heard: number[] = [];
    const original = t.c.asr.transcribe.bind(t.c.asr);
    const spy = vi.spyOn(t.c.asr, 'transcribe').mockImplementation(async (wav, opts) => {
      heard.push((await readWavInfo(wav)).duration);
      return original(wav, opts);
    });
    let final: any;
    let subId: string;
    try {
      const sub = await api(ws.key, 'POST', '/clips', { video_id: video, timeframe, source_language: 'en' });
      expect(sub.status).toBe(201);
      expect(sub.body.credits_charged).toBe(2);
      subId = sub.body.id;
      final = await pollSubmission(t, ws.key, video, subId, (s) => s.status === 'completed' || s.status === 'failed');
    } finally {
      spy.mockRestore();
    }
    expect(final).toMatchObject({ status: 'completed', error_code: null });
    expect(heard).toHaveLength(1);
    expect(heard[0]).toBeCloseTo(timeframe.end - timeframe.start, 0);

    const clips = (await api(ws.key, 'GET', `/clips/${video}/submissions/${subId}/clips?limit=100`)).body.clips;
    expect(clips.length).toBeGreaterThan(0);
    for (const c of clips) {
      expect(c.start_time).toBeGreaterThanOrEqual(timeframe.start - 0.01);
      expect(c.end_time).toBeLessThanOrEqual(timeframe.end + 0.01);
    }
    const [row] = await t.c.database.db.select().from(submissions).where(eq(submissions.id, subId));
    const words = (row.transcript as { words: Array<{ start: number; end: number }> }).words;
    expect(Math.min(...words.map((w) => w.start))).toBeGreaterThanOrEqual(timeframe.start);
    expect(Math.max(...words.map((w) => w.end))).toBeLessThanOrEqual(timeframe.end + 0.05);
    // The video analysis read a cut of the stretch: nothing measured before it (silence), nothing after it.
    const analysis = row.analysis as {
      range: { start: number; end: number };
      duration: number;
      loudness: number[];
      sceneCuts: number[];
      cropPath9x16: Array<{ t: number }>;
    };
    expect(analysis.range).toEqual(timeframe);
    expect(analysis.duration).toBeCloseTo(timeframe.end, 0);
    expect(analysis.loudness.slice(0, timeframe.start).every((v) => v === -70)).toBe(true);
    expect(analysis.loudness.slice(timeframe.start).some((v) => v > -70)).toBe(true);
    expect(analysis.loudness.length).toBeLessThanOrEqual(timeframe.end + 1);
    for (const cut of analysis.sceneCuts) expect(cut).toBeGreaterThanOrEqual(timeframe.start);
    for (const k of analysis.cropPath9x16) expect(k.t).toBeGreaterThanOrEqual(timeframe.start);
  }, 900_000);
});

describe('sources that do not fully exist yet', () => {
  it('waits with SOURCE_VOD_PROCESSING, resumes by itself, and DELETE while waiting refunds', async () => {
    let mode: 'ready' | 'processing' = 'ready';
    srv.route('/later.mp4', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (mode === 'processing') {
        res.writeHead(503, { 'retry-after': '1' });
        res.end();
        return;
      }
      const stat = fs.statSync(silent);
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(stat.size) });
      if (req.method === 'HEAD') res.end();
      else fs.createReadStream(silent).pipe(res);
    });
    const ws = await t.workspace({ credits: 10 });
    const info = await api(ws.key, 'POST', '/clips/info', { url: `${srv.url}/later.mp4` });
    expect(info.status).toBe(200);
    mode = 'processing';

    const first = await api(ws.key, 'POST', '/clips', { video_id: info.body.id });
    const waiting = await pollSubmission(t, ws.key, info.body.id, first.body.id, (s) => s.waiting_reason !== undefined, 120_000);
    expect(waiting).toMatchObject({ status: 'downloading', waiting_reason: 'SOURCE_VOD_PROCESSING' });
    const del = await api(ws.key, 'DELETE', `/clips/${info.body.id}/submissions/${first.body.id}`);
    expect(del).toEqual({ status: 200, body: { id: first.body.id, deleted: true, credits_refunded: 2 } });
    expect((await api(ws.key, 'GET', `/clips/${info.body.id}/submissions/${first.body.id}`)).status).toBe(404);
    expect((await api(ws.key, 'GET', '/balance')).body.balance).toBe(10);

    // A second submission waits, then the source becomes available and it resumes by itself.
    const second = await api(ws.key, 'POST', '/clips', { video_id: info.body.id });
    await pollSubmission(t, ws.key, info.body.id, second.body.id, (s) => s.waiting_reason === 'SOURCE_VOD_PROCESSING', 120_000);
    mode = 'ready';
    const moved = await pollSubmission(t, ws.key, info.body.id, second.body.id, (s) => s.status !== 'downloading' && s.status !== 'queued', 180_000);
    expect(moved.waiting_reason).toBeUndefined();
  }, 600_000);
});
