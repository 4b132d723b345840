import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { makeVideo } from '../helpers/media-fixtures.js';
import { readyVideo } from '../helpers/videos.js';
import { eq } from 'drizzle-orm';
import { submissions } from '../../src/adapters/db/schema/index.js';
import { DrizzleSubmissionsRepository } from '../../src/adapters/db/repositories/submissions.repository.js';

// No workers run here: submissions stay queued, which is what these tests need.
let t: TestApp;
let dir: string;
let file: string;
beforeAll(async () => {
  dir = tempDir('cutroom-sub-');
  file = await makeVideo(path.join(dir, 'talk.mp4'), { seconds: 150, width: 160, height: 90, fps: 5 });
  t = await createTestApp({ startQueue: true });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const post = (key: string, payload: object) => t.api(key, 'POST', '/clips', payload);
const get = (key: string, url: string) => t.api(key, 'GET', url);

describe('POST /clips', () => {
  it('creates a queued submission and deducts credits for the processed stretch', async () => {
    const ws = await t.workspace({ credits: 10 });
    const video = await readyVideo(t, ws.id, file);
    const res = await post(ws.key, { video_id: video, timeframe: { start: 10, end: 100 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^sub_/), video_id: video, status: 'queued', credits_charged: 2 });
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(8);
    const [entry] = (await get(ws.key, '/balance/history')).body.entries;
    expect(entry).toMatchObject({ kind: 'charge', amount: -2, balance_after: 8, waived: false, job_type: 'submission', job_id: res.body.id });

    const view = (await get(ws.key, `/clips/${video}/submissions/${res.body.id}`)).body;
    expect(view).toMatchObject({ id: res.body.id, video_id: video, status: 'queued', credits_charged: 2, error_code: null, clips_count: 0 });
    expect(view.queue_position).toBeGreaterThanOrEqual(1);
    expect(view.estimated_time).toBeGreaterThan(0);
  });

  it('while it runs, estimates the seconds left from its stage and the time since it started', async () => {
    const ws = await t.workspace({ credits: 10 });
    const video = await readyVideo(t, ws.id, file);
    const res = await post(ws.key, { video_id: video, timeframe: { start: 10, end: 100 } });
    const url = `/clips/${video}/submissions/${res.body.id}`;
    const at = (status: string, secondsAgo: number) =>
      t.c.database.db
        .update(submissions)
        .set({ status, startedAt: new Date(Date.now() - secondsAgo * 1000) })
        .where(eq(submissions.id, res.body.id));
    // 90 s of video: 54 s of work in all (0.6 s a second), 95 % of it after the download.
    await at('downloading', 0);
    const first = (await get(ws.key, url)).body;
    expect(first).toMatchObject({ status: 'downloading', estimated_time: 54 });
    expect(first.queue_position).toBeUndefined();
    await at('transcribing', 10);
    expect((await get(ws.key, url)).body.estimated_time).toBe(44);
    // Slower than estimated: never done before the last stage is.
    await at('video_analysis', 600);
    expect((await get(ws.key, url)).body.estimated_time).toBe(18);
    await at('finalizing', 600);
    expect((await get(ws.key, url)).body.estimated_time).toBe(1);
    await at('completed', 600);
    expect((await get(ws.key, url)).body.estimated_time).toBeUndefined();
  });

  it('while it runs, shows its stage and how far it is: as the stage reports, else by the clock', async () => {
    const ws = await t.workspace({ credits: 10 });
    const video = await readyVideo(t, ws.id, file);
    const res = await post(ws.key, { video_id: video, timeframe: { start: 10, end: 100 } });
    const url = `/clips/${video}/submissions/${res.body.id}`;
    const set = (changes: Partial<typeof submissions.$inferInsert>) => t.c.database.db.update(submissions).set(changes).where(eq(submissions.id, res.body.id));
    const queued = (await get(ws.key, url)).body;
    expect(queued.stage).toBeUndefined();
    expect(queued.progress).toBeUndefined();
    // 54 s of work in all; the download and transcription (50 %) done, the analysis half way by its own report.
    await set({ status: 'video_analysis', startedAt: new Date(Date.now() - 30_000), updatedAt: new Date(Date.now() - 5_000), stageProgress: 0.5 });
    const half = (await get(ws.key, url)).body;
    expect(half).toMatchObject({ status: 'video_analysis', stage: 'video_analysis', progress: 0.59 });
    expect(half.estimated_time).toBe(Math.round(54 * (0.01 + 0.32 + 0.17 / 2)));
    // The pipeline's reports move it on; the next stage starts again from its own beginning.
    await new DrizzleSubmissionsRepository(t.c.database.db).setStageProgress(res.body.id, 'video_analysis', 1);
    expect((await get(ws.key, url)).body.progress).toBe(0.67);
    await set({ status: 'finalizing', updatedAt: new Date(), stageProgress: null });
    const finalizing = (await get(ws.key, url)).body;
    expect(finalizing).toMatchObject({ stage: 'finalizing', progress: 0.68 });
    // A report for a stage it has left changes nothing.
    await new DrizzleSubmissionsRepository(t.c.database.db).setStageProgress(res.body.id, 'video_analysis', 0.2);
    expect((await get(ws.key, url)).body.progress).toBe(0.68);
    // Waiting for its source, or done: no stage, no progress.
    await set({ status: 'downloading', waitingReason: 'not_started' });
    expect((await get(ws.key, url)).body.stage).toBeUndefined();
    await set({ status: 'completed', waitingReason: null });
    const done = (await get(ws.key, url)).body;
    expect(done.stage).toBeUndefined();
    expect(done.progress).toBeUndefined();
  });

  it('a submission whose every run was lost with its process ends failed JOB_LOST, refunded, with nothing run', async () => {
    const ws = await t.workspace({ credits: 10 });
    const video = await readyVideo(t, ws.id, file);
    const res = await post(ws.key, { video_id: video, timeframe: { start: 10, end: 100 } });
    expect(res.status).toBe(201);
    // The queue's call for a lost last run (src/adapters/queue/pgboss.queue.ts hands it over with ctx.lost).
    await t.c.pipeline.run(res.body.id, { retryCount: 2, retryLimit: 2, lost: true });
    const view = (await get(ws.key, `/clips/${video}/submissions/${res.body.id}`)).body;
    expect(view).toMatchObject({ status: 'failed', error_code: 'JOB_LOST', clips_count: 0 });
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(10);
    const entries = (await get(ws.key, '/balance/history')).body.entries.filter((e: { job_id?: string }) => e.job_id === res.body.id);
    expect(entries.map((e: { kind: string; amount: number }) => [e.kind, e.amount])).toEqual([
      ['refund', 2],
      ['charge', -2],
    ]);
    // Called again (a second process returning the same run), it changes nothing.
    await t.c.pipeline.run(res.body.id, { retryCount: 2, retryLimit: 2, lost: true });
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(10);
  });

  it('charges nothing under free usage and writes a waived ledger row', async () => {
    const ws = await t.workspace({ credits: 0 });
    await t.c.workspaces.setFreeUsage(ws.id, null);
    const video = await readyVideo(t, ws.id, file);
    const res = await post(ws.key, { video_id: video });
    expect(res.status).toBe(201);
    expect(res.body.credits_charged).toBe(0);
    const [entry] = (await get(ws.key, '/balance/history')).body.entries;
    expect(entry).toMatchObject({ amount: -3, waived: true, balance_after: 0 });
  });

  it('402 INSUFFICIENT_CREDITS with the spec extras, and nothing is created', async () => {
    const ws = await t.workspace({ credits: 1 });
    const video = await readyVideo(t, ws.id, file);
    const res = await post(ws.key, { video_id: video });
    expect(res.status).toBe(402);
    expect(res.body).toEqual({
      code: 'INSUFFICIENT_CREDITS',
      extra: { credits_needed: 3, current_balance: 1, is_reclip: false, scope: 'workspace', is_owner: true },
    });
    expect((await get(ws.key, '/clips')).body.pagination.total_count).toBe(0);
    await t.c.credits.adjust({ workspaceId: ws.id, amount: 2, reason: 'top-up' });
    expect((await post(ws.key, { video_id: video })).status).toBe(201);
    const again = await post(ws.key, { video_id: video, timeframe: { start: 0, end: 90 } });
    expect(again.body.extra.is_reclip).toBe(true);
  });

  it('409 VIDEO_ALREADY_PROCESSING for the same video and timeframe still running', async () => {
    const ws = await t.workspace({ credits: 20 });
    const video = await readyVideo(t, ws.id, file);
    expect((await post(ws.key, { video_id: video })).status).toBe(201);
    const dup = await post(ws.key, { video_id: video });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ code: 'VIDEO_ALREADY_PROCESSING' });
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(17);
    // Another stretch of the same video is a different job.
    expect((await post(ws.key, { video_id: video, timeframe: { start: 0, end: 60 } })).status).toBe(201);
  });

  it('400 TIMEFRAME_OUT_OF_BOUNDS for a stretch outside the video, inverted or under a minute', async () => {
    const ws = await t.workspace({ credits: 20 });
    const video = await readyVideo(t, ws.id, file);
    for (const timeframe of [{ start: 0, end: 500 }, { start: 100, end: 50 }, { start: 0, end: 59 }, { start: 120 }]) {
      const res = await post(ws.key, { video_id: video, timeframe });
      expect(res.status, JSON.stringify(timeframe)).toBe(400);
      expect(res.body.code).toBe('TIMEFRAME_OUT_OF_BOUNDS');
    }
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(20);
  });

  it('404 for unknown or foreign videos, strategies and templates; FILE_NOT_FOUND before the upload is complete', async () => {
    const ws = await t.workspace({ credits: 20 });
    const other = await t.workspace({ credits: 20 });
    const video = await readyVideo(t, ws.id, file);
    expect((await post(ws.key, { video_id: 'vid_nope' })).body).toEqual({ code: 'VIDEO_NOT_FOUND' });
    expect((await post(other.key, { video_id: video })).body).toEqual({ code: 'VIDEO_NOT_FOUND' });
    expect((await post(ws.key, { video_id: video, strategy_id: 'str_nope' })).body).toEqual({ code: 'STRATEGY_NOT_FOUND' });
    expect((await post(ws.key, { video_id: video, template_id: 'tpl_nope' })).body).toEqual({ code: 'TEMPLATE_NOT_FOUND' });
    const ctx = await t.c.workspaces.get(ws.id);
    const pending = await t.c.videos.createUpload(ctx, { file_name: 'x.mp4', file_size: 10, content_type: 'video/mp4' });
    const res = await post(ws.key, { video_id: pending.video_id });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'FILE_NOT_FOUND' });
    expect((await t.c.workspaces.get(ws.id)).workspace.credits).toBe(20);
  });

  it('400 VALIDATION_ERROR for a language the engine cannot do, and for bad fields', async () => {
    const ws = await t.workspace({ credits: 20 });
    const video = await readyVideo(t, ws.id, file);
    expect((await post(ws.key, { video_id: video, source_language: 'pt' })).body).toEqual({
      code: 'VALIDATION_ERROR',
      extra: { errors: [{ field: 'source_language', rule: 'unsupported_by_engine' }] },
    });
    const bad = await post(ws.key, { video_id: video, source_language: 'xx', timeframe: { start: -1 } });
    expect(bad.status).toBe(400);
    expect(bad.body.extra.errors.map((e: any) => e.field).sort()).toEqual(['source_language', 'timeframe.start']);
    expect((await post(ws.key, { video_id: video, source_language: 'en', strategy_id: 'str_short' })).status).toBe(201);
  });
});

