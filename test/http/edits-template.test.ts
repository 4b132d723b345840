import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { eq } from 'drizzle-orm';
import { edits, submissions } from '../../src/adapters/db/schema/index.js';
import { captionWords, clipsFixture } from '../helpers/clips.js';
import { DB_KINDS } from '../helpers/db.js';
import { makeVideo } from '../helpers/media-fixtures.js';

/**
 * A clip's versions and what they share: apply_template on a clip whose edit was changed (POST /edits)
 * keeps the cuts, the corrected and hidden caption words and their indices (only the look changes);
 * a version that keeps more of the source than the clip takes the transcript's words there.
 */

let dir: string;
let source: string;
beforeAll(async () => {
  dir = tempDir('cutroom-edits-template-');
  source = await makeVideo(path.join(dir, 'source.mp4'), { seconds: 70, width: 160, height: 90, fps: 5 });
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(DB_KINDS)('apply_template after edits on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps the cuts and the words of the newest version', async () => {
    const ws = await t.workspace();
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 10, end: 17 }] });
    // Words of 1 s each from 10 s: we cut long videos into short clips.
    const derived = await t.api(ws.key, 'POST', '/edits', {
      base_edit_id: f.editIds[0],
      word_text: [
        { index: 1, text: 'CUT' },
        { index: 3, text: '' },
      ],
      remove_words: [5],
    });
    expect(derived.status).toBe(201);
    const applied = await t.api(ws.key, 'POST', `/clips/${f.videoId}/submissions/${f.submissionId}/apply_template`, { template_id: 'tpl_clean' });
    expect(applied.status).toBe(200);
    const editId = applied.body.clips[0].edit_id;
    expect(editId).not.toBe(derived.body.id);
    const doc = (await t.api(ws.key, 'GET', `/edits/${editId}`)).body;
    expect(doc.template_id).toBe('tpl_clean');
    expect(doc.segments).toEqual(derived.body.segments);
    expect(doc.duration).toBe(derived.body.duration);
    expect(doc.words.map((w: { index: number; text: string }) => [w.index, w.text])).toEqual(
      derived.body.words.map((w: { index: number; text: string }) => [w.index, w.text]),
    );
    expect(doc.words.find((w: { index: number }) => w.index === 1).text).toBe('CUT');
    expect(doc.words.find((w: { index: number }) => w.index === 3).text).toBe('');
    expect(doc.words.some((w: { index: number }) => w.index === 5)).toBe(false);

    // A later change still names the same words.
    const next = await t.api(ws.key, 'POST', '/edits', { base_edit_id: editId, word_text: [{ index: 6, text: 'clips!' }] });
    expect(next.status).toBe(201);
    expect(next.body.words.map((w: { text: string }) => w.text)).toEqual(['we', 'CUT', 'long', '', 'into', 'clips!']);
  });

  it('takes the transcript’s words where a version keeps more than the clip, numbered after the clip’s', async () => {
    const ws = await t.workspace();
    const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 10, end: 17 }] });
    const words = [...captionWords(5, 10, 'before the clip we said this'), ...captionWords(10, 17), ...captionWords(17, 20, 'and after it')];
    await t.c.database.db
      .update(submissions)
      .set({ transcript: { language: 'en', words } })
      .where(eq(submissions.id, f.submissionId));
    // `trim` keeps a part of the base; `segments` may reach past it.
    const trimmed = await t.api(ws.key, 'POST', '/edits', { base_edit_id: f.editIds[0], segments: [{ start: 7.1, end: 19.9 }] });
    expect(trimmed.status).toBe(201);
    const texts = trimmed.body.words.map((w: { index: number; text: string }) => `${w.index}:${w.text}`);
    // In time order; 'clip' (7), cut in half by 7.1, went to the stretch before.
    expect(texts).toEqual(['8:we', '9:said', '10:this', '0:we', '1:cut', '2:long', '3:videos', '4:into', '5:short', '6:clips', '11:and', '12:after', '13:it']);
    // The first kept word starts the stretch, snapped into the gap before it.
    expect(trimmed.body.segments[0].start).toBeGreaterThan(7);
    expect(trimmed.body.segments[0].start).toBeLessThan(8);
    // The extended list is the lineage's: a later version fixes a word outside the clip by its index.
    const fixed = await t.api(ws.key, 'POST', '/edits', { base_edit_id: trimmed.body.id, word_text: [{ index: 12, text: 'AFTER' }] });
    expect(fixed.status).toBe(201);
    expect(fixed.body.words.find((w: { index: number }) => w.index === 12).text).toBe('AFTER');
    // What the renderer captions: the words past the clip too, in time order.
    const [row] = await t.c.database.db.select({ spec: edits.spec }).from(edits).where(eq(edits.id, fixed.body.id));
    const captions = (row.spec as { captions: { words: Array<{ text: string }> } }).captions.words.map((w) => w.text);
    expect(captions).toEqual(['we', 'said', 'this', 'we', 'cut', 'long', 'videos', 'into', 'short', 'clips', 'and', 'AFTER', 'it']);
  });
});
