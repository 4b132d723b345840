import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';
import { makeSpeechWav, makeTalkVideo, makeTalkWav, VOICES } from '../helpers/speech-fixtures.js';
import { readyVideo } from '../helpers/videos.js';
import { media, submissions } from '../../src/adapters/db/schema/index.js';

/**
 * Security audit, finding 3, second half: every job works only on the measured duration. Here the
 * stored file is replaced behind the service's back after it was measured and charged (something no
 * upload URL can do any more, see upload-replay.test.ts): the transcription job and the submission
 * pipeline still process no more than the measured seconds, because they cut their input there.
 * No workers run: the jobs are started by hand once the file was swapped.
 */

let t: TestApp;
let dir: string;
const f = {} as { shortMp3: string; shortSeconds: number; longMp3: string; shortTalk: string; longTalk: string };

beforeAll(async () => {
  dir = tempDir('cutroom-measured-');
  const short = await makeSpeechWav(path.join(dir, 'short.wav'), [
    { silence: 0.4 },
    { say: 'hello and welcome back to the show', ...VOICES.male },
    { silence: 0.6 },
    { say: 'thank you very much for watching', ...VOICES.male },
    { silence: 0.6 },
  ]);
  f.shortSeconds = short.duration;
  f.shortMp3 = path.join(dir, 'short.mp3');
  f.longMp3 = path.join(dir, 'long.mp3');
  await runFfmpeg(['-i', short.path, '-c:a', 'libmp3lame', '-b:a', '64k', '-ac', '1', f.shortMp3]);
  await runFfmpeg(['-i', (await makeTalkWav(path.join(dir, 'talk.wav'), { minutes: 2 })).path, '-c:a', 'libmp3lame', '-b:a', '64k', '-ac', '1', f.longMp3]);
  f.longTalk = (await makeTalkVideo(path.join(dir, 'talk.mp4'), { minutes: 2 })).path;
  f.shortTalk = path.join(dir, 'talk-70s.mp4');
  await runFfmpeg(['-i', f.longTalk, '-t', '70', '-c', 'copy', '-movflags', '+faststart', f.shortTalk]);
  t = await createTestApp({ startQueue: true });
}, 600_000);

afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const attempt = { retryCount: 0, retryLimit: 0 };

describe('jobs cut their input at the measured duration', () => {
  it('transcription: a stored file swapped for a 2-minute one after measuring is transcribed only for the measured seconds', async () => {
    const ws = await t.workspace({ credits: 10 });
    const ctx = await t.c.workspaces.get(ws.id);
    const up = await t.c.transcriptions.createUpload(ctx, { file_name: 'short.mp3', file_size: fs.statSync(f.shortMp3).size, content_type: 'audio/mpeg' });
    const [pending] = await t.c.database.db.select().from(media).where(eq(media.id, up.media_id));
    await t.c.storage.putFile(pending.storageKey, f.shortMp3, 'audio/mpeg');
    const started = await t.c.transcriptions.create(ctx, { media_id: up.media_id, source_language: 'en' });
    expect(started).toMatchObject({ started: true, transcription: { status: 'processing', credits_charged: 1 } });

    const [measured] = await t.c.database.db.select().from(media).where(eq(media.id, up.media_id));
    expect(measured.duration).toBeCloseTo(f.shortSeconds, 0);
    await t.c.storage.putFile(measured.storageKey, f.longMp3, 'audio/mpeg');

    await t.c.transcriptionProcessor.run(started.transcription.id, attempt);
    const transcript = await t.c.transcriptions.transcript(ws.id, started.transcription.id);
    expect(transcript.cues.length).toBeGreaterThan(0);
    for (const cue of transcript.cues) expect(cue.end).toBeLessThanOrEqual(measured.duration! + 0.05);
  }, 300_000);

  it('submission: a stored video swapped for a longer one after measuring is transcribed and analysed only for the measured seconds', async () => {
    const ws = await t.workspace({ credits: 10 });
    const videoId = await readyVideo(t, ws.id, f.shortTalk);
    const video = await t.c.videos.get(ws.id, videoId);
    expect(video.duration).toBeCloseTo(70, 0);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/clips',
      headers: { 'x-api-key': ws.key },
      payload: { video_id: videoId, source_language: 'en' },
    });
    expect(res.statusCode).toBe(201);
    const subId = res.json().id as string;
    await t.c.storage.putFile(video.storageKey!, f.longTalk, 'video/mp4');

    await t.c.pipeline.run(subId, attempt);
    const [row] = await t.c.database.db.select().from(submissions).where(eq(submissions.id, subId));
    expect(row.status).toBe('completed');
    const words = (row.transcript as { words: Array<{ start: number; end: number }> }).words;
    expect(words.length).toBeGreaterThan(0);
    for (const w of words) expect(w.end).toBeLessThanOrEqual(video.duration + 0.05);
    const analysis = row.analysis as {
      range: { start: number; end: number };
      duration: number;
      loudness: number[];
      sceneCuts: number[];
      cropPath9x16: Array<{ t: number }>;
    };
    expect(analysis.range.end).toBeLessThanOrEqual(video.duration);
    expect(analysis.duration).toBeLessThanOrEqual(video.duration + 0.5);
    expect(analysis.loudness.length).toBeLessThanOrEqual(Math.ceil(video.duration) + 1);
    for (const c of analysis.sceneCuts) expect(c).toBeLessThanOrEqual(video.duration + 0.05);
    for (const k of analysis.cropPath9x16) expect(k.t).toBeLessThanOrEqual(video.duration + 0.5);
  }, 900_000);
});