describe('GET /clips and submissions', () => {
  it('lists the workspace’s submissions newest first, filtered by status and video', async () => {
    const ws = await t.workspace({ credits: 50 });
    const a = await readyVideo(t, ws.id, file);
    const b = await readyVideo(t, ws.id, file);
    const s1 = (await post(ws.key, { video_id: a })).body.id;
    const s2 = (await post(ws.key, { video_id: b })).body.id;
    const list = (await get(ws.key, '/clips')).body;
    expect(list.submissions.map((s: any) => s.id)).toEqual([s2, s1]);
    expect(list.pagination).toEqual({ current_page: 1, total_pages: 1, total_count: 2, has_next_page: false });
    expect((await get(ws.key, `/clips?video_id=${a}`)).body.submissions.map((s: any) => s.id)).toEqual([s1]);
    expect((await get(ws.key, '/clips?status=completed')).body.submissions).toEqual([]);
    expect((await get(ws.key, '/clips?status=nope')).status).toBe(400);
    const other = await t.workspace();
    expect((await get(other.key, '/clips')).body.submissions).toEqual([]);
    expect((await get(other.key, `/clips/${a}/submissions/${s1}`)).body).toEqual({ code: 'SUBMISSION_NOT_FOUND' });
    expect((await get(ws.key, `/clips/${b}/submissions/${s1}`)).status).toBe(404);
  });

  it('lists no clips before completion and validates sort and order', async () => {
    const ws = await t.workspace({ credits: 50 });
    const v = await readyVideo(t, ws.id, file);
    const s = (await post(ws.key, { video_id: v })).body.id;
    expect((await get(ws.key, `/clips/${v}/submissions/${s}/clips?sort=rating&order=desc`)).body).toEqual({
      clips: [],
      pagination: { current_page: 1, total_pages: 0, total_count: 0, has_next_page: false },
    });
    expect((await get(ws.key, `/clips/${v}/submissions/${s}/clips?sort=loudness`)).status).toBe(400);
    expect((await get(ws.key, `/clips/${v}/submissions/sub_nope/clips`)).body).toEqual({ code: 'SUBMISSION_NOT_FOUND' });
  });

  it('DELETE refuses a submission that is not waiting for its source', async () => {
    const ws = await t.workspace({ credits: 50 });
    const v = await readyVideo(t, ws.id, file);
    const s = (await post(ws.key, { video_id: v })).body.id;
    const res = await t.api(ws.key, 'DELETE', `/clips/${v}/submissions/${s}`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'SUBMISSION_NOT_WAITING' });
  });
});
