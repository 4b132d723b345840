import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath, ffprobePath } from '../../src/adapters/media/binaries.js';
import { sourceToOutput } from '../../src/domain/edits/edit-timeline.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { clipsFixture } from '../helpers/clips.js';
import { BEEP_HZ, makePausedTalkVideo, type PausedTalk } from '../helpers/pause-fixtures.js';

/**
 * remove_silences end to end, in one process with its workers: read speech with planted 2 s pauses
 * and a beep heard while the picture flashes white (after the last pause), a clip edit over it, an
 * edit derived with `remove_silences` (the real Silero detector), rendered at final quality by the
 * real render worker. The MP4 lasts the edit's duration, ffmpeg's silencedetect finds no pause over
 * 0.8 s in it (it finds the planted ones in the source), and the beep starts in the flash's frame.
 */

const exec = promisify(execFile);
const SILENCE = 'silencedetect=noise=-35dB:d=0.8';

let t: TestApp;
let dir: string;
let talk: PausedTalk;
beforeAll(async () => {
  dir = tempDir('cutroom-edits-silences-');
  talk = await makePausedTalkVideo(path.join(dir, 'talk.mp4'), { beep: true, fps: 25 });
  t = await createTestApp({ workers: true });
});
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function durationOf(file: string): Promise<number> {
  const { stdout } = await exec(ffprobePath(), ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(stdout.trim());
}

/** The pauses silencedetect finds in [start, end) of the file's sound (seconds long). */
async function pauses(file: string, range?: { start: number; end: number }): Promise<number[]> {
  const cut = range ? ['-ss', String(range.start), '-t', String(range.end - range.start)] : [];
  const { stderr } = await exec(ffmpegPath(), ['-hide_banner', '-nostats', ...cut, '-i', file, '-vn', '-af', SILENCE, '-f', 'null', '-'], {
    maxBuffer: 16 << 20,
  });
  return [...stderr.matchAll(/silence_duration: ([\d.]+)/g)].map((m) => Number(m[1]));
}

/** Time of the first frame whose mean brightness is near white (the flash). */
async function flashTime(file: string): Promise<{ time: number; frameSeconds: number }> {
  const { stdout } = await exec(
    ffmpegPath(),
    ['-hide_banner', '-nostats', '-i', file, '-an', '-vf', 'signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=-', '-f', 'null', '-'],
    { maxBuffer: 64 << 20 },
  );
  const frames: Array<{ t: number; y: number }> = [];
  let at: number | null = null;
  for (const line of stdout.split('\n')) {
    const pts = /pts_time:([\d.]+)/.exec(line);
    if (pts) at = Number(pts[1]);
    const y = /YAVG=([\d.]+)/.exec(line);
    if (y && at !== null) frames.push({ t: at, y: Number(y[1]) });
  }
  const flash = frames.find((f) => f.y > 150);
  if (!flash) throw new Error(`no white frame in ${file} (brightest ${Math.max(...frames.map((f) => f.y))})`);
  return { time: flash.t, frameSeconds: frames[1].t - frames[0].t };
}

/** Onset of the beep: the first millisecond where the sound, narrowed to the beep's pitch, reaches half its loudest. */
async function beepOnset(file: string): Promise<number> {
  const band = `bandpass=f=${BEEP_HZ}:width_type=q:w=10`;
  const { stdout } = await exec(
    ffmpegPath(),
    ['-hide_banner', '-nostats', '-v', 'error', '-i', file, '-vn', '-af', `${band},${band},${band}`, '-ac', '1', '-ar', '48000', '-f', 'f32le', '-'],
    { encoding: 'buffer', maxBuffer: 256 << 20 },
  );
  const pcm = new Float32Array(stdout.buffer, stdout.byteOffset, stdout.byteLength / 4);
  const win = 48; // 1 ms
  const peaks: number[] = [];
  for (let i = 0; i + win <= pcm.length; i += win) {
    let p = 0;
    for (let j = i; j < i + win; j++) p = Math.max(p, Math.abs(pcm[j]));
    peaks.push(p);
  }
  const loudest = Math.max(...peaks);
  return peaks.findIndex((p) => p >= loudest / 2) / 1000;
}

async function renderToFile(key: string, editId: string, file: string): Promise<void> {
  const started = await t.api(key, 'POST', '/renders', { edit_id: editId });
  expect(started.status).toBe(202);
  const deadline = Date.now() + 240_000;
  let r = started.body;
  while (r.status === 'queued' || r.status === 'active') {
    if (Date.now() > deadline) throw new Error(`render still ${r.status}`);
    await new Promise((res) => setTimeout(res, 200));
    r = (await t.api(key, 'GET', `/renders/${started.body.id}`)).body;
  }
  expect(r.status, JSON.stringify(r)).toBe('completed');
  const u = new URL(r.download_url);
  const res = await t.app.inject({ method: 'GET', url: u.pathname + u.search });
  fs.writeFileSync(file, res.rawPayload);
}

describe('remove_silences, rendered', () => {
  it('the derived edit renders to its duration with no pause over 0.8 s, and the beep lands in the flash’s frame', async () => {
    const end = Math.round((talk.sentences[talk.sentences.length - 1].end + 0.8) * 10) / 10;
    // The planted pauses are there: silencedetect finds both 2 s pauses in the source's stretch.
    const planted = await pauses(talk.path, { start: 0, end });
    expect(planted.filter((d) => d > 1.5).length, JSON.stringify(planted)).toBeGreaterThanOrEqual(2);

    const ws = await t.workspace();
    const f = await clipsFixture(t, ws.id, talk.path, { ranges: [{ start: 0, end }], words: talk.words });
    const derived = await t.api(ws.key, 'POST', '/edits', { base_edit_id: f.editIds[0], remove_silences: true });
    expect(derived.status, JSON.stringify(derived.body)).toBe(201);
    const segments: Array<{ start: number; end: number }> = derived.body.segments;
    expect(segments.length).toBeGreaterThanOrEqual(3);
    expect(derived.body.duration).toBeLessThan(end - 3);

    const out = path.join(dir, 'no-pauses.mp4');
    await renderToFile(ws.key, derived.body.id, out);
    expect(Math.abs((await durationOf(out)) - derived.body.duration)).toBeLessThan(0.1);
    const left = await pauses(out);
    expect(
      left.filter((d) => d > 0.8),
      JSON.stringify(left),
    ).toEqual([]);

    // Audio and picture in sync after the cuts: the beep starts in the flash's frame (±1), where the edit puts it.
    const flash = await flashTime(out);
    const beep = await beepOnset(out);
    const expected = sourceToOutput(segments, talk.beepAt!)!;
    expect(expected).not.toBeNull();
    expect(Math.abs(beep - flash.time), `beep ${beep} flash ${flash.time}`).toBeLessThanOrEqual(flash.frameSeconds + 0.002);
    expect(Math.abs(flash.time - expected)).toBeLessThanOrEqual(flash.frameSeconds + 0.002);
  }, 300_000);
});
