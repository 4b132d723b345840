import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { edits, renders } from '../../src/adapters/db/schema/index.js';
import { editHash } from '../../src/domain/edits/edit.js';
import { newId } from '../../src/shared/ids.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { readyVideo } from '../helpers/videos.js';
import { ffmpegPath, ffprobePath } from '../../src/adapters/media/binaries.js';
import { prepareFontsDir } from '../../src/adapters/media/fonts.js';
import { renderEdit } from '../../src/adapters/media/renderer.js';
import { makeEdit, type Edit } from '../../src/domain/edits/edit.js';
import { runFfmpeg } from '../helpers/media-fixtures.js';

/**
 * An edit with cuts on a real file. The fixture (61 s: uploads must last a minute) has in its first 20 s a 220 Hz tone with two planted 2 s pauses
 * (4..6 s, 10..12 s) and, at 15 s, a 1 kHz beep and a one-frame white flash at the same instant.
 * The edit keeps three stretches around the pauses: the output must last their sum, have no pause
 * longer than 0.8 s, and show the flash in the frame where the beep sounds. Over HTTP, a preview of
 * the same edit is 360 px on its short side, cached, and a file apart from the final render.
 */

const FPS = 25;
const SEGMENTS = [
  { start: 0.5, end: 4.1 },
  { start: 5.9, end: 10.1 },
  { start: 11.9, end: 19 },
];
const SUM = 3.6 + 4.2 + 7.1;
/** Where the source's 15 s lands in the output. */
const EVENT_AT = 3.6 + 4.2 + (15 - 11.9);

let dir: string;
let fontsDir: string;
let source: string;
let t: TestApp | undefined;

export async function makeCutFixture(file: string): Promise<string> {
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    `color=black:s=320x180:r=${FPS}:d=61`,
    // Per-sample expressions: the pauses and the beep start exactly on time (a filter's `enable`
    // switches per audio frame of 1024 samples).
    '-f',
    'lavfi',
    '-i',
    "aevalsrc='0.3*sin(2*PI*220*t)*(1-between(t,4,6))*(1-between(t,10,12))+0.6*sin(2*PI*1000*t)*gte(t,15)*lt(t,15.1)':s=48000:d=61",
    '-filter_complex',
    `[0:v]drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill:enable='between(t,15,15.039)',format=yuv420p[v];[1:a]anull[a]`,
    '-map',
    '[v]',
    '-map',
    '[a]',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-g',
    String(FPS * 2),
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    file,
  ]);
  return file;
}

export function cutEdit(over: Partial<Edit> = {}): Edit {
  return makeEdit({
    source: { key: 'cuts.mp4', duration: 61, width: 320, height: 180 },
    in: SEGMENTS[0].start,
    out: SEGMENTS[SEGMENTS.length - 1].end,
    segments: SEGMENTS,
    layout: { aspect: '16:9', reframe: 'center' },
    captions: null,
    watermark: false,
    resolution: '720p',
    ...over,
  });
}

function run(bin: string, args: string[], encoding: 'utf8' | 'buffer' = 'utf8'): Promise<{ stdout: string | Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { env: process.env, encoding, maxBuffer: 256 << 20 }, (err, stdout, stderr) =>
      err ? reject(err) : resolve({ stdout, stderr: String(stderr) }),
    );
  });
}

export async function probeDuration(file: string): Promise<number> {
  const { stdout } = await run(ffprobePath(), ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(String(stdout).trim());
}

export async function probeSize(file: string): Promise<{ width: number; height: number }> {
  const { stdout } = await run(ffprobePath(), ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file]);
  const [width, height] = String(stdout).trim().split(',').map(Number);
  return { width, height };
}

/** Lengths of the pauses quieter than -35 dB lasting at least `min` seconds. */
async function pauses(file: string, min: number): Promise<number[]> {
  const { stderr } = await run(ffmpegPath(), ['-hide_banner', '-nostats', '-i', file, '-af', `silencedetect=noise=-35dB:d=${min}`, '-f', 'null', '-']);
  return [...stderr.matchAll(/silence_duration: ([\d.]+)/g)].map((m) => Number(m[1]));
}

/**
 * Seconds at which the beep starts: the first 2.5 ms window whose energy above 700 Hz (the 220 Hz
 * tone filtered away; the short clicks at the fixture's pause edges stay far below) reaches half the
 * loudest window.
 */
async function beepAt(file: string): Promise<number> {
  const { stdout } = await run(
    ffmpegPath(),
    ['-v', 'error', '-i', file, '-vn', '-af', 'highpass=f=700,highpass=f=700', '-ac', '1', '-ar', '48000', '-f', 'f32le', '-'],
    'buffer',
  );
  const buf = stdout as Buffer;
  const s = new Float32Array(buf.buffer, buf.byteOffset, Math.floor(buf.length / 4));
  const win = 120;
  const rms: number[] = [];
  for (let i = 0; i + win <= s.length; i += win) {
    let e = 0;
    for (let j = i; j < i + win; j++) e += s[j] * s[j];
    rms.push(Math.sqrt(e / win));
  }
  const max = Math.max(...rms);
  return (rms.findIndex((r) => r >= max * 0.5) * win) / 48000;
}

