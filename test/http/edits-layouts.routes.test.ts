import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edits, submissions } from '../../src/adapters/db/schema/index.js';
import type { Edit } from '../../src/domain/edits/edit.js';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { clipsFixture } from '../helpers/clips.js';
import { DB_KINDS } from '../helpers/db.js';
import { makeVideo } from '../helpers/media-fixtures.js';

/**
 * POST /edits with the face layouts: `reframe: split` takes the two halves from the face samples the
 * submission's analysis keeps, is shown as asked, and renders as speaker without them (older rows).
 */

let dir: string;
let source: string;
beforeAll(async () => {
  dir = tempDir('cutroom-edit-layouts-');
  source = await makeVideo(path.join(dir, 'source.mp4'), { seconds: 61, width: 320, height: 180, fps: 5 });
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const face = (cx: number) => ({ x: cx - 0.08, y: 0.3, width: 0.16, height: 0.28, score: 0.9 });
/** The stored analysis of a 61 s 320x180 source with two faces side by side, as the pipeline keeps it. */
const analysis = (withFaces: boolean) => ({
  duration: 61,
  width: 320,
  height: 180,
  sceneCuts: [],
  loudness: new Array<number>(61).fill(-20),
  cropPath9x16: [
    { t: 0, x: 100, y: 0, w: 100, h: 180 },
    { t: 61, x: 100, y: 0, w: 100, h: 180 },
  ],
  fps: 1,
  detector: 'test',
  range: { start: 0, end: 61 },
  ...(withFaces ? { faces: Array.from({ length: 61 }, (_, t) => ({ t, boxes: [face(0.25), face(0.75)] })) } : {}),
});

describe.each(DB_KINDS)('edit layouts on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db, startQueue: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  const spec = async (id: string) => {
    const [row] = await t.c.database.db.select({ spec: edits.spec }).from(edits).where(eq(edits.id, id));
    return row.spec as Edit;
  };

  it('201 split: the two faces’ halves from the stored face samples, shown as asked; back to speaker keeps none', async () => {
    const ws = await t.workspace();
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 5, end: 15 }] });
    await t.c.database.db
      .update(submissions)
      .set({ analysis: analysis(true) })
      .where(eq(submissions.id, f.submissionId));
    const res = await t.api(ws.key, 'POST', '/edits', { base_edit_id: f.editIds[0], reframe: 'split' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ reframe: 'split', aspect_ratio: '9:16' });
    const split = await spec(res.body.id);
    expect(split.layout.splitPaths).toHaveLength(2);
    const [top, bottom] = split.layout.splitPaths!;
    expect(top[0].x + top[0].w / 2).toBeLessThan(160);
    expect(bottom[0].x + bottom[0].w / 2).toBeGreaterThan(160);
    expect(top[0].t).toBe(5);
    expect((await t.api(ws.key, 'GET', `/edits/${res.body.id}`)).body.reframe).toBe('split');

    const back = await t.api(ws.key, 'POST', '/edits', { base_edit_id: res.body.id, reframe: 'speaker' });
    expect(back.status).toBe(201);
    expect((await spec(back.body.id)).layout).toEqual({ aspect: '9:16', reframe: 'speaker', cropPath: split.layout.cropPath });
  });

  it('201 split on a submission analysed before face samples were kept: no halves (rendered as speaker)', async () => {
    const ws = await t.workspace();
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 5, end: 15 }] });
    await t.c.database.db
      .update(submissions)
      .set({ analysis: analysis(false) })
      .where(eq(submissions.id, f.submissionId));
    const res = await t.api(ws.key, 'POST', '/edits', { base_edit_id: f.editIds[0], reframe: 'split' });
    expect(res.status).toBe(201);
    expect(res.body.reframe).toBe('split');
    const s = await spec(res.body.id);
    expect(s.layout.splitPaths).toBeUndefined();
    expect(s.layout.cropPath?.[0]).toMatchObject({ t: 5, x: 100 });
  });

  it('201 screen: the face below the screen from the stored face samples; without them the fit look', async () => {
    const ws = await t.workspace();
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 5, end: 15 }] });
    await t.c.database.db
      .update(submissions)
      .set({ analysis: analysis(true) })
      .where(eq(submissions.id, f.submissionId));
    const res = await t.api(ws.key, 'POST', '/edits', { base_edit_id: f.editIds[0], reframe: 'screen' });
    expect(res.status).toBe(201);
    expect(res.body.reframe).toBe('screen');
    const s = await spec(res.body.id);
    expect(Object.keys(s.layout).sort()).toEqual(['aspect', 'reframe', 'screenPath']);
    expect(s.layout.screenPath![0].t).toBe(5);
    await t.c.database.db
      .update(submissions)
      .set({ analysis: analysis(false) })
      .where(eq(submissions.id, f.submissionId));
    const old = await t.api(ws.key, 'POST', '/edits', { base_edit_id: f.editIds[0], reframe: 'screen' });
    expect(old.status).toBe(201);
    expect((await spec(old.body.id)).layout).toEqual({ aspect: '9:16', reframe: 'screen' });
  });

  it('201 auto: a layout per shot, shown as asked with the shots in source seconds; other edits show one shot', async () => {
    const ws = await t.workspace();
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 5, end: 15 }] });
    // Two faces until the scene cut at 10 s, then a still slide without a face.
    const faces = Array.from({ length: 61 }, (_, t) =>
      t < 10 ? { t, boxes: [face(0.25), face(0.75)], flat: 0.2, motion: 0.1 } : { t, boxes: [], flat: 0.8, motion: 0.002 },
    );
    await t.c.database.db
      .update(submissions)
      .set({ analysis: { ...analysis(false), sceneCuts: [10], faces } })
      .where(eq(submissions.id, f.submissionId));
    const before = await t.api(ws.key, 'GET', `/edits/${f.editIds[0]}`);
    // The built-in template asks for `auto`; its clip was made before the face samples were there: one `speaker` shot.
    expect(before.body.reframe).toBe('auto');
    expect(before.body.shots).toEqual([{ start: 5, end: 15, reframe: 'speaker' }]);
    const res = await t.api(ws.key, 'POST', '/edits', { base_edit_id: f.editIds[0], reframe: 'auto' });
    expect(res.status).toBe(201);
    expect(res.body.reframe).toBe('auto');
    expect(res.body.shots).toEqual([
      { start: 5, end: 10, reframe: 'split' },
      { start: 10, end: 15, reframe: 'screen' },
    ]);
    const s = await spec(res.body.id);
    expect(s.layout.shots?.[0].splitPaths).toHaveLength(2);
    expect((await t.api(ws.key, 'GET', `/edits/${res.body.id}`)).body.shots).toEqual(res.body.shots);
  });

  it('201 zoom subtle: punch-ins on the louder words, shown as punch_in; none ends them', async () => {
    const ws = await t.workspace();
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 5, end: 15 }] });
    // One louder second (9 s), where the fourth caption word (9.29 to 10.57 s) is spoken.
    const loudness = Array.from({ length: 61 }, (_, s) => (s === 9 ? -10 : -20));
    await t.c.database.db
      .update(submissions)
      .set({ analysis: { ...analysis(false), loudness } })
      .where(eq(submissions.id, f.submissionId));
    const res = await t.api(ws.key, 'POST', '/edits', { base_edit_id: f.editIds[0], zoom: 'subtle' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ punch_in: 'subtle', zoom: 1 });
    const s = await spec(res.body.id);
    expect(s.layout.punchIn).toBe('subtle');
    expect(s.layout.punchIns).toHaveLength(1);
    expect(s.layout.punchIns![0].start).toBeCloseTo(9.04, 1);
    const none = await t.api(ws.key, 'POST', '/edits', { base_edit_id: res.body.id, zoom: 'none' });
    expect(none.body.punch_in).toBe('none');
    expect((await spec(none.body.id)).layout.punchIns).toBeUndefined();
    expect((await t.api(ws.key, 'POST', '/edits', { base_edit_id: f.editIds[0], zoom: 'wild' })).status).toBe(400);
  });

  it('400 VALIDATION_ERROR for an unknown reframe', async () => {
    const ws = await t.workspace();
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 5, end: 15 }] });
    const res = await t.api(ws.key, 'POST', '/edits', { base_edit_id: f.editIds[0], reframe: 'mosaic' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});
