import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, statusAndBody, tempDir, type TestApp } from '../helpers/app.js';
import { makeAudio, makeVideo } from '../helpers/media-fixtures.js';

let t: TestApp;
let base: string;
let fixtures: string;
const files: Record<string, string> = {};

beforeAll(async () => {
  fixtures = tempDir('cutroom-upload-fx-');
  files.good = await makeVideo(path.join(fixtures, 'talk.mp4'), { seconds: 75 });
  files.short = await makeVideo(path.join(fixtures, 'short.mp4'), { seconds: 20 });
  files.long = await makeVideo(path.join(fixtures, 'long.mp4'), { seconds: 130, width: 160, height: 90, fps: 5 });
  const audio = await makeAudio(path.join(fixtures, 'voice.m4a'), { seconds: 70 });
  files.audio = path.join(fixtures, 'voice.mp4');
  fs.copyFileSync(audio, files.audio);
  fs.writeFileSync(path.join(fixtures, 'junk.mp4'), Buffer.alloc(4096, 7));
  files.junk = path.join(fixtures, 'junk.mp4');
  // The multipart threshold is lowered so a small file goes through the parts path.
  const port = 20000 + Math.floor(Math.random() * 20000);
  t = await createTestApp({
    env: {
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      CUTROOM_MULTIPART_THRESHOLD_BYTES: String(5 * 1024 * 1024),
      CUTROOM_MULTIPART_PART_SIZE_BYTES: String(5 * 1024 * 1024),
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(fixtures, { recursive: true, force: true });
});

async function uploadFile(key: string, file: string, contentType = 'video/mp4') {
  const size = fs.statSync(file).size;
  const up = await t.api(key, 'POST', '/videos/upload', { file_name: path.basename(file), file_size: size, content_type: contentType });
  expect(up.status).toBe(200);
  const put = await fetch(up.body.upload_url, { method: 'PUT', headers: { 'content-type': contentType }, body: fs.readFileSync(file) });
  expect(put.status).toBe(200);
  return up.body.video_id as string;
}

/** The videos of a workspace, uploads waiting for their bytes included. */
async function videoCount(workspaceId: string): Promise<number> {
  const rows = await t.c.database.sql.executeSql('select count(*)::int as n from videos where workspace_id = $1', [workspaceId]);
  return Number(rows.rows[0].n);
}

describe('POST /videos/upload', () => {
  it('answers a signed upload URL valid one hour, no key needed to PUT', async () => {
    const ws = await t.workspace({ credits: 10 });
    const up = await t.api(ws.key, 'POST', '/videos/upload', { file_name: 'talk.mp4', file_size: 1000, content_type: 'video/mp4' });
    expect(up.status).toBe(200);
    expect(Object.keys(up.body).sort()).toEqual(['expires_in', 'upload_url', 'video_id']);
    expect(up.body.expires_in).toBe(3600);
    expect(up.body.upload_url.startsWith(`${base}/files/`)).toBe(true);
    expect(up.body.video_id).toMatch(/^vid_/);
  });

  it('refuses other extensions and mismatched content types', async () => {
    const ws = await t.workspace();
    const bad = [
      [{ file_name: 'talk.avi', file_size: 10, content_type: 'video/x-msvideo' }, 'file_name'],
      [{ file_name: 'talk.mp4', file_size: 10, content_type: 'audio/mpeg' }, 'content_type'],
      [{ file_name: 'talk.mp4', file_size: 0, content_type: 'video/mp4' }, 'file_size'],
      [{ file_name: 'talk.mp4', content_type: 'video/mp4' }, 'file_size'],
    ] as const;
    for (const [body, field] of bad) {
      const res = await t.api(ws.key, 'POST', '/videos/upload', body);
      expect(res.status, field).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.extra.errors.map((e: any) => e.field)).toContain(field);
    }
  });

  it('names the accepted extensions and content types in `allowed`, before any byte is sent', async () => {
    const ws = await t.workspace();
    const avi = await t.api(ws.key, 'POST', '/videos/upload', { file_name: 'talk.avi', file_size: 10, content_type: 'video/x-msvideo' });
    expect(avi.body).toEqual({
      code: 'VALIDATION_ERROR',
      extra: { errors: [{ field: 'file_name', rule: 'extension', allowed: ['.mp4', '.mov', '.webm', '.mkv'] }] },
    });
    const type = await t.api(ws.key, 'POST', '/videos/upload', { file_name: 'talk.mov', file_size: 10, content_type: 'image/png' });
    expect(type.body).toEqual({
      code: 'VALIDATION_ERROR',
      extra: { errors: [{ field: 'content_type', rule: 'media_type', allowed: ['video/quicktime', 'video/mp4'] }] },
    });
    expect(await videoCount(ws.id)).toBe(0);
  });

  it('refuses a declared duration under 1 minute or over the plan maximum at once, creating nothing', async () => {
    await t.c.plans.create('ten-minutes', { max_video_duration: 600 });
    const ws = await t.workspace({ plan: 'ten-minutes' });
    const declare = (duration: number) =>
      t.api(ws.key, 'POST', '/videos/upload', { file_name: 'talk.mp4', file_size: 1000, content_type: 'video/mp4', duration });
    expect(statusAndBody(await declare(42.5))).toEqual({
      status: 400,
      body: { code: 'VIDEO_TOO_SHORT', extra: { duration: 42.5, min_duration: 60, max_duration: 600 } },
    });
    expect(statusAndBody(await declare(601))).toEqual({
      status: 400,
      body: { code: 'VIDEO_TOO_LONG', extra: { duration: 601, min_duration: 60, max_duration: 600 } },
    });
    expect(await videoCount(ws.id)).toBe(0);
    // A duration within the limits is taken (the file is still measured at completion).
    expect((await declare(75)).status).toBe(200);
    expect(await videoCount(ws.id)).toBe(1);
  });

  it('refuses a file above the plan maximum with 413 FILE_TOO_LARGE and the ceiling', async () => {
    await t.c.plans.create('small-uploads', { max_upload_size: 1000 });
    const ws = await t.workspace({ plan: 'small-uploads' });
    const res = await t.api(ws.key, 'POST', '/videos/upload', { file_name: 'a.mkv', file_size: 1001, content_type: 'video/x-matroska' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 'FILE_TOO_LARGE', extra: { max_size: 1000 } });
    expect(await videoCount(ws.id)).toBe(0);
  });

  it('answers parts above the multipart threshold, and completion assembles them', async () => {
    const ws = await t.workspace({ credits: 0 });
    // A real video padded past the threshold with a trailing MP4 free box, so it still decodes.
    const padded = path.join(fixtures, 'padded.mp4');
    const video = fs.readFileSync(files.good);
    const pad = 11 * 1024 * 1024;
    const freeBox = Buffer.alloc(pad);
    freeBox.writeUInt32BE(pad, 0);
    freeBox.write('free', 4, 'ascii');
    fs.writeFileSync(padded, Buffer.concat([video, freeBox]));
    const size = fs.statSync(padded).size;
    const up = await t.api(ws.key, 'POST', '/videos/upload', { file_name: 'padded.mp4', file_size: size, content_type: 'video/mp4' });
    expect(up.status).toBe(200);
    expect(up.body.mode).toBe('multipart');
    expect(up.body.part_size).toBe(5 * 1024 * 1024);
    expect(up.body.parts).toHaveLength(Math.ceil(size / (5 * 1024 * 1024)));
    const bytes = fs.readFileSync(padded);
    for (const part of up.body.parts) {
      const start = (part.part_number - 1) * up.body.part_size;
      const chunk = bytes.subarray(start, start + part.size);
      const res = await fetch(part.url, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: chunk });
      expect(res.status).toBe(200);
    }
    const done = await t.api(ws.key, 'POST', '/videos/upload/complete', {
      video_id: up.body.video_id,
      file_name: 'padded.mp4',
      duration: 75,
      width: 320,
      height: 180,
    });
    expect(done.status).toBe(200);
    expect(done.body.duration).toBeCloseTo(75, 0);
    const again = await t.api(ws.key, 'POST', '/videos/upload/complete', { video_id: up.body.video_id, file_name: 'padded.mp4' });
    expect(again.body).toEqual(done.body);
  });
});

describe('POST /videos/upload/complete', () => {
  it('probes the file itself and answers the metadata with the cost', async () => {
    const ws = await t.workspace({ credits: 7 });
    const id = await uploadFile(ws.key, files.good);
    // The caller's measurements are wrong on purpose: the service's own probe wins.
    const res = await t.api(ws.key, 'POST', '/videos/upload/complete', { video_id: id, file_name: 'My talk.mp4', duration: 5, width: 1, height: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      title: 'My talk',
      author: 'Test',
      platform: 'upload',
      duration: expect.closeTo(75, 0),
      credits_cost: 2,
      current_balance: 7,
      credits_unlimited: false,
      force_watermark: false,
      discount_percent: 0,
    });
  });

  it('applies the plan discount to the cost', async () => {
    await t.c.plans.create('half', { discount_percent: 50, force_watermark: true });
    const ws = await t.workspace({ plan: 'half' });
    const id = await uploadFile(ws.key, files.long);
    const res = await t.api(ws.key, 'POST', '/videos/upload/complete', { video_id: id, file_name: 'long.mp4' });
    expect(res.body).toMatchObject({ credits_cost: 2, discount_percent: 50, force_watermark: true });
  });

  it('404 FILE_NOT_FOUND before the bytes arrived, VIDEO_NOT_FOUND for an unknown or foreign video', async () => {
    const ws = await t.workspace();
    const other = await t.workspace();
    const up = await t.api(ws.key, 'POST', '/videos/upload', { file_name: 'a.mp4', file_size: 100, content_type: 'video/mp4' });
    expect(statusAndBody(await t.api(ws.key, 'POST', '/videos/upload/complete', { video_id: up.body.video_id, file_name: 'a.mp4' }))).toEqual({
      status: 404,
      body: { code: 'FILE_NOT_FOUND' },
    });
    expect((await t.api(other.key, 'POST', '/videos/upload/complete', { video_id: up.body.video_id, file_name: 'a.mp4' })).body).toEqual({
      code: 'VIDEO_NOT_FOUND',
    });
    expect((await t.api(ws.key, 'POST', '/videos/upload/complete', { video_id: 'vid_nope', file_name: 'a.mp4' })).body).toEqual({ code: 'VIDEO_NOT_FOUND' });
  });

  it('400 VIDEO_TOO_SHORT / VIDEO_TOO_LONG with the measured duration, and the file is removed', async () => {
    await t.c.plans.create('two-minutes', { max_video_duration: 120 });
    const ws = await t.workspace({ plan: 'two-minutes' });
    const shortId = await uploadFile(ws.key, files.short);
    const short = await t.api(ws.key, 'POST', '/videos/upload/complete', { video_id: shortId, file_name: 'short.mp4' });
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('VIDEO_TOO_SHORT');
    expect(short.body.extra.duration).toBeCloseTo(20, 0);
    expect(short.body.extra.max_duration).toBe(120);
    expect(short.body.extra.min_duration).toBe(60);
    const video = await t.c.videos.get(ws.id, shortId);
    expect(await t.c.storage.head(video.storageKey!)).toBeNull();

    const longId = await uploadFile(ws.key, files.long);
    const long = await t.api(ws.key, 'POST', '/videos/upload/complete', { video_id: longId, file_name: 'long.mp4' });
    expect(long.status).toBe(400);
    expect(long.body).toMatchObject({ code: 'VIDEO_TOO_LONG', extra: { max_duration: 120 } });
  });

  it('a refused file leaves no file behind, and the same upload URL then takes a corrected file', async () => {
    const ws = await t.workspace({ credits: 5 });
    const good = fs.readFileSync(files.good);
    // The short video padded to the good one's size: the signed URL fixes the size, not the content.
    const short = fs.readFileSync(files.short);
    const box = Buffer.alloc(good.length - short.length);
    box.writeUInt32BE(box.length, 0);
    box.write('free', 4, 'ascii');
    const up = await t.api(ws.key, 'POST', '/videos/upload', { file_name: 'talk.mp4', file_size: good.length, content_type: 'video/mp4' });
    const put = (body: Buffer) => fetch(up.body.upload_url, { method: 'PUT', headers: { 'content-type': 'video/mp4' }, body: new Uint8Array(body) });
    expect((await put(Buffer.concat([short, box]))).status).toBe(200);
    const refused = await t.api(ws.key, 'POST', '/videos/upload/complete', { video_id: up.body.video_id, file_name: 'talk.mp4' });
    expect(refused.body.code).toBe('VIDEO_TOO_SHORT');
    const left = (area: string) => {
      const dir = path.join(t.dataDir, 'files', area, ws.id, up.body.video_id);
      return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    };
    expect([...left('videos'), ...left('uploads/videos')]).toEqual([]);

    expect((await put(good)).status).toBe(200);
    const done = await t.api(ws.key, 'POST', '/videos/upload/complete', { video_id: up.body.video_id, file_name: 'talk.mp4' });
    expect(done.status).toBe(200);
    expect(done.body.duration).toBeCloseTo(75, 0);
    // One measured file remains, under a key no upload URL writes; the URL now refuses.
    expect(left('videos')).toHaveLength(1);
    expect(left('uploads/videos')).toEqual([]);
    expect(await (await put(good)).json()).toEqual({ code: 'UPLOAD_ALREADY_COMPLETED' });
  });

  it('400 VALIDATION_ERROR for a file with no video stream or not decodable', async () => {
    const ws = await t.workspace();
    const audioId = await uploadFile(ws.key, files.audio, 'video/mp4');
    const audio = await t.api(ws.key, 'POST', '/videos/upload/complete', { video_id: audioId, file_name: 'voice.mp4' });
    expect(statusAndBody(audio)).toEqual({ status: 400, body: { code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'file', rule: 'no_video_stream' }] } } });
    const junkId = await uploadFile(ws.key, files.junk);
    const junk = await t.api(ws.key, 'POST', '/videos/upload/complete', { video_id: junkId, file_name: 'junk.mp4' });
    expect(statusAndBody(junk)).toEqual({ status: 400, body: { code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'file', rule: 'undecodable' }] } } });
  });
});
