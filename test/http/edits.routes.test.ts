import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, tempDir, type TestApp } from '../helpers/app.js';
import { captionWords, clipsFixture } from '../helpers/clips.js';
import { DB_KINDS } from '../helpers/db.js';
import { makeVideo } from '../helpers/media-fixtures.js';
import { makePausedTalkVideo, type PausedTalk } from '../helpers/pause-fixtures.js';

/**
 * /edits: an edit as a document, its versions, derived edits, and the clip's review state. Clips and
 * their edits are made directly in the database (test/helpers/clips.ts) from a small 190 s source (longer than the longest clip, 180 s).
 */

let dir: string;
let source: string;
/** Three read sentences with 2 s of silence between them (remove_silences; the real voice detector). */
let talk: PausedTalk;
/** A picture without a sound track. */
let mute: string;
beforeAll(async () => {
  dir = tempDir('cutroom-edits-');
  source = await makeVideo(path.join(dir, 'source.mp4'), { seconds: 190, width: 160, height: 90, fps: 5 });
  talk = await makePausedTalkVideo(path.join(dir, 'talk.mp4'), { width: 160, height: 90, fps: 10 });
  mute = await makeVideo(path.join(dir, 'mute.mp4'), { seconds: 61, width: 160, height: 90, fps: 5, audio: false });
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const EDIT_KEYS = [
  'aspect_ratio',
  'captions_enabled',
  'clip_id',
  'created_at',
  'duration',
  'id',
  'parent_edit_id',
  'punch_in',
  'reframe',
  'segments',
  'shots',
  'template_id',
  'title',
  'video_id',
  'words',
  'zoom',
];

describe.each(DB_KINDS)('edits on %s', (db) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ db, startQueue: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('GET /edits/{id}', () => {
    it('answers a clip’s edit as a document: one segment, its words indexed in order', async () => {
      const ws = await t.workspace();
      const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 10, end: 17 }] });
      const res = await t.api(ws.key, 'GET', `/edits/${f.editIds[0]}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(EDIT_KEYS);
      const words = captionWords(10, 17);
      expect(res.body).toMatchObject({
        id: f.editIds[0],
        parent_edit_id: null,
        video_id: f.videoId,
        clip_id: f.clipIds[0],
        duration: 7,
        aspect_ratio: '9:16',
        reframe: expect.any(String),
        segments: [{ start: 10, end: 17 }],
        captions_enabled: true,
        title: null,
      });
      expect(typeof res.body.template_id).toBe('string');
      expect(new Date(res.body.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
      expect(res.body.words).toEqual(words.map((w, index) => ({ index, text: w.text, start: w.start, end: w.end, speaker: null })));
    });

    it('404 EDITS_NOT_FOUND with extra.invalid_edits for another workspace’s edit or an unknown id', async () => {
      const ws = await t.workspace();
      const other = await t.workspace();
      const f = await clipsFixture(t, other.id, source, { ranges: [{ start: 0, end: 5 }] });
      for (const id of [f.editIds[0], 'edit_nope']) {
        const res = await t.api(ws.key, 'GET', `/edits/${id}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: 'EDITS_NOT_FOUND', extra: { invalid_edits: [id] } });
      }
    });
  });

  const derive = (key: string, body: object) => t.api(key, 'POST', '/edits', body);

  describe('POST /edits', () => {
    it('201: a new edit whose parent is the base; the clip points at it; the base is untouched; it renders', async () => {
      const ws = await t.workspace();
      const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 10, end: 17 }] });
      const baseBefore = (await t.api(ws.key, 'GET', `/edits/${f.editIds[0]}`)).body;
      // Words (captionWords): 7 words of 1 s each from 10, each 0.9 s long. "cut" is index 1.
      const res = await derive(ws.key, {
        base_edit_id: f.editIds[0],
        trim: { start: 11.3, end: 16.3 },
        remove_words: [3],
        word_text: [
          { index: 2, text: 'LONG' },
          { index: 5, text: '' },
        ],
        title: { text: 'Short clips' },
      });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual(EDIT_KEYS);
      expect(res.body).toMatchObject({
        parent_edit_id: f.editIds[0],
        clip_id: f.clipIds[0],
        video_id: f.videoId,
        title: { text: 'Short clips' },
        captions_enabled: true,
      });
      // 11.3 is inside "cut" (11.0–11.9), nearer its start: kept whole from the gap before it; 16.3 inside "clips" (16–16.9): cut before it.
      // "videos" (13–13.9) is cut out.
      expect(res.body.segments).toEqual([
        { start: 10.95, end: 13 },
        { start: 13.9, end: 15.95 },
      ]);
      expect(res.body.words.map((w: any) => [w.index, w.text])).toEqual([
        [1, 'cut'],
        [2, 'LONG'],
        [4, 'into'],
        [5, ''],
      ]);
      expect(res.body.duration).toBeCloseTo(2.05 + 2.05, 3);

      expect((await t.api(ws.key, 'GET', `/edits/${f.editIds[0]}`)).body).toEqual(baseBefore);
      const clipsList = await t.api(ws.key, 'GET', `/clips/${f.videoId}/submissions/${f.submissionId}/clips`);
      expect(clipsList.body.clips[0].edit_id).toBe(res.body.id);
      expect((await t.api(ws.key, 'GET', `/edits/${res.body.id}`)).body).toEqual(res.body);

      const render = await t.api(ws.key, 'POST', '/renders', { edit_id: res.body.id });
      expect(render.status).toBe(202);
      expect(render.body.edit_id).toBe(res.body.id);
      const old = await t.api(ws.key, 'POST', '/renders', { edit_id: f.editIds[0] });
      expect(old.status).toBe(202);
    });

    it('remove_silences: the planted 2 s pauses are cut down to a short gap, every word kept; min_seconds over them cuts nothing', async () => {
      const ws = await t.workspace();
      const end = Math.round((talk.sentences[2].end + 0.6) * 10) / 10;
      const f = await clipsFixture(t, ws.id, talk.path, { ranges: [{ start: 0, end }], words: talk.words });
      const base = (await t.api(ws.key, 'GET', `/edits/${f.editIds[0]}`)).body;
      expect(base.segments).toEqual([{ start: 0, end }]);
      const res = await derive(ws.key, { base_edit_id: f.editIds[0], remove_silences: true });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body).toMatchObject({ parent_edit_id: f.editIds[0], clip_id: f.clipIds[0], zoom: 1 });
      // One stretch per sentence; each cut leaves out most of its 2 s pause.
      expect(res.body.segments).toHaveLength(3);
      for (let i = 1; i < 3; i++) {
        const cut = res.body.segments[i].start - res.body.segments[i - 1].end;
        expect(cut, JSON.stringify(res.body.segments)).toBeGreaterThan(1.4);
        expect(res.body.segments[i - 1].end).toBeGreaterThan(talk.sentences[i - 1].end - 0.5);
        expect(res.body.segments[i].start).toBeLessThan(talk.sentences[i].start + 0.1);
      }
      expect(res.body.duration).toBeLessThan(base.duration - 3);
      expect(res.body.words.map((w: any) => w.index)).toEqual(base.words.map((w: any) => w.index));
      const clipsList = await t.api(ws.key, 'GET', `/clips/${f.videoId}/submissions/${f.submissionId}/clips`);
      expect(clipsList.body.clips[0].edit_id).toBe(res.body.id);

      const none = await derive(ws.key, { base_edit_id: f.editIds[0], remove_silences: { min_seconds: 2.5 } });
      expect(none.status).toBe(201);
      expect(none.body.segments).toEqual([{ start: 0, end }]);
    });

    it('remove_silences on a source without speech (a tone) or without sound cuts nothing; over 180 s before the cut is a 400', async () => {
      const ws = await t.workspace();
      for (const file of [source, mute]) {
        const f = await clipsFixture(t, ws.id, file, { ranges: [{ start: 10, end: 17 }] });
        const res = await derive(ws.key, { base_edit_id: f.editIds[0], remove_silences: { min_seconds: 0.5 } });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body.segments).toEqual([{ start: 10, end: 17 }]);
      }
      const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 10, end: 17 }] });
      const long = await derive(ws.key, { base_edit_id: f.editIds[0], segments: [{ start: 0, end: 185 }], snap: false, remove_silences: true });
      expect(long.status).toBe(400);
      expect(long.body.extra.errors.map((e: any) => e.field)).toEqual(['segments']);
      // A source deleted since (submission retention): nothing to listen to, a 400 naming remove_silences; other changes still derive.
      await t.c.storage.delete(f.sourceKey);
      const gone = await derive(ws.key, { base_edit_id: f.editIds[0], remove_silences: true });
      expect(gone.status).toBe(400);
      expect(gone.body.extra.errors.map((e: any) => e.field)).toEqual(['remove_silences']);
      expect((await derive(ws.key, { base_edit_id: f.editIds[0], zoom: 2 })).status).toBe(201);
    });

    it('zoom: set, shown by GET, carried into the next version, 1 takes it off', async () => {
      const ws = await t.workspace();
      const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 10, end: 17 }] });
      expect((await t.api(ws.key, 'GET', `/edits/${f.editIds[0]}`)).body.zoom).toBe(1);
      const z = await derive(ws.key, { base_edit_id: f.editIds[0], zoom: 1.5 });
      expect(z.status).toBe(201);
      expect(z.body.zoom).toBe(1.5);
      expect((await t.api(ws.key, 'GET', `/edits/${z.body.id}`)).body.zoom).toBe(1.5);
      const next = await derive(ws.key, { base_edit_id: z.body.id, title: { text: 'Closer' } });
      expect(next.body.zoom).toBe(1.5);
      const off = await derive(ws.key, { base_edit_id: next.body.id, zoom: 1 });
      expect(off.body.zoom).toBe(1);
      const render = await t.api(ws.key, 'POST', '/renders', { edit_id: z.body.id });
      expect(render.status).toBe(202);
    });

    it('remove_fillers, segments without snapping, layout and captions changes; chains keep word indices', async () => {
      const ws = await t.workspace();
      const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 20, end: 24 }] });
      const fixed = await derive(ws.key, { base_edit_id: f.editIds[0], word_text: [{ index: 1, text: 'um' }] });
      expect(fixed.status).toBe(201);
      const cut = await derive(ws.key, { base_edit_id: fixed.body.id, remove_fillers: true, aspect_ratio: '1:1', reframe: 'center', captions_enabled: false });
      expect(cut.status).toBe(201);
      expect(cut.body).toMatchObject({ parent_edit_id: fixed.body.id, aspect_ratio: '1:1', reframe: 'center', captions_enabled: false });
      expect(cut.body.words.map((w: any) => w.index)).toEqual([0, 2, 3, 4, 5, 6]);
      const segs = await derive(ws.key, {
        base_edit_id: cut.body.id,
        segments: [
          { start: 20.2, end: 21.3 },
          { start: 22.05, end: 23.5 },
        ],
        snap: false,
      });
      expect(segs.status).toBe(201);
      expect(segs.body.segments).toEqual([
        { start: 20.2, end: 21.3 },
        { start: 22.05, end: 23.5 },
      ]);
      expect(segs.body.duration).toBeCloseTo(2.55, 3);
    });

    it('a base whose template was deleted since still derives (its styles come from the default template where the base lacks them)', async () => {
      const ws = await t.workspace();
      const tpl = await t.c.templates.create(ws.id, { kind: 'template', name: 'Gone soon', config: { layout: { resolution: '720p', reframe: 'center' } } });
      const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 0, end: 6 }], templateId: tpl.id });
      await t.c.templates.delete(ws.id, tpl.id);
      const res = await derive(ws.key, { base_edit_id: f.editIds[0], title: { text: 'Still here' } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ template_id: tpl.id, title: { text: 'Still here' }, reframe: 'center' });
    });

    it('Idempotency-Key: the same request again answers the same edit', async () => {
      const ws = await t.workspace();
      const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 0, end: 6 }] });
      const headers = { 'Idempotency-Key': 'derive-once-1' };
      const a = await t.api(ws.key, 'POST', '/edits', { base_edit_id: f.editIds[0], trim: { start: 1, end: 4 } }, headers);
      const b = await t.api(ws.key, 'POST', '/edits', { base_edit_id: f.editIds[0], trim: { start: 1, end: 4 } }, headers);
      expect(a.status).toBe(201);
      expect(b.body.id).toBe(a.body.id);
    });

    it('400 VALIDATION_ERROR naming the field, never a 500', async () => {
      const ws = await t.workspace();
      const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 10, end: 17 }] });
      const base = f.editIds[0];
      const cases: Array<[object, string]> = [
        [{ segments: [{ start: 50, end: 200 }] }, 'segments[0].end'],
        [
          {
            segments: [
              { start: 12, end: 14 },
              { start: 13, end: 15 },
            ],
          },
          'segments[1].start',
        ],
        [
          {
            segments: [
              { start: 14, end: 15 },
              { start: 11, end: 12 },
            ],
          },
          'segments[1].start',
        ],
        [{ trim: { start: 5, end: 4 } }, 'trim.end'],
        [{ remove_words: [99] }, 'remove_words[0]'],
        [{ word_text: [{ index: 42, text: 'x' }] }, 'word_text[0].index'],
        [{ trim: { start: 40, end: 50 } }, 'trim'],
        [{ segments: [{ start: 0, end: 185 }], snap: false }, 'segments'],
      ];
      for (const [change, field] of cases) {
        const res = await derive(ws.key, { base_edit_id: base, ...change });
        expect(res.status, JSON.stringify(change)).toBe(400);
        expect(res.body.code).toBe('VALIDATION_ERROR');
        expect(
          res.body.extra.errors.map((e: any) => e.field),
          JSON.stringify(change),
        ).toContain(field);
      }
      // remove_silences and zoom: refused by the schema, and by the domain for a value the schema lets through.
      const ranged: Array<[object, string]> = [
        [{ remove_silences: { min_seconds: 0.1 } }, 'remove_silences.min_seconds'],
        [{ remove_silences: { min_seconds: 11 } }, 'remove_silences.min_seconds'],
        [{ remove_silences: { min_seconds: 'long' } }, 'remove_silences.min_seconds'],
        [{ remove_silences: 'yes' }, 'remove_silences'],
        [{ remove_silences: { seconds: 1 } }, 'remove_silences.seconds'],
        [{ zoom: 0.5 }, 'zoom'],
        [{ zoom: 3.5 }, 'zoom'],
        [{ zoom: 'close' }, 'zoom'],
      ];
      for (const [change, field] of ranged) {
        const res = await derive(ws.key, { base_edit_id: base, ...change });
        expect(res.status, JSON.stringify(change)).toBe(400);
        expect(res.body.code).toBe('VALIDATION_ERROR');
        expect(
          res.body.extra.errors.map((e: any) => e.field),
          JSON.stringify(change),
        ).toContain(field);
      }
      const bad = await derive(ws.key, { base_edit_id: base, segments: [] });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_ERROR');
      const missing = await derive(ws.key, { trim: { start: 1, end: 2 } });
      expect(missing.status).toBe(400);
    });

    it('404 EDITS_NOT_FOUND for another workspace’s base, TEMPLATE_NOT_FOUND for an unknown template', async () => {
      const ws = await t.workspace();
      const other = await t.workspace();
      const g = await clipsFixture(t, other.id, source, { ranges: [{ start: 0, end: 5 }] });
      for (const change of [{ trim: { start: 1, end: 3 } }, { remove_silences: true }, { zoom: 2 }]) {
        const res = await derive(ws.key, { base_edit_id: g.editIds[0], ...change });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: 'EDITS_NOT_FOUND', extra: { invalid_edits: [g.editIds[0]] } });
      }
      expect((await t.api(other.key, 'GET', `/edits/${g.editIds[0]}/versions`)).body.edits).toHaveLength(1);
      const tpl = await derive(other.key, { base_edit_id: g.editIds[0], template_id: 'tpl_nope' });
      expect(tpl.status).toBe(404);
      expect(tpl.body.code).toBe('TEMPLATE_NOT_FOUND');
    });
  });

  describe('GET /edits/{id}/versions', () => {
    it('every edit of the clip newest first, the service’s last; paginated; from any version', async () => {
      const ws = await t.workspace();
      const f = await clipsFixture(t, ws.id, source, {
        ranges: [
          { start: 10, end: 17 },
          { start: 30, end: 35 },
        ],
      });
      const v2 = (await derive(ws.key, { base_edit_id: f.editIds[0], trim: { start: 11, end: 16 } })).body;
      const v3 = (await derive(ws.key, { base_edit_id: v2.id, remove_words: [2] })).body;
      // Going back: deriving from the first version with no change is a new edit, and the clip's.
      const v4 = (await derive(ws.key, { base_edit_id: f.editIds[0] })).body;
      expect(v4.parent_edit_id).toBe(f.editIds[0]);
      expect(v4.segments).toEqual([{ start: 10, end: 17 }]);
      const list = await t.api(ws.key, 'GET', `/edits/${v2.id}/versions`);
      expect(list.status).toBe(200);
      expect(list.body.edits.map((e: any) => e.id)).toEqual([v4.id, v3.id, v2.id, f.editIds[0]]);
      expect(list.body.pagination).toEqual({ current_page: 1, total_pages: 1, total_count: 4, has_next_page: false });
      const page2 = await t.api(ws.key, 'GET', `/edits/${f.editIds[0]}/versions?limit=3&page=2`);
      expect(page2.body.edits.map((e: any) => e.id)).toEqual([f.editIds[0]]);
      expect(page2.body.pagination).toMatchObject({ total_count: 4, total_pages: 2 });
      const clips = await t.api(ws.key, 'GET', `/clips/${f.videoId}/submissions/${f.submissionId}/clips?sort=start_time&order=asc`);
      expect(clips.body.clips.map((c: any) => c.edit_id)).toEqual([v4.id, f.editIds[1]]);
      // The other clip's versions are its own.
      expect((await t.api(ws.key, 'GET', `/edits/${f.editIds[1]}/versions`)).body.edits.map((e: any) => e.id)).toEqual([f.editIds[1]]);
    });

    it('404 EDITS_NOT_FOUND for another workspace’s edit', async () => {
      const ws = await t.workspace();
      const other = await t.workspace();
      const g = await clipsFixture(t, other.id, source, { ranges: [{ start: 0, end: 5 }] });
      const res = await t.api(ws.key, 'GET', `/edits/${g.editIds[0]}/versions`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'EDITS_NOT_FOUND', extra: { invalid_edits: [g.editIds[0]] } });
    });
  });

  describe('clip review', () => {
    const clipPath = (f: { videoId: string; submissionId: string }, clipId: string) => `/clips/${f.videoId}/submissions/${f.submissionId}/clips/${clipId}`;

    it('PATCH sets review (kept, skipped, null) and answers the Clip; the list shows it and filters by it', async () => {
      const ws = await t.workspace();
      const f = await clipsFixture(t, ws.id, source, {
        ranges: [
          { start: 0, end: 5 },
          { start: 10, end: 15 },
          { start: 20, end: 25 },
        ],
      });
      const list = (q = '') => t.api(ws.key, 'GET', `/clips/${f.videoId}/submissions/${f.submissionId}/clips?sort=start_time&order=asc${q}`);
      expect((await list()).body.clips.map((c: any) => c.review)).toEqual([null, null, null]);

      const kept = await t.api(ws.key, 'PATCH', clipPath(f, f.clipIds[0]), { review: 'kept' });
      expect(kept.status).toBe(200);
      expect(kept.body).toMatchObject({ id: f.clipIds[0], review: 'kept', edit_id: f.editIds[0] });
      expect((await t.api(ws.key, 'PATCH', clipPath(f, f.clipIds[1]), { review: 'skipped' })).body.review).toBe('skipped');

      expect((await list()).body.clips.map((c: any) => c.review)).toEqual(['kept', 'skipped', null]);
      const only = async (q: string) => (await list(q)).body;
      expect((await only('&review=kept')).clips.map((c: any) => c.id)).toEqual([f.clipIds[0]]);
      expect((await only('&review=skipped')).clips.map((c: any) => c.id)).toEqual([f.clipIds[1]]);
      const none = await only('&review=none');
      expect(none.clips.map((c: any) => c.id)).toEqual([f.clipIds[2]]);
      expect(none.pagination.total_count).toBe(1);

      const cleared = await t.api(ws.key, 'PATCH', clipPath(f, f.clipIds[0]), { review: null });
      expect(cleared.body.review).toBeNull();
      expect((await only('&review=none')).clips).toHaveLength(2);
    });

    it('400 for a value not kept/skipped/null; 404 CLIP_NOT_FOUND / SUBMISSION_NOT_FOUND, also for another workspace’s ids', async () => {
      const ws = await t.workspace();
      const other = await t.workspace();
      const f = await clipsFixture(t, ws.id, source, { ranges: [{ start: 0, end: 5 }] });
      const g = await clipsFixture(t, other.id, source, { ranges: [{ start: 0, end: 5 }] });
      const bad = await t.api(ws.key, 'PATCH', clipPath(f, f.clipIds[0]), { review: 'maybe' });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe('VALIDATION_ERROR');
      expect((await t.api(ws.key, 'PATCH', clipPath(f, 'clip_nope'), { review: 'kept' })).body.code).toBe('CLIP_NOT_FOUND');
      expect((await t.api(ws.key, 'PATCH', clipPath(f, g.clipIds[0]), { review: 'kept' })).status).toBe(404);
      const foreign = await t.api(ws.key, 'PATCH', clipPath(g, g.clipIds[0]), { review: 'kept' });
      expect(foreign.status).toBe(404);
      expect(foreign.body.code).toBe('SUBMISSION_NOT_FOUND');
      // Nothing changed for the other workspace.
      const theirs = await t.api(other.key, 'GET', `/clips/${g.videoId}/submissions/${g.submissionId}/clips`);
      expect(theirs.body.clips[0].review).toBeNull();
    });
  });
});
