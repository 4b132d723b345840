import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath, ffprobePath } from '../../src/adapters/media/binaries.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { clipsFixture } from '../helpers/clips.js';
import { makeVideo, runFfmpeg } from '../helpers/media-fixtures.js';

/**
 * A derived edit with cuts renders to completion with the real render worker (preview quality, so it
 * is fast): the MP4 lasts the edit's `duration`. The database side of /edits is covered on both
 * databases in edits.routes.test.ts; this file runs on PGlite only.
 */

let t: TestApp;
let dir: string;
let source: string;
/** A white 40x40 square in the middle of a black 320x180 picture (zoom). */
let square: string;
beforeAll(async () => {
  dir = tempDir('cutroom-edits-render-');
  source = await makeVideo(path.join(dir, 'source.mp4'), { seconds: 61, width: 320, height: 180, fps: 15 });
  square = path.join(dir, 'square.mp4');
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=black:size=320x180:rate=5,drawbox=x=140:y=70:w=40:h=40:color=white:t=fill',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=22050',
    '-t',
    '61',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-ac',
    '1',
    '-movflags',
    '+faststart',
    square,
  ]);
  t = await createTestApp({ workers: true });
});
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function durationOf(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(ffprobePath(), ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], (err, out) =>
      err ? reject(err) : resolve(Number(out.trim())),
    );
  });
}

/** How many pixels of the middle row and of the middle column of the frame at `at` seconds are bright, and the first bright ones. */
function brightAcross(file: string, at: number): Promise<{ row: number; column: number; left: number; top: number; width: number; height: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      ffmpegPath(),
      ['-hide_banner', '-nostats', '-v', 'info', '-ss', String(at), '-i', file, '-frames:v', '1', '-vf', 'format=gray,showinfo', '-f', 'rawvideo', '-'],
      { encoding: 'buffer', maxBuffer: 64 << 20 },
      (err, out, stderr) => {
        if (err) return reject(err);
        const size = /s:(\d+)x(\d+)/.exec(stderr.toString());
        if (!size) return reject(new Error('no frame size'));
        const width = Number(size[1]);
        const height = Number(size[2]);
        const across = Array.from({ length: width }, (_, x) => out[(height >> 1) * width + x] > 128);
        const down = Array.from({ length: height }, (_, y) => out[y * width + (width >> 1)] > 128);
        const count = (v: boolean[]) => v.filter(Boolean).length;
        resolve({ row: count(across), column: count(down), left: across.indexOf(true), top: down.indexOf(true), width, height });
      },
    );
  });
}

async function renderToFile(key: string, editId: string, file: string): Promise<void> {
  const started = await t.api(key, 'POST', '/renders', { edit_id: editId, quality: 'preview' });
  expect(started.status).toBe(202);
  const deadline = Date.now() + 60_000;
  let r = started.body;
  while (r.status === 'queued' || r.status === 'active') {
    if (Date.now() > deadline) throw new Error(`render still ${r.status}`);
    await new Promise((res) => setTimeout(res, 100));
    r = (await t.api(key, 'GET', `/renders/${started.body.id}`)).body;
  }
  expect(r.status).toBe('completed');
  const u = new URL(r.download_url);
  const res = await t.app.inject({ method: 'GET', url: u.pathname + u.search });
  fs.writeFileSync(file, res.rawPayload);
}

describe('rendering derived edits', () => {
  it('a derived edit with two stretches and a cut word renders to its duration; the old version still renders', async () => {
    const ws = await t.workspace();
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 10, end: 17 }] });
    const derived = await t.api(ws.key, 'POST', '/edits', {
      base_edit_id: f.editIds[0],
      segments: [
        { start: 10.2, end: 12.5 },
        { start: 14.2, end: 16.4 },
      ],
      remove_words: [4],
      word_text: [{ index: 1, text: 'CUT' }],
    });
    expect(derived.status, JSON.stringify(derived.body)).toBe(201);
    expect(derived.body.segments.length).toBeGreaterThan(1);
    const out = path.join(dir, 'derived.mp4');
    await renderToFile(ws.key, derived.body.id, out);
    expect(Math.abs((await durationOf(out)) - derived.body.duration)).toBeLessThan(0.1);

    const old = path.join(dir, 'old.mp4');
    await renderToFile(ws.key, f.editIds[0], old);
    expect(Math.abs((await durationOf(old)) - 7)).toBeLessThan(0.1);
  });

  it('zoom 2 doubles a square in the middle of the picture (centre crop, 1:1), around the crop’s centre', async () => {
    const ws = await t.workspace();
    const f = await clipsFixture(t, ws.id, square, { ranges: [{ start: 10, end: 13 }] });
    const plain = { base_edit_id: f.editIds[0], aspect_ratio: '1:1', reframe: 'center', captions_enabled: false };
    const flat = await t.api(ws.key, 'POST', '/edits', plain);
    const zoomed = await t.api(ws.key, 'POST', '/edits', { ...plain, zoom: 2 });
    expect(zoomed.status, JSON.stringify(zoomed.body)).toBe(201);
    expect(zoomed.body.zoom).toBe(2);
    const a = path.join(dir, 'flat.mp4');
    const b = path.join(dir, 'zoomed.mp4');
    await renderToFile(ws.key, flat.body.id, a);
    await renderToFile(ws.key, zoomed.body.id, b);
    const before = await brightAcross(a, 1);
    const after = await brightAcross(b, 1);
    // 1:1 preview: 360x360 from the middle 180x180 of the source, so the 40-pixel square is 80 pixels wide; zoomed, 160.
    expect(before).toMatchObject({ width: 360, height: 360 });
    expect(Math.abs(before.row - 80), JSON.stringify(before)).toBeLessThanOrEqual(4);
    expect(Math.abs(after.row - 2 * before.row), JSON.stringify(after)).toBeLessThanOrEqual(6);
    expect(Math.abs(after.column - 2 * before.column), JSON.stringify(after)).toBeLessThanOrEqual(6);
    // Still in the middle: it grew around the centre of the crop.
    for (const m of [before, after]) {
      expect(Math.abs(m.left - (m.width - m.row) / 2), JSON.stringify(m)).toBeLessThanOrEqual(3);
      expect(Math.abs(m.top - (m.height - m.column) / 2), JSON.stringify(m)).toBeLessThanOrEqual(3);
    }
  });
});
