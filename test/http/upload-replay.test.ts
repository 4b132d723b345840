import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { makeVideo, runFfmpeg } from '../helpers/media-fixtures.js';
import { makeSpeechWav, makeTalkWav, VOICES } from '../helpers/speech-fixtures.js';
import { apiCall } from '../helpers/process.js';
import { media } from '../../src/adapters/db/schema/index.js';

/**
 * Security audit, finding 3: a signed upload URL replayed after the upload was completed must not
 * replace the file the service measured and charged for. The audit's attack, over HTTP, on both
 * storage drivers: a short file padded to the declared size of a long one is measured (and charged)
 * short, then the long file is PUT to the same URL. The local driver refuses the PUT (409
 * UPLOAD_ALREADY_COMPLETED); S3 cannot refuse a presigned PUT, but it lands on the upload key, which
 * nothing reads: the job still works on the measured bytes.
 */

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer?: http.Server;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (opts: Record<string, unknown>) => S3rverInstance;
const BUCKET = 'cutroom-replay';

let fx: string;
const fixtures = {} as {
  /** A short speech MP3 padded (ID3 tag) to the size of `longMp3`, its duration, and the long one. */
  paddedMp3: Buffer;
  shortSeconds: number;
  longMp3: Buffer;
  /** A 75 s video padded (MP4 `free` box) to the size of `longVideo` (130 s). */
  paddedVideo: Buffer;
  longVideo: Buffer;
};

/**
 * An MP3 grown to `size` bytes by zero padding inside its leading ID3v2 tag (as the audit's file was):
 * the audio and its Xing/Info header are untouched, so the measured duration stays the short one.
 */
function padId3(mp3: Buffer, size: number): Buffer {
  if (mp3.subarray(0, 3).toString('latin1') !== 'ID3') throw new Error('padId3: the MP3 must start with an ID3v2 tag');
  const tagSize = ((mp3[6] & 0x7f) << 21) | ((mp3[7] & 0x7f) << 14) | ((mp3[8] & 0x7f) << 7) | (mp3[9] & 0x7f);
  const pad = size - mp3.length;
  if (pad < 0) throw new Error('padId3: already larger');
  const grown = tagSize + pad;
  const syncsafe = Buffer.from([(grown >> 21) & 0x7f, (grown >> 14) & 0x7f, (grown >> 7) & 0x7f, grown & 0x7f]);
  return Buffer.concat([mp3.subarray(0, 6), syncsafe, mp3.subarray(10, 10 + tagSize), Buffer.alloc(pad), mp3.subarray(10 + tagSize)]);
}

/** `mp4` followed by a `free` box up to `size`, so it still decodes as the same video. */
function padMp4(mp4: Buffer, size: number): Buffer {
  const pad = size - mp4.length;
  if (pad < 8) throw new Error('padMp4: not enough room for a free box');
  const box = Buffer.alloc(pad);
  box.writeUInt32BE(pad, 0);
  box.write('free', 4, 'ascii');
  return Buffer.concat([mp4, box]);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  fx = tempDir('cutroom-replay-fx-');
  const short = await makeSpeechWav(path.join(fx, 'short.wav'), [
    { silence: 0.4 },
    { say: 'hello and welcome back to the show', ...VOICES.male },
    { silence: 0.6 },
    { say: 'thank you very much for watching', ...VOICES.male },
    { silence: 0.6 },
  ]);
  const long = await makeTalkWav(path.join(fx, 'talk.wav'), { minutes: 2 });
  await runFfmpeg(['-i', short.path, '-c:a', 'libmp3lame', '-b:a', '64k', '-ac', '1', path.join(fx, 'short.mp3')]);
  await runFfmpeg(['-i', long.path, '-c:a', 'libmp3lame', '-b:a', '64k', '-ac', '1', path.join(fx, 'long.mp3')]);
  fixtures.longMp3 = fs.readFileSync(path.join(fx, 'long.mp3'));
  fixtures.paddedMp3 = padId3(fs.readFileSync(path.join(fx, 'short.mp3')), fixtures.longMp3.length);
  fixtures.shortSeconds = short.duration;

  const good = await makeVideo(path.join(fx, 'good.mp4'), { seconds: 75, width: 160, height: 90, fps: 5 });
  const longer = await makeVideo(path.join(fx, 'long.mp4'), { seconds: 130, width: 320, height: 180, fps: 15 });
  fixtures.longVideo = fs.readFileSync(longer);
  fixtures.paddedVideo = padMp4(fs.readFileSync(good), fixtures.longVideo.length);
}, 300_000);

afterAll(() => {
  if (fx) fs.rmSync(fx, { recursive: true, force: true });
});

interface Driver {
  t: TestApp;
  base: string;
  close(): Promise<void>;
}

async function localDriver(): Promise<Driver> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const t = await createTestApp({ workers: true, env: { PUBLIC_BASE_URL: `http://127.0.0.1:${port}` } });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, base: `http://127.0.0.1:${port}`, close: () => t.close() };
}

