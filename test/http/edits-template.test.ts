import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { clipsFixture } from '../helpers/clips.js';
import { DB_KINDS } from '../helpers/db.js';
import { makeVideo } from '../helpers/media-fixtures.js';

/**
 * apply_template on a clip whose edit was changed (POST /edits): the new edit keeps the cuts, the
 * corrected and hidden caption words and their indices; only the look changes.
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
});
