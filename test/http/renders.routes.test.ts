import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clips, edits, renders } from '../../src/adapters/db/schema/index.js';
import { ffprobePath } from '../../src/adapters/media/binaries.js';
import { newId } from '../../src/shared/ids.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { clipsFixture, type ClipsFixture } from '../helpers/clips.js';
import { makeVideo } from '../helpers/media-fixtures.js';

/**
 * The render API with the real render worker in-process: clips are made directly in the database
 * (test/helpers/clips.ts) from a small generated 61 s source, so no ASR pipeline runs.
 */

let t: TestApp;
let dir: string;
let source: string;

const RENDER_KEYS = [
  'created_at',
  'download_url',
  'edit_id',
  'error_code',
  'expires_at',
  'from_cache',
  'has_watermark',
  'id',
  'output_resolution',
  'progress',
  'quality',
  'status',
];

beforeAll(async () => {
  dir = tempDir('cutroom-renders-');
  // Uploads must be at least a minute long.
  source = await makeVideo(path.join(dir, 'source.mp4'), { seconds: 61, width: 640, height: 360, fps: 15 });
  t = await createTestApp({ workers: true });
  await t.c.plans.create('one_render', { max_concurrent_renders: 1 });
  await t.c.plans.create('tiny_retention', { render_expiry_hours: 0.0003 });
  await t.c.plans.create('watermarked', { force_watermark: true });
});
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const clipRender = (key: string, f: ClipsFixture, i = 0) =>
  t.api(key, 'POST', `/clips/${f.videoId}/submissions/${f.submissionId}/clips/${f.clipIds[i]}/render`);