/** Start time of the first bright frame. */
async function flashAt(file: string): Promise<number> {
  const { stdout } = await run(ffmpegPath(), ['-v', 'error', '-i', file, '-an', '-vf', 'scale=8:8,format=gray', '-f', 'rawvideo', '-'], 'buffer');
  const buf = stdout as Buffer;
  for (let f = 0; f * 64 < buf.length; f++) {
    let sum = 0;
    for (let i = 0; i < 64; i++) sum += buf[f * 64 + i];
    if (sum / 64 > 128) return f / FPS;
  }
  return -1;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cutroom-cuts-'));
  fontsDir = path.join(dir, 'fonts');
  prepareFontsDir(fontsDir);
  source = await makeCutFixture(path.join(dir, 'cuts.mp4'));
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('rendering an edit with cuts', () => {
  it('the fixture has its pauses, and the cut render lasts the sum of the stretches, pauses gone, beep and flash in the same frame', async () => {
    expect((await pauses(source, 0.8)).length).toBe(2);
    const out = path.join(dir, 'cut.mp4');
    const res = await renderEdit(cutEdit(), { inputPath: source, outputPath: out, fontsDir });
    // Cut on the source's frames: within half a frame of the sum.
    expect(Math.abs(res.durationSeconds - SUM)).toBeLessThanOrEqual(0.5 / FPS + 1e-6);
    expect(Math.abs((await probeDuration(out)) - SUM)).toBeLessThanOrEqual(0.1);
    expect(await pauses(out, 0.8)).toEqual([]);
    const flash = await flashAt(out);
    const beep = await beepAt(out);
    expect(Math.abs(flash - EVENT_AT)).toBeLessThanOrEqual(1 / FPS + 0.001);
    expect(Math.abs(beep - flash)).toBeLessThanOrEqual(1 / FPS);
    // Cut at the source's frames, the beep starts with the flash's frame (the detector's window is 2.5 ms).
    expect(Math.abs(beep - flash)).toBeLessThanOrEqual(0.006);
  }, 120_000);
});

describe('a preview of an edit with cuts over HTTP', () => {
  async function poll(key: string, id: string) {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const r = await t!.api(key, 'GET', `/renders/${id}`);
      if (r.body.status !== 'queued' && r.body.status !== 'active') return r.body;
      if (Date.now() > deadline) throw new Error(`render ${id} still ${r.body.status}`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }
  async function download(url: string, file: string) {
    const u = new URL(url);
    fs.writeFileSync(file, (await t!.app.inject({ method: 'GET', url: u.pathname + u.search })).rawPayload);
    return file;
  }

  it('is 360 px on its short side, cut like the final render, cached per quality, and a file apart from the final one', async () => {
    t = await createTestApp({ workers: true });
    const ws = await t.workspace();
    const videoId = await readyVideo(t, ws.id, source);
    const video = await t.c.videos.get(ws.id, videoId);
    const edit = cutEdit({ source: { key: video.storageKey!, duration: video.duration, width: video.width, height: video.height } });
    const editId = newId('edit');
    await t.c.database.db.insert(edits).values({ id: editId, workspaceId: ws.id, clipId: null, hash: editHash(edit), spec: edit, templateId: null });

    const bad = await t.api(ws.key, 'POST', '/renders', { edit_id: editId, quality: 'best' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(bad.body.extra)).toContain('quality');
    const first = await t.api(ws.key, 'POST', '/renders', { edit_id: editId, quality: 'preview' });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ edit_id: editId, quality: 'preview', output_resolution: '360p', from_cache: false });
    const preview = await poll(ws.key, first.body.id);
    expect(preview.status).toBe('completed');
    const previewFile = await download(preview.download_url, path.join(dir, 'preview.mp4'));
    expect(await probeSize(previewFile)).toEqual({ width: 640, height: 360 });
    expect(Math.abs((await probeDuration(previewFile)) - SUM)).toBeLessThanOrEqual(0.1);
    expect(await pauses(previewFile, 0.8)).toEqual([]);

    const again = await t.api(ws.key, 'POST', '/renders', { edit_id: editId, quality: 'preview' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ from_cache: true, quality: 'preview', status: 'completed' });

    const final = await t.api(ws.key, 'POST', '/renders', { edit_id: editId });
    expect(final.status).toBe(202);
    expect(final.body).toMatchObject({ quality: 'final', output_resolution: '720p', from_cache: false });
    expect((await poll(ws.key, final.body.id)).status).toBe('completed');
    const [p] = await t.c.database.db.select().from(renders).where(eq(renders.id, preview.id));
    const [f] = await t.c.database.db.select().from(renders).where(eq(renders.id, final.body.id));
    expect(f.storageKey).not.toBe(p.storageKey);
    expect(f.editHash).toBe(editHash(edit));
    expect(p.editHash).not.toBe(f.editHash);
    const finalFile = await download((await t.api(ws.key, 'GET', `/renders/${final.body.id}`)).body.download_url, path.join(dir, 'final.mp4'));
    expect(await probeSize(finalFile)).toEqual({ width: 1280, height: 720 });
  }, 240_000);
});
