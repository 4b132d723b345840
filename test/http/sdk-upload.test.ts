import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';
import { freePort } from '../helpers/process.js';
import { Cutroom, CutroomError, ok, type UploadProgress } from '../../sdk/src/index.js';

const MIB = 1024 * 1024;

let t: TestApp;
let dir: string;
let video: string;
let base: string;

beforeAll(async () => {
  dir = tempDir('cutroom-sdk-upload-');
  // 61 s of noise at ~900 kb/s: about 7 MB, two parts of a 5 MiB multipart upload.
  video = path.join(dir, 'noise.mp4');
  await runFfmpeg([
    '-y',
    '-f',
    'lavfi',
    '-i',
    "nullsrc=s=160x90:r=10,geq=lum='random(1)*255':cb=128:cr=128",
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=16000',
    '-t',
    '61',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-b:v',
    '900k',
    '-maxrate',
    '900k',
    '-bufsize',
    '900k',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '32k',
    '-shortest',
    '-movflags',
    '+faststart',
    video,
  ]);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    env: { PUBLIC_BASE_URL: base, CUTROOM_MULTIPART_THRESHOLD_BYTES: String(5 * MIB), CUTROOM_MULTIPART_PART_SIZE_BYTES: String(5 * MIB) },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('SDK uploadVideo against the service', () => {
  it('uploads a file above the multipart threshold part by part from disk, reports progress, and completes it', async () => {
    const ws = await t.workspace({ credits: 5 });
    const cutroom = new Cutroom({ baseUrl: `${base}/api/v1`, apiKey: ws.key });
    const size = fs.statSync(video).size;
    expect(size).toBeGreaterThan(5 * MIB);
    // The service answers this size in two parts.
    const declared = await ok(cutroom.api.POST('/api/v1/videos/upload', { body: { file_name: 'probe.mp4', file_size: size, content_type: 'video/mp4' } }));
    expect('mode' in declared ? declared.parts.map((p) => p.size) : []).toEqual([5 * MIB, size - 5 * MIB]);
    const progress: UploadProgress[] = [];
    const done = await cutroom.uploadVideo(video, { onProgress: (p) => progress.push(p) });
    expect(done).toMatchObject({ title: 'noise', platform: 'upload', credits_cost: 2 });
    expect(done.duration).toBeGreaterThan(60);
    expect(progress.at(-1)).toEqual({ sentBytes: size, totalBytes: size });
    const sent = progress.map((p) => p.sentBytes);
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    // The service measured the assembled file: every part arrived, in order.
    expect(done.duration).toBeLessThan(62);
  });

  it('uploads a stream in parts (read once, in order), and a small file with one PUT', async () => {
    const ws = await t.workspace({ credits: 5 });
    const cutroom = new Cutroom({ baseUrl: base, apiKey: ws.key });
    const size = fs.statSync(video).size;
    const fromStream = await cutroom.uploadVideo(fs.createReadStream(video, { highWaterMark: 100_000 }), { fileName: 'talk.mp4', size });
    expect(fromStream).toMatchObject({ title: 'talk', platform: 'upload' });

    const small = path.join(dir, 'small.mp4');
    await runFfmpeg(['-y', '-i', video, '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '100k', '-c:a', 'copy', small]);
    expect(fs.statSync(small).size).toBeLessThan(5 * MIB);
    const progress: UploadProgress[] = [];
    const single = await cutroom.uploadVideo(small, { onProgress: (p) => progress.push(p) });
    expect(single.title).toBe('small');
    expect(progress.at(-1)?.sentBytes).toBe(fs.statSync(small).size);
  });

  it('throws the service’s refusals as CutroomError', async () => {
    const ws = await t.workspace({ credits: 5 });
    const cutroom = new Cutroom({ baseUrl: base, apiKey: ws.key });
    const notVideo = path.join(dir, 'notes.mp4');
    fs.writeFileSync(notVideo, 'not a video at all');
    const err = await cutroom.uploadVideo(notVideo).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CutroomError);
    expect(err).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'file', rule: 'undecodable' }] } });
    const bad = new Cutroom({ baseUrl: base, apiKey: 'key_nope.nope' });
    await expect(bad.uploadVideo(video)).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });
});

describe('SDK uploadPersonaSource against the service', () => {
  it('uploads a short source video with one PUT, completes it and answers it measured (free); a refusal is a CutroomError', async () => {
    const ws = await t.workspace({ credits: 5 });
    const cutroom = new Cutroom({ baseUrl: base, apiKey: ws.key });
    const short = path.join(dir, 'short.mp4');
    await runFfmpeg(['-y', '-i', video, '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '100k', '-c:a', 'copy', short]);
    const progress: UploadProgress[] = [];
    const source = await cutroom.uploadPersonaSource(short, { onProgress: (p) => progress.push(p) });
    expect(source).toMatchObject({ width: 160, height: 90, has_audio: true });
    expect(source.duration).toBeCloseTo(2, 0);
    expect(progress.at(-1)?.sentBytes).toBe(fs.statSync(short).size);
    // Completed: the swap is quoted from it; nothing was charged for the upload.
    const quote = await cutroom.personas.quoteSwap({ media_id: source.media_id, quality: 'standard', replace: 'head' });
    expect(quote).toMatchObject({ media_id: source.media_id, seconds: source.duration });
    expect((await cutroom.balance.get()).balance).toBe(5);

    const notVideo = path.join(dir, 'words.mp4');
    fs.writeFileSync(notVideo, 'not a video at all');
    await expect(cutroom.uploadPersonaSource(notVideo)).rejects.toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    // An extension the service does not take is refused before anything is sent.
    const text = path.join(dir, 'notes.txt');
    fs.writeFileSync(text, 'words');
    await expect(cutroom.uploadPersonaSource(text)).rejects.toThrow(TypeError);
  });
});
