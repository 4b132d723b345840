import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clips } from '../../src/adapters/db/schema/index.js';
import { clipsFixture } from '../helpers/clips.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { DB_KINDS } from '../helpers/db.js';
import { makeVideo } from '../helpers/media-fixtures.js';
import { readyVideo } from '../helpers/videos.js';

/**
 * POST /clips with `prompt`, `keywords` and `clip_length`: checked before any charge, stored on the
 * submission; a clip's `score_details`, `reason` and `matched`. No workers run.
 */

let dir: string;
let file: string;
beforeAll(async () => {
  dir = tempDir('cutroom-steer-');
  file = await makeVideo(path.join(dir, 'talk.mp4'), { seconds: 90, width: 160, height: 90, fps: 5 });
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(DB_KINDS)('POST /clips steering on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    // A yt-dlp path so that YouTube channels are accepted (no run happens while the monitors stay stopped).
    t = await createTestApp({ db, startQueue: true, env: { CUTROOM_YTDLP_PATH: '/bin/true', CUTROOM_MONITOR_POLL_SECONDS: '3600' } });
    await t.c.plans.update('default', { analysis_rate_limit_per_minute: 1000 });
  });
  afterAll(async () => {
    await t?.close();
  });
  const post = (key: string, payload: object) => t.api(key, 'POST', '/clips', payload);

  it('stores prompt, keywords (trimmed, duplicates dropped) and clip_length, and the submission shows them', async () => {
    const ws = await t.workspace({ credits: 10 });
    const video = await readyVideo(t, ws.id, file);
    const res = await post(ws.key, {
      video_id: video,
      prompt: '  the moments about   pricing ',
      keywords: ['price', ' free  trial ', 'Price'],
      clip_length: { min: 20, max: 45 },
    });
    expect(res.status).toBe(201);
    const row = await t.c.submissions.get(ws.id, video, res.body.id);
    expect(row.steering).toEqual({ prompt: 'the moments about pricing', keywords: ['price', 'free trial'], clip_length: { min: 20, max: 45 } });
    const view = (await t.api(ws.key, 'GET', `/clips/${video}/submissions/${res.body.id}`)).body;
    expect(view).toMatchObject({ prompt: 'the moments about pricing', keywords: ['price', 'free trial'], clip_length: { min: 20, max: 45 } });

    // Without them nothing is stored and the submission has none of the three fields.
    const plain = await post(ws.key, { video_id: video, timeframe: { start: 0, end: 80 } });
    expect(plain.status).toBe(201);
    expect((await t.c.submissions.get(ws.id, video, plain.body.id)).steering).toBeNull();
    const plainView = (await t.api(ws.key, 'GET', `/clips/${video}/submissions/${plain.body.id}`)).body;
    expect(plainView).not.toHaveProperty('prompt');
    expect(plainView).not.toHaveProperty('keywords');
    expect(plainView).not.toHaveProperty('clip_length');
  });

  it('400 VALIDATION_ERROR naming the field for a bad prompt, keywords or clip_length; nothing charged or created', async () => {
    const ws = await t.workspace({ credits: 10 });
    const video = await readyVideo(t, ws.id, file);
    const cases: Array<[object, string]> = [
      [{ prompt: 'x'.repeat(501) }, 'prompt'],
      [{ prompt: '' }, 'prompt'],
      [{ prompt: '    ' }, 'prompt'],
      [{ prompt: 42 }, 'prompt'],
      [{ keywords: Array.from({ length: 21 }, (_, i) => `word${i}`) }, 'keywords'],
      [{ keywords: 'price' }, 'keywords'],
      [{ keywords: ['price', ''] }, 'keywords.1'],
      [{ keywords: ['price', '  '] }, 'keywords.1'],
      [{ keywords: ['y'.repeat(81)] }, 'keywords.0'],
      [{ clip_length: { min: 5, max: 30 } }, 'clip_length.min'],
      [{ clip_length: { min: 20, max: 181 } }, 'clip_length.max'],
      [{ clip_length: { min: 50, max: 30 } }, 'clip_length'],
      [{ clip_length: { min: 20 } }, 'clip_length.max'],
      [{ clip_length: { min: 20, max: 30, step: 1 } }, 'clip_length.step'],
    ];
    for (const [extra, field] of cases) {
      const res = await post(ws.key, { video_id: video, ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(
        res.body.extra.errors.map((e: { field: string }) => e.field),
        JSON.stringify(extra),
      ).toContain(field);
    }
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(10);
    expect((await t.api(ws.key, 'GET', '/clips')).body.pagination.total_count).toBe(0);
    // A minimum clip length longer than the stretch asked.
    const long = await post(ws.key, { video_id: video, timeframe: { start: 0, end: 70 }, clip_length: { min: 75, max: 90 } });
    expect(long.body).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'clip_length.min', rule: 'longer_than_timeframe' }] } });
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(10);
    // The edges of the ranges are accepted.
    const ok = await post(ws.key, {
      video_id: video,
      prompt: 'p'.repeat(500),
      keywords: Array.from({ length: 20 }, (_, i) => `w${i}`),
      clip_length: { min: 10, max: 10 },
    });
    expect(ok.status).toBe(201);
  });

  it('GET …/clips answers each clip’s score_details, reason and matched; clips made before them get sub-scores from their signals', async () => {
    const ws = await t.workspace({ credits: 10 });
    const f = await clipsFixture(t, ws.id, file, {
      ranges: [
        { start: 0, end: 20 },
        { start: 30, end: 50 },
        { start: 60, end: 80 },
      ],
    });
    const db = t.c.database.db;
    const details = { hook: 8.5, coherence: 9.2, value: 6.9, delivery: 10 };
    await db
      .update(clips)
      .set({ scoreDetails: details, reason: 'About the harbour lights: it says “harbour”.', matched: ['harbour'] })
      .where(eq(clips.id, f.clipIds[0]));
    const signals = { hook: 0.5, complete: 1, cohesion: 1, question: 0, numbers: 0, emotion: 0, density: 1, scene: 0 };
    await db.update(clips).set({ signals }).where(eq(clips.id, f.clipIds[1]));
    const res = await t.api(ws.key, 'GET', `/clips/${f.videoId}/submissions/${f.submissionId}/clips?sort=start_time&order=asc`);
    expect(res.status).toBe(200);
    const [a, b, c] = res.body.clips;
    expect(a).toMatchObject({ score_details: details, reason: 'About the harbour lights: it says “harbour”.', matched: ['harbour'] });
    expect(b).toMatchObject({ score_details: { hook: 5, coherence: 10, value: 0, delivery: 10 }, reason: '', matched: [] });
    expect(c).toMatchObject({ score_details: null, reason: '', matched: [] });
  });

  it('monitors carry prompt, keywords and clip_length: created, shown, changed (null removes one), checked like POST /clips', async () => {
    const ws = await t.workspace({ credits: 10 });
    const url = 'https://www.youtube.com/@SomeChannel/streams';
    const created = await t.api(ws.key, 'POST', '/monitors', {
      type: 'live',
      url,
      prompt: ' pricing  talk ',
      keywords: ['price'],
      clip_length: { min: 20, max: 40 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ prompt: 'pricing talk', keywords: ['price'], clip_length: { min: 20, max: 40 } });
    const id = created.body.id;
    const patched = await t.api(ws.key, 'PATCH', `/monitors/${id}`, { prompt: null, keywords: ['cost', 'Cost', 'fee'] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ prompt: null, keywords: ['cost', 'fee'], clip_length: { min: 20, max: 40 } });
    expect((await t.api(ws.key, 'GET', `/monitors/${id}`)).body).toMatchObject({ prompt: null, keywords: ['cost', 'fee'], clip_length: { min: 20, max: 40 } });
    const cleared = await t.api(ws.key, 'PATCH', `/monitors/${id}`, { keywords: null, clip_length: null });
    expect(cleared.body).toMatchObject({ prompt: null, keywords: null, clip_length: null });
    const plain = await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: 'https://www.youtube.com/@Other/streams' });
    expect(plain.body).toMatchObject({ prompt: null, keywords: null, clip_length: null });

    for (const [body, field] of [
      [{ clip_length: { min: 40, max: 20 } }, 'clip_length'],
      [{ keywords: ['  '] }, 'keywords.0'],
      [{ prompt: 'x'.repeat(501) }, 'prompt'],
    ] as Array<[object, string]>) {
      const bad = await t.api(ws.key, 'POST', '/monitors', { type: 'live', url: 'https://www.youtube.com/@Third/streams', ...body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.extra.errors.map((e: { field: string }) => e.field)).toContain(field);
      const badPatch = await t.api(ws.key, 'PATCH', `/monitors/${id}`, body);
      expect(badPatch.status, JSON.stringify(body)).toBe(400);
      expect(badPatch.body.extra.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await t.api(ws.key, 'GET', '/monitors')).body.pagination.total_count).toBe(2);
  });

  it('a strategy carries a prompt and keywords (its min and max seconds are the clip length); bad ones are 400 naming config fields', async () => {
    const ws = await t.workspace({ credits: 10 });
    const url = `/workspaces/${ws.id}/templates`;
    const created = await t.admin('POST', url, {
      kind: 'strategy',
      name: 'Pricing',
      config: { min_seconds: 20, max_seconds: 45, prompt: ' pricing  moments ', keywords: ['price', 'Price', 'fee'] },
    });
    expect(created.status).toBe(201);
    expect(created.body.config).toEqual({ min_seconds: 20, max_seconds: 45, max_clips: 10, prompt: 'pricing moments', keywords: ['price', 'fee'] });
    const listed = (await t.api(ws.key, 'GET', '/templates?kind=strategy&limit=100')).body.templates.find((x: { id: string }) => x.id === created.body.id);
    expect(listed.config).toMatchObject({ prompt: 'pricing moments', keywords: ['price', 'fee'] });
    const bad = await t.admin('POST', url, { kind: 'strategy', name: 'Bad', config: { prompt: '   ', keywords: ['ok', ' '] } });
    expect(bad.status).toBe(400);
    expect(bad.body.extra.errors).toEqual(
      expect.arrayContaining([
        { field: 'config.prompt', rule: 'blank' },
        { field: 'config.keywords.1', rule: 'blank' },
      ]),
    );
  });
});
