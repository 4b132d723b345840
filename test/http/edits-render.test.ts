import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobePath } from '../../src/adapters/media/binaries.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { clipsFixture } from '../helpers/clips.js';
import { makeVideo } from '../helpers/media-fixtures.js';

/**
 * A derived edit with cuts renders to completion with the real render worker (preview quality, so it
 * is fast): the MP4 lasts the edit's `duration`. The database side of /edits is covered on both
 * databases in edits.routes.test.ts; this file runs on PGlite only.
 */

let t: TestApp;
let dir: string;
let source: string;
beforeAll(async () => {
  dir = tempDir('cutroom-edits-render-');
  source = await makeVideo(path.join(dir, 'source.mp4'), { seconds: 61, width: 320, height: 180, fps: 15 });
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
});
