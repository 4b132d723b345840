import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, ProbeError } from '../../src/adapters/media/ffprobe.js';
import { extractAudio } from '../../src/adapters/media/audio-extract.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { makeVideo, runFfmpeg } from '../helpers/media-fixtures.js';
import { makeSpeechWav } from '../helpers/speech-fixtures.js';

/**
 * Security audit finding 2: an upload made of an `#EXTM3U` playlist prepended to a valid MPEG-TS
 * stream. An ffprobe that guesses the format reads it as MPEG-TS (so it passes as media); an ffmpeg
 * that guesses opens it as HLS and reads the local files it lists — here another workspace's upload,
 * whose words then appeared in the attacker's transcript. The service reads a file only with the
 * demuxer its bytes call for and refuses an upload that is not one of the accepted containers.
 */

let t: TestApp;
let fx: string;
let victim: { id: string; key: string };
let attacker: { id: string; key: string };
let victimFile: string;

async function put(uploadUrl: string, bytes: Buffer, contentType: string) {
  const u = new URL(uploadUrl);
  const res = await t.app.inject({ method: 'PUT', url: `${u.pathname}${u.search}`, headers: { 'content-type': contentType }, payload: bytes });
  expect(res.statusCode).toBe(200);
}

/** Every file under `dir` whose path contains `needle`. */
function findFiles(dir: string, needle: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...findFiles(p, needle));
    else if (p.includes(needle)) out.push(p);
  }
  return out;
}

/** A playlist naming `target` (relative to where the upload will be stored), then a real MPEG-TS stream. */
function polyglot(tsBytes: Buffer, target: string): Buffer {
  const playlist = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:66', '#EXT-X-MEDIA-SEQUENCE:0', '#EXTINF:66.0,', target, '#EXT-X-ENDLIST', ''].join(
    '\n',
  );
  return Buffer.concat([Buffer.from(playlist, 'utf8'), tsBytes]);
}

beforeAll(async () => {
  fx = tempDir('cutroom-polyglot-');
  t = await createTestApp({ workers: true });
  victim = await t.workspace({ credits: 50, name: 'Victim' });
  attacker = await t.workspace({ credits: 50, name: 'Attacker' });

  // The victim's private recording, uploaded and transcribed as any user would.
  const speech = await makeSpeechWav(path.join(fx, 'secret.wav'), [{ silence: 0.4 }, { say: 'the purple elephant launches at midnight' }, { silence: 0.5 }]);
  const bytes = fs.readFileSync(speech.path);
  const up = await t.api(victim.key, 'POST', '/transcriptions/upload', { file_name: 'secret.wav', file_size: bytes.length, content_type: 'audio/wav' });
  expect(up.status).toBe(200);
  await put(up.body.upload_url, bytes, 'audio/wav');
  const created = await t.api(victim.key, 'POST', '/transcriptions', {
    media_id: up.body.media_id,
    file_name: 'secret.wav',
    file_size: bytes.length,
    speaker_labels: false,
    source_language: 'en',
  });
  expect([200, 202]).toContain(created.status);
  [victimFile] = findFiles(path.join(t.dataDir, 'files'), up.body.media_id);
  expect(victimFile).toBeTruthy();
}, 300_000);

afterAll(async () => {
  await t?.close();
  if (fx) fs.rmSync(fx, { recursive: true, force: true });
});

describe('an uploaded playlist glued to MPEG-TS (polyglot)', () => {
  let ts: Buffer;

  beforeAll(async () => {
    const tsFile = path.join(fx, 'cover.ts');
    await runFfmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=25',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=44100',
      '-t',
      '66',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
      '-f',
      'mpegts',
      tsFile,
    ]);
    ts = fs.readFileSync(tsFile);
  }, 120_000);

  it('is refused as a transcription upload: 400, nothing charged, the object deleted, the victim unread', async () => {
    const before = (await t.api(attacker.key, 'GET', '/balance')).body.balance;
    // The playlist names the victim's file relative to where the attacker's upload lands
    // (media/<workspace>/<media id>/…: the relative path does not depend on the attacker's ids).
    const payload = polyglot(ts, path.relative(path.join(t.dataDir, 'files', 'media', attacker.id, 'x'), victimFile));
    const up2 = await t.api(attacker.key, 'POST', '/transcriptions/upload', { file_name: 'talk.mp3', file_size: payload.length, content_type: 'audio/mpeg' });
    expect(up2.status).toBe(200);
    await put(up2.body.upload_url, payload, 'audio/mpeg');

    const res = await t.api(attacker.key, 'POST', '/transcriptions', {
      media_id: up2.body.media_id,
      file_name: 'talk.mp3',
      file_size: payload.length,
      speaker_labels: false,
      source_language: 'en',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body.extra)).toMatch(/file/);
    expect((await t.api(attacker.key, 'GET', '/balance')).body.balance).toBe(before);
    expect(findFiles(path.join(t.dataDir, 'files'), up2.body.media_id)).toEqual([]);
    const list = await t.api(attacker.key, 'GET', '/transcriptions');
    expect(JSON.stringify(list.body)).not.toMatch(/elephant|purple|midnight/i);
  }, 120_000);

  it('is refused as a video upload at complete: 400, the object deleted', async () => {
    const payload = polyglot(ts, path.relative(path.join(t.dataDir, 'files', 'videos'), victimFile));
    const up = await t.api(attacker.key, 'POST', '/videos/upload', { file_name: 'talk.mp4', file_size: payload.length, content_type: 'video/mp4' });
    expect(up.status).toBe(200);
    await put(up.body.upload_url, payload, 'video/mp4');
    const res = await t.api(attacker.key, 'POST', '/videos/upload/complete', { video_id: up.body.video_id, file_name: 'talk.mp4' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'file', rule: 'undecodable' }] } });
    expect(findFiles(path.join(t.dataDir, 'files'), up.body.video_id)).toEqual([]);
  }, 120_000);

  it('a real MPEG-TS video upload is refused too: uploads are MP4/MOV or Matroska/WebM by their bytes', async () => {
    const up = await t.api(attacker.key, 'POST', '/videos/upload', { file_name: 'talk.mp4', file_size: ts.length, content_type: 'video/mp4' });
    await put(up.body.upload_url, ts, 'video/mp4');
    const res = await t.api(attacker.key, 'POST', '/videos/upload/complete', { video_id: up.body.video_id, file_name: 'talk.mp4' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'VALIDATION_ERROR', extra: { errors: [{ field: 'file', rule: 'unsupported_container' }] } });
  });

  it('the media tools never open it as a playlist, even handed the file directly', async () => {
    const file = path.join(path.dirname(victimFile), 'evil.mp3');
    fs.writeFileSync(file, polyglot(ts, path.basename(victimFile)));
    try {
      await expect(probe(file)).rejects.toBeInstanceOf(ProbeError);
      const out = path.join(fx, 'stolen.wav');
      await expect(extractAudio(file, out)).rejects.toThrow(/not a media container/);
      expect(fs.existsSync(out)).toBe(false);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('an MP4 whose name says .mkv is read as what its bytes are', async () => {
    const mp4 = await makeVideo(path.join(fx, 'clip.mp4'), { seconds: 2 });
    const file = path.join(fx, 'clip.mkv');
    fs.renameSync(mp4, file);
    const info = await probe(file);
    expect(info.container).toBe('mov');
    expect(info.duration).toBeGreaterThan(1.5);
  });
});