async function pollRender(key: string, id: string, until: (r: any) => boolean = (r) => r.status !== 'queued' && r.status !== 'active', timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  const seen: any[] = [];
  for (;;) {
    const r = await t.api(key, 'GET', `/renders/${id}`);
    expect(r.status).toBe(200);
    seen.push(r.body);
    if (until(r.body)) return { final: r.body, seen };
    if (Date.now() > deadline) throw new Error(`render ${id} still ${r.body.status} after ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** Fetches a signed local-storage URL through the app (no key) and writes the body to a file. */
async function fetchSigned(url: string, file: string) {
  const u = new URL(url);
  const res = await t.app.inject({ method: 'GET', url: u.pathname + u.search });
  fs.writeFileSync(file, res.rawPayload);
  return res;
}

function ffprobeJson(file: string): Promise<{ streams: Array<Record<string, any>>; format: Record<string, any> }> {
  const bin = ffprobePath();
  return new Promise((resolve, reject) => {
    execFile(bin, ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file], { env: process.env }, (err, out) =>
      err ? reject(err) : resolve(JSON.parse(out)),
    );
  });
}

/** A custom 720p template in the workspace (faster renders); `over` changes its captions. */
async function template720(workspaceId: string, captions: Record<string, unknown> = {}) {
  const r = await t.c.templates.create(workspaceId, {
    kind: 'template',
    name: 'Small',
    config: { layout: { resolution: '720p', reframe: 'center' }, captions },
  });
  return r.id;
}

describe('clip render, cache and download', () => {
  it('202 queued → active → completed at 100 → a signed 1 h .mp4 URL of a 1080x1920 H.264 file; again → 200 from_cache', async () => {
    const ws = await t.workspace();
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 2, end: 4, title: 'Big moment!' }] });

    const first = await clipRender(ws.key, f);
    expect(first.status).toBe(202);
    expect(Object.keys(first.body).sort()).toEqual(RENDER_KEYS);
    expect(first.body).toMatchObject({
      edit_id: f.editIds[0],
      status: 'queued',
      progress: 0,
      output_resolution: '1080p',
      has_watermark: false,
      from_cache: false,
      download_url: null,
      error_code: null,
      expires_at: null,
    });
    expect(first.body.id).toMatch(/^rnd_/);
    const early = await t.api(ws.key, 'GET', `/renders/${first.body.id}/download`);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('RENDER_NOT_READY');

    const { final, seen } = await pollRender(ws.key, first.body.id);
    expect(final.status).toBe('completed');
    expect(final.progress).toBe(100);
    expect(final.from_cache).toBe(false);
    expect(typeof final.download_url).toBe('string');
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const hours = (Date.parse(final.expires_at) - Date.now()) / 3600e3;
    expect(hours).toBeGreaterThan(71.9);
    expect(hours).toBeLessThanOrEqual(72);

    const dl = await t.api(ws.key, 'GET', `/renders/${first.body.id}/download`);
    expect(dl.status).toBe(200);
    expect(Object.keys(dl.body).sort()).toEqual(['filename', 'url']);
    expect(dl.body.filename).toBe('Big-moment.mp4');
    const expires = Number(new URL(dl.body.url).searchParams.get('expires'));
    expect(Math.abs(expires - (Date.now() / 1000 + 3600))).toBeLessThan(60);
    const out = path.join(dir, 'first.mp4');
    const res = await fetchSigned(dl.body.url, out);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(String(res.headers['content-disposition'])).toContain('Big-moment.mp4');
    const info = await ffprobeJson(out);
    const video = info.streams.find((s) => s.codec_type === 'video')!;
    expect(video).toMatchObject({ codec_name: 'h264', width: 1080, height: 1920 });
    expect(info.streams.some((s) => s.codec_type === 'audio')).toBe(true);
    expect(Math.abs(Number(info.format.duration) - 2)).toBeLessThan(0.1);

    const again = await clipRender(ws.key, f);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ edit_id: f.editIds[0], status: 'completed', progress: 100, from_cache: true, error_code: null });
    expect(again.body.id).not.toBe(first.body.id);
    expect(typeof again.body.download_url).toBe('string');
    const cached = await fetchSigned(again.body.download_url, path.join(dir, 'cached.mp4'));
    expect(cached.statusCode).toBe(200);
    expect(cached.rawPayload.equals(fs.readFileSync(out))).toBe(true);

    // POST /renders with the same edit is the same cache hit.
    const byEdit = await t.api(ws.key, 'POST', '/renders', { edit_id: f.editIds[0] });
    expect(byEdit.status).toBe(200);
    expect(byEdit.body.from_cache).toBe(true);
    expect((await t.api(ws.key, 'GET', `/renders/${byEdit.body.id}`)).body.status).toBe('completed');
  });

  it('a render that cannot read its source ends failed with an error_code; download → 409 RENDER_FAILED', async () => {
    const ws = await t.workspace();
    const tpl = await template720(ws.id);
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 1, end: 2 }], templateId: tpl });
    await t.c.storage.delete(f.sourceKey);
    const r = await clipRender(ws.key, f);
    expect(r.status).toBe(202);
    const { final } = await pollRender(ws.key, r.body.id);
    expect(final).toMatchObject({ status: 'failed', error_code: 'SOURCE_NOT_FOUND', download_url: null });
    const dl = await t.api(ws.key, 'GET', `/renders/${r.body.id}/download`);
    expect(dl.status).toBe(409);
    expect(dl.body).toEqual({ code: 'RENDER_FAILED', extra: { error_code: 'SOURCE_NOT_FOUND' } });
    // A failed render does not count against the allowance.
    expect((await t.api(ws.key, 'GET', '/renders/limits')).body.active_renders).toBe(0);
  });
});

describe('not found and validation', () => {
  it('404 EDITS_NOT_FOUND / RENDER_NOT_FOUND / CLIP_NOT_FOUND / SUBMISSION_NOT_FOUND, also across workspaces; 400 without edit_id', async () => {
    const ws = await t.workspace();
    const other = await t.workspace();
    const tpl = await template720(ws.id);
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 1, end: 2 }], templateId: tpl });

    const noEdit = await t.api(ws.key, 'POST', '/renders', { edit_id: 'edit_nope' });
    expect(noEdit.status).toBe(404);
    expect(noEdit.body).toEqual({ code: 'EDITS_NOT_FOUND', extra: { invalid_edits: ['edit_nope'] } });
    const foreign = await t.api(other.key, 'POST', '/renders', { edit_id: f.editIds[0] });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ code: 'EDITS_NOT_FOUND', extra: { invalid_edits: [f.editIds[0]] } });

    expect((await t.api(ws.key, 'POST', '/renders', {})).body.code).toBe('VALIDATION_ERROR');
    expect((await t.api(ws.key, 'POST', '/renders', { edit_id: 'x', more: 1 })).status).toBe(400);

    expect((await t.api(ws.key, 'GET', '/renders/rnd_nope')).body).toEqual({ code: 'RENDER_NOT_FOUND' });
    expect((await t.api(ws.key, 'GET', '/renders/rnd_nope/download')).status).toBe(404);

    const bad = await t.api(ws.key, 'POST', `/clips/${f.videoId}/submissions/${f.submissionId}/clips/clip_nope/render`);
    expect(bad.status).toBe(404);
    expect(bad.body.code).toBe('CLIP_NOT_FOUND');
    const foreignClip = await clipRender(other.key, f);
    expect(foreignClip.status).toBe(404);
    expect(foreignClip.body.code).toBe('SUBMISSION_NOT_FOUND');

    const mine = await clipRender(ws.key, f);
    expect(mine.status).toBe(202);
    expect((await t.api(other.key, 'GET', `/renders/${mine.body.id}`)).status).toBe(404);
    expect((await t.api(other.key, 'GET', `/renders/${mine.body.id}/download`)).body.code).toBe('RENDER_NOT_FOUND');
    await pollRender(ws.key, mine.body.id);
  });

  it('a clip of a submission still finalizing → 409 SUBMISSION_NOT_COMPLETED', async () => {
    const ws = await t.workspace();
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 1, end: 2 }], status: 'finalizing' });
    const r = await clipRender(ws.key, f);
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ code: 'SUBMISSION_NOT_COMPLETED', extra: { status: 'finalizing' } });
  });
});

describe('OpenAPI', () => {
  it('documents the render routes with their error codes', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const p = doc.paths;
    expect(Object.keys(p['/api/v1/clips/{videoId}/submissions/{submissionId}/clips/{clipId}/render'].post.responses).sort()).toEqual([
      '200',
      '202',
      '400',
      '401',
      '404',
      '409',
      '410',
      '413',
      '429',
      '500',
    ]);
    expect(p['/api/v1/renders'].post.responses['404'].description).toContain('EDITS_NOT_FOUND');
    expect(p['/api/v1/renders/{renderId}/download'].get.responses['410'].description).toContain('RENDER_FILE_EXPIRED');
    expect(p['/api/v1/renders/{renderId}/download'].get.responses['409'].description).toBe('RENDER_NOT_READY, RENDER_FAILED');
    expect(p['/api/v1/renders/limits'].get).toBeDefined();
    expect(p['/api/v1/clips/{videoId}/submissions/{submissionId}/apply_template'].post.responses['409'].description).toBe(
      'SUBMISSION_NOT_COMPLETED, REQUEST_IN_PROGRESS',
    );
  });
});

describe('limits', () => {
  it('GET /renders/limits (not taken for a render id) reports the plan', async () => {
    const ws = await t.workspace();
    const r = await t.api(ws.key, 'GET', '/renders/limits');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ render_expiry_hours: 72, max_concurrent_renders: 3, active_renders: 0 });
    const tiny = await t.workspace({ plan: 'tiny_retention' });
    expect((await t.api(tiny.key, 'GET', '/renders/limits')).body.render_expiry_hours).toBe(0.0003);
  });

  it('429 RATE_LIMIT_EXCEEDED with Retry-After past the plan’s simultaneous renders, nothing created; free again once done', async () => {
    const ws = await t.workspace({ plan: 'one_render' });
    const tpl = await template720(ws.id);
    const f = await clipsFixture(t, ws.id, source, {
      ranges: [
        { start: 1, end: 3 },
        { start: 5, end: 7 },
      ],
      templateId: tpl,
    });
    const first = await clipRender(ws.key, f, 0);
    expect(first.status).toBe(202);
    const limits = await t.api(ws.key, 'GET', '/renders/limits');
    expect(limits.body).toMatchObject({ max_concurrent_renders: 1, active_renders: 1 });

    const second = await clipRender(ws.key, f, 1);
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toBe('10');
    expect(second.body).toEqual({ code: 'RATE_LIMIT_EXCEEDED', extra: { retry_after: 10, max_concurrent_renders: 1 } });
    const byEdit = await t.api(ws.key, 'POST', '/renders', { edit_id: f.editIds[1] });
    expect(byEdit.status).toBe(429);
    const rows = await t.c.database.db.select().from(renders).where(eq(renders.workspaceId, ws.id));
    expect(rows).toHaveLength(1);

    await pollRender(ws.key, first.body.id);
    // A cache hit needs no render slot; a new edit takes the free one.
    const third = await clipRender(ws.key, f, 1);
    expect(third.status).toBe(202);
    await pollRender(ws.key, third.body.id);
  });

  it('a plan with force_watermark renders with the watermark, under its own cache key', async () => {
    const ws = await t.workspace({ plan: 'watermarked' });
    const tpl = await template720(ws.id);
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 1, end: 2 }], templateId: tpl });
    const r = await clipRender(ws.key, f);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ has_watermark: true, output_resolution: '720p' });
    const { final } = await pollRender(ws.key, r.body.id);
    expect(final.status).toBe('completed');
    const [row] = await t.c.database.db.select().from(renders).where(eq(renders.id, r.body.id));
    const [edit] = await t.c.database.db.select().from(edits).where(eq(edits.id, f.editIds[0]));
    expect(row.editHash).not.toBe(edit.hash);
    const info = await ffprobeJson(
      await (async () => {
        const file = path.join(dir, 'wm.mp4');
        await fetchSigned(final.download_url, file);
        return file;
      })(),
    );
    expect(info.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 720, height: 1280 });
  });
});

describe('retention', () => {
  it('after render_expiry_hours: GET expired, download 410, the sweeper deletes the file; POST /renders makes a new file', async () => {
    const ws = await t.workspace({ plan: 'tiny_retention' });
    const tpl = await template720(ws.id);
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 1, end: 2 }], templateId: tpl });
    const r = await clipRender(ws.key, f);
    const { final } = await pollRender(ws.key, r.body.id, (b) => b.status !== 'queued' && b.status !== 'active');
    // The file may already be past its ~1 s retention when the poll sees it.
    expect(['completed', 'expired']).toContain(final.status);
    const [row] = await t.c.database.db.select().from(renders).where(eq(renders.id, r.body.id));
    expect(row.expiresAt!.getTime() - row.completedAt!.getTime()).toBe(Math.round(0.0003 * 3600 * 1000));
    expect(row.storageKey).toBe(`renders/${ws.id}/${r.body.id}.mp4`);
    expect(await t.c.storage.head(row.storageKey!)).not.toBeNull();
    await new Promise((res) => setTimeout(res, Math.max(0, row.expiresAt!.getTime() - Date.now()) + 50));

    // Past expires_at: expired at once, even before the sweep.
    const before = await t.api(ws.key, 'GET', `/renders/${r.body.id}`);
    expect(before.body).toMatchObject({ status: 'expired', download_url: null });
    expect((await t.api(ws.key, 'GET', `/renders/${r.body.id}/download`)).body).toEqual({ code: 'RENDER_FILE_EXPIRED' });

    const sweep = await t.c.renderProcessor.expire();
    expect(sweep.expired).toBeGreaterThanOrEqual(1);
    expect(await t.c.storage.head(row.storageKey!)).toBeNull();
    const [swept] = await t.c.database.db.select().from(renders).where(eq(renders.id, r.body.id));
    expect(swept.status).toBe('expired');
    const dl = await t.api(ws.key, 'GET', `/renders/${r.body.id}/download`);
    expect(dl.status).toBe(410);
    expect(dl.body.code).toBe('RENDER_FILE_EXPIRED');

    // The edit remains: a new render, not from the cache, with its own file.
    const again = await t.api(ws.key, 'POST', '/renders', { edit_id: f.editIds[0] });
    expect(again.status).toBe(202);
    expect(again.body.from_cache).toBe(false);
    await pollRender(ws.key, again.body.id);
    const [next] = await t.c.database.db.select().from(renders).where(eq(renders.id, again.body.id));
    expect(next.storageKey).not.toBe(row.storageKey);
    expect(next.storageKey).toBe(`renders/${ws.id}/${again.body.id}.mp4`);

    // The scheduled job does the same through the queue.
    await new Promise((res) => setTimeout(res, Math.max(0, next.expiresAt!.getTime() - Date.now()) + 50));
    await t.c.queue.send('render.expire', {});
    const deadline = Date.now() + 20_000;
    for (;;) {
      const [cur] = await t.c.database.db.select().from(renders).where(eq(renders.id, again.body.id));
      if (cur.status === 'expired') break;
      if (Date.now() > deadline) throw new Error('render.expire job did not run');
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(await t.c.storage.head(next.storageKey!)).toBeNull();
  });

  it('a file shared by cache hits is deleted only once no unexpired render uses it', async () => {
    const ws = await t.workspace();
    const tpl = await template720(ws.id);
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 1, end: 2 }], templateId: tpl });
    const db = t.c.database.db;
    const key = `renders/${ws.id}/shared-test.mp4`;
    await t.c.storage.putFile(key, source, 'video/mp4');
    const past = new Date(Date.now() - 1000);
    const future = new Date(Date.now() + 3600_000);
    const base = {
      workspaceId: ws.id,
      editId: f.editIds[0],
      editHash: 'h',
      status: 'completed',
      progress: 100,
      outputResolution: '720p',
      hasWatermark: false,
      storageKey: key,
      completedAt: past,
    };
    const a = newId('rnd');
    const b = newId('rnd');
    await db.insert(renders).values([
      { ...base, id: a, expiresAt: past },
      { ...base, id: b, expiresAt: future, fromCache: true },
    ]);
    await t.c.renderProcessor.expire();
    expect((await db.select().from(renders).where(eq(renders.id, a)))[0].status).toBe('expired');
    expect(await t.c.storage.head(key)).not.toBeNull();
    await db.update(renders).set({ expiresAt: past }).where(eq(renders.id, b));
    await t.c.renderProcessor.expire();
    expect((await db.select().from(renders).where(eq(renders.id, b)))[0].status).toBe('expired');
    expect(await t.c.storage.head(key)).toBeNull();
  });
});

describe('apply_template', () => {
  it('makes a new edit per clip with the template, sets has_template_applied; a render then differs; old edits still render', async () => {
    const ws = await t.workspace();
    const tplA = await template720(ws.id);
    const tplB = await template720(ws.id, { uppercase: true, primary_color: '#FFEE00' });
    const f = await clipsFixture(t, ws.id, source, {
      ranges: [
        { start: 1, end: 2 },
        { start: 3, end: 4 },
      ],
    });
    const db = t.c.database.db;
    await db.update(clips).set({ hasTemplateApplied: false }).where(eq(clips.submissionId, f.submissionId));

    const before = await clipRender(ws.key, f, 0);
    expect(before.status).toBe(202);
    await pollRender(ws.key, before.body.id);

    const applied = await t.api(ws.key, 'POST', `/clips/${f.videoId}/submissions/${f.submissionId}/apply_template`, { template_id: tplA });
    expect(applied.status).toBe(200);
    expect(applied.body.submission_id).toBe(f.submissionId);
    expect(applied.body.template_id).toBe(tplA);
    expect(applied.body.clips.map((c: any) => c.id)).toEqual(f.clipIds);
    const newIds = applied.body.clips.map((c: any) => c.edit_id);
    expect(newIds.every((id: string, i: number) => id !== f.editIds[i])).toBe(true);

    const listed = await t.api(ws.key, 'GET', `/clips/${f.videoId}/submissions/${f.submissionId}/clips?sort=start_time&order=asc`);
    expect(listed.body.clips.map((c: any) => [c.edit_id, c.has_template_applied])).toEqual(newIds.map((id: string) => [id, true]));

    const [oldEdit] = await db.select().from(edits).where(eq(edits.id, f.editIds[0]));
    const [newEdit] = await db.select().from(edits).where(eq(edits.id, newIds[0]));
    expect(newEdit.hash).not.toBe(oldEdit.hash);
    expect(newEdit.templateId).toBe(tplA);
    const oldSpec = oldEdit.spec as any;
    const newSpec = newEdit.spec as any;
    expect(newSpec).toMatchObject({ in: oldSpec.in, out: oldSpec.out, source: oldSpec.source, watermark: oldSpec.watermark, resolution: '720p' });
    expect(newSpec.layout).toEqual({ aspect: '9:16', reframe: 'center' });
    expect(newSpec.captions.words).toEqual(oldSpec.captions.words);

    const after = await clipRender(ws.key, f, 0);
    expect(after.status).toBe(202);
    expect(after.body).toMatchObject({ edit_id: newIds[0], from_cache: false, output_resolution: '720p' });
    await pollRender(ws.key, after.body.id);

    // Another template: new edits again, with its style.
    const b = await t.api(ws.key, 'POST', `/clips/${f.videoId}/submissions/${f.submissionId}/apply_template`, { template_id: tplB });
    expect(b.status).toBe(200);
    const [bEdit] = await db.select().from(edits).where(eq(edits.id, b.body.clips[0].edit_id));
    expect((bEdit.spec as any).captions.style).toMatchObject({ uppercase: true, primaryColor: '#FFEE00' });
    expect(bEdit.hash).not.toBe(newEdit.hash);
    // The same template again keeps the same edits.
    const same = await t.api(ws.key, 'POST', `/clips/${f.videoId}/submissions/${f.submissionId}/apply_template`, { template_id: tplB });
    expect(same.body.clips).toEqual(b.body.clips);

    // The first edit still renders: its file is in the cache.
    const old = await t.api(ws.key, 'POST', '/renders', { edit_id: f.editIds[0] });
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({ edit_id: f.editIds[0], from_cache: true });
    const rows = await db
      .select()
      .from(renders)
      .where(and(eq(renders.workspaceId, ws.id), eq(renders.editId, f.editIds[0])));
    expect(rows).toHaveLength(2);
  });

  it('404 TEMPLATE_NOT_FOUND (unknown or another workspace’s), 404 SUBMISSION_NOT_FOUND, 409 SUBMISSION_NOT_COMPLETED, 400 without template_id', async () => {
    const ws = await t.workspace();
    const other = await t.workspace();
    const foreignTpl = await template720(other.id);
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 1, end: 2 }] });
    const url = `/clips/${f.videoId}/submissions/${f.submissionId}/apply_template`;
    expect((await t.api(ws.key, 'POST', url, { template_id: 'tpl_nope' })).body).toEqual({ code: 'TEMPLATE_NOT_FOUND' });
    expect((await t.api(ws.key, 'POST', url, { template_id: foreignTpl })).status).toBe(404);
    expect((await t.api(other.key, 'POST', url, { template_id: foreignTpl })).body).toEqual({ code: 'SUBMISSION_NOT_FOUND' });
    expect((await t.api(ws.key, 'POST', url, {})).body.code).toBe('VALIDATION_ERROR');
    const builtin = await t.api(ws.key, 'POST', url, { template_id: 'tpl_clean' });
    expect(builtin.status).toBe(200);

    const waiting = await clipsFixture(t, ws.id, source, { ranges: [{ start: 1, end: 2 }], status: 'analyzing' });
    const r = await t.api(ws.key, 'POST', `/clips/${waiting.videoId}/submissions/${waiting.submissionId}/apply_template`, { template_id: 'tpl_clean' });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ code: 'SUBMISSION_NOT_COMPLETED', extra: { status: 'analyzing' } });
  });
});

describe('simultaneous requests on PostgreSQL', () => {
  let pgApp: TestApp;
  beforeAll(async () => {
    pgApp = await createTestApp({ db: 'postgres', startQueue: true });
    await pgApp.c.plans.create('two_renders', { max_concurrent_renders: 2 });
  });
  afterAll(async () => {
    await pgApp?.close();
  });

  it('the allowance holds when requests race: exactly two of eight are queued, the rest 429', async () => {
    const ws = await pgApp.workspace({ plan: 'two_renders' });
    const f = await clipsFixture(pgApp, ws.id, source, { ranges: Array.from({ length: 8 }, (_, i) => ({ start: i * 5 + 1, end: i * 5 + 2 })) });
    const answers = await Promise.all(
      f.editIds.map((id) => pgApp.app.inject({ method: 'POST', url: '/api/v1/renders', headers: { 'x-api-key': ws.key }, payload: { edit_id: id } })),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([202, 202, 429, 429, 429, 429, 429, 429]);
    const rows = await pgApp.c.database.db.select().from(renders).where(eq(renders.workspaceId, ws.id));
    expect(rows.map((r) => r.status)).toEqual(['queued', 'queued']);
  });
});