async function s3Driver(): Promise<Driver> {
  const directory = tempDir('cutroom-replay-s3-');
  const s3rver = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port: s3Port } = await s3rver.run();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const t = await createTestApp({
    workers: true,
    env: {
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      CUTROOM_STORAGE: 's3',
      CUTROOM_S3_BUCKET: BUCKET,
      CUTROOM_S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      CUTROOM_S3_FORCE_PATH_STYLE: 'true',
      CUTROOM_S3_ACCESS_KEY_ID: 'S3RVER',
      CUTROOM_S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
  });
  expect(t.c.storage.kind).toBe('s3');
  await t.app.listen({ port, host: '127.0.0.1' });
  return {
    t,
    base: `http://127.0.0.1:${port}`,
    async close() {
      await t.close();
      s3rver.httpServer?.closeAllConnections();
      await s3rver.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

async function put(url: string, body: Buffer, contentType: string) {
  const res = await fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body: new Uint8Array(body) });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

/** What a replayed PUT gets: refused by the service (local), or accepted by the store into the upload key (s3). */
function expectReplayAnswer(kind: 'local' | 's3', replay: { status: number; body: unknown }) {
  if (kind === 'local') expect(replay).toEqual({ status: 409, body: { code: 'UPLOAD_ALREADY_COMPLETED' } });
  else expect(replay.status).toBe(200);
}

describe.each([
  ['local', localDriver],
  ['s3', s3Driver],
] as const)('replaying a signed upload URL after completion (%s storage)', (kind, start) => {
  let d: Driver;
  const api = (key: string, method: string, url: string, body?: unknown) => apiCall(d.base, key, method, url, body);

  beforeAll(async () => {
    d = await start();
  }, 120_000);
  afterAll(async () => {
    await d?.close();
  });

  it('transcription: a short MP3 measured and charged, then a long one PUT to the same URL; the transcript covers only the measured file', async () => {
    const ws = await d.t.workspace({ credits: 10 });
    const up = await api(ws.key, 'POST', '/transcriptions/upload', { file_name: 'talk.mp3', file_size: fixtures.longMp3.length, content_type: 'audio/mpeg' });
    expect(up.status).toBe(200);
    expect((await put(up.body.upload_url, fixtures.paddedMp3, 'audio/mpeg')).status).toBe(200);

    const created = await api(ws.key, 'POST', '/transcriptions', { media_id: up.body.media_id, source_language: 'en' });
    expect(created.status).toBe(202);
    expect(created.body.credits_charged).toBe(1);

    // The swap: the 2-minute file, the declared size exactly, to the same signed URL.
    expectReplayAnswer(kind, await put(up.body.upload_url, fixtures.longMp3, 'audio/mpeg'));

    const [m] = await d.t.c.database.db.select().from(media).where(eq(media.id, up.body.media_id));
    expect(m.duration).toBeCloseTo(fixtures.shortSeconds, 0);
    expect(sha256(await readAll(await d.t.c.storage.read(m.storageKey)))).toBe(sha256(fixtures.paddedMp3));

    let done: any;
    for (let i = 0; i < 600; i++) {
      done = (await api(ws.key, 'GET', `/transcriptions/${created.body.id}`)).body;
      if (done.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(done).toMatchObject({ status: 'ready', credits_charged: 1 });
    const transcript = (await api(ws.key, 'GET', `/transcriptions/${created.body.id}/transcript`)).body;
    expect(transcript.cues.length).toBeGreaterThan(0);
    for (const cue of transcript.cues) expect(cue.end).toBeLessThanOrEqual(fixtures.shortSeconds + 0.5);

    // The same media again is the same (cached) measured file: nothing more is charged.
    const again = await api(ws.key, 'POST', '/transcriptions', { media_id: up.body.media_id, source_language: 'en' });
    expect(again.body).toMatchObject({ status: 'ready', credits_charged: 0 });
    expect((await api(ws.key, 'GET', '/balance')).body.balance).toBe(9);
  }, 600_000);

  it('video: the file measured at complete stays the file submissions read after a replayed PUT', async () => {
    const ws = await d.t.workspace({ credits: 10 });
    const up = await api(ws.key, 'POST', '/videos/upload', { file_name: 'talk.mp4', file_size: fixtures.longVideo.length, content_type: 'video/mp4' });
    expect(up.status).toBe(200);
    expect((await put(up.body.upload_url, fixtures.paddedVideo, 'video/mp4')).status).toBe(200);
    const done = await api(ws.key, 'POST', '/videos/upload/complete', { video_id: up.body.video_id, file_name: 'talk.mp4' });
    expect(done.status).toBe(200);
    expect(done.body.duration).toBeCloseTo(75, 0);
    expect(done.body.credits_cost).toBe(2);

    expectReplayAnswer(kind, await put(up.body.upload_url, fixtures.longVideo, 'video/mp4'));
    // Completing again answers the same measurement, and the stored file is still the measured one.
    expect(await api(ws.key, 'POST', '/videos/upload/complete', { video_id: up.body.video_id, file_name: 'talk.mp4' })).toEqual(done);
    const video = await d.t.c.videos.get(ws.id, up.body.video_id);
    expect(video.duration).toBeCloseTo(75, 0);
    expect(sha256(await readAll(await d.t.c.storage.read(video.storageKey!)))).toBe(sha256(fixtures.paddedVideo));
  }, 300_000);
});
